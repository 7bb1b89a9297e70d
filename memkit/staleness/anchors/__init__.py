"""Links to what a project declares rather than to code: dependencies, config keys, commands, env.

| link | names | states when it changes |
|---|---|---|
| `dep:celery` | a dependency in the root manifests and lock files | version, removed |
| `dep:!celery` | a dependency the project does not use | added |
| `config.toml::db.pool` | a key in a TOML, JSON or YAML file | value, removed |
| `cmd:make lint` | a Makefile, package.json, pyproject, just, Taskfile command | body, removed |
| `env:REDIS_URL` | an environment variable the code reads or .env.example declares | removed |

Each kind is one module with an `Anchor` class; `kind_of(text)` picks it. The staleness
engine asks this package first (state, current_print, touched, record) and handles
file and symbol links itself when it answers None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from memkit.memory.links import CONFIG_SUFFIXES as CONFIG_SUFFIXES
from memkit.memory.links import PREFIXES as PREFIXES
from memkit.staleness.verdict import LinkStatus

if TYPE_CHECKING:
    from memkit.git import TreeChanges
    from memkit.memory import Memory
    from memkit.staleness.snapshot import Snapshot


class Anchor(Protocol):
    """One link of a kind this package handles."""

    @property
    def text(self) -> str:
        """The link as written."""

    @property
    def any_source(self) -> bool:
        """Whether a change to any source file may change it (environment variable reads)."""

    def files(self, recorded: str | None) -> tuple[str, ...]:
        """Paths (relative to the store root) whose change may change what the link names."""

    def current(self, snap: Snapshot, recorded: str | None) -> str | None:
        """The fingerprint now, None when what it names is gone."""

    def compare(self, recorded: str, now: str | None) -> str:
        """The link's state (listed above verdict.STALE_LINK_STATES) from its recorded
        and current fingerprints."""

    def missing(self, snap: Snapshot) -> str:
        """Why it cannot be recorded, and how to fix it (it names nothing)."""


def is_anchor(text: str) -> bool:
    """Whether `text` is a link of one of the kinds here (cheap, no parsing)."""
    if text.startswith(PREFIXES):
        return True
    path, sep, _ = text.partition("::")
    return bool(sep) and path.lower().endswith(CONFIG_SUFFIXES)


def kind_of(text: str) -> Anchor | None:
    """The anchor for a link, None for a file or symbol link."""
    if not is_anchor(text):
        return None
    if text.startswith("dep:"):
        from memkit.staleness.anchors.deps import Dependency

        return Dependency.parse(text)
    if text.startswith("cmd:"):
        from memkit.staleness.anchors.commands import Command

        return Command.parse(text)
    if text.startswith("env:"):
        from memkit.staleness.anchors.env import EnvVar

        return EnvVar.parse(text)
    from memkit.staleness.anchors.config import ConfigKey

    return ConfigKey.parse(text)


def state(
    snap: Snapshot, changes: TreeChanges | None, text: str, recorded: str, since: str | None
) -> LinkStatus | None:
    """How an anchor link changed (None: not an anchor); untouched files mean unchanged."""
    anchor = kind_of(text)
    if anchor is None:
        return None
    files = anchor.files(recorded)
    if changes is not None and not any(changes.touches(snap.git_path(p)) for p in files):
        return LinkStatus(text, "unchanged", None, since)
    now = anchor.current(snap, recorded)
    refused = snap.refusal((text, *files)) if now is None else None
    if refused is not None:  # a file it reads is there, but over a limit: not removed
        return LinkStatus(text, "unreadable", None, since, reason=refused)
    return LinkStatus(text, anchor.compare(recorded, now), None, since)


def current_print(snap: Snapshot, text: str) -> str | None:
    """The fingerprint of an anchor link in a snapshot (None when missing)."""
    anchor = kind_of(text)
    return None if anchor is None else anchor.current(snap, None)


def touches(changes: TreeChanges, snap: Snapshot, text: str) -> bool:
    """Whether the changes touch a file the anchor link depends on."""
    anchor = kind_of(text)
    assert anchor is not None
    if any(changes.touches(snap.git_path(p)) for p in anchor.files(None)):
        return True
    return anchor.any_source and _touches_code(changes)


_CODE_CHANGED: list[object] = []  # [changes, whether they touch a code file]: the last asked


def _touches_code(changes: TreeChanges) -> bool:
    """Whether `changes` add, change or delete a code file; worked out once for the
    changes of a check or a range, not once per link (a range that changes a thousand
    memory files took 1 ms for each env: link)."""
    if _CODE_CHANGED and _CODE_CHANGED[0] is changes:
        return bool(_CODE_CHANGED[1])
    from memkit.staleness.links import language_of

    found = any(language_of(p) is not None for p in changes.new_paths() | changes.deleted)
    _CODE_CHANGED[:] = [changes, found]
    return found


def record(snap: Snapshot, text: str) -> str:
    """The fingerprint to record for an anchor link; LinkError when it names nothing."""
    from memkit.staleness.parsed import LinkError

    anchor = kind_of(text)
    assert anchor is not None
    now = anchor.current(snap, None)
    refused = snap.refusal((text, *anchor.files(None))) if now is None else None
    if refused is not None:
        raise LinkError(f"link {text!r}: {refused}")
    if now is None:
        raise LinkError(f"link {text!r}: {anchor.missing(snap)}")
    secret = getattr(anchor, "secret", None)  # config keys and commands: no digest of a secret
    why = secret(snap) if secret is not None else None
    if why:
        raise LinkError(f"link {text!r}: {why}")
    return now


def watched_by(mem: Memory) -> list[str]:
    """The files a memory's links depend on: anchors' files, other links' own paths.

    An anchor also watches the files its fingerprint in the memory's `verified:` names
    (the file an `env:` link found the read in: a commit removing the read makes the
    memory stale, and the pre-commit hook must look).
    """
    recorded = mem.verified.fingerprints if mem.verified else {}
    out: set[str] = set()
    for text in mem.links:
        anchor = kind_of(text)
        if anchor is None:
            out.add(text.partition("::")[0])
        else:
            out.update(anchor.files(recorded.get(text)))
    return sorted(out)
