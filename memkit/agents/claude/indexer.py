"""The point-of-action index, write side: built from one load of the store.

`build` writes the index (layout: memkit.agents.claude.recall) atomically; the sources'
stamps are taken before the store is read, so a memory changed meanwhile makes the next
check fail. `digest` stamps every memory file, which SessionStart compares.
"""

from __future__ import annotations

import json
import os
import re

from memkit.agents.claude import recall
from memkit.agents.claude.loaded import CLAUDE_FILES, FALLBACK, RULES_DIR
from memkit.agents.claude.preloaded import compiled
from memkit.agents.claude.words import words
from memkit.errors import MemkitError

TYPE_CHECKING = False  # SessionStart imports this for `digest`: not even `typing`
if TYPE_CHECKING:
    import datetime as dt
    from typing import Any

    from memkit.memory import Memory
    from memkit.store import Store


def digest(root: str) -> str:
    """A digest of every memory file's path, size and mtime."""
    import hashlib

    from memkit.walk import memory_entries

    rows = []
    for rel, e in memory_entries(root):
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        rows.append(f"{rel}\x00{st.st_size}\x00{st.st_mtime_ns}")
    rows.sort()
    return hashlib.blake2b("\n".join(rows).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _dirs(root: str) -> list[str]:
    out, stack = [], [".memory"]
    while stack:
        rel = stack.pop()
        out.append(rel)
        try:
            stack += [
                f"{rel}/{e.name}"
                for e in os.scandir(os.path.join(root, rel))
                if e.is_dir(follow_symlinks=False)
            ]
        except OSError:
            continue
    return out


def sources(root: str, loaded: list[str]) -> dict[str, Any]:
    """The stamps the index depends on: folders of .memory/, config, what Claude loads."""
    rels = [*_dirs(root), ".memory/config.toml", *CLAUDE_FILES, FALLBACK, ".claude", RULES_DIR,
            *loaded]  # fmt: skip
    return {rel: recall.stamp(os.path.join(root, rel)) for rel in dict.fromkeys(rels)}


def _entry(root: str, m: Memory, compiled: bool) -> list[Any] | None:
    st = recall.stamp(os.path.join(root, m.path))
    if st is None:
        return None
    recency = m.updated or m.created
    rank = [0 if m.pin else 1, -m.priority, -recency.toordinal() if recency else 0]
    about = ", ".join([*m.links, *m.paths])
    offset = len(m.head.encode("utf-8", "surrogateescape"))
    linked = {link.partition("::")[0].rstrip("/") for link in m.links}
    verified = sorted(linked) if m.verified and m.links else []  # staleness keyed on these
    return [m.path, st[0], st[1], offset, m.title, m.type, about, int(compiled), rank, verified]


def _glob_keys(glob: str) -> list[tuple[str, str]]:
    """(bucket key, regular expression) for each alternative of a glob with wildcards."""
    from memkit.globs import expand_braces, glob_re

    out = []
    for alt in expand_braces(glob):
        fixed = re.split(r"[*?\[]", alt, maxsplit=1)[0]
        folder = fixed.rsplit("/", 1)[0] if "/" in fixed else ""
        last = alt.rsplit("/", 1)[-1]
        tail = re.split(r"[*?\]]", last)[-1] if not alt.endswith("/") else ""
        ext = "." + tail.rsplit(".", 1)[1] if "." in tail else ""
        out.append((f"g:{ext}\x00{folder}", glob_re(alt).pattern))
    return out


def _add(buckets: dict[str, list[dict[str, Any]]], m: Memory, entry: list[Any]) -> None:
    """File memory `m` (its index entry) in each section's buckets: by id, by the files,
    folders and globs it is about, by its words."""
    from memkit.compile.scopes import activation

    n = len(buckets["e"])

    def keyed(section: str, key: str, hashed: str) -> Any:
        b = buckets["f"][recall.fnv(hashed) % n]
        got = b.setdefault(section, {}).setdefault(key, [] if section == "k" else {})
        b.setdefault("m", {})[m.id] = entry
        return got

    buckets["e"][recall.fnv(m.id) % n][m.id] = entry
    if activation(m) == "manual":
        return  # given only when asked for by id: never for a file or a prompt
    for link in m.links:
        key = link.partition("::")[0].rstrip("/")
        keyed("k", key, "k:" + key).append([m.id, 1, 0])
    for g in m.paths:
        literal = len(re.sub(r"[*?\[\]{}]", "", g))
        if not any(c in g for c in recall._WILD):
            keyed("k", g.rstrip("/"), "k:" + g.rstrip("/")).append([m.id, 0, literal])
            continue
        for key, pattern in _glob_keys(g):
            keyed("g", key, key).setdefault(pattern, []).append([m.id, literal])
    about = [*m.links, *m.paths]
    text = " ".join([m.title, m.title, *m.tags, *(x.replace("/", " ") for x in about)])
    for w in dict.fromkeys(words(text)):  # first-seen order: the same bytes every run
        buckets["w"][recall.fnv(w) % n].setdefault(w, []).append(m.id)


def build_bytes(root: str, today: str) -> bytes:
    """Build and write the index of the project at `root` (kept in memory only when the
    private folder cannot be written); its bytes."""
    import datetime
    from pathlib import Path

    from memkit.clock import today as clock_today
    from memkit.store import Store

    day = clock_today() if today == recall.today_iso() else datetime.date.fromisoformat(today)
    return build(Store(Path(root)), today=day)


def build(store: Store, *, today: dt.date) -> bytes:
    """Write the index for `store` (one load) and return its bytes; a private folder
    that cannot be written leaves it in memory only."""
    import contextlib

    from memkit.agents.claude import pointofaction as poa
    from memkit.fsutil import atomic_write

    root = str(store.root)
    claude, rules, files = compiled(root)
    head = {"version": recall.VERSION, "sources": sources(root, files), "env": recall.env(),
            "today": today.isoformat(), "digest": digest(root)}  # fmt: skip
    live = [m for m in store.load().memories if m.in_force(today) and m.path]
    expiring = [m.expires for m in live if m.expires is not None]
    head["until"] = min(expiring).isoformat() if expiring else None
    head["budget"] = poa.budget_values(store.root)
    n = 16
    while n < len(live) // 32 and n < 4096:
        n *= 2
    buckets: dict[str, list[dict[str, Any]]] = {k: [{} for _ in range(n)] for k in recall.SECTIONS}
    entries = {}
    for m in sorted(live, key=lambda m: m.id):
        entry = _entry(root, m, m.id in claude or m.id in rules)
        if entry is not None:
            entries[m.id] = entry
            _add(buckets, m, entry)
    head["n"], head["b"] = len(entries), n
    start = _start(live, entries, claude)
    chunks: list[bytes] = []
    offsets: dict[str, list[int]] = {}
    at = 0
    for kind in recall.SECTIONS:
        offsets[kind] = [at]
        for chunk in buckets[kind]:
            data = _dumps(chunk) if chunk else b""
            chunks.append(data)
            at += len(data)
            offsets[kind].append(at)
    data = _dumps(start)
    chunks.append(data)
    offsets["s"] = [at, at + len(data)]
    head["off"] = offsets
    line = _dumps(head) + b"\n"
    data = line + b"".join(chunks)
    from pathlib import Path

    with contextlib.suppress(OSError, MemkitError):
        store.private_dir()
        atomic_write(Path(recall.index_file(root)), data, fsync=False)
    return data


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode("ascii")


def _start(live: list[Memory], entries: dict[str, list[Any]], claude: set[str]) -> dict[str, Any]:
    """The SessionStart candidates (always on, not in CLAUDE.md) in order: as many as could
    fit, then enough more to name what is left out; the count of all of them; and
    [id, title, description, path] of each memory the agent fetches by its description
    (`activation: agent`). Manual ones are fetched when asked for only."""
    from memkit.agents.claude.session_text import CONTEXT_CHARS, MAX_LISTED, block
    from memkit.compile.scopes import activation, description
    from memkit.memory import TYPES

    usable = [m for m in live if not m.paths and m.id not in claude and m.id in entries]
    described = [
        [m.id, m.title, description(m), m.path] for m in usable if activation(m) == "agent"
    ]
    always = sorted(
        (m for m in usable if activation(m) == "always"),
        key=lambda m: (not m.pin, -m.priority, TYPES.index(m.type), m.id),
    )
    ids, size, over = [], 0, 0
    for m in always:
        ids.append(m.id)
        size += len(block(m.title, m.type, m.id, "", m.text))
        if size > CONTEXT_CHARS:
            over += 1
            if over > MAX_LISTED + 1:
                break
    return {
        "ids": ids,
        "m": {mid: entries[mid] for mid in ids},
        "n": len(always),
        "a": sorted(described),
    }
