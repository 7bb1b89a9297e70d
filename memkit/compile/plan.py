"""Memories -> each agent's instruction files. `build` returns a Plan; `apply` writes it.

`build` reads the store and the current output files and computes every file's new
bytes (or its deletion) without writing anything; `apply` writes only files whose
bytes change. Staleness comes in as an argument (`statuses`), so the compiler does
no git work of its own.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memkit.capped import capped
from memkit.compile import markers as sections
from memkit.compile.budgets import Position, limits, rank, source_order
from memkit.compile.chains import Placed, Run
from memkit.compile.render import Fitted, Renderer
from memkit.compile.targets import (
    NAMES,
    NEVER_NESTED,
    TARGETS,
    Output,
    Settings,
    literal_dir,
    settings,
)
from memkit.errors import MemkitError
from memkit.fsutil import atomic_write
from memkit.memory import Memory
from memkit.staleness.verdict import MemoryStatus
from memkit.store import Loaded, Store


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


@dataclass(frozen=True)
class Plan:
    root: Path
    files: tuple[FileChange, ...]  # every output considered, sorted by path
    notes: tuple[str, ...]  # what was shortened or left out, and why
    placed: tuple[Placed, ...] = ()  # every output with memories, in compile order
    selected: tuple[Memory, ...] = ()  # the memories compiled, best ranked first
    targets: tuple[str, ...] = ()  # the targets whose files agents will find
    facts: tuple[str, ...] = ()  # memories an agent's own precedence makes it read twice
    invalid: tuple[str, ...] = ()  # the invalid memory files left out (`compile --check` fails)
    refused: tuple[str, ...] = ()  # outputs linked to a file that is not an output: one line each
    # what `apply` records once it has written (memkit.compile.current): (Before, path, stale)
    pending: tuple[Any, str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def changes(self) -> tuple[FileChange, ...]:
        return tuple(f for f in self.files if f.action != "unchanged")


def select(
    memories: Iterable[Memory], today: dt.date, order: Mapping[str, Position] | None = None
) -> list[Memory]:
    """Active, unexpired, not superseded memories, best ranked first (budgets.rank)."""
    chosen = [m for m in memories if m.in_force(today)]
    return sorted(chosen, key=lambda m: rank(m, order))


def build(
    store: Store,
    *,
    today: dt.date,
    targets: Sequence[str] | None = None,
    statuses: Mapping[str, MemoryStatus] | None = None,
    loaded: Loaded | None = None,
) -> Plan:
    """What `memkit compile` would write. Reads files, writes none.

    `targets` limits the run to those targets; by default the configured ones are
    compiled and the others only cleaned up (their owned files deleted). `loaded`
    is the store's content when the caller has already read it. AGENTS.md is fitted
    first, within every budget of the agents that load it, and the targets whose
    agent reads AGENTS.md get only what it does not already carry in full.
    """
    conf = settings(store.config.section("compile"), store.config.path or "config.toml")
    for name in targets or ():
        if name not in NAMES:
            raise MemkitError(f"unknown target {name!r}; use one of: {', '.join(NAMES)}")
    loaded = loaded or store.load()
    notes: list[str] = []
    if loaded.problems:
        bad = len({p.path for p in loaded.problems})
        notes.append(f"left out {bad} invalid memory file(s); run `memkit validate`")
    memories = select(loaded.memories, today, source_order(store.root, loaded.memories))
    renderer = Renderer(store.root, statuses or {}, store.private_dir() / "templates")
    from memkit.compile.fitcache import FitCache

    renderer.fits = FitCache.open(store.private_dir(), store.root)
    run = Run(store.root, renderer, conf, set(targets or conf.targets), notes, _compose)
    with renderer.bounds():
        run.compose_all(memories, list(targets or NAMES), bool(targets))
        for name in targets or NAMES:
            for path in _leftovers(store.root, name, loaded.memories, run.files):
                run.add(_empty(name, path, conf), keep=True)
    if renderer.fits is not None:
        renderer.fits.save()
    stale = sum(1 for m in memories if renderer.stale(m))
    if stale:
        notes.append(f"{stale} memory(ies) marked possibly out of date (code changed)")
    _drop_linked_outputs(store.root, run.files, notes)
    refused = _refuse_links(store.root, run.files)
    ordered = tuple(sorted((f for f in run.files.values() if f.old or f.new), key=lambda f: f.path))
    from memkit.compile.readers import report

    on = tuple(sorted(run.active | set(conf.targets)))
    avoidable, facts = report(run.placed, on, store.root)
    notes.extend(avoidable)
    invalid = tuple(sorted({p.path for p in loaded.problems}))
    return Plan(store.root, ordered, tuple(notes), tuple(run.placed), tuple(memories), on,
                tuple(facts), invalid, tuple(refused))  # fmt: skip


def plan(
    store: Store,
    *,
    today: dt.date,
    targets: Sequence[str] | None = None,
    record: bool = True,
) -> Plan:
    """What `memkit compile` (and the pre-commit hook) would write, staleness included.

    Asks the staleness engine when an active memory was verified against its links
    (the others cannot be stale); outside a git repository the output carries no
    staleness warnings and a note says why. Call it under store.lock() when the
    plan is to be applied. A full compile records its inputs (memkit.compile.current)
    when it finds nothing to change, else `apply` does once it has written them, so
    the hook can tell the next time without compiling; `record=False` skips that (and
    the walk of .memory/ it takes: about 0.05 s at 10,000 memories), as a plan never
    applied (`--check`, `--dry-run`) does.
    """
    from dataclasses import replace

    from memkit.compile.current import NAME, Before
    from memkit.stores import load_all

    before = Before(str(store.root), today) if targets is None and record else None
    loaded = load_all(store)
    statuses, note = _statuses(store, loaded.memories, today)
    if before is not None:
        before.watch(loaded)
    built = build(store, today=today, targets=targets, statuses=statuses, loaded=loaded)
    if before is not None and before.key and loaded.fresh:
        from memkit.validation import remember_fresh

        remember_fresh(store, loaded, before.key)  # the commit that follows needs no validation
    pending = None
    if before is not None and not note and not built.refused and "stores" not in store.config.data:
        pending = (before, str(store.private_dir() / NAME), stale_warnings(statuses))
        if not built.changes:
            before.record(pending[1], pending[2])
            pending = None
    return replace(built, notes=note + built.notes, pending=pending)


def _statuses(
    store: Store, memories: Sequence[Memory], today: dt.date
) -> tuple[dict[str, MemoryStatus] | None, tuple[str, ...]]:
    """The staleness verdicts compile needs (None when no memory can be stale), and a note
    when git could not give them."""
    from memkit.errors import GitError
    from memkit.staleness import check_store

    if not any(m.links and m.verified and m.status == "active" for m in memories):
        return None, ()
    try:
        return {s.id: s for s in check_store(store, today=today)}, ()
    except GitError as e:
        return None, (f"no staleness warnings in the output: {e}",)


def stale_warnings(statuses: Mapping[str, MemoryStatus] | None) -> dict[str, str] | None:
    """{id: warning} of the stale memories: what the compiled text takes from staleness."""
    if statuses is None:
        return None
    return {mid: s.describe() for mid, s in sorted(statuses.items()) if s.stale}


def statuses_now(store: Store, *, today: dt.date) -> dict[str, str] | None:
    """The staleness warnings a compile now would use (see stale_warnings)."""
    from memkit.stores import load_all

    return stale_warnings(_statuses(store, load_all(store).memories, today)[0])


def _empty(target: str, path: str, conf: Settings) -> Output:
    whole = path not in TARGETS[target].shared and not path.endswith("AGENTS.md")
    return Output(path, target, "", (), limits(conf.budget(target)), whole=whole)


MAX_OUTPUT_BYTES = 16 * 1024 * 1024  # an existing output file memkit reads back
FORBIDDEN = (".git", ".memory")  # top folders no output may be written into


def _read(root: Path, rel: str) -> bytes | None:
    """An output's bytes now (None: absent), read safely: it may hold anything."""
    from memkit.fsutil import read_inside, write_target

    write_target(root, rel, forbidden=FORBIDDEN, links_to=None)  # no link out, into .git/
    try:
        return read_inside(root, rel, limit=MAX_OUTPUT_BYTES)
    except FileNotFoundError:
        return None


