"""Validating a whole store: every problem `memkit validate` and the hooks report.

validate(store, only=None) gathers the files that do not load (invalid front matter,
symbolic links, duplicate ids), front-matter keys that are no field, likely secrets,
and `supersedes`, `superseded_by` or `revises` references to ids no memory has,
sorted by file, line and field.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from memkit import memory as mm
from memkit.errors import InvalidMemoryError, MemkitError
from memkit.memory import Memory
from memkit.store import Loaded, Store, secret_findings

_SECRET_FIX = (
    "remove it (a store committed to git keeps it forever), or mark a fake example with "
    "`memkit: allow-secret` on that line"
)


def validate(store: Store, only: Collection[str] | None = None) -> list[InvalidMemoryError]:
    """Every problem in the store, including likely secrets, sorted by file and line.

    `only` (paths relative to the root) limits the per-file checks to those files,
    as the pre-commit hook does for staged memories; duplicate ids are still judged
    against the whole store.
    """
    loaded = store.load()
    problems = [
        p
        for p in loaded.problems
        if only is None or p.path in only or (p.field == "id" and any(n in p.message for n in only))
    ]
    ids = {m.id for m in loaded.memories}
    listed = [*loaded.stats, *store.links]
    problems += [
        p
        for p in path_problems(listed)
        if only is None or p.path in only or any(n in p.message for n in only)
    ]
    for mem in loaded.memories:
        if only is None or mem.path in only:
            problems += mm.unknown_fields(mem)
            problems += _secrets(store, mem)
            problems += _dangling(mem, ids)
    problems.sort(key=lambda p: (p.path, p.line, p.field))
    return problems


def validate_files(
    store: Store,
    paths: Collection[str],
    sizes: Mapping[str, Sequence[int]],
    clean: dict[str, tuple[bytes, Memory]] | None = None,
) -> list[InvalidMemoryError] | None:
    """What validate(store, only=paths) finds, reading only those files; None when that
    needs the other memories: an id (file name) another memory file shares, or a
    reference (`supersedes`, `superseded_by`, `revises`) to another memory.

    `sizes` has every memory file (path relative to the root -> [size, ...] as listed:
    memkit.githooks.index.memory_stamps); the pre-commit hook validates a staged memory
    this way without loading the store.

    `clean`, when given, receives each file found without any problem: its path ->
    (the bytes the secret scan read, the memory parsed), when both readings agree.
    """
    from collections import Counter

    from memkit.store.loading import load_one

    ids = Counter(rel.rsplit("/", 1)[-1][:-3].casefold() for rel in sizes)
    problems = path_problems(sorted(paths))
    for rel in sorted(paths):
        if rel not in sizes or ids[rel.rsplit("/", 1)[-1][:-3].casefold()] > 1:
            return None
        mem, found = load_one(str(store.root), rel, sizes[rel][0])
        problems += found
        if mem is None:
            continue
        if _refers(mem):
            return None
        read: list[bytes] = []
        found = mm.unknown_fields(mem) + _secrets(store, mem, read)
        problems += found
        if clean is not None and not found and read and read[0] == _text_of(mem):
            clean[rel] = (read[0], mem)
    problems.sort(key=lambda p: (p.path, p.line, p.field))
    return problems


def path_problems(paths: Collection[str]) -> list[InvalidMemoryError]:
    """A problem for each memory file macOS or Windows cannot hold as it is: a folder
    named as a Windows device (`aux/`) or ending in a dot or a space, and two paths that
    differ only in case (one file there, not two). The file name itself is its id,
    which parse checks."""
    problems = []
    first: dict[str, str] = {}
    for rel in sorted(paths):
        folders = rel.split("/")[1:-1]  # under .memory/
        bad = next((f for f in folders if mm.windows_refuses(f)), None)
        twin = first.setdefault(rel.casefold(), rel)
        if bad is not None:
            why = (
                f"folder {bad!r} is a name Windows cannot hold (a device name such as CON, AUX, "
                "NUL, COM1, or a name ending in a dot or a space): rename the folder"
            )
            problems.append(InvalidMemoryError(rel, 1, "file", why))
        if twin != rel:
            why = (
                f"{twin} and {rel} differ only in case: macOS and Windows hold them as one "
                "file; merge them into one, or rename one"
            )
            problems.append(InvalidMemoryError(rel, 1, "file", why))
    return problems


def _refers(mem: Memory) -> bool:
    """Whether the memory names another (`supersedes`, `superseded_by`, `revises`)."""
    return bool(mem.supersedes or mem.superseded_by or mem.revises)


def _text_of(mem: Memory) -> bytes:
    """The bytes of the file `mem` was parsed from, when they read as UTF-8 text."""
    return (mem.head + mem.body).encode("utf-8", "surrogateescape")


def _secrets(
    store: Store, mem: Memory, read: list[bytes] | None = None
) -> list[InvalidMemoryError]:
    """A problem for every likely secret in the memory's file (its bytes appended to
    `read`, when given)."""
    try:
        raw = store.read(store.root / mem.path)
    except MemkitError:
        return []
    text = raw.decode("utf-8")
    if read is not None:
        read.append(raw)
    return [
        InvalidMemoryError(mem.path, line, "secret", f"looks like a {kind}; {_SECRET_FIX}")
        for line, kind in secret_findings(text, mem)
    ]


def _dangling(mem: Memory, ids: Collection[str]) -> list[InvalidMemoryError]:
    """A problem for every id the memory refers to that no memory in the store has."""
    refs = [("supersedes", r) for r in mem.supersedes]
    refs += [(f, getattr(mem, f)) for f in ("superseded_by", "revises") if getattr(mem, f)]
    missing = [(field, ref) for field, ref in refs if ref not in ids]
    if not missing:
        return []
    front = mm.split(mem.head, mem.path)[1] if mem.head else ""
    return [
        InvalidMemoryError(
            mem.path, mm.field_line(front, field), field, f"no memory with id {ref!r} in the store"
        )
        for field, ref in missing
    ]


def remember_fresh(store: Store, loaded: Loaded, key: str) -> None:
    """Remember for the pre-commit hook the memories a load parsed afresh (Loaded.fresh)
    that validate_files would find clean: no secret, no reference to another memory;
    whether another file shares the name, the hook asks itself."""
    by_path = {m.path: m for m in loaded.memories}
    clean = {}
    for rel, raw in loaded.fresh.items():
        mem = by_path.get(rel)
        if mem is None or _refers(mem) or raw != _text_of(mem) or mm.unknown_fields(mem):
            continue
        if not secret_findings(raw.decode("utf-8"), mem):
            clean[rel] = (raw, mem)
    remember_valid(str(store.root), key, clean, loaded.stats)


def remember_valid(
    root: str, key: str, clean: Mapping[str, tuple[bytes, Memory]], keep: Collection[str]
) -> None:
    """Add the memories found clean (path -> the bytes validated, the memory) to
    memkit.hookvalid's record under `key`: their digest and size, the files they link
    to. `keep`: every memory file there is (the record drops the others)."""
    if not clean:
        return
    from memkit.hookvalid import digest, remember
    from memkit.staleness.anchors import watched_by

    found = {rel: (digest(raw), len(raw), tuple(watched_by(m))) for rel, (raw, m) in clean.items()}
    remember(root, key, found, keep)
