"""Memory files found valid, remembered by their bytes: the pre-commit hook's record.

A commit that changes a memory makes the hook validate it (parse, fields, secret scan)
and regenerate the compiled files; it then stops the commit so that they are reviewed,
and the next `git commit` brings the same memory again. `hook-valid` in memkit's
private folder (memkit.cachedir) remembers each memory file found clean, by the hook's
validation (memkit.githooks.checks) or by a compile that read it afresh
(memkit.compile.plan): its path, the SHA-256 and size of the bytes read, the files it
links to, under the key of memkit's code (memkit.compile.current.static_key: memkit's
modules, PyYAML's, Python, today, MEMKIT_* variables). With it the hook's checks
(memkit.githooks.checks.known_valid) know a staged memory valid without loading the
store or the memory model, and the hook's derived index (memkit.githooks.index) takes
its links from here instead of parsing it again. A file whose bytes differ, an entry under
another key, a mangled record: not known, validated as before. Standard library only,
in the base layer so that compile (a feature) and the hooks (an integration) both
write it.
"""

from __future__ import annotations

import os
from hashlib import sha256

from memkit.cachedir import cache_dir, write_private

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Mapping

NAME = "hook-valid"
HEADER = "memkit hook valid 2\n"  # 2: the links watched include the reads recorded
MAX_ENTRIES = 4096  # a record of the files validated lately, not of the whole store

# (SHA-256 of the file's bytes, their number, the files it links to)
Entry = tuple[str, int, tuple[str, ...]]


def digest(data: bytes) -> str:
    return sha256(data).hexdigest()


def file_digest(root: str, rel: str) -> str | None:
    """The SHA-256 of a memory file's bytes; None when it cannot be read as a file."""
    try:
        with open(os.path.join(root, rel), "rb") as f:
            return digest(f.read())
    except OSError:
        return None


def read(root: str, key: str) -> dict[str, Entry]:
    """{memory path: (digest, size, linked files)} recorded under `key`; {} for anything
    else."""
    recorded, entries = _load(root)
    return entries if key and recorded == key else {}


def _load(root: str) -> tuple[str, dict[str, Entry]]:
    """(the key, the entries) of the record; ("", {}) when there is none or it is mangled.

    The record is plain lines: the header, `key KEY`, then `v DIGEST SIZE PATH` for each
    file and `w FILE` for each file the `v` above it links to.
    """
    try:
        with open(
            os.path.join(cache_dir(root), NAME), encoding="utf-8", errors="surrogateescape"
        ) as f:
            text = f.read()
    except (OSError, ValueError):
        return "", {}
    if not text.startswith(HEADER + "key ") or not text.endswith("\n"):
        return "", {}
    first, _, rest = text[len(HEADER) :].partition("\n")
    key = first[len("key ") :]
    out: dict[str, Entry] = {}
    rel, sha, size = "", "", 0
    links: list[str] = []
    for line in rest.split("\n")[:-1]:
        kind, _, tail = line.partition(" ")
        if kind == "v":
            if rel:
                out[rel] = (sha, size, tuple(links))
            sha, _, tail = tail.partition(" ")
            bytes_, _, rel = tail.partition(" ")
            links = []
            if len(sha) != 64 or not bytes_.isdigit() or not rel:
                return "", {}
            size = int(bytes_)
        elif kind == "w" and rel and tail:
            links.append(tail)
        else:
            return "", {}
    if rel:
        out[rel] = (sha, size, tuple(links))
    return key, out


def known(
    root: str, rels: Iterable[str], sizes: Mapping[str, int], key: Callable[[], str]
) -> dict[str, tuple[str, ...]]:
    """{path: linked files} of those of `rels` whose bytes now are the ones recorded.

    `sizes` are the files' sizes as listed: a file of another size is not read, and
    `key()` (working out static_key costs a few ms) is asked only when a file matched.
    """
    recorded, entries = _load(root)
    matched = {}
    for rel in rels:
        entry = entries.get(rel)
        if entry is not None and entry[1] == sizes.get(rel) and file_digest(root, rel) == entry[0]:
            matched[rel] = entry[2]
    if not matched or not recorded or key() != recorded:
        return {}
    return matched


def remember(root: str, key: str, found: Mapping[str, Entry], keep: Collection[str]) -> None:
    """Add `found` to the record (replacing it when its key differs), keeping only paths
    in `keep` (the memory files there are) and the latest MAX_ENTRIES."""
    merged = {rel: e for rel, e in read(root, key).items() if rel in keep and rel not in found}
    merged.update(found)
    entries = list(merged.items())[-MAX_ENTRIES:]
    lines = [HEADER, f"key {key}\n"]
    for rel, (sha, size, links) in entries:
        if "\n" in rel or any("\n" in link or not link for link in links):
            continue
        lines.append(f"v {sha} {size} {rel}\n")
        lines += [f"w {link}\n" for link in links]
    write_private(root, NAME, "".join(lines).encode("utf-8", "surrogateescape"))
