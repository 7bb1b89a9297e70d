"""The search index of one store: kept fresh, written under a lock, read back in ranked order.

The index is derived data in `search/` of memkit's private folder (memkit.cachedir).
Before each search, refresh() compares each memory file's size and mtime with what
the index recorded (manifest.json) and re-indexes only what changed; a missing or
unreadable index is rebuilt. One lock file serializes writers (exclusive) against
readers (shared), so a reader never sees a half-written index.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.fsutil import atomic_write, file_lock
from memkit.search._whoosh import FileStorage, SegmentReader, bm25f, mp_writer, w3_codec
from memkit.search.schema import SCHEMA_VERSION, document, schema

if TYPE_CHECKING:
    from memkit.search.query import Query
    from memkit.store import Store

MAX_SEGMENTS = 8  # past this many segments, an update merges the small ones
PROCS, MP_MIN = 2, 2000  # processes writing a full build of MP_MIN memories or more
_RACY_NS = 20_000_000  # a file modified this close to its scan may change again unseen


class Index:
    """The search index of one store: `search/` in its private folder (memkit.cachedir)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.dir = store.cache_dir / "search"
        self.ix_dir = self.dir / "index"
        self.manifest_path = self.dir / "manifest.json"

    # ------------------------------------------------------------ locking

    @contextlib.contextmanager
    def _locked(self, exclusive: bool) -> Iterator[None]:
        self.store.private_dir()  # a MemkitError naming the folder when it cannot be made
        with file_lock(self.dir / "lock", shared=not exclusive):
            yield

    # ------------------------------------------------------------ freshness

    def scan(self) -> dict[str, list[int]]:
        """rel path -> [size, mtime_ns] of every memory file now (as memkit.walk lists them).

        A file modified too recently to trust its mtime is recorded with mtime -1, so
        the next scan sees it as changed and indexes it again.
        """
        from memkit.walk import memory_entries

        self.store.require()
        out: dict[str, list[int]] = {}
        now = time.time_ns()
        for rel, entry in memory_entries(str(self.store.root)):
            if entry.is_symlink():
                continue
            st = entry.stat(follow_symlinks=False)
            mtime = st.st_mtime_ns
            window = 2_000_000_000 if mtime % 1_000_000_000 == 0 else _RACY_NS
            out[rel] = [st.st_size, -1 if now - mtime < window else mtime]
        shared = _shared_stamp(self.store)
        if shared is not None:
            out[SHARED] = [shared, 0]
        return out

    def _manifest_id(self) -> tuple[int, ...]:
        try:
            st = os.stat(self.manifest_path)
        except OSError:
            return ()
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _manifest(self) -> dict[str, list[int]] | None:
        try:
            data = json.loads(self.manifest_path.read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("version") != SCHEMA_VERSION:
            return None
        files = data.get("files")
        return files if isinstance(files, dict) else None

    def _save_manifest(self, files: Mapping[str, list[int]]) -> None:
        data = {"version": SCHEMA_VERSION, "files": dict(sorted(files.items()))}
        atomic_write(self.manifest_path, json.dumps(data, separators=(",", ":")).encode())

    def refresh(self) -> str:
        """Bring the index up to date: 'current', 'updated N', or 'built N'."""
        now = self.scan()
        seen = self._manifest_id()
        known = self._manifest()
        if known == now and -1 not in (st[1] for st in now.values()) and self._exists():
            return "current"
        with self._locked(exclusive=True):
            if self._manifest_id() != seen:  # another process updated the index meanwhile
                known = self._manifest()
            if known is None or not self._exists():
                return f"built {self._build(now)}"
            changed, gone = _changes(known, now)
            if not (changed or gone):
                return "current"
            if SHARED in changed or SHARED in gone:  # a shared store moved: read them all
                return f"built {self._build(now)}"
            try:
                self._update(known, now, changed, gone)
            except Exception:  # an unreadable index is derived data: rebuild it
                if self._open_ok():
                    raise
                return f"built {self._build(now)}"
            return f"updated {len(changed) + len(gone)}"

    def rebuild(self) -> int:
        """Build the index from scratch; the number of memories indexed."""
        with self._locked(exclusive=True):
            return self._build(self.scan())

    def _exists(self) -> bool:
        return any(self.ix_dir.glob("_MAIN_*.toc"))

    # ------------------------------------------------------------ writing

    def _build(self, now: dict[str, list[int]]) -> int:
        with contextlib.suppress(FileNotFoundError):
            self.manifest_path.unlink()
        tmp = self.dir / "index.new"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        ix = FileStorage(str(tmp)).create_index(schema())
        from memkit.stores import load_all

        memories = load_all(self.store).memories
        procs = min(PROCS, os.cpu_count() or 1) if len(memories) >= MP_MIN else 1
        if procs > 1:  # each process writes a segment of its own; they are not merged
            writer = mp_writer(
                ix, procs=procs, batchsize=250, multisegment=True, limitmb=128, codec=_codec()
            )
        else:
            writer = ix.writer(limitmb=256, codec=_codec())
        try:
            for mem in memories:
                writer.add_document(**document(mem))
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        ix.close()
        old = self.dir / "index.old"
        shutil.rmtree(old, ignore_errors=True)
        if self.ix_dir.exists():
            os.replace(self.ix_dir, old)
        os.replace(tmp, self.ix_dir)
        shutil.rmtree(old, ignore_errors=True)
        self._save_manifest(now)
        return len(memories)

    def _update(
        self,
        known: dict[str, list[int]],
        now: dict[str, list[int]],
        changed: list[str],
        gone: list[str],
    ) -> None:
        from memkit import memory as mm

        ix = self._open()
        writer = ix.writer(compound=False, codec=_codec())  # no copy into one file
        try:
            for rel in gone:
                writer.delete_by_term("path", rel)
            for rel in changed:
                writer.delete_by_term("path", rel)
                try:
                    raw = (self.store.root / rel).read_bytes()
                except OSError:
                    continue
                mem, errs = mm.parse_all(raw, mid=Path(rel).stem, path=rel)
                if mem is not None and not errs:
                    writer.add_document(**document(mem))
            writer.commit(mergetype=_merge_small)
        except BaseException:
            writer.cancel()
            raise
        self._save_manifest(now)

    def _open(self) -> Any:
        return FileStorage(str(self.ix_dir)).open_index()

    # ------------------------------------------------------------ reading

    def top_documents(
        self, query: Query, *, limit: int, filter: Any = None, mask: Any = None
    ) -> list[dict[str, Any]]:
        """The top `limit` documents' stored fields, each with its `score`."""
        try:
            with self._locked(exclusive=False):
                return self._top_documents(query, limit, filter, mask)
        except Exception:
            if self._healthy():
                raise  # not the index's fault: a bug, reported as one
        self.rebuild()
        with self._locked(exclusive=False):
            return self._top_documents(query, limit, filter, mask)

    def _open_ok(self) -> bool:
        try:
            self._open().reader().close()
        except Exception:
            return False
        return True

    def _healthy(self) -> bool:
        """Whether the index opens and every segment can be read."""
        try:
            with self._locked(exclusive=False), self._open().reader() as r:
                for _ in r.all_stored_fields():
                    pass
        except Exception:
            return False
        return True

    def _top_documents(
        self, query: Query, limit: int, filter: Any, mask: Any
    ) -> list[dict[str, Any]]:
        ix = self._open()
        with ix.searcher(weighting=bm25f(B=0.75, K1=1.2, title_B=0.5)) as s:
            results = s.search(query.q, limit=limit, filter=filter, mask=mask)
            return [{**hit.fields(), "score": hit.score} for hit in results]


def _codec() -> Any:
    """Posting blocks uncompressed: builds take a tenth less time for a bigger index."""
    return w3_codec(compression=0)


def _merge_small(writer: Any, segments: list[Any]) -> list[Any]:
    """Whoosh merge policy: past MAX_SEGMENTS, merge the small segments into one.

    Each update adds a small segment; merging those (a twentieth of the biggest
    segment or less) costs little and keeps queries fast. Bigger segments (a full build
    with two processes writes two) are merged only past twice MAX_SEGMENTS, which
    takes thousands of updates, so an update practically never costs a rebuild.
    """
    if len(segments) < MAX_SEGMENTS:
        return segments
    ordered = sorted(segments, key=lambda seg: seg.doc_count_all())
    biggest = ordered[-1].doc_count_all()
    small = max(biggest // 20, 50)
    merge = [seg for seg in ordered[:-1] if seg.doc_count_all() <= small]
    if len(segments) >= 2 * MAX_SEGMENTS:
        merge = ordered[:-1]
    if len(merge) < 2:
        return segments
    for seg in merge:
        reader = SegmentReader(writer.storage, writer.schema, seg)
        writer.add_reader(reader)
        reader.close()
    return [seg for seg in segments if seg not in merge]


def _changes(
    known: Mapping[str, list[int]], now: Mapping[str, list[int]]
) -> tuple[list[str], list[str]]:
    """(new or changed paths, deleted paths), sorted."""
    changed = sorted(rel for rel, st in now.items() if st[1] < 0 or known.get(rel) != st)
    gone = sorted(set(known) - set(now))
    return changed, gone


# The manifest's entry for the shared stores (no memory file is named like it).
SHARED = "@shared-stores"


def _shared_stamp(store: Any) -> int | None:
    """A number that changes when the shared stores' pins, config or mirrors do."""
    if "stores" not in store.config.data:
        return None
    import zlib

    from memkit.stores import team

    try:
        lock = (store.root / team.LOCK).read_bytes()
    except OSError:
        lock = b""
    names = sorted(store.config.data["stores"])
    fetched = [(team.mirror_of(store.private_dir(), n) / "HEAD").exists() for n in names]
    key = json.dumps([str(store.config.data["stores"]), fetched], sort_keys=True).encode()
    return zlib.crc32(lock + key)
