"""What one reference names: the rules by which `memkit audit` picks what to check.

`classify(ref)` turns a code span, link target or code-block line into checks
(kind, text); memkit.audit.resolvers answers them. Rules lean to silence: a
reference is only checked when its form is unambiguous (a path with a known
extension or an existing first folder, `make x`, an ALL_CAPS_NAME, `name()`, `a.b`),
so that what is flagged is worth reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memkit.audit.sources import Ref
from memkit.staleness.anchors import CONFIG_SUFFIXES
from memkit.staleness.anchors.commands import NPM

_EXTENSIONS_WORDS = (
    "py pyi ts tsx js jsx mjs cjs json jsonc toml yaml yml md mdc mdx txt cfg ini sh bash go "
    "rs java kt kts rb php c h cc cpp hpp cs swift sql html css scss vue svelte dart ex exs "
    "lua zig tf proto graphql ipynb csv lock env xml gradle rst conf"
)
EXTENSIONS = frozenset(_EXTENSIONS_WORDS.split())
RUNNERS = ("make", "just", "task", "pytest", "python", "python3", "uv", "poetry", "pdm", *NPM)
SCRIPT_RUNNERS = ("bash", "sh", "zsh", "source", "node", "python", "python3", "ts-node", "tsx")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_SYMBOL = re.compile(rf"^{_IDENT}(?:(?:\.|::|#){_IDENT})*(\(\))?$")
_ENV = re.compile(r"^\$?\{?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\}?$")
_JS_FROM = re.compile(r"""\bfrom\s+['"]([^'"]+)['"]""")


def classify(ref: Ref) -> Iterator[tuple[str, str]]:
    """The checks a reference calls for: (kind, text) with kind path, command, symbol, ..."""
    text = ref.text
    if ref.where == "shell":
        yield from _shell(text)
    elif ref.where == "python":
        yield from (("module", m) for m in _py_modules(text))
    elif ref.where == "js":
        yield from (("package", p) for p in _JS_FROM.findall(text))
    elif ref.where == "link":
        if "://" not in text and not text.startswith(("#", "mailto:", "@")) and ":" not in text:
            yield "path", text.split("#")[0]
    elif text.split(" ", 1)[0] in RUNNERS and " " in text:
        yield from _shell(text)
    elif " " in text or "://" in text or text.startswith("www."):
        return
    elif "::" in text and text.partition("::")[0].lower().endswith(CONFIG_SUFFIXES):
        yield "config", text
    elif (m := _ENV.match(text)) is not None:
        yield "env", m.group(1)
    elif _looks_like_path(text):
        yield "path", text.split("#")[0]
    elif _SYMBOL.match(text) and _symbolish(text) and not PLACEHOLDER.search(text):
        yield "symbol", text


# Names written to show a pattern, not to name a file or function.
PLACEHOLDER = re.compile(
    r"(?i)foo|\bbar\b|baz|example|sample|kebab|camel|snake|pascal|placeholder|your|\bmy[-_]|"
    r"xxx|here\b|_name\b|some[-_]|\bnew[-_]"
)


def _looks_like_path(text: str) -> bool:
    if (
        any(c in text for c in "<>{}$%|\"'`,;=()[]")
        or "..." in text
        or text.startswith(("~", "-", "@"))
    ):
        return False
    if PLACEHOLDER.search(text) or (
        text.startswith(".") and text.count(".") > 1 and "/" not in text
    ):
        return False  # `kebab-case.ts`, `.test.ts`: a pattern of names
    last = text.rstrip("/").rsplit("/", 1)[-1]
    ext = last.rsplit(".", 1)[-1].lower() if "." in last[1:] else ""
    return ext in EXTENSIONS or ("/" in text and not text.startswith("@"))


def _symbolish(text: str) -> bool:
    """Code-looking names: `f()`, `a.b`, `A::b`; not plain words."""
    bare = text.removesuffix("()")
    # A lone snake_case or CamelCase word is as often a tool's, a placeholder's or another
    # program's name as this project's: only calls and qualified names are checked.
    return text.endswith("()") or "." in bare or "::" in bare or "#" in bare


def _shell(line: str) -> Iterator[tuple[str, str]]:
    words = line.split()
    while (words and words[0] in ("sudo", "time", "env")) or (words and "=" in words[0]):
        words = words[1:]
    if not words:
        return
    first = words[0]
    if first in ("make", "just", "task", *NPM) or (
        first in ("uv", "poetry") and words[1:2] == ["run"]
    ):
        yield "command", " ".join(words)
    elif first == "pytest" or words[:3] == ["python", "-m", "pytest"]:
        yield from _pytest(words)
    elif first in SCRIPT_RUNNERS and len(words) > 1:
        if words[1] == "-m" and len(words) > 2:
            yield "module", words[2]
        elif not words[1].startswith("-") and _looks_like_path(words[1]):
            yield "path", words[1]
    elif first.startswith("./") and _looks_like_path(first):
        yield "path", first


def _pytest(words: list[str]) -> Iterator[tuple[str, str]]:
    for i, w in enumerate(words):
        if w == "-m" and i + 1 < len(words) and words[i - 1] != "python":
            for name in re.findall(_IDENT, words[i + 1].strip("'\"")):
                if name not in ("and", "or", "not"):
                    yield "marker", name
        elif "/" in w and words[i - 1] not in ("-m", "-k", "-c") and _looks_like_path(w):
            yield "path", w.split("::")[0]


def _py_modules(line: str) -> list[str]:
    if line.startswith("from "):
        name = line.split()[1]
        return [] if name.startswith(".") else [name]
    names = line[len("import ") :].split(",")
    return [n.split(" as ")[0].strip() for n in names if n.strip()]
