"""A session journal (what an agent read, edited and ran) -> one draft `episode` memory.

`stop` runs at Stop and SessionEnd on the journal the PostToolUse hook wrote
(memkit.agents.claude.journal). The draft lists the files read and edited, the commands
run and the searches made, links the edited files (and, for Python, the functions and
classes the edits landed in), carries the session id as `source`, and has every likely
secret redacted (then scanned as everything agents write is: memkit.agents.proposals).
"""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import hashlib
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit import memory as mm
from memkit.agents.claude.journal import journal_file, read_journal, redacted_first_line
from memkit.agents.claude.payload import find_root, session_id
from memkit.secrets import bare_values, redact
from memkit.store import Store

MAX_ITEMS = 25  # per list in the body
MAX_LINKS = 20
MIN_COMMANDS = 3  # a session that edited nothing is kept only if it ran this many commands
MAX_TRANSCRIPT = 4 * 1024 * 1024  # bytes of a transcript read for its first prompt


@dataclass(frozen=True)
class Summary:
    read: tuple[str, ...]
    edited: tuple[str, ...]
    commands: tuple[str, ...]
    searches: tuple[str, ...]
    symbols: tuple[str, ...]  # file::Symbol links for edits in Python files
    asked: str | None = None  # the session's first prompt (first line), from its transcript
    concluded: str | None = None  # what the session concluded: its last answer, redacted


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def summarise(root: Path, records: Sequence[Mapping[str, str]]) -> Summary:
    edited = sorted({r["file"] for r in records if r["kind"] in ("edit", "write") and "file" in r})
    read = sorted({r["file"] for r in records if r["kind"] == "read" and "file" in r} - set(edited))
    searches = [
        r["text"] + (f" in {r['path']}" if r.get("path") else "")
        for r in records
        if r["kind"] == "search" and "text" in r
    ]
    snippets: dict[str, list[str]] = {}
    for r in records:
        if r["kind"] in ("edit", "write") and r.get("file", "").endswith(".py") and "snippet" in r:
            snippets.setdefault(r["file"], []).append(r["snippet"])
    symbols = sorted({s for f, snips in snippets.items() for s in _symbols_at(root, f, snips)})
    return Summary(
        read=tuple(read),
        edited=tuple(edited),
        commands=_unique(r["text"] for r in records if r["kind"] == "command" and "text" in r),
        searches=_unique(searches),
        symbols=tuple(symbols),
    )


def _transcript(path: str | None) -> list[str]:
    """The whole lines of a Claude Code transcript (JSON lines), read up to MAX_TRANSCRIPT
    bytes; none for anything but an absolute path to a regular file."""
    if not path or not os.path.isabs(path) or "\x00" in path:
        return []
    data = _read_head(path, MAX_TRANSCRIPT)
    lines = data.decode("utf-8", errors="replace").splitlines()
    return lines[:-1] if len(data) == MAX_TRANSCRIPT else lines  # the last one is cut off


def first_prompt(transcript: str | None, *, max_lines: int = 500) -> str | None:
    """The first line of the session's first typed prompt, from its transcript (entries
    `{"type": "user", "message": {...}}`); None for anything unreadable or unexpected."""
    import json

    for line in _transcript(transcript)[:max_lines]:
        try:
            text = _prompt_text(json.loads(line))
        except (ValueError, RecursionError):
            return None
        if text:
            return text
    return None


