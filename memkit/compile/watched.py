"""The files compile reads or writes besides the memories, for memkit.compile.current.

`watched` names them and takes their states (`file_state`: absent, a folder, the bytes'
SHA-256, where a link leads; `folder_state`: a rule folder's listing with the states of
its memkit* files), `again` takes the same states once more, and `as_left` tells whether
they are as a compile left them (the files it wrote holding the bytes it wrote, the others
unchanged). Standard library only at import: the pre-commit hook's checks ask, before
they open the store.
"""

from __future__ import annotations

import os
from hashlib import sha256

from memkit.compile.tree import content_state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any


def file_state(root: str, rel: str, top: str | None = None, within: str | None = None) -> str:
    """A file compile reads or writes: absent, a folder, other, or its bytes' SHA-256;
    with where it really is when a link (itself or a folder above it) leads elsewhere.

    A link out of the repository or into .git/ is "outside", never read (compile reads
    and writes only inside: the safe-path layer refuses it); a file too big for compile
    to read is known by its size and time. `top`: the root's real path, when known;
    `within`: the real path of the file's folder, when known (a rule folder's entries)."""
    full = os.path.join(root, rel)
    top = top or os.path.realpath(root)
    link = os.path.islink(full)
    if within is not None and not link:
        real = os.path.join(within, rel.rpartition("/")[2])
    else:
        real = os.path.realpath(full)
    git = os.path.join(top, ".git")
    if not real.startswith(top + os.sep) or real == git or real.startswith(git + os.sep):
        state = "outside"
    else:
        state = content_state(real)
    if real != os.path.join(top, rel):
        state += f" via {real}"
    if link:
        state += " link"
    return state


def folder_state(root: str, rel: str, top: str | None = None) -> list[Any]:
    """A rule folder: its own state, then [name, state] of each entry (the state of
    memkit* files only); ["absent" or "error N", its state] when it cannot be listed,
    ["outside", its state] when it leads out of the repository (never listed)."""
    full = os.path.join(root, rel)
    top = top or os.path.realpath(root)
    state = file_state(root, rel, top)
    if state.startswith("outside"):
        return ["outside", state]  # never listed: compile writes no rule file through it
    try:
        names = sorted(os.listdir(full))
    except FileNotFoundError:
        return ["absent", state]
    except OSError as e:
        return [f"error {e.errno}", state]
    out: list[Any] = [state]
    real = os.path.realpath(full)  # once for the folder, not for each of its files
    for name in names:
        mine = name.startswith("memkit")
        out.append([name, file_state(root, f"{rel}/{name}", top, real) if mine else ""])
    return out


def watched(
    root: str, memories: Iterable[Any], shared: Iterable[str], folders: Iterable[str]
) -> dict[str, Any]:
    """The state of every file and rule folder compile reads or writes (module docstring)."""
    from memkit.compile.readers import CONSULTED, NESTED_CONSULTED
    from memkit.compile.scopes import agents_dir

    paths = set(shared) | set(CONSULTED)
    scopes = {m.paths for m in memories if m.paths}  # memories share a few scopes
    for scope in scopes:
        d = agents_dir(scope)
        if d:
            paths.update(f"{d}/{name}" for name in NESTED_CONSULTED)
    for m in memories:
        if not m.source:
            continue
        source, sep, _ = m.source.partition("#")
        if sep and source and "://" not in source and not source.startswith("/"):
            paths.add(source)
    return again(root, {"files": sorted(paths), "folders": sorted(set(folders))})


def again(root: str, seen: Mapping[str, Iterable[str]]) -> dict[str, Any]:
    """The states now of the files and folders `seen` names."""
    top = os.path.realpath(root)  # once, not for each of them
    return {
        "files": {p: file_state(root, p, top) for p in seen["files"]},
        "folders": {d: folder_state(root, d, top) for d in seen["folders"]},
    }


def _holds(state: str, new: bytes | None) -> bool:
    """Whether a file's state (file_state) is that of a file holding `new` (None: absent)."""
    if new is None:
        return state == "absent"
    return state.split(" ", 2)[:2] == ["file", sha256(new).hexdigest()]


def as_left(
    before: Mapping[str, Any], after: Mapping[str, Any], written: Mapping[str, Any]
) -> bool:
    """Every watched file and folder as the compile left it (see Before.record)."""
    files, folders = before["files"], before["folders"]
    claimed = set()
    for p, state in files.items():
        if p in written:
            claimed.add(p)
            if not _holds(after["files"][p], written[p]):
                return False
        elif after["files"][p] != state:
            return False
    for d, listing in folders.items():
        mine = {
            p.rpartition("/")[2]: new for p, new in written.items() if p.rpartition("/")[0] == d
        }
        claimed.update(f"{d}/{name}" for name in mine)
        now = after["folders"][d]
        if not mine:
            if now != listing:
                return False
            continue
        was = dict(_entries(listing))
        if not now or not isinstance(now[0], str) or now[0].split(" ")[0] != "dir":
            return False
        left = dict(_entries(now))
        for name, new in mine.items():
            was.pop(name, None)
            if new is None:
                if name in left:
                    return False
            elif name not in left or not _holds(left.pop(name), new):
                return False
        if left != was:
            return False
    return claimed >= set(written)


def _entries(listing: list[Any]) -> list[tuple[str, str]]:
    """A folder_state listing's (name, state) pairs; none for an absent folder."""
    if listing and not isinstance(listing[-1], list):
        return []
    return [(name, state) for name, state in listing[1:]]
