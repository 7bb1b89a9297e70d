"""A Store read once for one hook run: every check sees the same load.

The pre-commit hook loads the store for its derived index, the validation, the
compile and the staleness report. memkit.store.loading reuses a second load only
when no memory file changed in the last two seconds, and a commit made right after
editing a memory is exactly that case: each check would walk and parse the store
again. `PinnedStore.load` loads once and hands the same result to every check;
the hook writes no memory file, so one reading is the store as this commit sees it.
"""

from __future__ import annotations

from pathlib import Path

from memkit.store import Loaded, Store


class PinnedStore(Store):
    """A Store whose `load()` reads the memory files once (see the module docstring)."""

    def __init__(self, root: Path | str) -> None:
        super().__init__(root)
        self._loaded: Loaded | None = None

    def load(self) -> Loaded:
        if self._loaded is None:
            self._loaded = super().load()
        return self._loaded
