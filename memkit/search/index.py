"""The search index of one store: kept fresh, written under a lock, read back in ranked order.

The index is derived data in `search/` of memkit's private folder (memkit.cachedir):
`index.db` (memkit.search.fts) and `state.json`, the modification times of the
memory folders when the index was last brought up to date. A query first compares
those folders' times (a few stats): unchanged, the index is current. Changed, it
compares each memory file's size and mtime with what the index recorded and
re-indexes only what changed. Creating, deleting or renaming a file changes its
folder; a file rewritten in place does not, so each hit's own file is checked
before it is returned (a changed hit is re-indexed and the query asked again), and
`memkit index` checks every file. One lock file serializes writers (exclusive)
against readers (shared), so a reader never sees a half-written index.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from memkit.fsutil import atomic_write, file_lock
from memkit.search import fts
from memkit.search.schema import SCHEMA_VERSION
from memkit.search.stamps import SHARED, file_stamps, folder_times, shared_stamp

if TYPE_CHECKING:
    from memkit.search.query import Query, Sql
    from memkit.store import Store

T = TypeVar("T")

_LEGACY = ("index", "index.new", "index.old", "manifest.json")  # an older engine's files


class Index:
    """The search index of one store: `search/` in its private folder (memkit.cachedir)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.dir = store.cache_dir / "search"
        self.db_path = self.dir / "index.db"
        self.state_path = self.dir / "state.json"
        self._files: dict[str, list[int]] | None = None  # what refresh() last saw
        self._bad: list[str] = []  # memory files left out: names not UTF-8 (scan)
        self._seen: dict[str, Any] = {}  # the state the last _current() read

    @property
    def files(self) -> dict[str, list[int]]:
        """rel path -> [size, mtime_ns] of every memory file (the vectors' stamps too)."""
        if self._files is None:
            try:
                con = fts.open_db(self.db_path)
                self._files = fts.files(con)
                con.close()
            except (fts.Damaged, sqlite3.Error):
                self._files = self.scan()
        return self._files

    # ------------------------------------------------------------ locking

    @contextlib.contextmanager
    def _locked(self, exclusive: bool) -> Iterator[None]:
        self.store.private_dir()  # a MemkitError naming the folder when it cannot be made
        with file_lock(self.dir / "lock", shared=not exclusive):
            yield

    # ------------------------------------------------------------ freshness

    def scan(self) -> dict[str, list[int]]:
        """rel path -> [size, mtime_ns] of every memory file now (memkit.search.stamps)."""
        self.store.require()
        out, bad = file_stamps(self.store)
        self._bad = bad  # left out of the index: nothing could store the name
        _bad_notes(bad)
        return out

    def _state(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.state_path.read_bytes())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("version") == SCHEMA_VERSION else None

    def _current(self) -> bool:
        """Whether nothing changed since the last refresh: only the folders are stat-ed."""
        state = self._seen = self._state() or {}
        if not state or state.get("racy") or not self.db_path.is_file():
            return False
        root = str(self.store.root)
        folders = state.get("folders")
        if not isinstance(folders, dict) or not folders:
            return False
        for rel, mtime in folders.items():
            try:
                st = os.stat(os.path.join(root, rel), follow_symlinks=False)
            except OSError:
                return False
            if mtime < 0 or st.st_mtime_ns != mtime:
                return False
        return state.get("shared") == shared_stamp(self.store)

    def _save_state(self, folders: dict[str, int], now: Mapping[str, list[int]]) -> None:
        racy = any(st[1] < 0 for st in now.values())
        shared = now.get(SHARED, [None])[0]
        data = {
            "version": SCHEMA_VERSION,
            "folders": folders,
            "racy": racy,
            "shared": shared,
            "bad": self._bad,
        }
        atomic_write(self.state_path, json.dumps(data, separators=(",", ":")).encode(), fsync=False)

    def refresh(self, *, full: bool = False) -> str:
        """Bring the index up to date: 'current', 'updated N', or 'built N'.

        Without `full`, unchanged folders mean a current index (see the module docstring).
        """
        if not full and self._current():
            self.store.require()
            _bad_notes(self._seen.get("bad", []))  # as the last scan found them
            return "current"
        # before the files: a change after this shows next time
        folders = folder_times(str(self.store.root))
        now = self._files = self.scan()
        with self._locked(exclusive=True):
            try:
                con = fts.open_db(self.db_path, write=True)
            except fts.Damaged as e:
                if self.db_path.exists():
                    NOTES.append(f"the search index was unreadable ({e}); rebuilt")
                return f"built {self._build(now, folders)}"
            try:
                known = fts.files(con)
                changed = sorted(r for r, st in now.items() if st[1] < 0 or known.get(r) != st)
                gone = sorted(set(known) - set(now))
                build = SHARED in changed or SHARED in gone  # a shared store moved: read them all
                if (changed or gone) and not build:
                    self._update(con, now, changed, gone)
            except sqlite3.Error as e:  # an unreadable index is derived data: rebuild it
                NOTES.append(f"the search index was unreadable ({e}); rebuilt")
                build = True
            finally:
                con.close()
            if build:
                return f"built {self._build(now, folders)}"
            self._drop_legacy()
            self._save_state(folders, now)
            return f"updated {len(changed) + len(gone)}" if changed or gone else "current"

    def rebuild(self) -> int:
        """Build the index from scratch; the number of memories indexed."""
        folders = folder_times(str(self.store.root))
        now = self._files = self.scan()
        with self._locked(exclusive=True):
            return self._build(now, folders)

    # ------------------------------------------------------------ writing

    def _build(self, now: dict[str, list[int]], folders: dict[str, int]) -> int:
        from memkit.search.schema import row
        from memkit.sharing import load_all

        with contextlib.suppress(FileNotFoundError):
            self.state_path.unlink()
        self._drop_legacy()
        tmp = self.dir / "index.db.new"
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        memories = load_all(self.store).memories
        con = fts.create(tmp)
        try:
            fts.add(con, (row(mem) for mem in memories))
            fts.set_files(con, now, ())
            fts.finish_build(con)
        except BaseException:
            con.close()
            tmp.unlink()
            raise
        os.replace(tmp, self.db_path)
        self._save_state(folders, now)
        return len(memories)

    def _drop_legacy(self) -> None:
        """Remove another engine's index files (derived data: the new index replaces them)."""
        import shutil  # not loaded by a search of a current index

        for name in _LEGACY:
            shutil.rmtree(self.dir / name, ignore_errors=True)
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                (self.dir / name).unlink()

    def _update(
        self,
        con: sqlite3.Connection,
        now: dict[str, list[int]],
        changed: list[str],
        gone: list[str],
    ) -> None:
        from memkit import memory as mm
        from memkit.search.schema import row

        con.execute("BEGIN IMMEDIATE")
        try:
            fts.remove(con, [*gone, *changed])
            for rel in changed:
                try:
                    raw = (self.store.root / rel).read_bytes()
                except OSError:
                    continue
                mem, errs = mm.parse_all(raw, mid=Path(rel).stem, path=rel)
                if mem is not None and not errs:
                    fts.add(con, [row(mem)])
            fts.set_files(con, {rel: now[rel] for rel in changed}, gone)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ reading

    def top_documents(
        self, query: Query, *, limit: int, filter: Sql | None = None, mask: Sql | None = None
    ) -> list[dict[str, Any]]:
        """The top `limit` documents' stored fields, each with its `score`.

        Each document's file is checked first: one rewritten in place since it was
        indexed is indexed again and the query asked again.
        """

        def read(con: sqlite3.Connection) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
            docs = fts.top(con, query, limit, (filter, mask))
            return docs, fts.files(con, [d["path"] for d in docs])

        docs: list[dict[str, Any]] = []
        for _ in range(3):
            docs, stamps = self._read(read)
            if not self._outdated(docs, stamps):
                break
            self.refresh(full=True)
        return docs

    def documents(
        self, paths: list[str], *, filter: Sql | None = None, mask: Sql | None = None
    ) -> dict[str, dict[str, Any]]:
        """path -> stored fields of those of `paths` that pass `filter` and `mask`."""
        if not paths:
            return {}
        return self._read(lambda con: fts.documents(con, paths, (filter, mask)))

    def _read(self, read: Callable[[sqlite3.Connection], T]) -> T:
        for attempt in range(2):
            try:
                with self._locked(exclusive=False):
                    con = fts.open_db(self.db_path)
                    try:
                        return read(con)
                    finally:
                        con.close()
            except (fts.Damaged, sqlite3.DatabaseError) as e:
                if attempt:
                    raise
                if not isinstance(e, fts.Damaged) or self.db_path.exists():
                    NOTES.append(f"the search index was unreadable ({e}); rebuilt")
                self.rebuild()
        raise AssertionError("unreachable")

    def _outdated(self, docs: list[dict[str, Any]], known: dict[str, list[int]]) -> bool:
        """Whether a document's file differs from what the index recorded of it."""
        root = str(self.store.root)
        for d in docs:
            stamp = known.get(d["path"])
            if stamp is None or stamp[1] < 0:  # a shared store's memory, or a racy one
                continue
            try:
                st = os.stat(os.path.join(root, d["path"]), follow_symlinks=False)
            except OSError:
                return True
            if stamp != [st.st_size, st.st_mtime_ns]:
                return True
        return False


NOTES: list[str] = []  # what the commands tell on stderr (core modules never print)


def _bad_notes(names: list[str]) -> None:
    """A note for each memory file left out because its name is not UTF-8."""
    for rel in names:
        note = f"skipped {rel}: its file name is not UTF-8; rename it (`memkit validate`)"
        if note not in NOTES:
            NOTES.append(note)