def _compose(
    root: Path, out: Output, renderer: Renderer, notes: list[str]
) -> tuple[FileChange, Fitted | None]:
    old = _read(root, out.path)
    old_text = None if old is None else old.decode("utf-8", "surrogateescape")
    if out.whole:
        if old_text is not None and not sections.owns(old_text):
            notes.append(f"{out.path}: left alone: it exists and memkit did not write it")
            return FileChange(out.path, out.target, old, old), None
        fitted = renderer.fit(out, None, old=old_text) if out.memories else None
        text = None if fitted is None else fitted.text
    else:
        fitted = renderer.fit(out, old_text, old=old_text)
        text = fitted.text
    if fitted is not None:
        _note(out, fitted, notes)
    new = None if text is None else text.encode("utf-8", "surrogateescape")
    return FileChange(out.path, out.target, old, new), fitted


def _note(out: Output, f: Fitted, notes: list[str]) -> None:
    if f.over:
        notes.append(f"{out.path}: over its budget of {out.budget} even without memories")
    if not f.index and not f.left_out:
        return
    from memkit.compile.readers import agent_of

    see = f"`memkit compile --explain {agent_of(out.target)}`"
    short = capped((m.id for m in f.index), see=see)
    parts = [f"{len(f.index)} shortened to one line ({short})"] if f.index else []
    if f.left_out:
        cut = capped((m.id for m in f.cut), total=f.left_out, see=see)
        parts.append(f"{f.left_out} left out ({cut})")
    notes.append(
        f"{out.path}: over its budget of {out.budget}: lowest-ranked memories "
        + " and ".join(parts)
    )


