"""Recording fingerprints: `memkit add --link` and `memkit verify`."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.errors import MemkitError
from memkit.memory import Verification
from memkit.staleness import anchors
from memkit.staleness.links import SUPPORTED, Link, language_of
from memkit.staleness.parsed import LinkError, Unparsable
from memkit.staleness.snapshot import WORKTREE, Snapshot

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.store import Store


def fingerprint(root: Path, links: Sequence[str], *, today: dt.date | None = None) -> Verification:
    """Fingerprints of `links` in the work tree at `root`, at HEAD (None without commits)."""
    from memkit.git import find_repo, head_commit

    repo = find_repo(root)
    snap = Snapshot(Path(root).resolve(), repo, WORKTREE)
    prints = {text: _print(snap, text) for text in links}
    commit = head_commit(repo) if repo is not None else None
    return Verification(commit, today, prints)


def _print(snap: Snapshot, text: str) -> str:
    if anchors.is_anchor(text):  # dependencies, config keys, commands, env variables
        return anchors.record(snap, text)
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
    if parsed is None and snap.outside(link.path):
        raise LinkError(
            f"link {text!r}: {link.path} is a symbolic link to "
            f"{(snap.root / link.path).resolve()}, outside {snap.root}; memkit reads only "
            "inside the repository: link the real file instead"
        )
    if parsed is None:
        raise LinkError(
            f"link {text!r}: no file {link.path} in {snap.root}; "
            "write the path relative to the repository root"
        )
    if link.symbol is None:
        return parsed.file
    found = parsed.symbols.get(link.symbol)
    if found is None:
        near = _near(link.symbol, parsed.symbols)
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        raise LinkError(
            f"link {text!r}: {link.path} defines no symbol {link.symbol!r}{hint}; "
            "name a function or class as `path::name`, a method as `path::Class.method`"
        )
    return str(found)


def _near(symbol: str, names: Iterable[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(symbol, sorted(names), n=3)


def verify(
    store: Store, ids: Iterable[str] | None, *, today: dt.date, follow: bool = False
) -> list[Memory]:
    """Re-fingerprint memories (all with links when `ids` is None); return those saved.

    With `follow`, links to moved code are first rewritten to where it went.
    """
    from memkit.staleness.check import check_store, select

    with store.lock():
        mems = select(store, ids)
        if ids is None:
            mems = [m for m in mems if m.links]
        moved: dict[str, dict[str, str]] = {}
        if follow:
            for status in check_store(store, today=today, ids=[m.id for m in mems]):
                moved[status.id] = {x.link: x.moved_to for x in status.links if x.moved_to}
        saved = []
        for mem in mems:
            links = tuple(dict.fromkeys(moved.get(mem.id, {}).get(x, x) for x in mem.links))
            paths = _moved_paths(mem.paths, moved.get(mem.id, {}))
            try:
                verified = fingerprint(store.root, links, today=today)
            except LinkError as e:
                raise MemkitError(
                    f"{mem.path}: {e} (edit the memory's links with `memkit edit {mem.id}`"
                    + ("" if follow else ", or rewrite moved links with `--follow`")
                    + ")"
                ) from None
            if _same(mem, links, paths, verified):
                continue  # nothing changed: the file keeps its bytes (no noisy diff)
            new = dataclasses.replace(mem, links=links, paths=paths, verified=verified)
            saved.append(store.put(new))
        return saved


def _same(mem: Memory, links: tuple[str, ...], paths: tuple[str, ...], now: Verification) -> bool:
    """Links, paths and fingerprints as recorded: re-stamping would change only the date."""
    v = mem.verified
    return (
        v is not None
        and links == mem.links
        and paths == mem.paths
        and dict(v.fingerprints) == dict(now.fingerprints)
    )


def _moved_paths(paths: tuple[str, ...], moved: dict[str, str]) -> tuple[str, ...]:
    """`paths` with each entry that named a moved link's file renamed to where it went."""
    renamed: dict[str, str] = {}
    for before, after in sorted(moved.items()):
        a, b = Link.parse(before).path, Link.parse(after).path
        if a != b:
            renamed.setdefault(a, b)
    return tuple(dict.fromkeys(renamed.get(p, p) for p in paths))
