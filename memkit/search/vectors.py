"""The memories' vectors for semantic search: derived data next to the search index.

`search/vectors.npy` holds one float16 row per memory, `search/vectors.json` the
model's name and, per row, the memory's path with the size and mtime it had when
embedded (the same stamps the index's manifest records). refresh() embeds only the
memories that are new or changed and drops the deleted ones; another model, or a
file that does not load, rebuilds them all. Written under the index's lock.

current() is what a search asks for: within one process it keeps the vectors (as
float32, ready for the product with the query) and takes them again without reading
a file while the index's files and the vectors' files have the same stamps as when
they were last found in step (the index rewrites them whenever a memory changes).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memkit.fsutil import atomic_write
from memkit.search import embed

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.search.embed import Embedder
    from memkit.search.index import Index

VERSION = 1
BODY_CHARS = 2000  # of the body embedded with the title and tags
# (index folder, model) -> (stamps of the files below, paths, float32 matrix)
_KEPT: dict[tuple[str, str], tuple[tuple[Any, ...], list[str], Any]] = {}
_WATCHED = ("state.json", "index.db", "vectors.json", "vectors.npy")


def _signature(index: Index) -> tuple[Any, ...] | None:
    """The stamps of the index's and the vectors' files (None when one is missing)."""
    out = []
    for name in _WATCHED:
        try:
            st = os.stat(index.dir / name)
        except OSError:
            return None
        out.append((st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


def current(index: Index, embedder: Embedder) -> Vectors:
    """The vectors of `index`'s memories, in step with the index just refreshed: kept in
    memory between searches of one process while no file they come from changed."""
    key = (str(index.dir), embedder.name)
    sig = _signature(index)
    kept = _KEPT.get(key)
    vectors = Vectors(index, embedder)
    if sig is not None and kept is not None and kept[0] == sig:
        vectors.paths, vectors.matrix = kept[1], kept[2]
        return vectors
    now = index.files
    vectors.refresh(now)
    vectors.matrix = vectors.matrix.astype("float32", copy=False)  # float16 on disk
    sig = _signature(index)
    if sig is not None and all(st[1] >= 0 for st in now.values()):  # racy: look again
        _KEPT[key] = (sig, vectors.paths, vectors.matrix)
    else:
        _KEPT.pop(key, None)
    return vectors


def text_of(mem: Memory) -> str:
    """What is embedded: the title, the tags and the start of the body."""
    return f"{mem.title}. {' '.join(mem.tags)}. {mem.body[:BODY_CHARS]}"


class Vectors:
    """The vectors of `index`'s store (see the module docstring)."""

    def __init__(self, index: Index, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder
        self.npy = index.dir / "vectors.npy"
        self.meta_path = index.dir / "vectors.json"
        self.paths: list[str] = []
        self.matrix: Any = None

    def _read(self) -> tuple[list[str], list[list[int]], Any] | None:
        try:
            meta = json.loads(self.meta_path.read_bytes())
            matrix = embed.load(self.npy)
        except (OSError, ValueError):
            return None
        ok = (
            isinstance(meta, dict)
            and meta.get("version") == VERSION
            and meta.get("model") == self.embedder.name
            and len(meta.get("paths", ())) == len(matrix) == len(meta.get("stamps", ()))
            and (len(matrix) == 0 or matrix.shape[1] == self.embedder.dim)
        )
        return (meta["paths"], meta["stamps"], matrix) if ok else None

    def refresh(self, now: Mapping[str, list[int]]) -> Vectors:
        """Bring the vectors in step with `now` (rel path -> [size, mtime_ns]); self."""
        got = self._read()
        if got is not None:
            paths, stamps, matrix = got
            known = dict(zip(paths, (list(s) for s in stamps), strict=True))
            if known == dict(now) and all(st[1] >= 0 for st in now.values()):
                self.paths, self.matrix = paths, matrix
                return self
        with self.index._locked(exclusive=True):
            got = self._read()
            rows: dict[str, Any] = {}
            stamps_of: dict[str, list[int]] = {}
            if got is not None:
                for rel, st, row in zip(*got, strict=True):
                    if now.get(rel) == list(st) and st[1] >= 0:
                        rows[rel], stamps_of[rel] = row, list(st)
            todo = sorted(rel for rel in now if rel not in rows)
            for rel, vec in zip(todo, self._embed(todo), strict=True):
                if vec is not None:
                    rows[rel], stamps_of[rel] = vec, now[rel]
            self.paths = sorted(rows)
            self.matrix = embed.stack([rows[p] for p in self.paths], self.embedder.dim)
            self._save([stamps_of[p] for p in self.paths])
        return self

    def _embed(self, rels: list[str]) -> list[Any]:
        """The vector of each memory file (None for one that does not load)."""
        from memkit import memory as mm

        texts: list[str] = []
        ok: list[bool] = []
        for rel in rels:
            try:
                raw = (self.index.store.root / rel).read_bytes()
                mem, errs = mm.parse_all(raw, mid=rel.rsplit("/", 1)[-1][:-3], path=rel)
            except OSError:
                mem, errs = None, []
            ok.append(mem is not None and not errs)
            texts.append(text_of(mem) if mem is not None and not errs else "")
        vecs = self.embedder.embed(texts) if texts else []
        return [v if good else None for v, good in zip(vecs, ok, strict=True)]

    def _save(self, stamps: list[list[int]]) -> None:
        tmp = self.npy.with_name("vectors.tmp.npy")
        try:
            embed.save(tmp, self.matrix)
            os.replace(tmp, self.npy)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        meta = {"version": VERSION, "model": self.embedder.name, "paths": self.paths}
        meta["stamps"] = stamps
        atomic_write(self.meta_path, json.dumps(meta, separators=(",", ":")).encode())

    def nearest(self, text: str, k: int) -> list[tuple[str, float]]:
        """(path, cosine similarity) of the k memories closest in meaning to `text`."""
        q = self.embedder.embed([text])[0]
        return [(self.paths[i], s) for i, s in embed.top_similar(self.matrix, q, k)]
