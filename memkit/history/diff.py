"""A memory-level review of a range of history: what a pull request does to the memories.

`diff_range(store, base, head)` compares the memories at `base` with those at `head`
(None: the working tree): added, removed, renamed and changed memories with the fields
and text that changed, flags for what deserves a reviewer's eye, and the memories that
the code changes of the same range made stale.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memkit.errors import GitError
from memkit.gcpause import paused
from memkit.history import snapshots
from memkit.history.snapshots import File, Memories, Snapshot

if TYPE_CHECKING:  # pygit2's side (memkit.git, provenance) loads only when it is asked
    from memkit.memory import Memory
    from memkit.staleness.verdict import MemoryStatus
    from memkit.store import Store

# A `source` naming an agent or a session marks a memory an agent wrote.
AGENT_SOURCE = re.compile(
    r"\b(agents?|sessions?|bots?|llm|mcp|claude|codex|copilot|cursor|gemini|aider|"
    r"windsurf|devin|jules|amp|opencode)\b",
    re.IGNORECASE,
)
# What `memkit import` records as `source`: the instruction file and section a person
# wrote (CLAUDE.md#testing, .cursor/rules/api.mdc#errors). Agent names in such a path
# name the file, not who wrote the text.
FILE_SOURCE = re.compile(r"^[^\s#]+\.(md|mdc|markdown|txt)(#\S*)?$", re.IGNORECASE)
_CONFIDENCE_RANK = {"low": 0, None: 1, "medium": 1, "high": 2}
FLAGS = {
    "always-on": "new always-on memory (active, no `paths`): every agent session loads it",
    "confidence-rose": "confidence rose",
    "agent-written": "written by an agent (status draft, or a `source` naming an agent)",
}


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: str | None
    new: str | None


@dataclass(frozen=True)
class MemoryChange:
    id: str
    kind: str  # added | removed | renamed | changed
    title: str
    path: str | None
    old_path: str | None
    fields: tuple[FieldChange, ...] = ()
    body_diff: str = ""  # unified diff of the text, without file headers
    flags: tuple[str, ...] = ()
    invalid: bool = False  # the file does not parse at head
    owners: tuple[str, ...] = ()  # who reviews it, from CODEOWNERS (memkit.history.codeowners)

    def to_record(self) -> dict[str, Any]:
        fields = [dataclasses.asdict(f) for f in self.fields]
        lists = {"fields": fields, "flags": list(self.flags), "owners": list(self.owners)}
        return {**dataclasses.asdict(self), **lists}


@dataclass(frozen=True)
class Review:
    base: str
    head: str | None  # None: the working tree
    changes: tuple[MemoryChange, ...]
    stale: tuple[MemoryStatus, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def flagged(self) -> tuple[MemoryChange, ...]:
        return tuple(c for c in self.changes if c.flags)

    def to_record(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "head": self.head,
            "changes": [c.to_record() for c in self.changes],
            "stale": [s.to_record() for s in self.stale],
            "notes": list(self.notes),
        }


def default_base(store: Store) -> str:
    """The merge base of HEAD with the default branch (HEAD itself on that branch)."""
    from memkit import git
    from memkit.history.provenance import repo_and_folder

    repo, _ = repo_and_folder(store)
    head = git.require_commits(repo, "`memkit diff`")
    base = git.merge_base_with_default(repo, head)
    if base is not None:
        return base
    if git.is_shallow(repo):
        why = "no merge base with the default branch in this shallow clone; fetch more history "
        why += "(`git fetch --unshallow`) or"
    else:
        why = "cannot tell the default branch (no origin/HEAD, main or master) or it shares no "
        why += "history with HEAD;"
    raise GitError(f"{why} name the base: `memkit diff BASE`")


@paused()
def diff_range(
    store: Store, base: str | None = None, head: str | None = None, mems: list[Memory] | None = None
) -> Review:
    """The memory-level changes from `base` (default: merge base) to `head` (None: work tree).

    `mems`: the store's memories, already loaded (else check_range loads them).
    """
    from memkit import git
    from memkit.history.provenance import repo_and_folder

    repo, folder = repo_and_folder(store)
    git.require_commits(repo, "`memkit diff`")
    base_id = str(git.resolve(repo, base).id) if base else default_base(store)
    head_id = str(git.resolve(repo, head).id) if head else None
    files = snapshots.Memories(store, lambda oid: git.read_blob(repo, oid))
    old = snapshots.at_revision(repo, folder, base_id)
    if head_id:
        new = snapshots.at_revision(repo, folder, head_id)
    else:
        new = snapshots.on_disk(store, files, sha256=len(base_id) == 64)
    # the entries of each side that are not the same on the other: what the review reads
    was = {m: v for m, v in old.items() if new.get(m) != v}
    now = {m: v for m, v in new.items() if old.get(m) != v}
    git.prefetch(repo, files.missing([*was.values(), *now.values()]))  # a partial clone's, at once
    changes = _with_owners(store, _compare(old, new, files), new, files)
    files.save()
    from memkit.staleness import check_range

    found = check_range(store, base_id, head_id, memories=mems)
    stale = tuple(sorted((s for s in found if s.stale), key=lambda s: s.id))
    notes = [
        f"{s.id}: {x.link}: {x.reason}"
        for s in found
        if not s.stale
        for x in s.links
        if x.state == "unverified" and x.reason
    ]
    if git.is_shallow(repo):
        notes.append("shallow clone: history before the clone's depth is not available")
    return Review(base_id, head_id, tuple(changes), stale, tuple(notes))


# -------------------------------------------------------------- comparing


def _compare(old: Snapshot, new: Snapshot, files: Memories) -> list[MemoryChange]:
    """The changes from `old` to `new`; a file equal to one removed (same bytes, same
    blob id) under another name is that memory renamed."""
    removed = {m: old[m] for m in old.keys() - new.keys()}
    added = {m: new[m] for m in new.keys() - old.keys()}
    out: list[MemoryChange] = []
    for mid, file in sorted(added.items()):
        twin = next((o for o, f in sorted(removed.items()) if f.oid == file.oid), None)
        if twin is not None:
            out.append(_changed(mid, "renamed", removed.pop(twin), file, files))
        else:
            out.append(_changed(mid, "added", None, file, files))
    for mid, file in sorted(removed.items()):
        mem = files.load(mid, *file)
        out.append(MemoryChange(mid, "removed", mem.title if mem else mid, None, file.path))
    for mid in sorted(old.keys() & new.keys()):
        if old[mid] != new[mid]:
            kind = "renamed" if old[mid].path != new[mid].path else "changed"
            out.append(_changed(mid, kind, old[mid], new[mid], files))
    return sorted(out, key=lambda c: (c.id, c.kind))


def _changed(mid: str, kind: str, old: File | None, new: File, files: Memories) -> MemoryChange:
    """One memory's change; `old` None: it was added (every field it has is new)."""
    a = files.load(snapshots.stem(old.path), *old) if old else None
    b = files.load(mid, *new)
    old_path = old.path if old else None
    if b is None:
        return MemoryChange(mid, kind, mid, new.path, old_path, invalid=True)
    from memkit.history.provenance import changed_parts

    fa = a.fields() if a else {}
    fb = b.fields()
    names = tuple(fb) if old is None else changed_parts(a, b)[0]
    fields = tuple(FieldChange(k, _show(fa.get(k)), _show(fb.get(k))) for k in names)
    body = _body_diff(a.text if a else "", b.text)
    return MemoryChange(mid, kind, b.title, new.path, old_path, fields, body, _flags(a, b))


