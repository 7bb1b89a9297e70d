"""Write: the outputs' bytes on disk now, and writing the new ones safely.

`read` gives a file's bytes as compile may read them (no link out of the repository
or into .git/ or .memory/); `leftovers` finds the files of earlier runs that no
output claims now; `settle` leaves alone the outputs that are links (to another
output, or to a file that is not one); `apply` writes only files whose bytes change.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.capped import capped
from memkit.compile import markers as sections
from memkit.compile.scopes import agents_dir
from memkit.compile.targets import TARGETS
from memkit.errors import MemkitError
from memkit.fsutil import atomic_write

if TYPE_CHECKING:
    from memkit.compile.current import Before, Outcome
    from memkit.memory import Memory


@dataclass(frozen=True)
class Pending:
    """What `apply` records once it has written the files (memkit.compile.current)."""

    before: Before  # the inputs as they were before the compile
    path: str  # the record's file
    stale: dict[str, str] | None  # the staleness warnings the compile used
    said: Outcome  # what the compile tells its user: its notes, how many files it considered


@dataclass(frozen=True)
class FileChange:
    """One output file: its bytes on disk now (None: absent) and after (None: deleted)."""

    path: str
    target: str
    old: bytes | None
    new: bytes | None

    @property
    def action(self) -> str:
        if self.old == self.new:
            return "unchanged"
        return "create" if self.old is None else "delete" if self.new is None else "update"


MAX_OUTPUT_BYTES = 16 * 1024 * 1024  # an existing output file memkit reads back
FORBIDDEN = (".git", ".memory")  # top folders no output may be written into


def real_path(root: Path | str, rel: str, folders: dict[str, str]) -> str:
    """os.path.realpath of `rel` under `root`, each folder resolved once in `folders` (one
    compile's): the file's own name is resolved only when it is itself a link."""
    full = os.path.join(root, rel)
    head, name = os.path.split(full)
    if os.path.islink(full) or name in ("", os.curdir, os.pardir):
        return os.path.realpath(full)
    return os.path.join(_resolved(head, folders), name)


def _resolved(folder: str, folders: dict[str, str]) -> str:
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder)
    return real


def read(root: Path, rel: str, folders: dict[str, str] | None = None) -> bytes | None:
    """An output's bytes now (None: absent), read safely: it may hold anything.

    No link out of the repository, into .git/ or .memory/ (fsutil.write_target says why
    it refuses one). A path whose real path is the path itself (no link anywhere on it,
    as for nearly every output) is inside by its very spelling: it is read without
    asking again, one real path and one open for each of the hundreds of outputs
    (`folders`: the real paths of the folders this compile resolved).
    """
    from memkit.errors import UnsafePathError
    from memkit.fsutil import read_regular, write_target

    folders = {} if folders is None else folders
    lexical = os.path.normpath(rel)
    top = _resolved(os.fspath(root), folders)
    real = real_path(root, rel, folders)
    plain = (
        real == os.path.join(top, lexical)
        and not os.path.isabs(lexical)
        and lexical.split(os.sep, 1)[0] not in (*FORBIDDEN, os.curdir, os.pardir)
    )
    try:
        if not plain:  # the real path a link leads to, when it stays inside
            real = str(write_target(root, rel, forbidden=FORBIDDEN, links_to=None))
        return read_regular(real, limit=MAX_OUTPUT_BYTES, what=rel)
    except FileNotFoundError:
        return None
    except UnsafePathError:
        if plain:  # not a regular file: refused as a write of it would be
            write_target(root, rel, forbidden=FORBIDDEN, links_to=None)
        raise


def leftovers(
    root: Path,
    target: str,
    everything: Iterable[Memory],
    planned: Mapping[str, FileChange],
    folders: dict[str, str],
) -> dict[str, bytes | None]:
    """Files of `target` from earlier runs that no output claims now (nested AGENTS.md of any
    folder of `everything`, the memories whatever their status), with their bytes now."""
    t = TARGETS[target]
    found = {p: read(root, p, folders) for p in t.shared if p not in planned}
    for directory, suffix in t.rule_dirs:
        try:
            with os.scandir(root / directory) as it:
                names = sorted(e.name for e in it if e.is_file(follow_symlinks=False))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in names:
            rel = f"{directory}/{name}"
            if name.startswith("memkit") and name.endswith(suffix) and rel not in planned:
                old = read(root, rel, folders)
                if old is not None and sections.owns(old.decode("utf-8", "replace")):
                    found[rel] = old
    if target == "agents":  # nested AGENTS.md of memories' directories, whatever their status
        scopes = {m.paths for m in everything if m.paths}  # thousands of memories, few scopes
        for d in sorted({agents_dir(s) for s in scopes} - {""}):
            rel = f"{d}/AGENTS.md"
            if rel not in planned and (root / rel).is_file():
                found[rel] = read(root, rel, folders)
    return found


def apply(root: Path, files: tuple[FileChange, ...], pending: Pending | None) -> list[str]:
    """Write and delete the changed `files`; return the paths changed.

    A file that changed on disk since `build` read it is not touched: MemkitError.
    An output that is a symbolic link inside the repository is written through (the
    link stays a link); two outputs that are one file are refused before any write.
    """
    from memkit.fsutil import write_target

    changes = [f for f in files if f.action != "unchanged"]
    if not changes:  # nothing to write: no output's real path is needed
        if pending is not None:
            pending.before.record(pending.path, pending.stale, pending.said, {})
        return []
    outputs = _link_targets(root, [f.path for f in files], _reals(root, files)[1])
    real = {
        f.path: write_target(root, f.path, forbidden=FORBIDDEN, links_to=outputs) for f in changes
    }
    done = []
    for f in changes:
        if read(root, f.path) != f.old:
            raise MemkitError(f"{f.path} changed while memkit compiled; run `memkit compile` again")
        target = real[f.path]
        if f.new is None:
            if os.path.islink(root / f.path):
                continue  # never delete a link or, through it, another file
            target.unlink()
        else:
            atomic_write(target, f.new, fsync=False)  # derived: `memkit compile` remakes it
        done.append(f.path)
    written = {f.path: f.new for f in changes}
    if pending is not None and set(done) == set(written):  # else a link was left alone
        pending.before.record(pending.path, pending.stale, pending.said, written)
    return done


def settle(
    root: Path, changes: Iterable[FileChange], notes: list[str]
) -> tuple[tuple[FileChange, ...], tuple[str, ...]]:
    """The changes sorted by path, those that are links left as they are, and a line for
    each refused link (see _drop_linked_outputs and _refuse_links)."""
    files = {f.path: f for f in changes}
    real, linked = _reals(root, files.values())
    _drop_linked_outputs(root, files, real, linked, notes)
    refused = _refuse_links(root, files, linked)
    kept = tuple(sorted((f for f in files.values() if f.old or f.new), key=lambda f: f.path))
    return kept, tuple(refused)


def _reals(root: Path, files: Iterable[FileChange]) -> tuple[dict[str, str], dict[str, str]]:
    """The real path of each output, and of those with a link in their path (a path with
    none is the file `read` checked and read: no other output's)."""
    folders: dict[str, str] = {}
    top = _resolved(os.fspath(root), folders)
    real = {f.path: real_path(root, f.path, folders) for f in files}
    return real, {p: r for p, r in real.items() if r != os.path.join(top, p)}


def _drop_linked_outputs(
    root: Path,
    files: dict[str, FileChange],
    real: Mapping[str, str],
    linked: Mapping[str, str],
    notes: list[str],
) -> None:
    """An output that is a link to another output (`CLAUDE.md -> AGENTS.md`) is left alone.

    The agent reading the link reads the other file, which memkit writes; writing both
    would overwrite one with the other. Two outputs joined otherwise are refused.
    """
    by_real: dict[str, list[str]] = {}
    for path in sorted(files):
        by_real.setdefault(real[path], []).append(path)
    for _, paths in sorted(by_real.items()):
        if len(paths) < 2 or not any(p in linked for p in paths):
            continue
        plain = [p for p in paths if not os.path.islink(root / p)]
        if len(plain) != 1:
            raise MemkitError(
                f"{capped(paths, sep=' and ')} are one file through symbolic links, and memkit "
                "would write different text to each; remove a link, or turn off one of the targets "
                "in .memory/config.toml"
            )
        for link in paths:
            if link != plain[0]:
                old = files[link].old
                files[link] = FileChange(link, files[link].target, old, old)
                notes.append(f"{link}: a link to {plain[0]}, which memkit writes: left as it is")


def _refuse_links(root: Path, files: dict[str, FileChange], linked: Mapping[str, str]) -> list[str]:
    """Leave alone every output that is a link (or in a linked folder) to a file that is not
    another output of this compile; one line each naming the link and its target.

    A pull request that turns AGENTS.md into a link to `.github/CODEOWNERS` (or a
    workflow, a deploy script) must not get the compile to rewrite that file.
    """
    from memkit.errors import UnsafePathError
    from memkit.fsutil import write_target

    refused, allowed = [], _link_targets(root, files, linked)
    for path in sorted(linked):
        try:
            write_target(root, path, forbidden=FORBIDDEN, links_to=allowed)
        except UnsafePathError as e:
            old = files[path].old
            files[path] = FileChange(path, files[path].target, old, old)
            refused.append(str(e))
    return refused


def _link_targets(root: Path, outputs: Iterable[str], linked: Mapping[str, str]) -> set[str]:
    """Where an output may lead through a link: another output, or a file of an agent's own
    (`AGENTS.md -> .clinerules/architect.md`, a shared file, a rules folder's file).
    `linked`: the real path of each output that has a link in its path."""
    allowed = set(outputs)
    top = os.path.realpath(root)
    for real in linked.values():
        rel = os.path.relpath(real, top).replace(os.sep, "/")
        if rel.startswith("../") or rel in allowed:
            continue
        kinds = [(t.shared, t.rule_dirs) for t in TARGETS.values()]
        folder, name = os.path.split(rel)
        if name == "AGENTS.md" or any(
            rel in shared or any(folder == d and name.endswith(x) for d, x in dirs)
            for shared, dirs in kinds
        ):
            allowed.add(rel)
    return allowed
