"""Private key blocks: PEM (PKCS#1, PKCS#8, EC, DSA, encrypted), OpenSSH, PGP, SSH2, PuTTY.

A block runs from its BEGIN marker to the next END marker (`Private-MAC:` for PuTTY files)
when one follows within MAX_BLOCK characters and no other BEGIN comes first; otherwise from
the marker over the lines that look like key material (base64, armor headers such as
`Comment: …`, JSON's `\\n` escapes), so a truncated key is still covered. All markers are
found in one pass and paired in order, and every look-ahead is bounded: linear time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memkit.secrets.hit import BLOCK, Hit

KIND = "private key block"
MAX_BLOCK = 64_000
_NEEDLES = ("-----BEGIN", "---- BEGIN SSH2", "PuTTY-User-Key-File-")
_MARKER = re.compile(
    r"-----(?P<pem>BEGIN|END) (?P<label>[A-Z0-9][A-Z0-9 ]{0,60}?)-----"
    r"|---- (?P<ssh2>BEGIN|END) SSH2 ENCRYPTED PRIVATE KEY ----"
    r"|(?P<putty>PuTTY-User-Key-File-[0-9]{1,2}: )"
    r"|(?P<mac>Private-MAC: [0-9a-fA-F]{1,128})"
)
# Key material after a header with no END in reach: base64 lines, armor headers, escapes.
_BODY = re.compile(r"[ \t]*[A-Za-z0-9+/=]{1,200}|[A-Za-z][A-Za-z0-9-]{0,40}: [^\n]{0,200}")
# A body line cut short and marked (`MIIEvQIB… …`): long base64, then anything.
_CUT_BODY = re.compile(r"[ \t]*[A-Za-z0-9+/=]{16}")
# A key inside a JSON string: `\n`-separated base64 on the header's own line.
_ESCAPED_BODY = re.compile(r"(?:(?:\\[nr]){1,4}[A-Za-z0-9+/=]{0,200}){0,100}")
# A key flattened onto the header's line (newlines turned into spaces), maybe cut short.
_SPACED_BODY = re.compile(r"(?:[ \t]{1,4}[A-Za-z0-9+/=]{1,200}){1,400}(?:[ \t]{1,4}-{1,5})?")
_MAX_LINES = 400


def _opens(m: re.Match[str]) -> bool:
    if m.group("pem"):
        return m.group("pem") == "BEGIN" and "PRIVATE KEY" in m.group("label")
    return m.group("ssh2") == "BEGIN" or m.group("putty") is not None


def _closes(m: re.Match[str]) -> bool:
    return m.group("pem") == "END" or m.group("ssh2") == "END" or m.group("mac") is not None


def find(text: str) -> Iterator[Hit]:
    """Every private key block in `text`, whole (header, body and footer)."""
    if not any(needle in text for needle in _NEEDLES):
        return
    markers = list(_MARKER.finditer(text))
    covered = 0
    for i, m in enumerate(markers):
        if m.start() < covered or not _opens(m):
            continue
        after = markers[i + 1] if i + 1 < len(markers) else None
        if after and _closes(after) and after.end() - m.start() <= MAX_BLOCK:
            end = after.end()
        else:
            end = _body_end(text, m.end())
        covered = end
        yield Hit(KIND, m.start(), end, BLOCK)


def _body_end(text: str, pos: int) -> int:
    """Where the key material that follows a header ends (bounded look-ahead)."""
    escaped = _ESCAPED_BODY.match(text, pos)  # the rest of the header's line, JSON style
    pos = escaped.end() if escaped else pos
    spaced = _SPACED_BODY.match(text, pos)  # or the key's lines joined with spaces
    pos = spaced.end() if spaced else pos
    end = pos
    blank_ok = True  # PGP armor puts one blank line between its headers and the body
    for _ in range(_MAX_LINES):
        if not text.startswith("\n", pos) and not text.startswith("\r\n", pos):
            break
        start = pos + (2 if text[pos] == "\r" else 1)
        stop = text.find("\n", start, start + 256)
        line_end = len(text) if stop == -1 and len(text) - start <= 256 else stop
        if line_end == -1:
            break
        line = text[start:line_end].rstrip("\r")
        if not line.strip():
            if not blank_ok:
                break
            blank_ok = False
        elif not (_BODY.fullmatch(line) or _CUT_BODY.match(line)):
            break
        else:
            end = start + len(line)
        pos = line_end
    return end
