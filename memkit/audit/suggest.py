"""Suggested links: what a memory's text mentions that resolves, as links it could carry.

`suggest_links(root, text, existing)` reads the text the way `memkit audit` reads an
instruction file and proposes, for each reference that resolves: a file link, a
config key (`file.toml::a.b`), a command (`cmd:make lint`), an environment variable
(`env:NAME`) or a dependency (`dep:NAME`, for a backticked name or an import the root
manifests declare). Each is checked to resolve before it is proposed (the file parses,
the symbol or key is there), so every suggestion can be recorded as it is. Nothing is
linked here: a person accepts them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.staleness.record import Fingerprinter
    from memkit.store import Store

_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MAX_SUGGESTIONS = 20


@dataclass(frozen=True)
class Suggestion:
    link: str
    line: int  # where the text mentions it (1-based, in the body)
    mention: str


def _candidates(text: str) -> Iterator[tuple[int, str, str]]:
    """(line, link, mention) for each reference that could be a link."""
    from memkit.audit.checks import classify
    from memkit.audit.sources import references
    from memkit.staleness.anchors.commands import NPM, split_command

    for ref in references(text):
        if ref.where == "span" and _WORD.match(ref.text) and "." not in ref.text:
            yield ref.line, f"dep:{ref.text}", ref.text
        for kind, target in classify(ref):
            if kind in ("path", "config"):
                yield ref.line, target.removeprefix("./"), target
            elif kind == "env":
                yield ref.line, f"env:{target}", target
            elif kind in ("module", "package"):
                name = target.split(".")[0] if kind == "module" else target
                yield ref.line, f"dep:{name}", target
            elif kind == "command" and (split := split_command(target)) is not None:
                runner, name = split
                as_typed = {"script": name}.get(runner, f"{runner} {name}")
                if runner in NPM:
                    as_typed = f"npm run {name}"
                yield ref.line, f"cmd:{as_typed}", target


def suggest_links(
    root: Path, text: str, existing: Iterable[str] = (), *, printer: Fingerprinter | None = None
) -> list[Suggestion]:
    """Links the text's references resolve to, not already in `existing`, in text order.
    Pass one `printer` (a Fingerprinter of `root`) for many texts: each file it reads is
    then parsed once for all of them (an import suggests links for every memory)."""
    from memkit.staleness.anchors import is_anchor
    from memkit.staleness.parsed import LinkError
    from memkit.staleness.record import Fingerprinter

    root = root.resolve()
    printer = printer or Fingerprinter(root)
    seen = set(existing)
    out: list[Suggestion] = []
    for line, link, mention in _candidates(text):
        if link in seen or len(out) >= MAX_SUGGESTIONS:
            continue
        seen.add(link)
        if not is_anchor(link) and not (root / link).is_file():
            continue  # folders and globs are not links
        try:
            if not printer.resolves(link):
                continue
        except (LinkError, OSError, ValueError):
            continue
        out.append(Suggestion(link, line, mention))
    return out


def add_links(store: Store, mid: str, links: Iterable[str], *, today: dt.date) -> Memory:
    """Add `links` to memory `mid` and record fresh fingerprints of all its links."""
    import dataclasses

    from memkit.errors import MemkitError
    from memkit.memory import written_links
    from memkit.staleness import fingerprint
    from memkit.staleness.parsed import LinkError

    with store.lock():
        mem = store.get(mid)
        try:
            merged = tuple(dict.fromkeys(written_links([*mem.links, *links])))
        except ValueError as e:
            raise MemkitError(f"{mem.path}: {e}; nothing was linked") from None
        try:
            verified = fingerprint(store.root, merged, today=today)
        except LinkError as e:
            raise MemkitError(f"{mem.path}: {e}; {_gone(store, mid, mem.links)}") from None
        return store.put(dataclasses.replace(mem, links=merged, verified=verified))


def _gone(store: Store, mid: str, links: Sequence[str]) -> str:
    """How to go on when fingerprinting a memory's links failed: which of the links it
    already has is gone, if one is (add_links fingerprints them all again)."""
    from memkit.staleness.record import Fingerprinter

    bad = Fingerprinter(store.root).prints(links)[1]
    if not bad:
        return "nothing was linked"
    return (
        f"the memory already links to it: remove it first (`memkit link --remove "
        f"{mid} '{bad[0][0]}'`) or fix what it names, then link again; nothing was linked"
    )


def remove_links(store: Store, mid: str, links: Iterable[str]) -> Memory:
    """Remove `links` from memory `mid`, and their recorded fingerprints; the other links
    keep theirs (a stale one stays stale) and the rest of the file its bytes."""
    import dataclasses

    from memkit.errors import MemkitError
    from memkit.memory.links import normalise

    with store.lock():
        mem = store.get(mid)
        gone = {normalise(link): link for link in links}
        if missing := [link for norm, link in gone.items() if norm not in mem.links]:
            have = ", ".join(mem.links) or "none"
            raise MemkitError(
                f"{mem.path}: no link {', '.join(map(repr, missing))} in memory {mid!r} "
                f"(its links: {have}); nothing was removed"
            )
        kept = tuple(link for link in mem.links if link not in gone)
        verified = mem.verified
        if verified is not None:
            prints = {k: v for k, v in verified.fingerprints.items() if k not in gone}
            verified = dataclasses.replace(verified, fingerprints=prints)
        return store.put(dataclasses.replace(mem, links=kept, verified=verified))