def _show(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):  # verified
        commit = value.get("commit")
        return f"{value.get('date')} at {str(commit)[:12] if commit else 'no commit'}"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _body_diff(old: str, new: str) -> str:
    import difflib

    changed = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=2)
    return "\n".join(line for line in changed if not line.startswith(("---", "+++")))


def always_on(mem: Memory) -> bool:
    return mem.status == "active" and not mem.paths


def agent_written(mem: Memory) -> bool:
    """A draft, or a `source` naming an agent or a session (not an imported file's name)."""
    if mem.status == "draft":
        return True
    source = mem.source or ""
    return bool(source and not FILE_SOURCE.match(source) and AGENT_SOURCE.search(source))


def _flags(old: Memory | None, new: Memory) -> tuple[str, ...]:
    flags = []
    if always_on(new) and (old is None or not always_on(old)):
        flags.append("always-on")
    if old is not None and (_CONFIDENCE_RANK[new.confidence] > _CONFIDENCE_RANK[old.confidence]):
        flags.append("confidence-rose")
    if agent_written(new):
        flags.append("agent-written")
    return tuple(flags)


def _with_owners(
    store: Store, changes: list[MemoryChange], new: Snapshot, files: Memories
) -> list[MemoryChange]:
    """Each change with its reviewers from CODEOWNERS (none when there is no CODEOWNERS)."""
    from memkit.history import codeowners

    rules = codeowners.load(store.root)
    if not rules.rules:
        return changes
    out = []
    for c in changes:
        mem = files.load(c.id, *new[c.id]) if c.id in new else None
        links, globs = (mem.links, mem.paths) if mem else ((), ())
        owners = rules.for_memory(str(c.path or c.old_path), links, globs)
        out.append(dataclasses.replace(c, owners=owners))
    return out
