"""Links: `path` names a file, `path::Qualified.name` a symbol in it. Parsing, no I/O."""

from __future__ import annotations

from dataclasses import dataclass

# File suffix -> language name. Python uses the stdlib ast, the rest tree-sitter.
LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}
SUPPORTED = "Python, TypeScript, JavaScript, Go, Rust and Java"


@dataclass(frozen=True)
class Link:
    path: str
    symbol: str | None = None

    @classmethod
    def parse(cls, text: str) -> Link:
        path, sep, symbol = text.partition("::")
        return cls(path, symbol if sep else None)

    def __str__(self) -> str:
        return f"{self.path}::{self.symbol}" if self.symbol else self.path

    def at(self, path: str) -> Link:
        return Link(path, self.symbol)


def language_of(path: str) -> str | None:
    """The language of the file at `path` by its suffix, as PurePosixPath(path).suffix
    reads it (the last part's, not of a name starting with its only dot), with plain
    string work: this runs once for every link verify and check read."""
    name = path
    if "/" in path:
        parts = [p for p in path.split("/") if p and p != "."]
        name = parts[-1] if parts else ""
    elif name == ".":
        name = ""
    i = name.rfind(".")
    return LANGUAGES.get(name[i:].lower()) if 0 < i < len(name) - 1 else None
