"""Memory at the point of action: what to give an agent when it touches a file or asks.

A derived index (`agents-index.json` in memkit's private folder) maps each linked
file and each `paths` glob (as a regular expression) to the active memories about it,
and holds a few words (title, tags, link names) per active memory for prompt
matching. It is rebuilt from one store load when a folder of .memory/ changed (adding,
renaming or atomically rewriting a memory file changes its folder), when a memory it
is about to hand out changed on disk, and at every session start (memkit.agents.claude
calls `refresh`). The hot path (`for_file`, `for_prompt`) reads the index and the few
memory files it hands out; it imports no store, YAML or git library unless a memory it
gives has verified links, whose staleness is then checked with the engine.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import datetime as dt

    from memkit.store import Store

INDEX_NAME = "agents-index.json"  # files and globs -> ids, for file touches
WORDS_NAME = "agents-words.json"  # words -> ids and every memory, for prompts
VERSION = 3
MAX_MEMORY = 1024 * 1024  # bytes of a memory file read for its body
COMPILED = ("CLAUDE.md", ".claude/CLAUDE.md")
RULES_DIR = ".claude/rules"
_WORD = re.compile(r"[a-z0-9][a-z0-9_]{2,}")
_STOP_WORDS = (
    "the and for with that this from are was were has have had not but you your can "
    "will would should could into when then than them they there what which who why how "
    "all any some our out use used using about also just like make made get got does did "
    "done its let lets please want need add fix run file files code"
)
STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class Entry:
    id: str
    path: str
    stamp: tuple[int, int]
    title: str
    type: str
    verified: bool  # has verified links: staleness is worth checking
    about: str  # the links or globs that tie it to files, for the agent to read


def index_path(root: Path, name: str = INDEX_NAME) -> Path:
    from memkit.cachedir import cache_dir

    return Path(cache_dir(str(root))) / name


def _stamp(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _dirs(root: Path) -> dict[str, list[int] | None]:
    """The stamps of .memory/ and every folder in it (a changed folder means a rebuild)."""
    out: dict[str, list[int] | None] = {}
    stack = [os.path.join(root, ".memory")]
    while stack:
        d = stack.pop()
        out[os.path.relpath(d, root)] = _stamp(d)
        with contextlib.suppress(OSError):
            stack += [e.path for e in os.scandir(d) if e.is_dir(follow_symlinks=False)]
    return out


def _compiled_files(root: Path) -> list[str]:
    found = [f for f in COMPILED if os.path.isfile(os.path.join(root, f))]
    with contextlib.suppress(OSError):
        found += sorted(
            f"{RULES_DIR}/{e.name}"
            for e in os.scandir(os.path.join(root, RULES_DIR))
            if e.name.endswith(".md")
        )
    return found


def _sources(root: Path) -> dict[str, list[int] | None]:
    """What the index was built from, besides the memory files: folders and compiled files."""
    out = {f"dir:{k}": v for k, v in _dirs(root).items()}
    out.update({f"out:{f}": _stamp(os.path.join(root, f)) for f in _compiled_files(root)})
    return out


def build(store: Store, *, today: dt.date, part: str = INDEX_NAME) -> dict[str, Any]:
    """Both indexes for `store` (one load), written to the private folder; returns `part`."""
    from memkit.agents.session_start import compiled_ids
    from memkit.fsutil import atomic_write
    from memkit.globs import glob_re

    root = store.root
    sources = _sources(root)
    loaded = store.load()
    files: dict[str, list[str]] = {}
    globs: list[tuple[str, str]] = []
    memories: dict[str, Any] = {}
    words: dict[str, list[str]] = {}
    for m in loaded.memories:
        if not m.in_force(today):
            continue
        stamp = _stamp(os.path.join(root, m.path))
        if stamp is None:
            continue
        about = [*m.links, *m.paths]
        memories[m.id] = [m.path, stamp, m.title, m.type, bool(m.verified and m.links), about]
        for link in m.links:
            files.setdefault(link.partition("::")[0].rstrip("/"), []).append(m.id)
        globs += [(glob_re(g).pattern, m.id) for g in m.paths if any(c in g for c in "*?[{")]
        for g in m.paths:
            if not any(c in g for c in "*?[{"):
                files.setdefault(g.rstrip("/"), []).append(m.id)
        text = " ".join([m.title, m.title, *m.tags, *(x.replace("/", " ") for x in about)])
        for w in set(_words(text)):
            words.setdefault(w, []).append(m.id)
    head = {"version": VERSION, "sources": sources}
    compiled = sorted(compiled_ids(root) | _rule_ids(root))
    scoped = {mid for ids in files.values() for mid in ids} | {mid for _, mid in globs}
    index = {**head, "compiled": compiled, "files": files, "globs": globs,
             "memories": {k: v for k, v in memories.items() if k in scoped}}  # fmt: skip
    full = {**head, "compiled": compiled, "memories": memories, "words": words}
    for name, data in ((INDEX_NAME, index), (WORDS_NAME, full)):
        with contextlib.suppress(OSError):  # a read-only private folder: use it this time only
            raw = json.dumps(data, separators=(",", ":")).encode("utf-8")
            atomic_write(index_path(root, name), raw, fsync=False)
    return full if part == WORDS_NAME else index


def _rule_ids(root: Path) -> set[str]:
    """Ids of memories compiled into .claude/rules/ (Claude Code loads them with the file)."""
    from memkit.fsutil import read_inside

    ids: set[str] = set()
    for rel in _compiled_files(root):
        if rel.startswith(RULES_DIR):
            try:
                text = read_inside(root, rel, limit=MAX_MEMORY).decode("utf-8", "replace")
            except Exception:
                continue
            ids.update(re.findall(r"<!-- memkit:id=([a-z0-9-]+) -->", text))
    return ids


def load(root: Path, part: str = INDEX_NAME) -> dict[str, Any] | None:
    """Index `part` if it is still true for the folders and compiled files; None if not."""
    try:
        with open(index_path(root, part), encoding="utf-8") as f:
            index = json.load(f)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(index, dict) or index.get("version") != VERSION:
        return None
    if index.get("sources") != _sources(root):
        return None
    return index


def refresh(store: Store, *, today: dt.date, full: bool = False) -> dict[str, Any]:
    """The index, rebuilt when stale (`full`: also when any memory file changed)."""
    index = load(store.root, WORDS_NAME)
    if index is not None and full:
        for path, stamp, *_rest in index["memories"].values():
            if _stamp(os.path.join(store.root, path)) != stamp:
                index = None
                break
    return index if index is not None else build(store, today=today, part=WORDS_NAME)


def entries(index: dict[str, Any], ids: Iterable[str]) -> list[Entry]:
    out = []
    for mid in ids:
        rec = index["memories"].get(mid)
        if rec:
            path, stamp, title, kind, verified, about = rec
            out.append(Entry(mid, path, tuple(stamp), title, kind, verified, ", ".join(about)))
    return out


def about_file(index: dict[str, Any], rel: str) -> list[str]:
    """Ids of the memories linked to `rel` (or a folder holding it), or scoped to it."""
    found: dict[str, None] = {}
    parts = rel.split("/")
    for i in range(len(parts), 0, -1):
        for mid in index["files"].get("/".join(parts[:i]), ()):
            found[mid] = None
    for pattern, mid in index["globs"]:
        if mid not in found and re.fullmatch(pattern, rel):
            found[mid] = None
    return list(found)


def _words(text: str) -> list[str]:
    """Distinctive words, crudely stemmed (`issued`, `issues`, `issuing` -> `issu`)."""
    return [_stem(w) for w in _WORD.findall(text.lower()) if w not in STOP]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "e", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def about_prompt(index: dict[str, Any], prompt: str, *, limit: int) -> list[tuple[str, str]]:
    """(id, matching words) of the memories whose title, tags or links share the most
    distinctive words with `prompt`; at least two words, or one rare one in few memories."""
    import math

    total = max(1, len(index["memories"]))
    scores: dict[str, float] = {}
    matched: dict[str, list[str]] = {}
    for w in dict.fromkeys(_words(prompt[:4000])):
        ids = index["words"].get(w, ())
        if not ids or len(ids) > total // 10 + 3:
            continue  # absent, or too common to tell memories apart
        idf = math.log(1 + total / len(ids))
        for mid in ids:
            scores[mid] = scores.get(mid, 0.0) + idf
            matched.setdefault(mid, []).append(w)
    floor = math.log(1 + total / max(2, total // 500))  # one word in 1 of 500, or more
    best = sorted(scores, key=lambda m: (-scores[m], m))
    return [(m, " ".join(matched[m])) for m in best if scores[m] >= floor][:limit]


def body(root: Path, entry: Entry) -> tuple[str, bytes] | None:
    """(markdown body, file bytes) of `entry`; None when the file changed since indexing."""
    path = os.path.join(root, entry.path)
    if os.path.islink(path) or tuple(_stamp(path) or ()) != entry.stamp:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_MEMORY + 1)
    except OSError:
        return None
    text = data[:MAX_MEMORY].decode("utf-8", "replace")
    if text.startswith("---"):
        end = re.search(r"^---[ \t]*\r?$", text[3:], re.MULTILINE)
        text = text[3 + end.end() :] if end else text
    return text.strip(), data
