"""A TypeScript file tree-sitter misreads, read again with the `;` it lacks.

tree-sitter-typescript (0.23.2) reads a generic call or construct signature on the line
after another member of an interface or object type, with no `;` between them
(`(a: T): void` then `<S>(a: S): void`), as the previous member's type going on, and its
error recovery then loses every declaration after it in the file. TypeScript's own
parser ends the member there. JavaScript and TypeScript semicolons are formatting (no
fingerprint holds them), so a TypeScript file that parses with errors is parsed again
with a `;` ending the code line before each line starting with `<` (comments between
them aside); that reading is kept only when it has no errors.
"""

from __future__ import annotations

_ENDS = (b";", b",", b"{", b"(", b"[", b"|", b"&", b"=", b"<")  # a member ended or going on


def _comment(line: bytes) -> bool:
    text = line.strip()
    return not text or text.startswith((b"//", b"/*", b"*")) or text.endswith(b"*/")


def repaired(source: bytes) -> bytes | None:
    """The source with the `;` put in: at the end of the code line before each line that
    starts with `<`, past blank lines and comments (None: there is no such place)."""
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
