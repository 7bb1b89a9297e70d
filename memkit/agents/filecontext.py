"""`memkit context --file` from the point-of-action index: only the memories about the
files are read, not the store.

The index (memkit.agents.recall) names the memories linked to each file or scoped to
it; those few are parsed and handed to memkit.search.context.build_context, which
orders them, checks their staleness and fits the budget exactly as it does for the
whole store. Folders, queries and shared team stores take the full path (None here).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memkit.agents import recall
from memkit.store import Loaded, Store

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Sequence

    from memkit.search.context import Context
    from memkit.search.rank import StatusSource


class _Subset(Store):
    """A store whose load() holds only the named memories (parsed directly)."""

    def __init__(self, store: Store, paths: dict[str, str]) -> None:
        super().__init__(store.root)
        self.hint_paths(paths)
        store.hint_paths(paths)  # so get_many reads these files directly, not the store
        self._some = Loaded(tuple(store.get_many(paths)) if paths else (), ())

    def load(self) -> Loaded:
        return self._some


def relative(root: str, file: str) -> str | None:
    """`file` relative to the project, as build_context takes it; None for a folder,
    a missing file or anything outside."""
    full = os.path.realpath(os.path.join(root, file))
    rel = os.path.relpath(full, os.path.realpath(root))
    if rel.startswith(os.pardir) or not os.path.isfile(full):
        return None
    return rel.replace(os.sep, "/")


def context_for_files(
    store: Store,
    files: Sequence[str],
    *,
    budget_tokens: int,
    exclude_always_on: bool,
    today: dt.date,
    statuses: StatusSource | None,
) -> Context | None:
    """The context for `files` (regular files of the project), or None when the full
    path must answer."""
    from memkit.search.context import build_context

    root = str(store.root)
    if "stores" in store.config.data or not files:
        return None
    rels = [relative(root, f) for f in files]
    if any(r is None or (not os.path.isabs(f) and r != f.removeprefix("./"))
           for r, f in zip(rels, files, strict=True)):  # fmt: skip
        return None  # a folder, a link, `..`: the full path says what it means
    idx = recall.open_index(root)
    try:
        if idx is None or not recall.fresh(idx, today.isoformat()):
            if idx is not None:
                idx.close()
            from memkit.agents.indexer import build

            idx = recall.from_bytes(root, build(store, today=today))
        paths: dict[str, str] = {}
        for rel in rels:
            paths.update(recall.for_context(idx, str(rel)))
    finally:
        if idx is not None:
            idx.close()
    subset = _Subset(store, paths)
    return build_context(subset, files=files, query=None, budget_tokens=budget_tokens,
                         today=today, exclude_always_on=exclude_always_on,
                         statuses=statuses)  # fmt: skip