def _read_head(path: str, limit: int) -> bytes:
    """At most `limit` bytes from the start of regular file `path` (b"" for anything else:
    a FIFO would block, a device never ends)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        chunks: list[bytes] = []
        size = 0
        while size < limit and (chunk := os.read(fd, min(limit - size, 1 << 20))):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _texts(entry: object, kind: str) -> list[Any]:
    """The text blocks of a transcript entry of type `kind`, or its content as a string."""
    if not isinstance(entry, dict) or entry.get("type") != kind:
        return []
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):  # text blocks, or tool results (no text)
        return [c.get("text") for c in content if isinstance(c, dict) and c.get("type") == "text"]
    return [content] if kind == "user" else []  # an answer's content is always blocks


def _prompt_text(entry: object) -> str | None:
    texts = [] if isinstance(entry, dict) and entry.get("isMeta") else _texts(entry, "user")
    content = texts[0] if texts else None
    if not isinstance(content, str) or not content.strip() or content.lstrip().startswith("<"):
        return None
    return redacted_first_line(content)[0][:300]


MAX_CONCLUSION = 2000  # characters of the session's last answer kept in its draft


def conclusion(payload_text: object, transcript: str | None) -> str | None:
    """What the session concluded: the Stop payload's `last_assistant_message`, else the
    last assistant text in the transcript; redacted, at most MAX_CONCLUSION characters."""
    import json

    text = payload_text if isinstance(payload_text, str) and payload_text.strip() else None
    for line in reversed(_transcript(transcript) if text is None else []):
        try:
            texts = _texts(json.loads(line), "assistant")
        except (ValueError, RecursionError):
            continue
        if texts and isinstance(texts[-1], str) and texts[-1].strip():
            text = texts[-1]
            break
    if text is None:
        return None
    clean = redact(text.strip())
    return clean if len(clean) <= MAX_CONCLUSION else clean[:MAX_CONCLUSION].rstrip() + " …"


def _symbols_at(root: Path, rel: str, snippets: list[str]) -> set[str]:
    """`file::Qual.name` of the innermost function or class holding each edited snippet."""
    try:
        source = (root / rel).read_text("utf-8")
        tree = ast.parse(source)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return set()
    lines = source.splitlines()
    Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    names: dict[Def, str] = {}  # each definition's qualified name

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Def):
                names[child] = f"{prefix}{child.name}"
                walk(child, f"{names[child]}.")

    walk(tree, "")
    found: set[str] = set()
    for snippet in snippets:
        needle = snippet.removesuffix(" …").strip()
        line = next((i for i, text in enumerate(lines, 1) if needle and needle in text), None)
        inner = [
            d for d in names if line is not None and d.lineno <= line <= (d.end_lineno or d.lineno)
        ]
        if inner:
            found.add(f"{rel}::{names[max(inner, key=lambda d: d.lineno)]}")
    return found


def _bullets(items: tuple[str, ...], code: bool = True) -> list[str]:
    shown = [f"- `{i}`" if code else f"- {i}" for i in items[:MAX_ITEMS]]
    if len(items) > MAX_ITEMS:
        shown.append(f"- … and {len(items) - MAX_ITEMS} more")
    return shown


def render(summary: Summary, sid: str) -> tuple[str, str]:
    """(title, body) of the episode."""
    s = summary
    whole = redact((s.asked or "").strip())  # before the cut: half a secret reads as none
    asked = whole.splitlines()[0] if whole else ""
    if asked:  # a title is one line: the prompt's first (the body keeps it whole)
        cut = len(asked) > 100 or asked != whole
        title = f"Session: {asked[:100]}" + (" …" if cut else "")
    elif s.edited:
        more = f" and {len(s.edited) - 2} more" if len(s.edited) > 2 else ""
        title = f"Session: edited {', '.join(s.edited[:2])}{more}"
    else:
        title = f"Session: ran {len(s.commands)} commands ({s.commands[0][:60]}, …)"
    parts = [
        f"What Claude Code session `{sid}` did: {len(s.edited)} file(s) edited, "
        f"{len(s.read)} read, {len(s.commands)} command(s) run.",
        "Review: replace this list with what was learned and why it matters, then "
        "`memkit approve ID`; or `memkit approve --reject ID` if nothing is worth keeping.",
    ]
    if s.asked:
        parts.insert(0, f"Asked: {s.asked}")
    if s.concluded:
        parts.insert(0, f"Concluded:\n\n{s.concluded}")
    by_file: dict[str, list[str]] = {}
    for link in s.symbols:
        file, _, symbol = link.partition("::")
        by_file.setdefault(file, []).append(f"`{symbol}`")
    edited = tuple(
        f"`{f}`" + (f" ({', '.join(by_file[f])})" if f in by_file else "") for f in s.edited
    )
    for heading, items, code in (
        ("Edited", edited, False),
        ("Read", s.read, True),
        ("Commands", s.commands, True),
        ("Searched", s.searches, True),
    ):
        if items:
            parts.append("\n".join([f"{heading}:", "", *_bullets(items, code)]))
    return title, "\n\n".join(parts)


def episode(
    summary: Summary, sid: str, *, root: Path, today: dt.date, status: str = "draft"
) -> mm.Memory:
    """The draft memory for a summary (secrets redacted, links checked)."""
    title, body = render(summary, sid)
    links = [f for f in summary.edited if (root / f).is_file() and _valid_link(f)]
    links += [s for s in summary.symbols if _valid_link(s)]
    return mm.new(
        redact(title),
        redact(body),
        mid=mm.slugify(f"session {today.isoformat()} {sid[:8]}"),
        today=today,
        type="episode",
        status=status,
        tags=["session"],
        links=links[:MAX_LINKS],
        source=session_source(sid),
    )


def session_source(sid: str) -> str:
    """The `source` of a session's draft: the agent's session id, by which the next Stop
    finds the draft again. An id that looks random as a whole (a ULID, an id with a
    random part) would read as a bare token and refuse every draft, so it is kept as
    `session ` and its digest; the draft's body still names the session."""
    source = redact(sid)
    if not bare_values(source):
        return source
    return "session " + hashlib.sha256(sid.encode("utf-8")).hexdigest()[:24]


