"""Place: each agent's outputs, composed in the order their budgets depend on each other.

Agents load several files together, so a budget is kept on the whole, not per file:

- Codex concatenates AGENTS.md files from the root down to the working folder and
  stops at 32 KiB: each chain (root to a nested file) keeps within it, sharing it by
  rank across its files, the root keeping at least half for its own (`share`); the
  root lists the nested files, for an agent started at the root.
- Claude Code in import mode reads AGENTS.md through CLAUDE.md's `@AGENTS.md`:
  CLAUDE.md is composed first and AGENTS.md keeps Claude's budget minus it.
- Windsurf reads AGENTS.md as a rule, within its per-rule limit.

Then every other target gets the memories AGENTS.md does not carry in full, when
its agent reads AGENTS.md itself (targets.Target.reads_agents).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.compile import markers as sections
from memkit.compile.budgets import Budget, Limits, limits
from memkit.compile.fit import Fitted, fit
from memkit.compile.targets import NAMES, TARGETS, Context, Output, Settings
from memkit.compile.write import FileChange, read

if TYPE_CHECKING:
    from memkit.compile.render import Renderer
    from memkit.memory import Memory


@dataclass(frozen=True)
class Placed:
    """What one output holds: memories in full, shortened to a line, left out; its budget."""

    path: str
    target: str
    full: tuple[str, ...]
    short: tuple[str, ...]
    cut: tuple[str, ...]
    budget: str
    context: Mapping[str, object]


CHAIN_JOIN = 2  # bytes Codex puts between two files of the chain ("\n\n")


@dataclass(frozen=True)
class Placement:
    """Every output of a run as fitted: the file changes, and what each output holds."""

    files: tuple[FileChange, ...]  # in compile order
    placed: tuple[Placed, ...]  # every output with memories, in compile order
    active: frozenset[str]  # the targets compiled


def place(
    memories: Sequence[Memory],
    conf: Settings,
    targets: Sequence[str] | None,
    root: Path,
    renderer: Renderer,
    notes: list[str],
) -> Placement:
    """Each agent's outputs of the selected `memories`, fitted in the order their budgets
    depend on each other (module docstring). `targets` (None: the configured ones) are
    compiled; the others get no memories (the files they wrote before are emptied)."""
    run = Run(root, renderer, conf, set(targets or conf.targets), notes)
    run.compose_all(memories, list(targets or NAMES), bool(targets))
    return Placement(tuple(run.files.values()), tuple(run.placed), frozenset(run.active))


class Run:
    def __init__(
        self, root: Path, renderer: Renderer, conf: Settings, active: set[str], notes: list[str]
    ) -> None:
        self.root, self.renderer, self.conf, self.active = root, renderer, conf, active
        self.notes = notes
        self.files: dict[str, FileChange] = {}
        self.placed: list[Placed] = []

    def add(self, out: Output, *, keep: bool) -> tuple[FileChange, Fitted | None]:
        change, fitted = compose(self.root, out, self.renderer, self.notes if keep else [])
        if keep:
            self.files[out.path] = change
        if fitted is not None and out.memories and (keep or out.target == "agents"):
            self.placed.append(Placed(
                out.path, out.target, tuple(m.id for m in fitted.full),
                tuple(m.id for m in fitted.index), tuple(m.id for m in fitted.cut),
                str(out.budget), dict(out.context),
            ))  # fmt: skip
        return change, fitted

    def compose_all(self, memories: Sequence[Memory], names: list[str], explicit: bool) -> None:
        conf = self.conf
        agents_on = "agents" in self.active or "agents" in conf.targets
        ctx = Context(conf, frozenset(), agents_on)
        extra: list[Budget] = []
        done: set[str] = set()
        claude_import = conf.claude_mode == "import" and agents_on and "claude" in self.active
        if claude_import:  # CLAUDE.md first: Claude reads AGENTS.md through it
            for out in TARGETS["claude"].outputs(memories, ctx):
                change, _ = self.add(out, keep="claude" in names)
                own = conf.budget("claude")
                used = own.measure((change.new or b"").decode("utf-8", "replace"))
                extra.append(Budget(max(1, own.limit - used), own.unit))
            done.add("claude")
        if "windsurf" in self.active and agents_on:
            extra.append(conf.budget("windsurf"))
        in_agents: set[str] = set()
        if agents_on:
            outs = TARGETS["agents"].outputs(memories, ctx)
            order = {m.id: i for i, m in enumerate(memories)}
            in_agents = self._agents(outs, order, extra, keep="agents" in names)
            done.add("agents")
        from memkit.compile.readers import links_to_agents

        folders = [""] + [
            _folder(p.path) + "/" for p in self.placed if p.target == "agents" and p.path != ROOT
        ]
        linked = frozenset(
            f + t.shared[0]
            for t in TARGETS.values()
            for f in dict.fromkeys(folders)
            if t.shared and links_to_agents(self.root, f + t.shared[0])
        )
        ctx = Context(conf, frozenset(in_agents), agents_on, linked)
        for name in names:
            if name in done:
                continue
            wanted = memories if explicit or name in conf.targets else []
            for out in TARGETS[name].outputs(wanted, ctx):
                self.add(out, keep=True)

    def _agents(
        self, outs: list[Output], order: Mapping[str, int], extra: list[Budget], *, keep: bool
    ) -> set[str]:
        """The root AGENTS.md and the nested ones. With nested files and a budget in bytes,
        Codex's budget covers each chain from the root down: `share` reserves each file's
        part by rank, then each file, from the root down, fills what its chains leave
        (the files above as written, the files below as reserved). The root says where
        the nested files are, for an agent started there."""
        from dataclasses import replace

        own = self.conf.budget("agents")
        folders = sorted(_folder(o.path) for o in outs if o.path != "AGENTS.md")
        if folders:
            outs = [
                replace(o, context={**o.context, "folders": folders})
                if o.path == "AGENTS.md" else o
                for o in outs
            ]  # fmt: skip
        outs = sorted(outs, key=lambda o: (o.path.count("/"), o.path))
        reserved = None
        if folders and own.unit == "bytes":
            reserved = share(self.root, outs, order, own, extra, self.renderer)
        written: dict[str, int] = {}  # bytes Codex reads of each file placed so far
        full: set[str] = set()
        for out in outs:
            budget = limits(own, *extra)
            if reserved is not None:
                room = max(reserved[out.path], own.limit - _others(out.path, written, reserved))
                budget = limits(Budget(max(1, room - CHAIN_JOIN), "bytes"), *extra)
                if keep and out.path == "AGENTS.md":
                    self.notes.append(
                        f"AGENTS.md: kept within {budget}, by rank with the nested AGENTS.md "
                        f"files, so that Codex, which stops at {own} for the whole chain, "
                        "still reads the nested AGENTS.md files"
                    )
            change, fitted = self.add(replace(out, budget=budget), keep=keep)
            written[out.path] = len(change.new or b"") + CHAIN_JOIN
            if fitted is not None:
                full |= {m.id for m in fitted.full}
        return full


ROOT_SHARE = 2  # the root AGENTS.md keeps at least 1/ROOT_SHARE of a chain's budget


def share(
    root: Path,
    outs: Sequence[Output],
    order: Mapping[str, int],
    own: Budget,
    extra: Sequence[Budget],
    renderer: Renderer,
) -> dict[str, int]:
    """The bytes each AGENTS.md is sure of (Codex's part between the files included)
    when Codex's budget `own` (in bytes) covers every chain from the root down to a
    nested file: {path: bytes}. What a chain leaves over goes to its files from the
    root down (`Run._agents`).

    Memories keep their rank (`order`: id -> place) across the chain, not their file's
    place in it: the best ranked memories of all the files go in full first, then the
    next ones as one-liners, as far as every chain stays within `own`. The root keeps at
    least 1/ROOT_SHARE of it for its own best memories, whatever the nested files hold:
    every agent reads the root, a nested file only below its folder. `extra` budgets
    (Claude's, Windsurf's) apply to each file alone.
    """
    from memkit.compile.fit import largest, texts

    text = {o.path: texts(o, _existing(root, o.path), renderer) for o in outs}
    ranks = {o.path: [order[m.id] for m in o.memories] for o in outs}
    n = {p: len(r) for p, r in ranks.items()}
    alone = limits(*extra)
    sized: dict[tuple[str, int, int], int] = {}

    def size(path: str, k: int, j: int) -> int:
        if (path, k, j) not in sized:
            sized[path, k, j] = len(text[path](k, j).encode("utf-8")) + CHAIN_JOIN
        return sized[path, k, j]

    def lead(p: str, k: int) -> int:  # room for one one-liner, as fit keeps
        return min(1, n[p] - k) if p in cap else 0

    cap: dict[str, int] = {}  # the most in full each file's own `extra` budgets allow
    for p in text:
        if alone.fits(text[p](0, 0)):
            cap[p] = (
                n[p]
                if not alone.parts
                else largest(functools.partial(_fits_with_lead, alone, text[p], n[p]), n[p])
            )
    chains = [[p for p in text if _above(p, leaf)] for leaf in text if leaf != "AGENTS.md"]

    def over(ks: Mapping[str, int], js: Mapping[str, int]) -> list[list[str]]:
        return [c for c in chains if sum(size(p, ks[p], js[p]) for p in c) > own.limit]

    def in_full(t: int, least: int) -> dict[str, int]:
        """Each file's memories ranked above `t` in full (the root: `least` at least)."""
        ks = {p: min(cap.get(p, 0), sum(1 for r in ranks[p] if r < t)) for p in text}
        ks[ROOT] = max(ks[ROOT], least)
        return ks

    def fits_full(t: int, least: int) -> bool:
        ks = in_full(t, least)
        return not over(ks, {p: lead(p, k) for p, k in ks.items()})

    root_n = cap.get(ROOT, 0)
    least = (
        largest(lambda k: size(ROOT, k, lead(ROOT, k)) <= own.limit // ROOT_SHARE, root_n)
        if root_n and size(ROOT, 0, lead(ROOT, 0)) <= own.limit // ROOT_SHARE
        else 0
    )
    if not fits_full(0, least):
        least = 0
    t = largest(lambda t: fits_full(t, least), len(order)) if fits_full(0, least) else 0
    ks = in_full(t, least)
    leads = {p: lead(p, k) for p, k in ks.items()}
    bad = {p for c in over(ks, leads) for p in c} | {p for p in text if p not in cap}
    if bad:  # over even without memories: no one-liners either
        leads = {p: 0 if p in bad else j for p, j in leads.items()}

    def shortened(u: int) -> dict[str, int]:
        """Each file's memories ranked above `u` and not in full, as one-liners."""
        js = {}
        for p in text:
            got = sum(1 for r in ranks[p][ks[p] :] if r < u)
            if p in cap and alone.parts and got > leads[p]:
                got = largest(functools.partial(_fits_short, alone, text[p], ks[p]), got)
            js[p] = max(leads[p], got) if p not in bad else 0
        return js

    u = largest(lambda d: not over(ks, shortened(t + d)), len(order) - t) if not bad else 0
    js = shortened(t + u)
    if over(ks, js):  # a file's own budget held back better-ranked ones: one-liners as fitted
        js = leads
    return {p: size(p, ks[p], js[p]) for p in text}


def compose(
    root: Path, out: Output, renderer: Renderer, notes: list[str]
) -> tuple[FileChange, Fitted | None]:
    """`out` fitted to its budget against the file on disk: the file's change, and the fit
    (None: no fit, as for a file memkit did not write, which is left alone)."""
    old = read(root, out.path)
    old_text = None if old is None else old.decode("utf-8", "surrogateescape")
    if out.whole:
        if old_text is not None and not sections.owns(old_text):
            notes.append(f"{out.path}: left alone: it exists and memkit did not write it")
            return FileChange(out.path, out.target, old, old), None
        fitted = fit(out, None, renderer) if out.memories else None
        text = None if fitted is None else fitted.text
    else:
        fitted = fit(out, old_text, renderer)
        text = fitted.text
    if fitted is not None:
        notes.extend(fitted.notes)
    new = None if text is None else text.encode("utf-8", "surrogateescape")
    return FileChange(out.path, out.target, old, new), fitted


ROOT = "AGENTS.md"


def _fits_with_lead(budget: Limits, text: Callable[[int, int], str], n: int, k: int) -> bool:
    return budget.fits(text(k, min(1, n - k)))


def _fits_short(budget: Limits, text: Callable[[int, int], str], k: int, j: int) -> bool:
    return budget.fits(text(k, j))


def _others(path: str, written: Mapping[str, int], reserved: Mapping[str, int]) -> int:
    """The most bytes the other files of a chain through `path` take: the files above
    it as written, the files below it as reserved."""
    return max(
        (
            sum(written.get(q, reserved[q]) for q in reserved if q != path and _above(q, leaf))
            for leaf in reserved
            if leaf != ROOT and _above(path, leaf)
        ),
        default=0,
    )


def _existing(root: Path, path: str) -> str | None:
    old = read(root, path)
    return None if old is None else old.decode("utf-8", "surrogateescape")


def _above(path: str, leaf: str) -> bool:
    """Whether Codex, started in `leaf`'s folder, reads the AGENTS.md at `path`."""
    folder = _folder(path)
    return not folder or path == leaf or leaf.startswith(folder + "/")


def _folder(path: str) -> str:
    return path.rpartition("/")[0] if path != "AGENTS.md" else ""
