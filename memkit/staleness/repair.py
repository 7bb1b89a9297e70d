"""A TypeScript file tree-sitter misreads, read again with what it lacks put in.

tree-sitter-typescript (0.23.2) misreads two shapes TypeScript's own parser reads, and
its error recovery then loses every declaration after them in the file:

- a generic call or construct signature on the line after another member of an
  interface or object type, with no `;` between them (`(a: T): void` then
  `<S>(a: S): void`): read as the previous member's type going on. A `;` is put at the
  end of the code line before each line starting with `<` (comments between them
  aside). JavaScript and TypeScript semicolons are formatting: no fingerprint holds them.
- an overload signature of an anonymous default export, `export default function<S>(a:
  S): S` (a .d.ts's usual shape): the grammar has a signature only with a name; and an
  anonymous `export default abstract class {...}`. A name is put after `function` or
  `class`; the caller leaves out the declarations so named and what they hold (as for
  any anonymous declaration: no link can name them) and the names' tokens (the file's
  print is the source's).

A TypeScript file that parses with errors is parsed again so repaired; that reading is
kept only when it has no errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_ENDS = (b";", b",", b"{", b"(", b"[", b"|", b"&", b"=", b"<")  # a member ended or going on
# `export default function` with no name, then its type parameters or parameters; an
# anonymous `export default abstract class`, then its type parameters, heritage or body
_ANONYMOUS = re.compile(
    rb"\bexport\s+default\s+(?:function(?=\s*[<(])"
    rb"|abstract\s+class(?=\s*[<{]|\s+(?:extends|implements)\b))"
)
PLACEHOLDER = b"_"  # the name put in: any identifier; found again by its offset


@dataclass(frozen=True)
class Repaired:
    """The source with what it lacked put in; `names`: the offsets in it of the names
    given to anonymous default functions (each len(PLACEHOLDER) bytes)."""

    source: bytes
    names: frozenset[int]


def _comment(line: bytes) -> bool:
    text = line.strip()
    return not text or text.startswith((b"//", b"/*", b"*")) or text.endswith(b"*/")


def repaired(source: bytes) -> Repaired | None:
    """The source repaired as the module docstring says (None: nothing to put in)."""
    fixed = _semicolons(source)
    text = source if fixed is None else fixed
    names: list[int] = []
    parts: list[bytes] = []
    last = 0
    for m in _ANONYMOUS.finditer(text):
        parts += [text[last : m.end()], b" "]
        names.append(sum(map(len, parts)))
        parts.append(PLACEHOLDER)
        last = m.end()
    if not names and fixed is None:
        return None
    return Repaired(b"".join([*parts, text[last:]]), frozenset(names))


def _semicolons(source: bytes) -> bytes | None:
    """The source with a `;` at the end of the code line before each line that starts
    with `<`, past blank lines and comments (None: there is no such place)."""
    lines = source.split(b"\n")
    changed = False
    for i, line in enumerate(lines):
        if not line.lstrip().startswith(b"<"):
            continue
        j = i - 1
        while j >= 0 and _comment(lines[j]):
            j -= 1
        code = lines[j].rstrip() if j >= 0 else b""
        if code and not code.endswith(_ENDS) and b"//" not in code:
            lines[j] = code + b";" + lines[j][len(code) :]
            changed = True
    return b"\n".join(lines) if changed else None


def reread(source: bytes, root: Any, parse: Callable[[bytes], Any]) -> tuple[Any, tuple[Any, ...]]:
    """`root` read again from the repaired `source` when that reading has no errors,
    with the identifiers the repair put in; else `root` and ()."""
    fixed = repaired(source)
    again = parse(fixed.source).root_node if fixed is not None else None
    if fixed is None or again is None or again.has_error:
        return root, ()
    out = []
    for at in sorted(fixed.names):
        node = again.descendant_for_byte_range(at, at + len(PLACEHOLDER))
        if node is not None and node.type in _NAMES and node.start_byte == at:
            out.append(node)
    return again, tuple(out)


_NAMES = frozenset({"identifier", "type_identifier"})  # a function's, a class's
