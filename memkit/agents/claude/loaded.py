"""Receipts for what Claude Code loads by itself: the memories in the compiled files.

Claude Code reads CLAUDE.md (and .claude/CLAUDE.md, and the files they import with
`@file`) at session start, in the root and each folder down to where it started, or
AGENTS.md when the root has neither; a `.claude/rules/**/*.md` file without `paths` at
session start too, one with `paths` once the agent reads a file they match; a subfolder's
CLAUDE.md (or that AGENTS.md) once it reads a file in that folder. Each memory compiled in
full there ends with its `<!-- memkit:id=ID -->` line, each one shortened to its title
is a `- TITLE: \\`memkit show ID\\`` line (templates/memory.md.j2, index_entry.md.j2). The
hooks read the files as they are on disk at that moment, so a receipt names the file
(`via`) and its git blob id (`blob`): `git log --find-object=BLOB` finds the commit
that held exactly that text. start_files is the one walk of what Claude Code loads at
start (memkit.agents.claude.preloaded asks it too). Standard library only: it runs on
every file read.
"""

from __future__ import annotations

import os
import re
from stat import S_ISREG

from memkit.agents.claude import ledger

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

CLAUDE_FILES = ("CLAUDE.md", ".claude/CLAUDE.md")
FALLBACK = "AGENTS.md"  # what Claude Code reads when a folder has no CLAUDE.md
RULES_DIR = ".claude/rules"
MAX_FILE = 4 * 1024 * 1024  # bytes of a compiled file read
MAX_DEPTH = 5  # `@file` imports followed, as Claude Code does
FULL = re.compile(r"<!-- memkit:id=([a-z0-9-]+) -->")
TITLE = re.compile(r"^- .*: `memkit show ([a-z0-9-]+)`( \(possibly out of date\))?[ \t]*\r?$", re.M)
STALE = re.compile(
    r"^> \*\*Possibly out of date:\*\* the code this memory describes has "
    r"changed: (.*?)\. Verify it",
    re.M,
)
IMPORT = re.compile(r"^@([^\s]+)[ \t]*$", re.M)
GIT_DIR = "{}" + os.sep + ".git" + os.sep  # never read: git's own files
_OPEN = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_OPEN |= getattr(os, "O_CLOEXEC", 0)


def _read(root: str, rel: str) -> bytes | None:
    """The bytes of the regular file `rel` inside `root` (no link out), None otherwise."""
    return _read_real(os.path.realpath(os.path.join(root, rel)), os.path.realpath(root))


def _read_real(real: str, top: str) -> bytes | None:
    """The bytes of the regular file at `real`, a resolved path, if it lies inside `top`
    (the project's resolved root) and outside its .git/, of at most MAX_FILE bytes; None
    otherwise. Opened without following a link or waiting on a FIFO, and checked on the
    open file, so a file swapped for a FIFO after it was resolved never blocks."""
    if not real.startswith(top + os.sep) or (real + os.sep).startswith(GIT_DIR.format(top)):
        return None
    try:
        fd = os.open(real, _OPEN)
    except OSError:
        return None
    with open(fd, "rb") as f:  # closes fd
        try:
            if not S_ISREG(os.fstat(fd).st_mode):
                return None
            data = f.read(MAX_FILE + 1)
        except OSError:
            return None
    return data if len(data) <= MAX_FILE else None


def memories(text: str) -> Iterator[tuple[str, str, int, str]]:
    """(id, form, characters, stale) of each memory in a compiled file's text, in order:
    `full` for an entry ending with its id line, `title` for a one-line shortened entry;
    `stale` says what changed when the file marks it possibly out of date."""
    seen: set[str] = set()
    start = 0
    for m in FULL.finditer(text):
        head = text.rfind("\n### ", start, m.start())
        begin = head + 1 if head >= 0 else start
        if m.group(1) not in seen:
            seen.add(m.group(1))
            said = STALE.search(text, begin, m.start())
            yield m.group(1), "full", m.end() - begin, said.group(1) if said else ""
        start = m.end()
    for m in TITLE.finditer(text):
        if m.group(1) not in seen:
            seen.add(m.group(1))
            warned = "marked in its one-line entry" if m.group(2) else ""
            yield m.group(1), "title", len(m.group(0).rstrip()), warned


