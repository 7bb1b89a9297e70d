"""Recording fingerprints: `memkit add --link` and `memkit verify`.

One Fingerprinter reads one state of the work tree: the repository is opened once and
each linked file parsed once, however many memories link into it. `verify_store`
verifies every memory it can: a bad link costs only its own memory, reported as a
Problem naming the memory file's line, and the good ones are written under one lock.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit import git
from memkit.errors import MemkitError
from memkit.gcpause import paused
from memkit.memory import Verification
from memkit.staleness import anchors
from memkit.staleness.anchors.hints import near
from memkit.staleness.links import SUPPORTED, Link, language_of
from memkit.staleness.parsed import LinkError, Parsed, Unparsable
from memkit.staleness.snapshot import WORKTREE, Snapshot

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.staleness.printcache import PrintCache
    from memkit.staleness.verdict import LinkStatus
    from memkit.store import Store


class Fingerprinter:
    """Fingerprints of links in the work tree at `root`, recorded at HEAD."""

    def __init__(self, root: Path, prints: PrintCache | None = None) -> None:
        from memkit.git.plain import head

        root = Path(root).resolve()
        known = head(root)  # the git command answers in a few ms; loading pygit2 takes ~50
        if known is not None:
            self.commit: str | None = known[0]
            self.snap = Snapshot.of_worktree(root, known[1], lambda: git.find_repo(root), prints)
            return
        repo = git.find_repo(root)  # no commits yet, no repository or no git: pygit2 says which
        self.snap = Snapshot(root, repo, WORKTREE, prints)
        self.commit = git.head_commit(repo) if repo is not None else None

    def prints(self, links: Sequence[str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
        """The fingerprints of the good links, and (link, message) for each bad one."""
        prints: dict[str, str] = {}
        bad: list[tuple[str, str]] = []
        for text in links:
            try:
                prints[text] = self.print(text)
            except LinkError as e:
                bad.append((text, str(e)))
        return prints, bad

    def print(self, text: str) -> str:
        """The fingerprint of one link; LinkError saying what is wrong and how to fix it."""
        if anchors.is_anchor(text):  # dependencies, config keys, commands, env variables
            return anchors.record(self.snap, text)
        link, parsed = self._parsed(text)
        if link.symbol is None:
            return parsed.file
        found = parsed.symbols.get(link.symbol)
        if found is None:
            hint = near(link.symbol, parsed.symbols, cutoff=0.6)
            raise LinkError(
                f"link {text!r}: {link.path} defines no symbol {link.symbol!r}{hint}; "
                "name a function or class as `path::name`, a method as `path::Class.method`"
            )
        return str(found)

    def resolves(self, text: str) -> bool:
        """Whether print(text) would give a fingerprint, worked out without the costly
        part: a whole file's fingerprint, or the message saying why not (link suggestions
        ask this of every reference of every memory an import creates)."""
        if anchors.is_anchor(text):
            return anchors.current_print(self.snap, text) is not None
        try:
            link, parsed = self._parsed(text)
        except LinkError:
            return False
        return link.symbol is None or link.symbol in parsed.symbols

    def _parsed(self, text: str) -> tuple[Link, Parsed]:
        """The link to a file or symbol and its file parsed; LinkError when it has none."""
        snap = self.snap
        link = Link.parse(text)
        if link.symbol is not None and language_of(link.path) is None:
            raise LinkError(
                f"link {text!r}: symbol links work in {SUPPORTED} files only; "
                f"link the whole file instead (`--link {link.path}`)"
            )
        try:
            parsed = snap.parsed(link.path)
        except Unparsable as e:
            raise LinkError(f"link {text!r}: {e}; fix the file or link it differently") from None
        refused = snap.refusal((link.path,)) if parsed is None else None
        if refused is not None:
            raise LinkError(f"link {text!r}: {refused}")
        if parsed is None and snap.outside(link.path):
            raise LinkError(
                f"link {text!r}: {link.path} is a symbolic link to "
                f"{(snap.root / link.path).resolve()}, outside {snap.root}; memkit reads only "
                "inside the repository: link the real file instead"
            )
        if parsed is None and (snap.root / link.path).is_dir():
            raise LinkError(
                f"link {text!r}: {link.path} is a folder; a link names a file (or a symbol in "
                f"one): link the files that matter, or scope the memory with `paths: "
                f"[{link.path.rstrip('/')}/**]`"
            )
        if parsed is None:
            raise LinkError(
                f"link {text!r}: no file {link.path} in {snap.root}; "
                "write the path relative to the repository root"
            )
        return link, parsed


@dataclass(frozen=True)
class Problem:
    """A memory `verify` could not record: where (file:line), which link, how to fix it."""

    id: str
    where: str
    message: str
    unreadable: bool = False  # the memory file itself is invalid: no link of it was read

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass(frozen=True)
class Verified:
    """What `verify_store` did: the memories written, the problems, and the memories
    whose links, paths and fingerprints were already as recorded (left untouched)."""

    saved: tuple[Memory, ...]
    problems: tuple[Problem, ...]
    unchanged: tuple[Memory, ...] = ()


@paused()
def fingerprint(root: Path, links: Sequence[str], *, today: dt.date | None = None) -> Verification:
    """Fingerprints of `links` in the work tree, at HEAD; one LinkError naming every bad
    link (one a line)."""
    printer = Fingerprinter(root)
    prints, bad = printer.prints(links)
    if bad:
        raise LinkError("\n".join(message for _, message in bad))
    return Verification(printer.commit, today, prints)


def verify(
    store: Store, ids: Iterable[str] | None, *, today: dt.date, follow: bool = False
) -> list[Memory]:
    """Like verify_store, then MemkitError naming every problem (the good ones are saved)."""
    done = verify_store(store, ids, today=today, follow=follow)
    if done.problems:
        raise MemkitError("\n".join(str(p) for p in done.problems))
    return list(done.saved)


@paused()
def verify_store(
    store: Store, ids: Iterable[str] | None, *, today: dt.date, follow: bool = False
) -> Verified:
    """Re-fingerprint every memory it can (all with links when `ids` is None), under
    the store lock.

    With `follow`, links to moved code are first rewritten to where it went. A memory
    with a bad link is left as it was and reported; the others are written.
    """
    from memkit.staleness.printcache import PrintCache

    with store.lock():
        mems, unreadable = _chosen(store, ids)
        moved = _moves(store, mems, today) if follow else {}
        kept = PrintCache.of(store)
        printer = Fingerprinter(store.root, kept)
        changed: list[Memory] = []
        unchanged: list[Memory] = []
        bad: list[tuple[Memory, str, str]] = []  # a link not fingerprinted, and why
        for mem in mems:
            links, paths = _followed(mem, moved.get(mem.id, {}))
            prints, wrong = printer.prints(links)
            bad += [(mem, link, message) for link, message in wrong]
            if wrong:
                continue
            verified = Verification(printer.commit, today, prints)
            if links != mem.links or paths != mem.paths:
                changed.append(
                    dataclasses.replace(mem, links=links, paths=paths, verified=verified)
                )
            elif mem.verified is None or dict(mem.verified.fingerprints) != prints:
                changed.append(dataclasses.replace(mem, verified=verified))
            else:  # as recorded: re-stamping would change only the date
                unchanged.append(mem)  # the file keeps its bytes (no noisy diff)
        written, refused = store.put_many(changed)
        kept.save()
        order = {m.id: i for i, m in enumerate(mems)}
        if bad and not follow:
            moved = _moves(store, list({mem.id: mem for mem, _, _ in bad}.values()), today)
        problems = tuple(
            Problem(
                mem.id,
                f"{mem.path or mem.id}:{_line_of(mem, link)}",
                _fix(mem, link, why, moved.get(mem.id, {}).get(link)),
            )
            for mem, link, why in bad
        ) + tuple(Problem(mid, "", str(e)) for mid, e in refused)
        saved = tuple(sorted(written, key=lambda m: order[m.id]))
        return Verified(saved, problems + unreadable, tuple(unchanged))


def _chosen(store: Store, ids: Iterable[str] | None) -> tuple[list[Memory], tuple[Problem, ...]]:
    """The memories to verify, sorted by id, and the files that cannot be: with `ids`
    None, every memory with links, and every invalid file is one not verified."""
    from memkit.staleness.check import select

    if ids is not None:
        return select(store, ids), ()
    loaded = store.load()
    mems = sorted((m for m in loaded.memories if m.links), key=lambda m: m.id)
    unreadable = tuple(
        Problem(e.path.rsplit("/", 1)[-1].removesuffix(".md"), "", str(e), True)
        for e in loaded.problems
    )
    return mems, unreadable


def _followed(mem: Memory, moved: dict[str, LinkStatus]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`mem`'s links rewritten to where moved code went, and its paths: each entry that
    named a moved link's file renamed to where it went."""
    targets = {k: v.moved_to for k, v in moved.items() if v.moved_to}
    renamed: dict[str, str] = {}
    for before, after in sorted(targets.items()):
        a, b = Link.parse(before).path, Link.parse(after).path
        if a != b:
            renamed.setdefault(a, b)
    links = tuple(dict.fromkeys(targets.get(x, x) for x in mem.links))
    return links, tuple(dict.fromkeys(renamed.get(p, p) for p in mem.paths))


