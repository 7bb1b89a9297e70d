"""Place: each agent's outputs, composed in the order their budgets depend on each other.

Agents load several files together, so a budget is kept on the whole, not per file:

- Codex concatenates AGENTS.md files from the root down to the working folder and
  stops at 32 KiB: each chain (root to a nested file) keeps within it. The rank
  reserves each file's part, the root keeping at least half for its own; then each
  file, from the root down, fills what its chains leave (memkit.compile.share). The
  root lists the nested files, for an agent started at the root.
- Claude Code in import mode reads AGENTS.md through CLAUDE.md's `@AGENTS.md`:
  CLAUDE.md is composed first and AGENTS.md keeps Claude's budget minus it.
- Windsurf reads AGENTS.md as a rule, within its per-rule limit.

Then every other target gets the memories AGENTS.md does not carry in full, when
its agent reads AGENTS.md itself (targets.Target.reads_agents) or through a link
beside it (`CLAUDE.md -> AGENTS.md`, `docs/CLAUDE.md -> AGENTS.md`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.compile import fit
from memkit.compile import markers as sections
from memkit.compile.budgets import Budget, limits
from memkit.compile.fit import Fitted
from memkit.compile.share import ROOT, folder, room, share
from memkit.compile.targets import NAMES, TARGETS, Context, Output, Settings
from memkit.compile.write import FileChange, leftovers, read

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


@dataclass(frozen=True)
class Placement:
    """Every output of a run as fitted: the file changes, and what each output holds."""

    files: tuple[FileChange, ...]  # in compile order
    placed: tuple[Placed, ...]  # every output with memories, in compile order
    active: frozenset[str]  # the targets compiled


def place(
    memories: Sequence[Memory],
    everything: Sequence[Memory],
    conf: Settings,
    targets: Sequence[str] | None,
    root: Path,
    renderer: Renderer,
    notes: list[str],
) -> Placement:
    """Each agent's outputs of the selected `memories`, fitted in the order their budgets
    depend on each other (module docstring). `targets` (None: the configured ones) are
    compiled; the others get no memories (the files they wrote before are emptied).
    Then the files of earlier runs that no output claims now (nested AGENTS.md of any
    folder of `everything`, the memories whatever their status) are fitted empty."""
    run = Run(root, renderer, conf, set(targets or conf.targets), notes)
    names = list(targets or NAMES)
    run.compose_all(memories, names, bool(targets))
    for name in names:
        for path, old in leftovers(root, name, everything, run.files, run.folders).items():
            run.add(_emptied(name, path), old, keep=True)
    return Placement(tuple(run.files.values()), tuple(run.placed), frozenset(run.active))


class Run:
    def __init__(
        self, root: Path, renderer: Renderer, conf: Settings, active: set[str], notes: list[str]
    ) -> None:
        self.root, self.renderer, self.conf, self.active = root, renderer, conf, active
        self.notes = notes
        self.files: dict[str, FileChange] = {}
        self.placed: list[Placed] = []
        self.folders: dict[str, str] = {}  # real paths of the output folders (write.read)

    def add(
        self, out: Output, old: bytes | None, *, keep: bool
    ) -> tuple[FileChange, Fitted | None]:
        """`out` fitted against `old`, its file's bytes on disk now (None: absent)."""
        change, fitted = compose(out, old, self.renderer, self.notes if keep else [])
        if keep:
            self.files[out.path] = change
        if fitted is not None and out.memories and (keep or out.target == "agents"):
            self.placed.append(
                Placed(
                    out.path,
                    out.target,
                    tuple(m.id for m in fitted.full),
                    tuple(m.id for m in fitted.index),
                    tuple(m.id for m in fitted.cut),
                    str(out.budget),
                    dict(out.context),
                )
            )
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
                change, _ = self.add(
                    out, read(self.root, out.path, self.folders), keep="claude" in names
                )
                if out.path == "CLAUDE.md":
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
            folder(p.path) + "/" for p in self.placed if p.target == "agents" and p.path != ROOT
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
                self.add(out, read(self.root, out.path, self.folders), keep=True)

    def _agents(
        self, outs: list[Output], order: Mapping[str, int], extra: list[Budget], *, keep: bool
    ) -> set[str]:
        """The root AGENTS.md and the nested ones (`outs`, from the root down). With nested
        files and a budget in bytes, Codex's budget covers each chain from the root down:
        `share` reserves each file's part by rank, then each file, from the root down,
        fills what its chains leave (the files above as written, the files below as
        reserved)."""
        from dataclasses import replace

        own = self.conf.budget("agents")
        old = {o.path: read(self.root, o.path, self.folders) for o in outs}
        reserved = None
        if len(outs) > 1 and own.unit == "bytes":  # nested files: Codex's chains
            texts = {o.path: fit.texts(o, _text(old[o.path]), self.renderer) for o in outs}
            reserved = share(outs, texts, order, own, extra)
        written: dict[str, int] = {}  # the length of each file placed so far
        full: set[str] = set()
        for out in outs:
            budget = limits(own, *extra)
            if reserved is not None:
                bytes_ = room(out.path, written, reserved, own.limit)
                budget = limits(Budget(max(1, bytes_), "bytes"), *extra)
                if keep and out.path == "AGENTS.md":
                    self.notes.append(
                        f"AGENTS.md: kept within {budget}, by rank with the nested AGENTS.md "
                        f"files, so that Codex, which stops at {own} for the whole chain, "
                        "still reads the nested AGENTS.md files"
                    )
            change, fitted = self.add(replace(out, budget=budget), old[out.path], keep=keep)
            written[out.path] = len(change.new or b"")
            if fitted is not None:
                full |= {m.id for m in fitted.full}
        return full


def compose(
    out: Output, old: bytes | None, renderer: Renderer, notes: list[str]
) -> tuple[FileChange, Fitted | None]:
    """`out` fitted to its budget against `old`, the file's bytes on disk: the file's change,
    and the fit (None: no fit, as for a file memkit did not write, which is left alone)."""
    old_text = _text(old)
    if out.whole and old_text is not None and not sections.owns(old_text):
        notes.append(f"{out.path}: left alone: it exists and memkit did not write it")
        return FileChange(out.path, out.target, old, old), None
    fitted = fit.fit(out, old_text, renderer)
    notes.extend(fitted.notes)
    new = None if fitted.text is None else fitted.text.encode("utf-8", "surrogateescape")
    return FileChange(out.path, out.target, old, new), fitted


def _emptied(target: str, path: str) -> Output:
    """A file of an earlier run, with no memories now: a shared file keeps the rest of its
    text (none: it goes, when memkit created it), memkit's own file goes."""
    whole = not (path in TARGETS[target].shared or path.endswith("AGENTS.md"))
    return Output(path, target, "", (), limits(), whole=whole)


def _text(old: bytes | None) -> str | None:
    return None if old is None else old.decode("utf-8", "surrogateescape")
