"""Source files in each supported language, and edits of every kind, for the staleness tests."""

from __future__ import annotations

PYTHON = '''import os


def helper(a, b=1):
    """Add things."""
    return a + b


class Greeter(Base):
    """Greets."""

    def greet(self, name: str) -> str:
        """Say hello."""
        return "hello " + name
'''

TYPESCRIPT = """import { Base } from "./base";

/** Adds things. */
export function helper(a: number, b: number = 1): number {
  return a + b;
}

export class Greeter extends Base {
  /** Say hello. */
  greet(name: string): string {
    return "hello " + name;
  }
}
"""

JAVASCRIPT = """import { Base } from "./base";

/** Adds things. */
export function helper(a, b = 1) {
  return a + b;
}

export class Greeter extends Base {
  /** Say hello. */
  greet(name) {
    return "hello " + name;
  }
}
"""

GO = """package m

// Greeter greets.
type Greeter struct {
	Name string
}

// Greet says hello.
func (g *Greeter) Greet(name string) string {
	return "hello " + name
}
"""

RUST = """/// Greets.
pub struct Greeter {
    name: String,
}

impl Greeter {
    /// Say hello.
    pub fn greet(&self, name: &str) -> String {
        format!("hello {}", name)
    }
}
"""

JAVA = """package m;

public class Greeter extends Base {
    /** Say hello. */
    public String greet(String name) {
        return "hello " + name;
    }
}
"""

# language -> (path, source, symbol, {edit: [(old, new), ...]}, new name after a rename)
CASES: dict[str, tuple[str, str, str, dict[str, list[tuple[str, str]]], str]] = {
    "python": (
        "src/m.py",
        PYTHON,
        "Greeter.greet",
        {
            "format": [
                ("def greet(self, name: str) -> str:", "def greet(self,name:str)->str :"),
                ('return "hello " + name', "return ('hello '\n            + name)"),
            ],
            "comment": [('return "hello "', '# greet by name\n        return "hello "')],
            "docs": [('"""Say hello."""', '"""Say hello politely."""')],
            "body": [('"hello "', '"hi "')],
            "signature": [("name: str)", "name: str, loud: bool = False)")],
            "rename": [("def greet(", "def welcome(")],
            "remove": [
                (
                    '    def greet(self, name: str) -> str:\n        """Say hello."""\n'
                    '        return "hello " + name\n',
                    "    pass\n",
                )
            ],
        },
        "Greeter.welcome",
    ),
    "typescript": (
        "src/m.ts",
        TYPESCRIPT,
        "Greeter.greet",
        {
            "format": [
                ("greet(name: string): string {\n    return", "greet(name:string):string{ return"),
                ("+ name;\n  }", "+ name }"),
            ],
            "comment": [('return "hello "', '// greet by name\n    return "hello "')],
            "docs": [("/** Say hello. */", "/**\n   * Say hello politely.\n   */")],
            "body": [('"hello "', '"hi "')],
            "signature": [("name: string)", "name: string, loud: boolean)")],
            "rename": [("greet(", "welcome(")],
            "remove": [
                (
                    "  /** Say hello. */\n  greet(name: string): string {\n"
                    '    return "hello " + name;\n  }\n',
                    "",
                )
            ],
        },
        "Greeter.welcome",
    ),
    "javascript": (
        "src/m.js",
        JAVASCRIPT,
        "Greeter.greet",
        {
            "format": [
                ("greet(name) {\n    return", "greet( name ){ return"),
                ("+ name;", "+ name"),
            ],
            "comment": [('return "hello "', '/* by name */ return "hello "')],
            "docs": [("/** Say hello. */", "/** Say hello politely. */")],
            "body": [('"hello "', '"hi "')],
            "signature": [("greet(name)", "greet(name, loud)")],
            "rename": [("greet(", "welcome(")],
            "remove": [
                ('  /** Say hello. */\n  greet(name) {\n    return "hello " + name;\n  }\n', "")
            ],
        },
        "Greeter.welcome",
    ),
    "go": (
        "m.go",
        GO,
        "Greeter.Greet",
        {
            "format": [("string {\n\treturn", "string { return"), ("+ name\n}", "+ name }")],
            "comment": [('\treturn "hello "', '\t// greet by name\n\treturn "hello "')],
            "docs": [("// Greet says hello.", "// Greet says hello politely.")],
            "body": [('"hello "', '"hi "')],
            "signature": [("Greet(name string)", "Greet(name string, loud bool)")],
            "rename": [("Greet(", "Welcome(")],
            "remove": [
                (
                    "// Greet says hello.\nfunc (g *Greeter) Greet(name string) string {\n"
                    '\treturn "hello " + name\n}\n',
                    "",
                )
            ],
        },
        "Greeter.Welcome",
    ),
    "rust": (
        "src/lib.rs",
        RUST,
        "Greeter.greet",
        {
            "format": [
                ("String {\n        format!", "String { format!"),
                ("name)\n    }", "name) }"),
            ],
            "comment": [("        format!", "        // greet by name\n        format!")],
            "docs": [("/// Say hello.", "/// Say hello politely.")],
            "body": [('"hello {}"', '"hi {}"')],
            "signature": [("pub fn greet", "#[inline]\n    pub fn greet")],
            "rename": [("fn greet(", "fn welcome(")],
            "remove": [
                (
                    "    /// Say hello.\n    pub fn greet(&self, name: &str) -> String {\n"
                    '        format!("hello {}", name)\n    }\n',
                    "",
                )
            ],
        },
        "Greeter.welcome",
    ),
    "java": (
        "src/Greeter.java",
        JAVA,
        "Greeter.greet",
        {
            "format": [("greet(String name) {\n        return", "greet( String name ){return")],
            "comment": [('return "hello "', '// greet by name\n        return "hello "')],
            "docs": [("/** Say hello. */", "/**\n     * Say hello politely.\n     */")],
            "body": [('"hello "', '"hi "')],
            "signature": [("public String greet", "protected String greet")],
            "rename": [("greet(", "welcome(")],
            "remove": [
                (
                    "    /** Say hello. */\n    public String greet(String name) {\n"
                    '        return "hello " + name;\n    }\n',
                    "",
                )
            ],
        },
        "Greeter.welcome",
    ),
}


def edit(source: str, replacements: list[tuple[str, str]]) -> str:
    for old, new in replacements:
        assert old in source, f"{old!r} not in source"
        source = source.replace(old, new, 1)
    return source
