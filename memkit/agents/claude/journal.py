"""A session's journal: what an agent read, edited, searched and ran, one JSON line a tool call.

`sessions/<session>.jsonl` in memkit's private folder, appended with one O_APPEND write a
line (concurrent hooks never interleave), read back redacted again, pruned when a session
never ended. No line, and no draft made from one, keeps a likely secret or part of one.
Standard library only until there is text to redact.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # the hook's fast path appends here: not even `typing`
if TYPE_CHECKING:
    import datetime as dt
    from pathlib import Path
    from typing import Any

SESSIONS_DIR = "sessions"
JOURNAL_DAYS = 14  # journals of sessions that never ended are deleted after this
MAX_FIELD = 300  # characters kept per command, pattern or snippet
SCAN_CHARS = 8192  # of a value's first line, redacted before it is cut (bounds the work)
SCAN_MARGIN = 512  # dropped from a longer line's window: it may end inside a secret


def _sessions_folder(root: str) -> str:
    """Where session journals live: memkit's private folder (memkit.cachedir)."""
    from memkit.cachedir import cache_dir

    return os.path.join(cache_dir(root), SESSIONS_DIR)


def safe_name(sid: str) -> str:
    """A session id as a file name: other characters become `_`, at most 100 of them."""
    keep = "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else "_" for c in sid)
    return keep[:100].lstrip(".") or "session"


def journal_file(root: str, sid: str) -> str:
    """The journal of session `sid` (a string path: the hook's fast path has no pathlib)."""
    return os.path.join(_sessions_folder(str(root)), f"{safe_name(sid)}.jsonl")


def redacted_first_line(value: Any) -> tuple[str, bool]:
    """(the first line of `value` with likely secrets redacted, whether text was left out).
    Only the first SCAN_CHARS characters of the line are looked at; from a longer
    line the last SCAN_MARGIN characters of that window are dropped too, since a
    secret cut there might no longer be recognised."""
    from memkit.secrets import redact

    text = str(value).strip()
    lines = text[: SCAN_CHARS + 1].splitlines()
    first = lines[0] if lines else ""
    clean = redact(first[:SCAN_CHARS])
    if len(first) > SCAN_CHARS:
        clean = clean[: max(0, len(clean) - SCAN_MARGIN)]
    return clean, len(first) < len(text) or len(first) > SCAN_CHARS


def redact_then_cut(value: Any, limit: int = MAX_FIELD) -> str:
    """The first line of `value`, likely secrets redacted, then cut to `limit` characters
    (` …` marks a cut). Redacting first: a cut never leaves part of a secret behind."""
    clean, more = redacted_first_line(value)
    if more or len(clean) > limit:
        return clean[:limit] + " …"
    return clean


def append(path: str | Path, rec: dict[str, str]) -> None:
    """Add one record to the journal at `path` (created, with its folder, if need be)."""
    append_bytes(path, (json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n").encode())


def append_bytes(path: str | Path, data: bytes) -> None:
    """Append `data` to `path` (created private, with its folder, if need be) in one
    O_APPEND write, so lines written by concurrent hooks never interleave."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def read_journal(path: Path) -> list[dict[str, str]]:
    """The journal's records; unreadable lines (a crash mid-write) are skipped.
    Text is redacted again: journals written by earlier versions were not."""
    from memkit.secrets import redact

    out = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("kind"), str):
            out.append({k: redact(v) if isinstance(v, str) else str(v) for k, v in rec.items()})
    return out


def prune_journals(root: str | Path, *, keep_days: int, today: dt.date) -> None:
    """Delete the journals of sessions that ended without a SessionEnd long ago."""
    import datetime

    try:
        entries = list(os.scandir(_sessions_folder(str(root))))
    except OSError:
        return
    for e in entries:
        if not (e.name.endswith(".jsonl") and e.is_file(follow_symlinks=False)):
            continue
        try:
            mtime = e.stat(follow_symlinks=False).st_mtime
        except FileNotFoundError:  # another session's hook pruned it meanwhile
            continue
        age = today - datetime.date.fromtimestamp(mtime)
        if age.days > keep_days:
            import contextlib

            with contextlib.suppress(FileNotFoundError):
                os.unlink(e.path)
