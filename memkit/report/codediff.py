"""The code change behind a stale link: a unified diff from the verified commit to now.

For a Python symbol the diff covers the symbol alone (found with the standard
library's ast in both versions); for other languages, files, and symbols that
moved or vanished, it covers the file. Diffs are cut at MAX_LINES.
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass
from typing import Any

from memkit.staleness.links import Link
from memkit.staleness.verdict import MemoryStatus

MAX_LINES = 120  # diff lines shown per link
MAX_BYTES = 2 * 1024 * 1024  # larger files are not diffed
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class CodeChange:
    link: str
    state: str
    since: str | None
    diff: str  # unified diff without file headers ("" when nothing could be read)
    cut: bool = False  # the diff was longer than MAX_LINES


def code_changes(repo: Any, prefix: str, status: MemoryStatus) -> tuple[CodeChange, ...]:
    """One CodeChange per stale link of `status`; `prefix`: git.prefix of the store's root."""
    out = []
    for ls in status.stale_links():
        link = Link.parse(ls.link)
        now = Link.parse(ls.moved_to) if ls.moved_to else link
        if ls.since is None:  # fingerprinted outside any commit: nothing to compare with
            out.append(CodeChange(ls.link, ls.state, None, ""))
            continue
        old = _read(repo, ls.since, prefix + link.path)
        new = _read(repo, None, prefix + now.path)
        lines = _diff(old, new, link.symbol, now.symbol)
        cut = len(lines) > MAX_LINES
        out.append(CodeChange(ls.link, ls.state, ls.since, "".join(lines[:MAX_LINES]), cut))
    return tuple(out)


def _read(repo: Any, rev: str | None, path: str) -> str | None:
    from memkit import git
    from memkit.errors import MemkitError

    if rev is None:  # the work tree, through the safe-path layer
        from memkit.fsutil import read_inside

        try:
            data: bytes | None = read_inside(git.workdir(repo), path, limit=MAX_BYTES)
        except (OSError, MemkitError):
            return None
    else:
        try:
            data = git.read_at(repo, rev, path)
        except (KeyError, ValueError, MemkitError):
            return None
    if data is None or len(data) > MAX_BYTES:
        return None
    return data.decode("utf-8", "replace")


def _diff(old: str | None, new: str | None, sym: str | None, new_sym: str | None) -> list[str]:
    if old is None and new is None:
        return []
    a, b = old or "", new or ""
    if sym and new_sym:
        a_part, b_part = _symbol(a, sym), _symbol(b, new_sym)
        if a_part is not None and b_part is not None:
            a, b = a_part, b_part
    return [
        line if line.endswith("\n") else line + "\n"
        for line in difflib.unified_diff(a.splitlines(True), b.splitlines(True), n=3)
    ][2:]  # no ---/+++ headers


def _symbol(source: str, name: str) -> str | None:
    """The source lines of Python symbol `name` (`Class.method`), or None."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    body: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for part in name.split("."):
        node = next((n for n in body if isinstance(n, _DEFS) and n.name == part), None)
        if node is None:
            return None
        body = node.body
    if node is None or node.end_lineno is None:
        return None
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "".join(source.splitlines(True)[start - 1 : node.end_lineno])
