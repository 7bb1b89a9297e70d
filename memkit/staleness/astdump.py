"""`ast.dump(node)` with the default arguments, the same text 2.5-3 times faster.

Fingerprints digest the text of ast.dump, so this must stay byte-identical to it
(tests/staleness/test_astdump.py compares the two over real files). ast.dump walks
every node generically; here each node class gets a small function written for its
fields the first time it is met, reading them as attributes (a parsed tree has them
all) and formatting strings, lists and scalars inline. Python 3.13 changed what
ast.dump leaves out (empty lists, `show_empty`): there the standard one is used.

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
_FORMAT: dict[type, Callable[[Any], str]] = {
    t: repr for t in (str, int, float, complex, bool, bytes, type(None), type(...))
}


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


def _value(var: str, out: str) -> list[str]:
    """Lines setting `out` to the text of the value in `var` (the commonest kinds inline)."""
    return [
        f"    t = type({var})",
        f"    if t is list: {out} = "
        f"f\"[{{', '.join([(T.get(type(x)) or F)(x) for x in {var}])}}]\" if {var} else '[]'",
        f"    else: {out} = (T.get(t) or F)({var})",
    ]


def _compile(cls: type) -> Callable[[Any], str]:
    """A formatter for one node class: `Name(field=value, ...)` as ast.dump writes it.

    A field that is missing is left out; so is None where the class default is None
    (ast marks optional fields that way). Parsed trees have every field: the fields are
    read directly, and a node missing one (built by hand) takes the slower general way.
    """
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    if not fields:
        text = f"{cls.__name__}()"
        return lambda node: text
    lines = ["def fmt(node):", "    try:"]
    lines += [f"        v{i} = node.{name}" for i, name in enumerate(fields)]
    lines += ["    except AttributeError:", "        return slow(node)"]
    optional = [getattr(cls, name, ...) is None for name in fields]
    for i in range(len(fields)):
        if optional[i]:
            lines.append(f"    if v{i} is None: s{i} = None")
            lines.append("    else:")
            lines += ["    " + x for x in _value(f"v{i}", f"s{i}")]
        else:
            lines += _value(f"v{i}", f"s{i}")
    # One f-string builds the text (one allocation, not one per `+`). An optional
    # field's piece is "" when it is None; when the first field is optional, whether
    # a ", " goes before the second depends on it: pieces are then joined instead.
    if not optional[0]:
        pieces = [f"{cls.__name__}({fields[0]}={{s0}}"]
        for i, name in enumerate(fields[1:], 1):
            if optional[i]:
                lines.append(f"    p{i} = '' if s{i} is None else {', ' + name + '='!r} + s{i}")
                pieces.append(f"{{p{i}}}")
            else:
                pieces.append(f", {name}={{s{i}}}")
        lines.append(f"    return f{''.join(pieces) + ')'!r}")
    else:
        lines.append("    out = []")
        for i, name in enumerate(fields):
            add = f"out.append({name + '='!r} + s{i})"
            lines.append(f"    if s{i} is not None: {add}" if optional[i] else f"    {add}")
        lines.append(f"    return {cls.__name__ + '('!r} + ', '.join(out) + ')'")
    scope: dict[str, Any] = {"F": _format, "T": _FORMAT, "slow": _general(cls)}
    exec("\n".join(lines), scope)
    fmt: Callable[[Any], str] = scope["fmt"]
    return _remembered(fmt) if issubclass(cls, ast.stmt) else fmt


def _general(cls: type) -> Callable[[Any], str]:
    """The formatter for a node of `cls` that lacks some field: each read with a default."""
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    skip = {name for name in fields if getattr(cls, name, ...) is None}

    def fmt(node: Any) -> str:
        out = []
        for name in fields:
            v = getattr(node, name, _MISSING)
            if v is not _MISSING and not (v is None and name in skip):
                out.append(f"{name}={_format(v)}")
        return f"{cls.__name__}(" + ", ".join(out) + ")"

    return fmt


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
