"""A session's ledger: its receipts file read and appended with the standard library only.

The point-of-action hooks read it on every file touch (`state`: the ids given and the
characters spent since the context last started afresh) and append what they give. They
read it from its end back to the last `start` line only: a long session's earlier
contexts cost them nothing. memkit.agents.claude.receipts describes the fields.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # on every tool call: not even `typing`
if TYPE_CHECKING:
    from typing import BinaryIO

RECEIPTS_DIR = "receipts"
MAX_LEDGER = 16 * 1024 * 1024  # bytes of a session's receipts read back, its last
BLOCK = 64 * 1024  # bytes read at a time, from the end


def receipts_file(root: str, sid: str) -> str:
    from memkit.agents.claude.journal import safe_name
    from memkit.cachedir import cache_dir

    return os.path.join(cache_dir(str(root)), RECEIPTS_DIR, f"{safe_name(sid)}.jsonl")


def records(path: str, *, since_start: bool = False) -> list[dict[str, object]]:
    """The receipts at `path` as dicts with `at` and `event`, in file order; unreadable
    lines skipped. With `since_start`, only those from the last `start` line on (what a
    hook needs: the context's since it last started afresh). The file is read from its
    end backwards in blocks, at most its last MAX_LEDGER bytes, and each line is parsed
    only when it is needed, so a long session's earlier contexts cost nothing."""
    try:
        with open(path, "rb") as f:
            return _backwards(f, since_start)
    except OSError:
        return []


def _backwards(f: BinaryIO, since_start: bool) -> list[dict[str, object]]:
    """records: the blocks of `f` from its end. `rest` holds the end of a line that began
    in a block not read yet (several blocks of a line longer than one, newest first).
    What is parsed runs from just after a b"\n" to just before one (or the file's end),
    never inside a UTF-8 character, so it decodes and splits (at \r, \r\n, \u2028 ...)
    as the whole text would."""
    pos = f.seek(0, os.SEEK_END)
    low = max(0, pos - MAX_LEDGER)
    newest_first: list[dict[str, object]] = []
    rest: list[bytes] = []
    while pos > low:
        size = min(BLOCK, pos - low)
        pos -= size
        f.seek(pos)
        block = f.read(size)
        cut = block.find(b"\n") + 1 if pos > low else 0
        if not cut and pos > low:  # no line ends in it: all of it is the end of one line
            rest.append(block)
            continue
        data = block[cut:] + b"".join(reversed(rest))
        rest = [block[: cut - 1]] if cut else []
        for text in reversed(data.decode("utf-8", "replace").splitlines()):
            try:
                rec = json.loads(text)
            except (ValueError, RecursionError):
                continue
            if isinstance(rec, dict) and "at" in rec and "event" in rec:
                newest_first.append(rec)
                if since_start and rec["event"] == "start":
                    return newest_first[::-1]
    return newest_first[::-1]


def state(recs: list[dict[str, object]]) -> tuple[set[str], int]:
    """(ids given, characters the hooks spent) since the context last started afresh
    (a `start` line: a new session, /clear, a compaction). What a compiled file gave
    (a receipt with `via`) counts as given but spends nothing of the hooks' budget."""
    given: set[str] = set()
    spent = 0
    for rec in recs:
        if rec.get("event") == "start":
            given, spent = set(), 0
            continue
        mid, chars = rec.get("id"), rec.get("chars", 0)
        if isinstance(mid, str) and mid:
            given.add(mid)
        if rec.get("via"):
            continue
        if isinstance(chars, int) and not isinstance(chars, bool):
            spent += chars
    return given, spent


def via_given(recs: list[dict[str, object]]) -> set[tuple[object, object, object]]:
    """(file, id, blob) of what compiled files gave since the context last started afresh."""
    had: set[tuple[object, object, object]] = set()
    for rec in recs:
        if rec.get("event") == "start":
            had = set()
        elif rec.get("via"):
            had.add((rec.get("via"), rec.get("id"), rec.get("blob")))
    return had


def line(rec: dict[str, object]) -> str:
    """One receipt as its line: empty strings left out, keys sorted."""
    kept = {k: v for k, v in rec.items() if v != ""}
    return json.dumps(kept, ensure_ascii=False, sort_keys=True) + "\n"


def append(path: str, recs: list[dict[str, object]]) -> None:
    """Append receipts, one O_APPEND write for all (concurrent hooks never interleave)."""
    if not recs:
        return
    from memkit.agents.claude.journal import append_bytes

    append_bytes(path, "".join(line(r) for r in recs).encode("utf-8"))


def blob_id(data: bytes) -> str:
    """The git blob id of `data` (what `git hash-object` prints)."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read(1 << 20).strip()


def head_commit(root: str) -> str:
    """The commit HEAD points at, read from git's files (no git library); "" if unknown."""
    from memkit.cachedir import git_dir

    gd = git_dir(str(root))
    if gd is None:
        return ""
    try:
        head = _read(os.path.join(gd, "HEAD"))
        if not head.startswith("ref: "):
            return head
        ref = head[5:]
        try:
            common = os.path.realpath(os.path.join(gd, _read(os.path.join(gd, "commondir"))))
        except (OSError, UnicodeDecodeError):
            common = gd
        for base in (gd, common):
            loose = os.path.join(base, ref)
            if os.path.isfile(loose):
                return _read(loose)
        for row in _read(os.path.join(common, "packed-refs")).splitlines():
            if row.endswith(" " + ref):
                return row.split(" ", 1)[0]
    except (OSError, UnicodeDecodeError):
        return ""
    return ""