def _receipts(
    rel: str, data: bytes, at: str, event: str, why: str, commit: str
) -> list[dict[str, object]]:
    text = data.decode("utf-8", "replace")
    blob = ledger.blob_id(data)
    return [
        {
            "at": at,
            "event": event,
            "why": why,
            "id": mid,
            "chars": chars,
            "via": rel,
            "blob": blob,
            "commit": commit,
            "form": "" if form == "full" else form,
            "stale": stale,
        }
        for mid, form, chars, stale in memories(text)
    ]


def _folders(root: str, cwd: str) -> list[str]:
    """The folders from the root down to `cwd` (relative; "" is the root)."""
    rel = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    if rel == os.curdir or rel.startswith(os.pardir) or os.path.isabs(rel):
        return [""]
    parts = rel.replace(os.sep, "/").split("/")
    return ["", *("/".join(parts[: i + 1]) for i in range(len(parts)))]


def _fallback(root: str) -> bool:
    """Whether Claude Code reads AGENTS.md files here: only when the root has no CLAUDE.md
    (the recorded runs: with one, a subfolder's AGENTS.md is never read)."""
    return not any(os.path.isfile(os.path.join(root, n)) for n in CLAUDE_FILES)


def _folder_file(root: str, folder: str, fallback: bool) -> str | None:
    """The instructions file Claude Code reads in `folder` (relative, "" for the root)."""
    base = f"{folder}/" if folder else ""
    if os.path.isfile(os.path.join(root, f"{base}CLAUDE.md")):
        return f"{base}CLAUDE.md"
    return f"{base}{FALLBACK}" if fallback else None


def start_files(root: str, cwd: str) -> list[tuple[str, bytes | None]]:
    """(path, bytes) of each file Claude Code loads at a session start in `cwd` that may
    carry memkit's text, in the order read: CLAUDE.md in the root, .claude/CLAUDE.md,
    CLAUDE.md in each folder down to `cwd` (AGENTS.md instead when the root has neither),
    then their `@file` imports, breadth first so that the shortest route decides whether
    a file is within MAX_DEPTH hops. An import is relative to the importing file; `@/abs`
    is followed inside the project; `@~/...`, anything outside the project, in its .git/
    or reached through a link out is never read. A path looked at and not read (missing,
    not a regular file, over MAX_FILE, a link out) comes with None. Rules: rules()."""
    top = os.path.realpath(root)
    fallback = _fallback(root)
    first = [_folder_file(root, folder, fallback) for folder in _folders(root, cwd)]
    first.insert(1, CLAUDE_FILES[1])
    todo = [rel for rel in dict.fromkeys(first) if rel is not None]
    seen, out = set(todo), []
    for depth in range(MAX_DEPTH + 1):
        found = []
        for rel in todo:
            data = _read_real(os.path.realpath(os.path.join(root, rel)), top)
            out.append((rel, data))
            if data is None or depth == MAX_DEPTH:
                continue
            for target in IMPORT.findall(data.decode("utf-8", "replace")):
                path = _imported(root, top, rel, target)
                if path is not None and path not in seen:
                    seen.add(path)
                    found.append(path)
        todo = found
    return out


def _imported(root: str, top: str, rel: str, target: str) -> str | None:
    """The path (relative to the root) that an `@target` line of file `rel` names; None
    for `@~/...` (the user's home) and for a path outside the project."""
    if target.startswith("~"):
        return None
    if os.path.isabs(target):
        path = os.path.normpath(target)
        base = next((b for b in (os.path.normpath(root), top) if path.startswith(b + os.sep)), "")
        if not base:
            return None
        path = path[len(base) + 1 :]
    else:
        path = os.path.normpath(os.path.join(os.path.dirname(rel), target))
    path = path.replace(os.sep, "/")
    return None if path == ".." or path.startswith("../") or os.path.isabs(path) else path


