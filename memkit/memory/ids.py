"""Memory ids: what a valid id looks like, and one made from a title."""

from __future__ import annotations

import re

MAX_ID = 64
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def is_valid_id(mid: str) -> bool:
    """Lowercase letters and digits in dash-separated words, at most MAX_ID characters."""
    return len(mid) <= MAX_ID and bool(ID_RE.match(mid))


def slugify(title: str) -> str:
    """A valid id from a title: lowercase ASCII words joined by dashes.

    At most MAX_ID - 4 characters, leaving room for a `-NNN` suffix when the id is taken.
    Accented Latin letters lose their accents (`Café` -> `cafe`); a title with no Latin
    letters or digits at all (`日本語のメモ`) gets `memory-` and 8 hex digits of its
    SHA-1, so different titles get different ids and the same title the same one.
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
        return slug or words[0][: MAX_ID - 4]
    import hashlib

    return "memory-" + hashlib.sha1(title.encode("utf-8", "surrogatepass")).hexdigest()[:8]
