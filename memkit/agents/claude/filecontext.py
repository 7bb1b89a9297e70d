"""The memories about some files, for `memkit context` and SessionStart after a resume.

The point-of-action index (memkit.agents.claude.recall; `index` gives it, rebuilt when it
no longer holds, to the hooks too) names the memories linked to each file
or scoped to it; only those few are parsed, and memkit.search.context.build_context
orders them, checks their staleness and fits the budget. A query, a folder, a link or
`..`, and shared team stores need every memory: build_context is then given the store.
"""

from __future__ import annotations

import os

from memkit.agents.claude import recall

TYPE_CHECKING = False  # the hooks import this module: typing is not loaded for it
if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    from memkit.memory import Memory
    from memkit.search.context import Context
    from memkit.search.rank import StatusSource
    from memkit.store import Store

    T = TypeVar("T")


def rebuild(root: str, today: str) -> recall.Index:
    """The point-of-action index of `root`, built anew (and written) for `today`."""
    from memkit.agents.claude.indexer import build_bytes

    return recall.from_bytes(root, build_bytes(root, today))


def index(root: str, today: str, *, thorough: bool = False) -> recall.Index:
    """The index of `root`, rebuilt if it no longer holds (`thorough`: nor when a memory
    file changed since it was built)."""
    idx = recall.open_index(root)
    if idx is not None and recall.fresh(idx, today):
        if not thorough:
            return idx
        from memkit.agents.claude.indexer import digest

        if idx.header.get("digest") == digest(root):
            return idx
    if idx is not None:
        idx.close()
    return rebuild(root, today)


def asked(
    root: str, today: str, ask: Callable[[recall.Index], T | None], *, thorough: bool = False
) -> T | None:
    """`ask` the index (see `index`); when a memory changed under it (`ask` gives None),
    rebuild it and ask once more. Each index is closed once asked."""
    idx = index(root, today, thorough=thorough)
    try:
        got = ask(idx)
    finally:
        idx.close()
    if got is None:
        idx = rebuild(root, today)
        try:
            got = ask(idx)
        finally:
            idx.close()
    return got


def relative(root: str, file: str) -> str | None:
    """`file` relative to the project, as build_context takes it; None for a folder,
    a missing file or anything outside."""
    full = os.path.realpath(os.path.join(root, file))
    rel = os.path.relpath(full, os.path.realpath(root))
    if rel.startswith(os.pardir) or not os.path.isfile(full):
        return None
    return rel.replace(os.sep, "/")


def _plain_files(root: str, files: Sequence[str]) -> list[str] | None:
    """`files` relative to the project when each is a regular file named plainly; None
    for a folder, a link, `..` (the whole store says what those mean)."""
    rels = [relative(root, f) for f in files]
    if any(
        r is None or (not os.path.isabs(f) and r != f.removeprefix("./"))
        for r, f in zip(rels, files, strict=True)
    ):
        return None
    return [str(r) for r in rels]


def file_context(
    store: Store,
    files: Sequence[str],
    query: str | None,
    *,
    budget_tokens: int,
    exclude_always_on: bool,
    today: dt.date,
    statuses: StatusSource | None,
) -> Context:
    """`memkit context`: the memories about `files`, then the search hits for `query`."""
    from memkit.search.context import build_context

    root = str(store.root)
    shared = "stores" in store.config.data
    rels = None if query or shared or not files else _plain_files(root, files)
    paths = None if rels is None else asked(root, today.isoformat(), lambda i: _named(i, rels))
    return build_context(
        store,
        files=files,
        query=query,
        budget_tokens=budget_tokens,
        exclude_always_on=exclude_always_on,
        today=today,
        statuses=statuses,
        memories=None if paths is None else _parsed(store, paths),
    )


def indexed_context(
    index: recall.Index, files: Sequence[str], *, budget_tokens: int, today: str
) -> tuple[Context, dict[str, str]]:
    """The memories with `paths` about `files` (relative paths, as the session journal
    keeps them), as `memkit context --exclude-always-on` gives them; with {id: memory
    file} of those the index named."""
    import datetime as dt
    from pathlib import Path

    from memkit.search.context import build_context
    from memkit.search.rank import staleness_checker
    from memkit.store import Store

    store = Store(Path(index.root))
    day = dt.date.fromisoformat(today)
    paths = _named(index, files)
    memories = None if "stores" in store.config.data else _parsed(store, paths)
    statuses = staleness_checker(store, today=day)
    ctx = build_context(
        store,
        files=files,
        budget_tokens=budget_tokens,
        exclude_always_on=True,
        today=day,
        statuses=statuses,
        memories=memories,
    )
    return ctx, paths


def _named(index: recall.Index, rels: Sequence[str]) -> dict[str, str]:
    """{id: memory file} of the memories the index names for `rels`."""
    paths: dict[str, str] = {}
    for rel in rels:
        paths.update(recall.for_context(index, rel))
    return paths


def _parsed(store: Store, paths: dict[str, str]) -> list[Memory]:
    """The memories at `paths` (id -> file), parsed directly rather than the store loaded."""
    store.hint_paths(paths)
    return list(store.get_many(paths)) if paths else []