def at_start(root: str, cwd: str, at: str, why: str, commit: str) -> list[dict[str, object]]:
    """The receipts for what the compiled files gave at session start: those of each file
    of start_files() and of the rules without `paths`."""
    out = [(rel, data) for rel, data in start_files(root, cwd) if data is not None]
    out += [(rel, data) for rel, data, globs in rules(root) if not globs]
    return [r for rel, data in out for r in _receipts(rel, data, at, "session-start", why, commit)]


def _paths(data: bytes) -> list[str]:
    """The `paths` globs of a rule file's front matter (a YAML list, block or flow)."""
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    if not text.startswith("---"):
        return []
    end = text.find("\n---", 3)
    if end < 0:
        return []
    lines = text[3:end].splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        key, sep, value = line.partition(":")
        if key.strip() != "paths" or not sep or line[:1].isspace():
            continue
        value = value.strip()
        if value.startswith("["):
            out += [v.strip() for v in value.strip("[]").split(",") if v.strip()]
        elif value:
            out.append(value)
        for more in lines[i + 1 :]:
            item = more.strip()
            if not item.startswith("- "):
                break
            out.append(item[2:].strip())
    return [_unquote(g) for g in out if g]


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"')
    return value


def rules(root: str, looked: list[str] | None = None) -> list[tuple[str, bytes, list[str]]]:
    """(path, bytes, globs) of each regular .claude/rules/**/*.md file, sorted; the
    folders walked and every `.md` path found are added to `looked` when given. The
    folder is resolved once (it may be a link): os.walk enters no link below it, so a
    file there that is not a link itself is the resolved folder's file; only a link is
    resolved."""
    out = []
    top, here = os.path.realpath(root), os.path.join(root, RULES_DIR)
    real_here = os.path.realpath(here)
    for folder, dirs, files in os.walk(here):
        dirs.sort()
        real_folder = real_here + folder[len(here) :]
        if looked is not None:
            looked.append(os.path.relpath(folder, root).replace(os.sep, "/"))
        for name in sorted(files):
            if name.endswith(".md"):
                path = os.path.join(folder, name)
                real = (
                    os.path.realpath(path)
                    if os.path.islink(path)
                    else (os.path.join(real_folder, name))
                )
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                if looked is not None:
                    looked.append(rel)
                data = _read_real(real, top)
                if data is not None:
                    out.append((rel, data, _paths(data)))
    return out


def _nested(root: str, rel: str) -> list[str]:
    """The CLAUDE.md (AGENTS.md when the root has no CLAUDE.md) of each folder above
    `rel` below the root: Claude Code loads them when the agent reads a file there."""
    parts = rel.split("/")[:-1]
    fallback = _fallback(root)
    found = (_folder_file(root, "/".join(parts[:i]), fallback) for i in range(1, len(parts) + 1))
    return [name for name in found if name is not None]


def on_read(root: str, sid: str, rel: str, at: str) -> None:
    """Record the memories of each rule file whose `paths` match `rel`, just read, and
    of the CLAUDE.md or AGENTS.md files of the folders it is in, that this context has
    not had from that file at that version."""
    from memkit.globs import match

    found = [(r, data) for r, data, globs in rules(root) if any(match(g, rel) for g in globs)]
    for name in _nested(root, rel):
        data = _read(root, name)
        if data is not None:
            found.append((name, data))
    if not found:
        return
    path = ledger.receipts_file(root, sid)
    had = ledger.via_given(ledger.records(path, since_start=True))
    recs = []
    for r, data in found:
        got = _receipts(r, data, at, "file", rel, "")
        recs += [x for x in got if (x["via"], x["id"], x["blob"]) not in had]
    if recs:  # HEAD is read only when there is something to record
        commit = ledger.head_commit(root)
        ledger.append(path, [{**x, "commit": commit} for x in recs])
