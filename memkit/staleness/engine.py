"""The git-aware check: how each link changed since its fingerprint was recorded.

Fingerprints are the truth; git only narrows the work. Files git says did not
change since the recorded commit are known unchanged without being read; the rest
are parsed and compared. Missing symbols are looked for, by body, in the same file
and in every file that changed (which includes where moved code went).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from memkit.staleness import anchors
from memkit.staleness.fingerprints import SymbolPrint, compare_symbol, digest, parse_print
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


class Found(NamedTuple):
    """What the engine found for one link (the fields of a LinkStatus but link and since)."""

    state: str
    moved_to: str | None = None
    candidates: tuple[str, ...] = ()
    change: str | None = None
    reason: str | None = None


REMOVED = Found("removed")


class Evaluator:
    """Link states against one snapshot, given what changed to reach it (None: unknown).

    `gap`: why what changed is unknown when the history is not in this clone (a shallow
    clone without the commit links were verified at). A link whose code is not where it
    was is then, like one whose history a partial clone could not fetch, `unverified`
    with the reason, rather than `removed` or an ambiguous move a full clone would not
    report: this clone cannot see what a full one would.
    """

    def __init__(self, snap: Snapshot, changes: TreeChanges | None, gap: str | None = None) -> None:
        self.snap = snap
        self.changes = changes
        self.gap = gap
        self._old: dict[str, Snapshot] = {}
        self._candidates: tuple[object, list[str]] | None = None  # (changes, code paths)
        self._new: dict[tuple[int, str], list[tuple[str, tuple[str, ...], Counter[str]]]] = {}

    def state(self, text: str, recorded: str, since: str | None) -> LinkStatus:
        anchored = anchors.state(self.snap, self.changes, text, recorded, since)
        if anchored is not None:  # dependencies, config keys, commands, env variables
            return anchored
        link = Link.parse(text)
        gpath = self.snap.git_path(link.path)
        if self.changes is not None and not self.changes.touches(gpath):
            return LinkStatus(text, "unchanged", None, since)
        found = self._evaluate(link, recorded, since)
        if found.state == "removed" or (found.state == "moved" and found.moved_to is None):
            blind = self._blind(link, since)
            if blind is not None:
                return LinkStatus(text, "unverified", None, since, reason=blind)
        return LinkStatus(
            text, found.state, found.moved_to, since, found.candidates, found.change, found.reason
        )

    def _blind(self, link: Link, since: str | None) -> str | None:
        """Why this clone cannot tell where the code of `link` went (None: it can)."""
        where = f"memkit cannot tell where {link} went"
        if link.path in self.snap.missing:
            return f"memkit cannot read {link}: {self.snap.missing[link.path]}"
        if self.gap is not None:
            return f"{where}: {self.gap}"
        path = self.snap.git_path(link.path)
        if self.changes is not None and self.changes.unseen and path in self.changes.deleted:
            _, why = min(self.changes.unseen.items())
            return f"{where} (renamed or removed): {why}"
        old = self._old.get(since) if since is not None else None
        if old is None or since is None:  # the older code was not needed
            return None
        if link.path in old.missing:
            return f"{where}: {old.missing[link.path]}"
        from memkit.git import missing_commit

        gap = missing_commit(self.snap.repo, since)
        return None if gap is None else f"{where}: {gap}"

    def _evaluate(self, link: Link, recorded: str, since: str | None) -> Found:
        renamed = self.changes.renamed.get(self.snap.git_path(link.path)) if self.changes else None
        if renamed is not None:
            new = link.at(self.snap.local_path(renamed))
            if link.symbol is None:
                return Found("moved", str(new))
            return self._find_moved(link, recorded, since, first=new.path)
        try:
            parsed = self.snap.parsed(link.path)
        except Unparsable:
            return Found("body" if link.symbol else "changed")
        if parsed is None:
            refused = self.snap.refusal((link.path,))
            if refused is not None:  # there, but over a limit: not removed
                return Found("unreadable", reason=refused)
            if link.symbol is None:
                return REMOVED
            return self._find_moved(link, recorded, since)
        if link.symbol is None or language_of(link.path) is None:
            return Found("unchanged" if recorded == parsed.file else "changed")
        now = parsed.symbols.get(link.symbol)
        if now is None:
            return self._find_moved(link, recorded, since)
        return Found(compare_symbol(recorded, now))

    def _find_moved(
        self, link: Link, recorded: str, since: str | None, first: str | None = None
    ) -> Found:
        """Where the symbol's code went: same name in a renamed file, the same body
        elsewhere, else very similar new code (nearmove)."""
        before = parse_print(recorded)
        if before is None:
            return REMOVED
        if first is not None:
            found = self._at(first, str(link.symbol), recorded)
            if found is not None:
                return found
        paths = self._search_paths(link.path, first)
        exact: list[tuple[int, str, str]] = []
        for path in paths:
            parsed = self.snap.try_parsed(path)
            if parsed is None:
                continue
            for name in parsed.find_body(before.body):
                if (path, name) == (link.path, link.symbol):
                    continue
                now = parsed.symbols[name]
                score = (0 if before.sig == now.sig else 2) + (
                    0 if _last(name) == _last(link.symbol) else 1
                )
                if _small(before, parsed.body_size(name)) and (
                    score or not self._arrived(path, name, since, first)
                ):
                    continue  # a tiny body alone identifies nothing
                exact.append((score, path, name))
        if exact:
            low = min(score for score, _, _ in exact)
            top = self._prefer([(p, n) for score, p, n in exact if score == low], since, first)
            if len(top) > 1:
                return Found("moved", None, tuple(sorted(f"{p}::{n}" for p, n in top)))
            path, name = top[0]
            return self._at(path, name, recorded) or REMOVED
        found = self._near(link, since, paths, recorded, first)
        if found is REMOVED and first is None:
            return self._successor(link, since, paths, recorded)
        return found

    def _prefer(
        self, top: list[tuple[str, str]], since: str | None, first: str | None
    ) -> list[tuple[str, str]]:
        """Equally good targets narrowed by history: the one in the file git says the
        linked file became, else the one that arrived since the verified commit."""
        top = sorted(top)
        if len(top) > 1:
            for keep in (
                [t for t in top if t[0] == first],
                [t for t in top if self._arrived(t[0], t[1], since, first)],
            ):
                if len(keep) == 1:
                    return keep
        return top

    def _arrived(self, path: str, name: str, since: str | None, first: str | None) -> bool:
        """Whether `path::name` is new since `since` (True when that is unknown)."""
        if path == first:
            return True
        old = self._old_snapshot(since)
        if old is None:
            return True
        was = old.try_parsed(path)
        return was is None or name not in was.symbols

    def _at(self, path: str, name: str, recorded: str) -> Found | None:
        parsed = self.snap.try_parsed(path)
        if parsed is None or name not in parsed.symbols:
            return None
        return Found(
            "moved", f"{path}::{name}", change=compare_symbol(recorded, parsed.symbols[name])
        )

    def _near(
        self, link: Link, since: str | None, paths: list[str], recorded: str, first: str | None
    ) -> Found:
        """The new symbol most like the missing one, by tokens (see nearmove)."""
        from memkit.staleness import nearmove

        old = self._old_snapshot(since)
        was = old.try_parsed(link.path) if old is not None else None
        tokens = was.tokens(str(link.symbol)) if was is not None else ()
        if old is None or len(tokens) < nearmove.MIN_TOKENS:
            return REMOVED
        bag = Counter(tokens)
        found = []
        for path in paths:
            for name, theirs, their_bag in self._new_symbols(old, path):
                score = nearmove.similarity(tokens, theirs, (bag, their_bag))
                if score >= nearmove.NEAR:
                    found.append(nearmove.Candidate(path, name, score))
        best, ties = nearmove.best(found, str(link.symbol))
        if ties and first is not None:
            mine = [c for c in found if f"{c.path}::{c.name}" in ties and c.path == first]
            best = mine[0] if len(mine) == 1 else None
        if best is not None:
            return self._at(best.path, best.name, recorded) or REMOVED
        return Found("moved", None, ties) if ties else REMOVED

    def _successor(self, link: Link, since: str | None, paths: list[str], recorded: str) -> Found:
        """Where a deleted file's symbol went with most of the file's names (nearmove)."""
        from memkit.staleness import nearmove

        old = self._old_snapshot(since)
        was = old.try_parsed(link.path) if old is not None else None
        if was is None or self.snap.try_parsed(link.path) is not None:
            return REMOVED
        name = str(link.symbol)
        files = []
        for path in paths:
            parsed = self.snap.try_parsed(path) if path != link.path else None
            if parsed is not None and self._arrived(path, name, since, None):
                files.append((path, set(parsed.symbols)))
        went = nearmove.successor(set(was.symbols), name, files)
        return (self._at(went, name, recorded) if went else None) or REMOVED

    def _new_symbols(
        self, old: Snapshot, path: str
    ) -> list[tuple[str, tuple[str, ...], Counter[str]]]:
        """(name, tokens, their Counter) of each symbol of `path` absent from it in `old`
        (where moved code may have gone), worked out once per file and older snapshot."""
        key = (id(old), path)
        if key not in self._new:
            parsed = self.snap.try_parsed(path)
            found = []
            if parsed is not None:
                before = old.try_parsed(path)
                for name in parsed.symbols:
                    if before is None or name not in before.symbols:
                        tokens = parsed.tokens(name)
                        found.append((name, tokens, Counter(tokens)))
            self._new[key] = found
        return self._new[key]

    def _old_snapshot(self, since: str | None) -> Snapshot | None:
        """The code as it was when the link was verified (None: unknown)."""
        if since is None or self.snap.repo is None:
            return None
        if since not in self._old:
            self._old[since] = Snapshot(self.snap.root, self.snap.repo, since)
        return self._old[since]

    def _search_paths(self, origin: str, first: str | None) -> list[str]:
        """Where moved code may be: `first`, `origin`, then every changed code file."""
        paths = [p for p in (first, origin) if p is not None]
        return paths + [p for p in self._code_paths() if p not in paths]

    def _code_paths(self) -> list[str]:
        """The code files new or changed on this side (every tracked one when what
        changed is unknown), in path order; worked out once for each `changes`."""
        if self._candidates is not None and self._candidates[0] is self.changes:
            return self._candidates[1]
        if self.changes is not None:
            others = sorted(self.snap.local_path(p) for p in self.changes.new_paths())
        elif self.snap.repo is not None:
            from memkit.git import tracked_paths

            others = [self.snap.local_path(p) for p in tracked_paths(self.snap.repo)]
        else:
            others = []
        code = [p for p in dict.fromkeys(others) if language_of(p) is not None]
        self._candidates = (self.changes, code)
        return code


def _last(symbol: str | None) -> str:
    return (symbol or "").rsplit(".", 1)[-1]


MIN_BODY_TOKENS = 4  # a body of fewer tokens (braces aside) is too common to identify code


def _small(before: SymbolPrint, size: int | None) -> bool:
    """Whether a body is too small to tell where code went by it alone: `pass`, `{}`,
    `= null`, `return undefined` (matched only under the same name and signature, by
    code that arrived since the verified commit)."""
    return before.body in TRIVIAL_BODIES or (size is not None and size < MIN_BODY_TOKENS)


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
