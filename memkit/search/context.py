"""The memories an agent needs for the files it is about to touch, within a token budget.

Exact matches come first (memories whose `paths` globs match a file, or whose `links`
point into one), then the best search hits for the query. Stale memories are kept
but marked with how their code changed. Always-on memories (active, no `paths`: the
compiled instruction files carry them) can be left out when the caller has them.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.globs import match as glob_match
from memkit.staleness.verdict import MemoryStatus

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.search.rank import StatusSource
    from memkit.store import Store

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """About one token per four characters (rounded up)."""
    return -(-len(text) // CHARS_PER_TOKEN)


@dataclass(frozen=True)
class ContextItem:
    id: str
    title: str
    type: str
    path: str
    reason: str  # "file" (an exact match) or "query" (a search hit)
    matched: tuple[str, ...]  # the files it matched, or the query's hit score as text
    state: str
    text: str
    stale: str | None = None

    def to_markdown(self) -> str:
        """The item for an agent; everything from the memory escaped (controls.for_agent)."""
        from memkit.controls import for_agent as inline

        lines = [f"## {inline(self.title)}", ""]
        why = "about " + ", ".join(self.matched) if self.reason == "file" else "search hit"
        lines.append(f"_{inline(self.type)} `{inline(self.id)}`, {inline(why)}_")
        if self.stale is not None:
            changed = inline(self.stale or "unknown")
            lines.append(f"> **Stale**: the code it describes changed: {changed}")
        if self.text:
            lines += ["", inline(self.text, lines=True)]
        return "\n".join(lines) + "\n"

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.to_markdown()) + 1

    def to_record(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "type": self.type,
            "path": self.path,
            "reason": self.reason,
            "matched": list(self.matched),
            "state": self.state,
            "stale": self.stale,
            "tokens": self.tokens,
            "text": self.text,
        }


@dataclass(frozen=True)
class Context:
    files: tuple[str, ...]
    query: str | None
    budget_tokens: int
    items: tuple[ContextItem, ...]
    omitted: tuple[str, ...]  # ids that matched but did not fit the budget

    @property
    def tokens(self) -> int:
        return sum(item.tokens for item in self.items)

    def to_markdown(self) -> str:
        if not self.items:
            return ""
        from memkit.controls import for_agent as inline

        subject = ", ".join(f"`{f}`" for f in self.files) or f"“{self.query}”"
        parts = [
            f"# Project memories for {inline(subject)}\n",
            *(i.to_markdown() for i in self.items),
        ]
        if self.omitted:
            parts.append(
                f"_Left out for the token budget: {inline(', '.join(self.omitted))} "
                "(`memkit show ID` prints one)._\n"
            )
        return "\n".join(parts)

    def to_record(self) -> dict[str, Any]:
        return {
            "files": list(self.files),
            "query": self.query,
            "budget_tokens": self.budget_tokens,
            "tokens": self.tokens,
            "items": [i.to_record() for i in self.items],
            "omitted": list(self.omitted),
        }


def build_context(
    store: Store,
    *,
    files: Sequence[str] = (),
    query: str | None = None,
    budget_tokens: int = 2000,
    exclude_always_on: bool = False,
    today: dt.date,
    statuses: StatusSource | None = None,
    search_limit: int = 10,
    memories: Sequence[Memory] | None = None,
) -> Context:
    """Exact matches for `files`, then search hits for `query`, within `budget_tokens`.

    `files` are paths relative to the project root (or absolute inside it).
    `statuses` is the staleness verdict, or a function computing it for given ids.
    `memories`: those to choose from, when the caller knows which can match (the
    point-of-action index names them); else every memory of the store and shared stores.
    """
    rels = tuple(sorted({_relative(store.root, f) for f in files}))
    if memories is None:
        from memkit.sharing import load_all

        memories = load_all(store).memories
    live = {m.id: m for m in memories if m.in_force(today)}
    if exclude_always_on:
        live = {k: m for k, m in live.items() if m.paths}
    exact = {mid: fs for mid, m in live.items() if (fs := _matches(m, rels))}
    store.hint_paths({mid: live[mid].path for mid in exact})  # staleness finds them unwalked
    status_of = _cached(statuses)
    hits = []
    if query:
        from memkit.search import search

        limit = search_limit + min(len(exact), search_limit)
        found = search(store, query, today=today, limit=limit, statuses=status_of)
        hits = [h for h in found if h.id in live and h.id not in exact][:search_limit]
    checked: dict[str, MemoryStatus | None] = {}
    while True:  # check staleness only for what fits; a stale mark can change the fit
        items = [_item(live[mid], "file", exact[mid], checked.get(mid)) for mid in exact]
        items.sort(key=functools.partial(_order, live))
        items += [_item(live[h.id], "query", (), checked.get(h.id)) for h in hits]
        kept, omitted = _fit(items, budget_tokens)
        unchecked = [i.id for i in kept if i.id not in checked]
        if not unchecked:
            break
        got = status_of(unchecked)
        checked.update({mid: got.get(mid) for mid in unchecked})
    return Context(rels, query or None, budget_tokens, tuple(kept), tuple(omitted))


def _fit(items: list[ContextItem], budget: int) -> tuple[list[ContextItem], list[str]]:
    """The items that fit in `budget` tokens, in order, and the ids of those left out."""
    kept, omitted, used = [], [], 0
    for item in items:
        if used + item.tokens <= budget:
            kept.append(item)
            used += item.tokens
        else:
            omitted.append(item.id)
    return kept, omitted


def _cached(source: StatusSource | None) -> Callable[[list[str]], dict[str, MemoryStatus]]:
    """A status function that asks `source` about each id at most once."""
    seen: dict[str, MemoryStatus | None] = {}

    def status_of(ids: list[str]) -> dict[str, MemoryStatus]:
        missing = [i for i in ids if i not in seen]
        if missing and source is not None:
            got = source(missing) if callable(source) else source
            seen.update({i: got.get(i) for i in missing})
        return {i: s for i in ids if (s := seen.get(i)) is not None}

    return status_of


def _order(live: Mapping[str, Memory], item: ContextItem) -> tuple[Any, ...]:
    """Pinned; linked to the file; priority; the most specific glob; fresh; recent; id."""
    m = live[item.id]
    recency = m.updated or m.created
    linked = any(_links_into(link, f) for link in m.links for f in item.matched)
    literal = max(
        (
            len(re.sub(r"[*?\[\]{}]", "", g))
            for g in m.paths
            if any(glob_match(g, f) for f in item.matched)
        ),
        default=0,
    )
    return (
        not m.pin,
        not linked,
        -m.priority,
        -literal,
        item.stale is not None,
        -recency.toordinal() if recency else 0,
        m.id,
    )


def _item(mem: Memory, reason: str, matched: Sequence[str], ms: MemoryStatus | None) -> ContextItem:
    stale = ms.describe() if ms is not None and ms.stale else None
    state = ms.state if ms is not None else "active"
    return ContextItem(
        mem.id, mem.title, mem.type, mem.path, reason, tuple(matched), state, mem.text, stale
    )


def _relative(root: Path, file: str) -> str:
    p = Path(file)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(root).as_posix()
        except ValueError:
            return p.as_posix()
    return p.as_posix().removeprefix("./")


def _matches(mem: Memory, files: Sequence[str]) -> list[str]:
    """The files `mem` is about: matched by a `paths` glob, or named by a link."""
    return [
        f
        for f in files
        if any(glob_match(g, f) for g in mem.paths) or any(_links_into(x, f) for x in mem.links)
    ]


def _links_into(link: str, file: str) -> bool:
    """Whether `link` names `file`, or a file under it when it is a directory."""
    target = link.partition("::")[0]
    return target == file or target.startswith(file.rstrip("/") + "/")
