"""Environment variable links: `env:NAME`, read by the code or declared in `.env.example`.

Python reads are found by parsing (`os.environ["X"]`, `os.environ.get("X")`,
`os.getenv("X")`, `environ.get`, `getenv`); other languages by their reading idioms
(`process.env.X`, `import.meta.env.X`, `os.Getenv("X")`, `env::var("X")`,
`System.getenv("X")`, `ENV["X"]`, `ENV.fetch("X")`). The fingerprint lists where it
was found (`env .env.example src/config.py`, up to MAX_FILES); the link is `removed`
when no declaration file and no source file reads it any more, and unchanged while
any does (a move to another file included).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memkit.staleness.snapshot import Snapshot

DECLARATIONS = (".env.example", ".env.sample", ".env.template", ".env.dist", "env.example")
MAX_FILES = 5
MAX_SCAN_BYTES = 2 * 1024 * 1024  # a source file larger than this is not scanned
_OTHER = re.compile(
    rb"(?:process\.env|import\.meta\.env)(?:\.([A-Za-z_]\w*)|\[\s*['\"]([^'\"]+)['\"]\s*\])"
    rb"|(?:Getenv|LookupEnv|Setenv|getenv|env::var|env::var_os|ENV\.fetch|ENV\[)\(?\s*['\"]([^'\"]+)['\"]"
)
_DECLARED = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=", re.M)


def _python_reads(data: bytes) -> set[str]:
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    out = set()
    for node in ast.walk(tree):
        arg: ast.expr | None = None
        if isinstance(node, ast.Call) and node.args:
            f = node.func
            name = (
                f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            )
            owner = f.value if isinstance(f, ast.Attribute) else None
            if name == "getenv" or (name in ("get", "pop", "setdefault") and _is_environ(owner)):
                arg = node.args[0]
        elif isinstance(node, ast.Subscript) and _is_environ(node.value):
            arg = node.slice
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.add(arg.value)
    return out


def _is_environ(node: ast.expr | None) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ"
    )


def _may_name(snap: Snapshot, path: str) -> bytes:
    """A file's bytes when it may declare or read a variable, else b"" (read once per
    snapshot; what no variable can be found in is not kept)."""
    data = snap.read(path) or b""
    if path.rsplit("/", 1)[-1] in DECLARATIONS:
        return data
    if len(data) > MAX_SCAN_BYTES:
        return b""
    if path.endswith((".py", ".pyi")):
        return data if b"environ" in data or b"getenv" in data else b""
    return data if b"env" in data or b"ENV" in data else b""


def _named(path: str, data: bytes) -> set[str]:
    """The variables a file declares (a .env-style file: `NAME=value`, `export NAME=`)
    or reads (a source file; `data`: what _may_name kept)."""
    if path.rsplit("/", 1)[-1] in DECLARATIONS:
        return set(_DECLARED.findall(data.decode("utf-8", "replace")))
    if path.endswith((".py", ".pyi")):
        return _python_reads(data)
    return {(m[1] or m[2] or m[3]).decode("utf-8", "replace") for m in _OTHER.finditer(data)}


def source_paths(snap: Snapshot) -> list[str]:
    """Every file of the snapshot a language is known for (tracked files, else a walk)."""
    from memkit.staleness.anchors.tree import project_files
    from memkit.staleness.links import language_of

    return snap.derived(
        ("sources",),
        lambda: [p for p in project_files(snap.root, snap.repo) if language_of(p) is not None],
    )


@dataclass(frozen=True)
class EnvVar:
    text: str
    name: str
    any_source = True

    @classmethod
    def parse(cls, text: str) -> EnvVar:
        return cls(text, text[len("env:") :].strip())

    def files(self, recorded: str | None) -> tuple[str, ...]:
        found = tuple(recorded.split()[1:]) if recorded else ()
        return tuple(dict.fromkeys((*DECLARATIONS, *found)))

    def current(self, snap: Snapshot, recorded: str | None) -> str | None:
        if not self.name:
            return None
        first = self.files(recorded)
        where = [p for p in first if self._in(snap, p)]
        if not where or recorded is None:
            for path in source_paths(snap):
                if len(where) >= MAX_FILES:
                    break
                if path not in first and self._in(snap, path):
                    where.append(path)
        return None if not where else "env " + " ".join(sorted(where[:MAX_FILES]))

    def _in(self, snap: Snapshot, path: str) -> bool:
        data = snap.derived(("env-text", path), lambda: _may_name(snap, path))
        if self.name.encode() not in data:  # most files: no parse for most names
            return False
        return self.name in snap.derived(("env", path), lambda: _named(path, data))

    def compare(self, recorded: str, now: str | None) -> str:
        return "removed" if now is None else "unchanged"

    def missing(self, snap: Snapshot) -> str:
        if not self.name:
            return "name a variable: `env:NAME`"
        return (
            f"no {' or '.join(DECLARATIONS[:2])} declares {self.name} and no source file reads it"
            " (os.environ, os.getenv, process.env, ...)"
        )
