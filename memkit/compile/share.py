"""Codex's AGENTS.md chains: one budget for the files from the root down to a folder.

Codex concatenates AGENTS.md files from the root down to the folder it starts in and
stops at 32 KiB. `share` reserves each file's part of that budget by rank across the
chain, the root keeping at least half for its own best memories; `room` gives a file,
placed from the root down, what its chains leave over (memkit.compile.chains).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from memkit.compile.budgets import Budget, Limits, limits

if TYPE_CHECKING:
    from memkit.compile.targets import Output

ROOT = "AGENTS.md"
CHAIN_JOIN = 2  # bytes Codex puts between two files of the chain ("\n\n")
ROOT_SHARE = 2  # the root AGENTS.md keeps at least 1/ROOT_SHARE of a chain's budget


def share(
    outs: Sequence[Output],
    texts: Mapping[str, Callable[[int, int], str]],
    order: Mapping[str, int],
    own: Budget,
    extra: Sequence[Budget],
) -> dict[str, int]:
    """The bytes each AGENTS.md is sure of (Codex's part between the files included)
    when Codex's budget `own` (in bytes) covers every chain from the root down to a
    nested file: {path: bytes}. What a chain leaves over goes to its files from the
    root down (`Run._agents`). `texts` gives each file's text with its first k memories
    in full and the next j as one-liners (memkit.compile.fit.texts).

    Memories keep their rank (`order`: id -> place) across the chain, not their file's
    place in it: the best ranked memories of all the files go in full first, then the
    next ones as one-liners, as far as every chain stays within `own`. The root keeps at
    least 1/ROOT_SHARE of it for its own best memories, whatever the nested files hold:
    every agent reads the root, a nested file only below its folder. `extra` budgets
    (Claude's, Windsurf's) apply to each file alone.
    """
    from memkit.compile.fit import largest

    c = _Chains(outs, texts, order, own.limit, limits(*extra))
    least = c.root_least()
    if not c.fits_full(0, least):
        least = 0
    t = largest(lambda t: c.fits_full(t, least), len(order)) if c.fits_full(0, least) else 0
    ks = c.in_full(t, least)
    leads = {p: c.lead(p, k) for p, k in ks.items()}
    bad = {p for chain in c.over(ks, leads) for p in chain} | {p for p in c.text if p not in c.cap}
    if bad:  # over even without memories: no one-liners either
        leads = {p: 0 if p in bad else j for p, j in leads.items()}
        js = leads
    else:
        u = largest(lambda d: not c.over(ks, c.shortened(ks, leads, t + d)), len(order) - t)
        js = c.shortened(ks, leads, t + u)
        if c.over(ks, js):  # a file's own budget held back better-ranked ones: as fitted
            js = leads
    return {p: c.size(p, ks[p], js[p]) for p in c.text}


class _Chains:
    """Codex's chains of AGENTS.md files, and what each file measures with its `k` best
    memories in full and the next `j` as one-liners (`share`)."""

    def __init__(
        self,
        outs: Sequence[Output],
        texts: Mapping[str, Callable[[int, int], str]],
        order: Mapping[str, int],
        limit: int,
        alone: Limits,
    ) -> None:
        from memkit.compile.fit import largest

        self.text = {o.path: texts[o.path] for o in outs}
        self.ranks = {o.path: [order[m.id] for m in o.memories] for o in outs}
        self.limit, self.alone = limit, alone
        self.sized: dict[tuple[str, int, int], int] = {}
        self.cap: dict[str, int] = {}  # the most in full each file's own `alone` budgets allow
        for p, text in self.text.items():
            n = len(self.ranks[p])
            if alone.fits(text(0, 0)):
                with_lead = functools.partial(_fits_with_lead, alone, text, n)
                self.cap[p] = largest(with_lead, n) if alone.parts else n
        self.chains = [
            [p for p in self.text if _above(p, leaf)] for leaf in self.text if leaf != ROOT
        ]

    def size(self, p: str, k: int, j: int) -> int:
        if (p, k, j) not in self.sized:
            self.sized[p, k, j] = len(self.text[p](k, j).encode("utf-8")) + CHAIN_JOIN
        return self.sized[p, k, j]

    def lead(self, p: str, k: int) -> int:
        """Room for one one-liner, as fit keeps."""
        return min(1, len(self.ranks[p]) - k) if p in self.cap else 0

    def over(self, ks: Mapping[str, int], js: Mapping[str, int]) -> list[list[str]]:
        return [c for c in self.chains if sum(self.size(p, ks[p], js[p]) for p in c) > self.limit]

    def root_least(self) -> int:
        """The most of the root's best memories in full within 1/ROOT_SHARE of the budget."""
        from memkit.compile.fit import largest

        half = self.limit // ROOT_SHARE
        n = self.cap.get(ROOT, 0)
        if not n or self.size(ROOT, 0, self.lead(ROOT, 0)) > half:
            return 0
        return largest(lambda k: self.size(ROOT, k, self.lead(ROOT, k)) <= half, n)

    def in_full(self, t: int, least: int) -> dict[str, int]:
        """Each file's memories ranked above `t` in full (the root: `least` at least)."""
        ks = {
            p: min(self.cap.get(p, 0), sum(1 for r in rs if r < t)) for p, rs in self.ranks.items()
        }
        ks[ROOT] = max(ks[ROOT], least)
        return ks

    def fits_full(self, t: int, least: int) -> bool:
        ks = self.in_full(t, least)
        return not self.over(ks, {p: self.lead(p, k) for p, k in ks.items()})

    def shortened(self, ks: Mapping[str, int], leads: Mapping[str, int], u: int) -> dict[str, int]:
        """Each file's memories ranked above `u` and not in full, as one-liners."""
        from memkit.compile.fit import largest

        js = {}
        for p, rs in self.ranks.items():
            got = sum(1 for r in rs[ks[p] :] if r < u)
            if p in self.cap and self.alone.parts and got > leads[p]:
                short = functools.partial(_fits_short, self.alone, self.text[p], ks[p])
                got = largest(short, got)
            js[p] = max(leads[p], got)
        return js


def room(path: str, written: Mapping[str, int], reserved: Mapping[str, int], limit: int) -> int:
    """The bytes the AGENTS.md at `path` may take, placed from the root down: what its
    chains leave of `limit`, the files above it as `written` (their lengths), the files
    below as `reserved` (`share`); never less than its own reservation."""
    others = max(
        (
            sum(
                written[q] + CHAIN_JOIN if q in written else reserved[q]
                for q in reserved
                if q != path and _above(q, leaf)
            )
            for leaf in reserved
            if leaf != ROOT and _above(path, leaf)
        ),
        default=0,
    )
    return max(reserved[path], limit - others) - CHAIN_JOIN


def _fits_with_lead(budget: Limits, text: Callable[[int, int], str], n: int, k: int) -> bool:
    return budget.fits(text(k, min(1, n - k)))


def _fits_short(budget: Limits, text: Callable[[int, int], str], k: int, j: int) -> bool:
    return budget.fits(text(k, j))


def _above(path: str, leaf: str) -> bool:
    """Whether Codex, started in `leaf`'s folder, reads the AGENTS.md at `path`."""
    above = folder(path)
    return not above or path == leaf or leaf.startswith(above + "/")


def folder(path: str) -> str:
    """The folder of an AGENTS.md ("" for the root one)."""
    return path.rpartition("/")[0] if path != ROOT else ""
