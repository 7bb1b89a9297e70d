"""Memories -> each agent's instruction files. `build` returns a Plan; `apply` writes it.

`build` reads the store and the current output files and computes every file's new
bytes (or its deletion) without writing anything; `apply` writes only files whose
bytes change. Staleness comes in as an argument (`statuses`), so the compiler does
no git work of its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memkit.compile.budgets import select
from memkit.compile.chains import Placed, place
from memkit.compile.render import Renderer
from memkit.compile.targets import NAMES, settings
from memkit.compile.write import FileChange, Pending, settle
from memkit.errors import MemkitError
from memkit.memory import Memory
from memkit.staleness.verdict import MemoryStatus
from memkit.store import Loaded, Store

__all__ = ["FileChange", "Plan", "apply", "build", "plan"]


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
    pending: Pending | None = field(default=None, compare=False, repr=False)  # see Pending

    @property
    def changes(self) -> tuple[FileChange, ...]:
        return tuple(f for f in self.files if f.action != "unchanged")


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
    is the store's content when the caller has already read it. The stages, in
    order: select the memories, place them per agent and fit each file to its
    budgets (chains: AGENTS.md first, within every budget of the agents that load
    it), render (render, through fit), and settle what to write (write).
    """
    conf = settings(store.config.section("compile"), store.config.path or "config.toml")
    for name in targets or ():
        if name not in NAMES:
            raise MemkitError(f"unknown target {name!r}; use one of: {', '.join(NAMES)}")
    loaded = loaded or store.load()
    notes: list[str] = []
    invalid = tuple(sorted({p.path for p in loaded.problems}))
    if invalid:
        notes.append(f"left out {len(invalid)} invalid memory file(s); run `memkit validate`")
    memories = select(loaded.memories, today, store.root)
    renderer = Renderer(store.root, statuses or {}, store.private_dir() / "templates")
    with renderer.bounds():
        placement = place(memories, loaded.memories, conf, targets, store.root, renderer, notes)
    stale = sum(1 for m in memories if (s := (statuses or {}).get(m.id)) and s.stale)
    if stale:
        notes.append(f"{stale} memory(ies) marked possibly out of date (code changed)")
    files, refused = settle(store.root, placement.files, notes)
    from memkit.compile.readers import report

    on = tuple(sorted(placement.active | set(conf.targets)))
    avoidable, facts = report(placement.placed, on, store.root)
    notes.extend(avoidable)
    return Plan(
        store.root,
        files,
        tuple(notes),
        placement.placed,
        memories,
        on,
        tuple(facts),
        invalid,
        refused,
    )


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

    from memkit.compile.current import NAME, Before, Outcome
    from memkit.sharing import load_all

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
        said = Outcome(built.notes, len(built.files))
        path = str(store.private_dir() / NAME)
        pending = Pending(before, path, stale_warnings(statuses), said)
        if not built.changes:
            before.record(pending.path, pending.stale, said)
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
    from memkit.sharing import load_all

    return stale_warnings(_statuses(store, load_all(store).memories, today)[0])


def apply(plan: Plan) -> list[str]:
    """Write and delete what the plan says; return the paths changed (memkit.compile.write)."""
    from memkit.compile import write

    return write.apply(plan.root, plan.files, plan.pending)