def _leftovers(
    root: Path, target: str, everything: Iterable[Memory], planned: Mapping[str, FileChange]
) -> list[str]:
    """Files of `target` from earlier runs that no output claims now."""
    t = TARGETS[target]
    found = [p for p in t.shared if p not in planned]
    for directory, suffix in t.rule_dirs:
        try:
            with os.scandir(root / directory) as it:
                names = sorted(e.name for e in it if e.is_file(follow_symlinks=False))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in names:
            rel = f"{directory}/{name}"
            if name.startswith("memkit") and name.endswith(suffix) and rel not in planned:
                text = _read(root, rel)
                if text is not None and sections.owns(text.decode("utf-8", "replace")):
                    found.append(rel)
    if target == "agents":  # nested AGENTS.md of memories' directories, whatever their status
        for d in sorted({literal_dir(m.paths) for m in everything if m.paths} - {""}):
            if d.split("/")[0] in NEVER_NESTED:
                continue
            rel = f"{d}/AGENTS.md"
            if rel not in planned and (root / rel).is_file():
                found.append(rel)
    return found


def apply(plan: Plan) -> list[str]:
    """Write and delete what the plan says; return the paths changed.

    A file that changed on disk since `build` read it is not touched: MemkitError.
    An output that is a symbolic link inside the repository is written through (the
    link stays a link); two outputs that are one file are refused before any write.
    """
    from memkit.fsutil import write_target

    outputs = _link_targets(plan.root, [f.path for f in plan.files])
    real = {f.path: write_target(plan.root, f.path, forbidden=FORBIDDEN, links_to=outputs)
            for f in plan.changes}  # fmt: skip
    done = []
    for f in plan.changes:
        if _read(plan.root, f.path) != f.old:
            raise MemkitError(f"{f.path} changed while memkit compiled; run `memkit compile` again")
        target = real[f.path]
        if f.new is None:
            if os.path.islink(plan.root / f.path):
                continue  # never delete a link or, through it, another file
            target.unlink()
        else:
            atomic_write(target, f.new, fsync=False)  # derived: `memkit compile` remakes it
        done.append(f.path)
    if plan.pending is not None:
        before, path, stale = plan.pending
        written = {f.path: f.new for f in plan.changes}
        if set(done) == set(written):  # a link left alone: its state is not what was planned
            before.record(path, stale, written)
    return done


def _drop_linked_outputs(root: Path, files: dict[str, FileChange], notes: list[str]) -> None:
    """An output that is a link to another output (`CLAUDE.md -> AGENTS.md`) is left alone.

    The agent reading the link reads the other file, which memkit writes; writing both
    would overwrite one with the other. Two outputs joined otherwise are refused.
    """
    real = {path: (root / path).resolve() for path in files}
    by_real: dict[Path, list[str]] = {}
    for path in sorted(files):
        by_real.setdefault(real[path], []).append(path)
    for _, paths in sorted(by_real.items()):
        if len(paths) < 2:
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


def _refuse_links(root: Path, files: dict[str, FileChange]) -> list[str]:
    """Leave alone every output that is a link (or in a linked folder) to a file that is not
    another output of this compile; one line each naming the link and its target.

    A pull request that turns AGENTS.md into a link to `.github/CODEOWNERS` (or a
    workflow, a deploy script) must not get the compile to rewrite that file.
    """
    from memkit.errors import UnsafePathError
    from memkit.fsutil import write_target

    refused, allowed = [], _link_targets(root, files)
    for path in sorted(files):
        try:
            write_target(root, path, forbidden=FORBIDDEN, links_to=allowed)
        except UnsafePathError as e:
            old = files[path].old
            files[path] = FileChange(path, files[path].target, old, old)
            refused.append(str(e))
    return refused


def _link_targets(root: Path, outputs: Iterable[str]) -> set[str]:
    """Where an output may lead through a link: another output, or a file of an agent's own
    (`AGENTS.md -> .clinerules/architect.md`, a shared file, a rules folder's file)."""
    allowed = set(outputs)
    top = os.path.realpath(root)
    for path in list(allowed):
        real = os.path.realpath(root / path)
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
