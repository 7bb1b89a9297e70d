"""What agents may write, and how a person accepts it.

Agents only write drafts. A change to a reviewed memory becomes a *proposed revision*:
a new draft whose `revises` names the original and whose `status` is the one proposed
(`draft` keeps the original's; never `active`). `memkit approve ID` makes a draft active
or applies a revision; `--reject` drops either. Everything an agent writes is scanned for
secrets with no allowance; every write holds the store lock for its read-modify-write.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from memkit import memory as mm
from memkit.errors import ConfigError, MemkitError
from memkit.fields import REGISTRY
from memkit.memory import Memory
from memkit.store import Store, check_secrets
from memkit.validation import validate
from memkit.walk import MEMORY_DIR

AGENT_STATUS = "draft"
# The fields a revision proposes: the body and those a person writes, but the status, which
# says what to do with the original; id, path, created, updated and verified stay the original's.
APPLIED = (
    "title",
    "body",
    *(f.name for f in REGISTRY if f.hand_written and f.name not in ("title", "status")),
)
_SUFFIX = "-revision"


class NotAProposalError(MemkitError):
    """The memory is reviewed: an agent cannot change it, approve/reject does not apply."""


@dataclass(frozen=True)
class Approved:
    """What `approve` did: the memory now in force, and the files it wrote or deleted."""

    memory: Memory
    revision: str | None = None  # the id of the applied revision
    removed: str | None = None  # the revision's path, deleted
    changed: tuple[str, ...] = ()  # fields of the original that changed
    diff: str = ""  # unified diff of the original's file

    @property
    def written(self) -> list[str]:
        return [self.memory.path, *([self.removed] if self.removed else [])]


def is_proposal(mem: Memory) -> bool:
    """A draft or a proposed revision: unreviewed text an agent may change in place."""
    return mem.status == AGENT_STATUS or mem.revises is not None


def require_draft_config(store: Store) -> None:
    """Refuse the removed `[memories] agent_status` setting unless it says draft."""
    value = store.config.get("memories", "agent_status", AGENT_STATUS)
    if value != AGENT_STATUS:
        where = store.config.path or f"{MEMORY_DIR}/config.toml"
        raise ConfigError(
            f"{where}: [memories] agent_status = {value!r} is no longer supported: agents "
            "always save drafts, which a person makes active with `memkit approve ID`; "
            "remove the key (and any MEMKIT_MEMORIES_AGENT_STATUS)"
        )


def check_agent_text(mem: Memory) -> None:
    """SecretError if the file an agent is about to write looks like it holds a secret."""
    where = mem.path or f"{MEMORY_DIR}/{mem.id}.md"
    check_secrets(mm.dumps(mem), where, False, agent=True, mem=mem)


def save_draft(store: Store, mem: Memory) -> Memory:
    """Add an agent's new memory, as a draft, under a free id."""
    require_draft_config(store)
    mem = dataclasses.replace(mem, status=AGENT_STATUS, revises=None)
    with store.lock():
        check_agent_text(mem)
        return store.add(mem)


def put_draft(store: Store, old: Memory, new: Memory, *, today: dt.date) -> Memory:
    """Write an agent's change to its own draft (the caller holds the lock)."""
    if new == old:
        return old
    new = dataclasses.replace(new, updated=today)
    check_agent_text(new)
    return store.put(new)


def propose(store: Store, mid: str, *, today: dt.date, **changes: Any) -> Memory:
    """An agent's change to memory `mid`; returns what was written.
    A draft or a proposed revision changes in place and stays what it is. Any other
    memory is left untouched and a new proposed revision carries the change."""
    status = changes.get("status")
    if status == "active":
        raise NotAProposalError(
            f"an agent cannot make {mid!r} active: a person reviews it and runs "
            f"`memkit approve {mid}`"
        )
    require_draft_config(store)
    with store.lock():
        mem = store.get(mid)
        if not is_proposal(mem):
            return _revise(store, mem, today=today, **changes)
        if mem.revises is None and status not in (None, AGENT_STATUS):
            raise NotAProposalError(
                f"{mid!r} is a draft and stays one until a person approves it; "
                "forget_memory drops it"
            )
        return put_draft(store, mem, dataclasses.replace(mem, **changes), today=today)


