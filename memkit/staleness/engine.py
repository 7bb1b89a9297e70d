"""The git-aware check: how each link changed since its fingerprint was recorded.

Fingerprints are the truth; git only narrows the work. Files git says did not
change since the recorded commit are known unchanged without being read; the rest
are parsed and compared. Missing symbols are looked for, by body, in the same file
and in every file that changed (which includes where moved code went).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from memkit.staleness import anchors
from memkit.staleness.fingerprints import (
    SymbolPrint,
    compare_file,
    compare_symbol,
    digest,
    parse_print,
)
from memkit.staleness.links import Link, language_of
from memkit.staleness.parsed import Unparsable
from memkit.staleness.snapshot import Snapshot
from memkit.staleness.verdict import LinkStatus

if TYPE_CHECKING:
    from memkit.git import TreeChanges

# Body digests too common to identify moved code by (empty, only a docstring, `pass`, `...`).
TRIVIAL_BODIES = frozenset(
    digest(b)
    for b in (
        "",
        "[]",
        "[Pass()]",
        "[Expr(value=Constant(value=Ellipsis))]",
        "{\x1f}",
        "{\x1f}\x1f;",
    )
)


class Evaluator:
    """Link states against one snapshot, given what changed to reach it (None: unknown)."""

    def __init__(self, snap: Snapshot, changes: TreeChanges | None) -> None:
        self.snap = snap
        self.changes = changes

    def state(self, text: str, recorded: str | None, since: str | None) -> LinkStatus:
        if recorded is None:
            return LinkStatus(text, "unverified", None, since)
        found = anchors.state(self.snap, self.changes, text, recorded, since)
        if found is not None:  # dependencies, config keys, commands, env variables
            return found
        link = Link.parse(text)
        gpath = self.snap.git_path(link.path)
        if self.changes is not None and not self.changes.touches(gpath):
            return LinkStatus(text, "unchanged", None, since)
        state, moved = self._evaluate(link, recorded)
        return LinkStatus(text, state, moved, since)

    def _evaluate(self, link: Link, recorded: str) -> tuple[str, str | None]:
        renamed = self.changes.renamed.get(self.snap.git_path(link.path)) if self.changes else None
        if renamed is not None:
            new = link.at(self.snap.local_path(renamed))
            if link.symbol is None:
                return "moved", str(new)
            return self._find_moved(link, recorded, first=new.path)
        try:
            parsed = self.snap.parsed(link.path)
        except Unparsable:
            return ("body" if link.symbol else "changed"), None
        if parsed is None:
            if link.symbol is None:
                return "removed", None
            return self._find_moved(link, recorded)
        if link.symbol is None or language_of(link.path) is None:
            return compare_file(recorded, parsed.file), None
        now = parsed.symbols.get(link.symbol)
        if now is None:
            return self._find_moved(link, recorded)
        return compare_symbol(recorded, now), None

    def _find_moved(
        self, link: Link, recorded: str, first: str | None = None
    ) -> tuple[str, str | None]:
        """Where the symbol's code went: same name in a renamed file, else a body match."""
        before = parse_print(recorded)
        if before is None:
            return "removed", None
        if first is not None:
            parsed = self.snap.try_parsed(first)
            if parsed is not None and link.symbol in parsed.symbols:
                return "moved", str(Link(first, link.symbol))
        best: tuple[int, str, str] | None = None
        for path in self._search_paths(link.path, first):
            parsed = self.snap.try_parsed(path)
            if parsed is None:
                continue
            for name in parsed.find_body(before.body):
                if (path, name) == (link.path, link.symbol):
                    continue
                score = _score(before, parsed.symbols[name], name == _last(link.symbol))
                if score is not None and (best is None or score < best[0]):
                    best = (score, path, name)
        if best is None:
            return "removed", None
        return "moved", str(Link(best[1], best[2]))

    def _search_paths(self, origin: str, first: str | None) -> list[str]:
        paths = [p for p in (first, origin) if p is not None]
        if self.changes is not None:
            others = sorted(self.snap.local_path(p) for p in self.changes.new_paths())
        elif self.snap.repo is not None:
            from memkit.git import tracked_paths

            others = [self.snap.local_path(p) for p in tracked_paths(self.snap.repo)]
        else:
            others = []
        for p in others:
            if p not in paths and language_of(p) is not None:
                paths.append(p)
        return paths


def _last(symbol: str | None) -> str:
    return (symbol or "").rsplit(".", 1)[-1]


def _score(before: SymbolPrint, now: SymbolPrint, same_name: bool) -> int | None:
    """Lower is a better match; None when a trivial body alone would be a guess."""
    same_sig = before.sig == now.sig
    if before.body in TRIVIAL_BODIES and not (same_sig and same_name):
        return None
    return (0 if same_sig else 2) + (0 if same_name else 1)


def link_states(
    evaluator: Evaluator,
    links: Sequence[str],
    recorded: dict[str, str] | None,
    since: str | None,
) -> tuple[LinkStatus, ...]:
    return tuple(
        evaluator.state(text, None if recorded is None else recorded.get(text), since)
        for text in links
    )


def current_print(snap: Snapshot, text: str) -> str | None:
    """The fingerprint of a link in a snapshot, None when its file or symbol is missing."""
    if anchors.is_anchor(text):
        return anchors.current_print(snap, text)
    link = Link.parse(text)
    try:
        parsed = snap.parsed(link.path)
    except Unparsable:
        return None
    if parsed is None:
        return None
    if link.symbol is None or language_of(link.path) is None:
        return parsed.file
    found = parsed.symbols.get(link.symbol)
    return None if found is None else str(found)


def touched(changes: TreeChanges, snap: Snapshot, links: Iterable[str]) -> list[str]:
    return [
        t
        for t in links
        if (
            anchors.touches(changes, snap, t)
            if anchors.is_anchor(t)
            else changes.touches(snap.git_path(Link.parse(t).path))
        )
    ]