def _valid_link(link: str) -> bool:
    try:
        mm.check_link(link)
    except ValueError:
        return False
    return True


def save_episode(store: Store, summary: Summary, sid: str, *, today: dt.date) -> str:
    """Create or refresh the session's draft; a draft a person already took over is left alone."""
    from memkit.agents.proposals import check_agent_text, put_draft, require_draft_config

    if not summary.edited and len(summary.commands) < MIN_COMMANDS:
        return (
            f"session {sid} edited no file and ran fewer than {MIN_COMMANDS} commands: "
            "no episode saved"
        )
    require_draft_config(store)
    mem = episode(summary, sid, root=store.root, today=today)
    with store.lock():
        existing = [m for m in store.memories() if m.type == "episode" and m.source == mem.source]
        if not existing:
            check_agent_text(mem)
            saved = store.add(mem)
            return f"saved {saved.path} ({saved.status})"
        old = existing[0]
        if old.status != mem.status or old.revises is not None:
            return f"{old.path} is no longer a {mem.status}: left as it is"
        new = dataclasses.replace(old, title=mem.title, body=mem.body, links=mem.links)
        if new == old:
            return f"{old.path} is up to date"
        saved = put_draft(store, old, new, today=today)
        return f"updated {saved.path} ({saved.status})"


def stop(payload: Mapping[str, Any], *, today: dt.date, end: bool = False) -> str:
    """Stop and SessionEnd: turn the session's journal into one draft episode memory; say
    what happened. `end` (SessionEnd) also deletes the journal: the session is over."""
    if payload.get("stop_hook_active"):
        return "stop_hook_active is set: already continuing after a stop hook, nothing to do"
    found = find_root(payload)
    if found is None:
        return "no .memory/ directory here or above; no episode saved (run `memkit init`)"
    root, sid = Path(found), session_id(payload)
    journal = Path(journal_file(found, sid))
    if not journal.exists():
        return f"no journal for session {sid}: nothing to save"
    transcript = payload.get("transcript_path")
    path = transcript if isinstance(transcript, str) else None
    asked = first_prompt(path)
    concluded = conclusion(payload.get("last_assistant_message"), path)
    summary = dataclasses.replace(
        summarise(root, read_journal(journal)), asked=asked, concluded=concluded
    )
    message = save_episode(Store(root), summary, sid, today=today)
    if end or payload.get("hook_event_name") == "SessionEnd":
        journal.unlink(missing_ok=True)
    return message