def _moves(store: Store, mems: list[Memory], today: dt.date) -> dict[str, dict[str, LinkStatus]]:
    """Memory id -> link -> its status, for the links whose code moved (or whose history
    this clone lacks to tell where it went)."""
    from memkit.staleness.check import check_store

    return {
        status.id: {x.link: x for x in status.links if x.state == "moved" or x.reason}
        for status in check_store(store, today=today, ids=[m.id for m in mems])
    }


def _fix(mem: Memory, link: str, message: str, moved: LinkStatus | None) -> str:
    edit = f"edit the memory's links with `memkit edit {mem.id}`"
    if moved is not None and moved.state == "unverified" and moved.reason:
        return f"{message}; {moved.reason}"
    if moved is not None and moved.moved_to:
        return f"{message}; its code moved to {moved.moved_to}: pass --follow, or {edit}"
    if moved is not None and moved.candidates:
        return (
            f"{message}; its code went to one of {', '.join(moved.candidates)}, "
            f"equally alike: {edit} to name the right one"
        )
    import shlex

    return (
        f"{message} (if it is gone, remove the link with "
        f"`memkit link {mem.id} --remove {shlex.quote(link)}`; or {edit})"
    )


def _line_of(mem: Memory, link: str) -> int:
    """The file line of `link` in the memory's `links:` field (that field's line if absent)."""
    lines = mem.head.splitlines()
    start = next((i for i, x in enumerate(lines) if x.startswith("links:")), None)
    if start is None:
        return 1
    for i in range(start, len(lines)):
        if link in lines[i] and (i == start or lines[i][:1] in " \t-"):
            return i + 1
    return start + 1