def _revise(store: Store, orig: Memory, *, today: dt.date, **changes: Any) -> Memory:
    """Add a proposed revision of `orig` with `changes` (the caller holds the lock)."""
    status = changes.pop("status", None)
    proposed = orig.status if status in (None, AGENT_STATUS) else str(status)
    target = dataclasses.replace(orig, **changes)
    if target == orig and proposed == orig.status:
        return orig
    fresh: dict[str, Any] = dict(created=today, updated=today, verified=None, path="", head="")
    fresh["status"] = AGENT_STATUS if proposed == orig.status else proposed
    rev = dataclasses.replace(target, id=revision_id(orig.id), revises=orig.id, **fresh)
    check_agent_text(rev)
    return store.add(rev)


def revision_id(mid: str) -> str:
    """`ID-revision`, shortened to fit an id (store.add adds -2, -3... when taken)."""
    return f"{mid[: mm.MAX_ID - len(_SUFFIX) - 3].rstrip('-')}{_SUFFIX}"


def forget(store: Store, mid: str, *, today: dt.date, delete: bool = False) -> str:
    """An agent forgets memory `mid`; returns what was done.
    Its own draft is archived (deleted when `delete`); a proposed revision is
    withdrawn (deleted); any other memory gets a proposed revision with
    `status: archived`, for a person to approve."""
    with store.lock():
        mem = store.get(mid)
        if mem.revises is not None or (mem.status == AGENT_STATUS and delete):
            return f"deleted {store.delete(mid)}"
        if mem.status == AGENT_STATUS:
            saved = put_draft(store, mem, dataclasses.replace(mem, status="archived"), today=today)
            return f"archived {saved.path}"
        if mem.status == "archived":
            raise NotAProposalError(f"{mem.path} is already archived")
        rev = _revise(store, mem, today=today, status="archived")
        return (
            f"proposed archiving {mem.path} in {rev.path}: a person applies it with "
            f"`memkit approve {rev.id}`"
        )


def pending(store: Store) -> list[Memory]:
    """Every memory awaiting a person's review: drafts and proposed revisions, by id."""
    return [m for m in store.memories() if is_proposal(m)]


def approve(store: Store, mid: str, *, today: dt.date) -> Approved:
    """Make draft `mid` active, or apply proposed revision `mid` to its original."""
    with store.lock():
        mem = store.get(mid)
        if not is_proposal(mem):
            raise NotAProposalError(
                f"{mem.path} is {mem.status}, not a draft or a proposed revision: there "
                "is nothing to approve (`memkit approve` lists what is pending)"
            )
        if problems := validate(store, only=[mem.path]):
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise MemkitError(f"cannot approve {mem.id}: {problems[0]}{more}; fix it first")
        if mem.revises is None:
            saved = store.put(dataclasses.replace(mem, status="active", updated=today))
            return Approved(saved, changed=("status",))
        return _apply(store, mem, today=today)


def _apply(store: Store, rev: Memory, *, today: dt.date) -> Approved:
    import difflib

    assert rev.revises is not None
    orig = store.get(rev.revises)
    if orig.revises is not None:
        raise NotAProposalError(
            f"{rev.path} revises {orig.id!r}, itself a proposed revision: approve or "
            f"reject {orig.id} first"
        )
    new = dataclasses.replace(orig, **{f: getattr(rev, f) for f in APPLIED})
    if rev.status != AGENT_STATUS:
        new = dataclasses.replace(new, status=rev.status)
    changed = tuple(f for f in (*APPLIED, "status") if getattr(new, f) != getattr(orig, f))
    before = store.read(store.root / orig.path).decode("utf-8")
    if changed:
        new = store.put(dataclasses.replace(new, updated=today))
    after = mm.dumps(new)
    diff = "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{orig.path}",
            f"b/{orig.path}",
        )
    )
    removed = store.delete(rev.id)
    return Approved(new, revision=rev.id, removed=removed, changed=changed, diff=diff)


def reject(store: Store, mid: str) -> str:
    """Delete draft or proposed revision `mid`; returns its path."""
    with store.lock():
        mem = store.get(mid)
        if not is_proposal(mem):
            raise NotAProposalError(
                f"{mem.path} is {mem.status}, not a draft or a proposed revision: reject "
                f"drops only those (`memkit rm {mid}` deletes a reviewed memory)"
            )
        return store.delete(mid)
