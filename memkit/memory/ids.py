"""Memory ids: what a valid id looks like, and one made from a title."""

from __future__ import annotations

import re

MAX_ID = 64
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Names Windows keeps for devices, in any case and with any extension: no file `con.md`
# or folder `aux/` can be made there, so a store holding one cannot be checked out.
WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul", "conin$", "conout$"]
    + [f"{port}{n}" for port in ("com", "lpt") for n in range(1, 10)]
)


def is_valid_id(mid: str) -> bool:
    """Lowercase letters and digits in dash-separated words, at most MAX_ID characters,
    and not a name Windows reserves (`con`, `nul`, `com1`...)."""
    return len(mid) <= MAX_ID and bool(ID_RE.match(mid)) and mid not in WINDOWS_RESERVED


def id_problem(mid: str) -> str | None:
    """Why `mid` is no valid id, as a clause naming the fix; None when it is one."""
    if is_valid_id(mid):
        return None
    if mid in WINDOWS_RESERVED:
        return (
            f"{mid!r} is a name Windows reserves for a device (CON, PRN, AUX, NUL, COM1-9, "
            f"LPT1-9), so no file can have it there: use another id, e.g. {slugify(mid)!r}"
        )
    return (
        f"{mid!r} is not a valid id: use lowercase letters, digits and dashes, at most "
        f"{MAX_ID} characters (e.g. {slugify(mid)!r})"
    )


def windows_refuses(name: str) -> bool:
    """Whether Windows cannot hold a file or folder named `name`: a device name (CON,
    NUL, COM1...) with any extension in any case, or a name ending in a dot or a space."""
    stem = name.split(".", 1)[0].rstrip(" ").lower()
    return stem in WINDOWS_RESERVED or name.endswith((".", " "))


def slugify(title: str) -> str:
    """A valid id from a title: lowercase ASCII words joined by dashes.

    At most MAX_ID - 4 characters, leaving room for a `-NNN` suffix when the id is taken.
    Accented Latin letters lose their accents (`Café` -> `cafe`); a title with no Latin
    letters or digits at all (`日本語のメモ`) gets `memory-` and 8 hex digits of its
    SHA-1, so different titles get different ids and the same title the same one. A
    name Windows reserves (`Aux` -> `aux`) gets `-memory` after it: `aux-memory`.
    """
    import unicodedata

    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_title.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > MAX_ID - 4:  # leave room for a "-NNN" suffix
            break
        slug = candidate
    if slug or words:
        slug = slug or words[0][: MAX_ID - 4]
        return f"{slug}-memory" if slug in WINDOWS_RESERVED else slug
    import hashlib

    return "memory-" + hashlib.sha1(title.encode("utf-8", "surrogatepass")).hexdigest()[:8]
