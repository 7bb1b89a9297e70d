"""A TypeScript file tree-sitter misreads, read again with the `;` it lacks.

tree-sitter-typescript (0.23.2) reads a generic call or construct signature on the line
after another member of an interface or object type, with no `;` between them
(`(a: T): void` then `<S>(a: S): void`), as the previous member's type going on, and its
error recovery then loses every declaration after it in the file. TypeScript's own
parser ends the member there. JavaScript and TypeScript semicolons are formatting (no
fingerprint holds them), so a TypeScript file that parses with errors is parsed again
with a `;` at the end of each line that a line starting with `<` follows; that reading
is kept only when it has no errors.
"""

from __future__ import annotations

import re

# the end of a line that does not already end a member or open a bracket, before a
# line starting with `<`
_BEFORE_ANGLE = re.compile(rb"(?<=[^\s;,{(\[|&=/*])([ \t]*\r?\n[ \t]*)(?=<)")


def repaired(source: bytes) -> bytes | None:
    """The source with the `;` put in (None: no line starts with `<` after a member)."""
    fixed = _BEFORE_ANGLE.sub(rb";\1", source)
    return fixed if fixed != source else None
