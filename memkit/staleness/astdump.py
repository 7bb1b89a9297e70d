"""`ast.dump(node)` with the default arguments, the same text about 1.5 times faster.

Fingerprints digest the text of ast.dump, so this must stay byte-identical to it
(tests/staleness/test_astdump.py compares the two over real files). ast.dump walks
every node generically; here each node class gets a small function written for its
fields the first time it is met. Python 3.13 changed what ast.dump leaves out (empty
lists, `show_empty`): there the standard one is used.

`dump(node, memo)` remembers the text of every statement it formats in `memo` (keyed by
the statement's id): a class's fingerprint and then its methods' share that work. The
caller keeps every statement it dumps alive as long as `memo` (ids are reused).
"""

from __future__ import annotations

import ast
import sys
import threading
from collections.abc import Callable
from typing import Any

_MISSING = object()
_FORMAT: dict[type, Callable[[Any], str]] = {}


class _Current(threading.local):
    memo: dict[int, str] | None = None  # the memo of this thread's dump under way


_NOW = _Current()


def _format(node: Any) -> str:
    kind = type(node)
    found = _FORMAT.get(kind)
    if found is None:
        if kind is list:
            found = _FORMAT[list] = _list
        elif isinstance(node, ast.AST):
            found = _FORMAT[kind] = _compile(kind)
        else:
            return repr(node)
    return found(node)


def _list(items: list[Any]) -> str:
    return "[" + ", ".join([_format(x) for x in items]) + "]"


def _compile(cls: type) -> Callable[[Any], str]:
    """A formatter for one node class: `Name(field=value, ...)` as ast.dump writes it.

    A field that is missing is left out; so is None where the class default is None
    (ast marks optional fields that way).
    """
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    if not fields:
        text = f"{cls.__name__}()"
        return lambda node: text
    lines = ["def fmt(node):", "    out = []"]
    for name in fields:
        skip_none = getattr(cls, name, ...) is None
        lines += [
            f"    v = getattr(node, {name!r}, M)",
            f"    if v is not M{' and v is not None' if skip_none else ''}:",
            "        t = type(v)",  # the commonest values without a call through _format
            "        if t is str: s = repr(v)",
            "        elif t is list: s = '[' + ', '.join([F(x) for x in v]) + ']' if v else '[]'",
            "        else:",
            "            f = T.get(t)",
            "            s = f(v) if f is not None else F(v)",
            f"        out.append({name + '='!r} + s)",
        ]
    lines.append(f"    return {cls.__name__ + '('!r} + ', '.join(out) + ')'")
    scope: dict[str, Any] = {"M": _MISSING, "F": _format, "T": _FORMAT}
    exec("\n".join(lines), scope)
    fmt: Callable[[Any], str] = scope["fmt"]
    return _remembered(fmt) if issubclass(cls, ast.stmt) else fmt


def _remembered(fmt: Callable[[Any], str]) -> Callable[[Any], str]:
    """`fmt` for a statement class, looked up in and added to the memo of the dump."""

    def remembered(node: Any) -> str:
        memo = _NOW.memo
        if memo is None:
            return fmt(node)
        text = memo.get(id(node))
        if text is None:
            text = memo[id(node)] = fmt(node)
        return text

    return remembered


def dump(node: ast.AST, memo: dict[int, str] | None = None) -> str:
    """The text of `ast.dump(node)`; statements' texts are kept in and taken from `memo`."""
    if not isinstance(node, ast.AST):
        raise TypeError(f"expected AST, got {type(node).__name__!r}")
    if memo is None:
        return _format(node)
    outer = _NOW.memo
    _NOW.memo = memo
    try:
        return _format(node)
    finally:
        _NOW.memo = outer


if sys.version_info >= (3, 13):  # pragma: no cover - ast.dump's defaults changed

    def dump(node: ast.AST, memo: dict[int, str] | None = None) -> str:
        return ast.dump(node)
