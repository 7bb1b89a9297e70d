"""Adoption: imported text leaves the instruction files, so compile does not say it twice.

The sections now in the store leave the files memkit compiles for the agent reading
them: root AGENTS.md, CLAUDE.md, GEMINI.md and copilot-instructions.md keep the rest and
get an empty memkit section where the first imported one was; nested and rule files keep
the rest, or are deleted when nothing is left; other agents' files, and targets not in
`[compile]`, are left alone. An `@path` import of a file that gets its own compiled
section goes too. A file whose bytes differ from git's HEAD is backed up first.

Folder files stay folder files: when nested AGENTS.md, CLAUDE.md or GEMINI.md files were
imported, `[compile] nested_agents = true` is set (one line added, the rest of
config.toml kept byte for byte) so compile writes them back; a config that says
`nested_agents` is left alone.
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from memkit.agents.adopt import markdown as md
from memkit.agents.adopt.sources import Source
from memkit.compile.markers import BOM

BEGIN = "<!-- memkit:begin -->\n"
END = "<!-- memkit:end -->\n"
# The compile target that writes for the agent reading each kind of file.
TARGET = {"agents": "agents", "claude": "claude", "gemini": "gemini", "copilot": "copilot",
          "claude-rule": "claude", "cursor-rule": "cursor", "cursorrules": "cursor",
          "copilot-rule": "copilot"}  # fmt: skip
AGENT = {"cline": "Cline", "windsurf-rule": "Windsurf", "windsurfrules": "Windsurf",
         "kiro": "Kiro", "roo": "Roo Code", "memory-bank": "the memory bank",
         "markdown": "a file named outright"}  # fmt: skip
SHARED = frozenset({"AGENTS.md", "CLAUDE.md", "GEMINI.md", ".github/copilot-instructions.md"})
NESTED_KINDS = frozenset({"agents", "claude", "gemini"})
_KEY = re.compile(r"^\s*nested_agents\s*=", re.M)
_TABLE = re.compile(r"^\s*\[compile\]\s*(?:#.*)?$", re.M)


@dataclass(frozen=True)
class Change:
    rel: str
    old: bytes
    new: bytes | None  # None: delete the file
    note: str

    def diff(self) -> str:
        old = self.old.decode("utf-8", "replace").splitlines(keepends=True)
        new = [] if self.new is None else self.new.decode("utf-8").splitlines(keepends=True)
        lines = difflib.unified_diff(
            old, new, f"a/{self.rel}", "/dev/null" if self.new is None else f"b/{self.rel}"
        )
        return "".join(ln if ln.endswith("\n") else ln + "\n" for ln in lines)


def plan(
    files: Iterable[tuple[Source, md.Document, Collection[md.Part]]],
    targets: Collection[str],
    linked: Collection[str] = (),
    *,
    nested: bool = False,
) -> tuple[list[Change], list[tuple[str, str]]]:
    """The changes adoption makes, and the files it leaves alone with the reason.
    `linked`: files other paths lead to through symbolic links; they are kept (maybe
    empty) rather than deleted, so no link is left dangling. `nested`: nested
    AGENTS.md, CLAUDE.md and GEMINI.md files stay, with a memkit section for
    compile's `nested_agents` to fill."""
    files = list(files)
    # A file whose text now comes from memories: an `@` import of it would bring the
    # compiled text a second time (what it keeps by hand reaches the agents reading it).
    imported = {src.rel for src, doc, covered in files if covered and src.kind in TARGET}
    changes: list[Change] = []
    kept: list[tuple[str, str]] = []
    for src, doc, covered in files:
        target = TARGET.get(src.kind)
        if not covered and not _imports(src, doc, imported):
            continue
        if target is None:
            kept.append((src.rel, f"memkit compiles no file for {AGENT[src.kind]}; left as it is"))
            continue
        if target not in targets:
            kept.append((src.rel, f'the "{target}" compile target is off; left as it is'))
            continue
        real = _linked(src)
        if real is not None:
            kept.append((src.rel, f"a link to {real}, which is no agent's file; left as it is"))
            continue
        keep = nested and src.kind in NESTED_KINDS and bool(src.folder)
        change = _change(src, doc, covered, imported, linked, keep)
        if change is not None:
            changes.append(change)
    return changes, kept


def _linked(src: Source) -> str | None:
    """Where a link leads when that is no file an agent loads (`CLAUDE.md -> README.md`):
    its text is for people too, and stays. None for a plain file or an agent's file."""
    from memkit.agents.adopt.sources import kind_of

    if not src.path.is_symlink():
        return None
    top = src.path.parents[len(Path(src.rel).parts) - 1]
    real = Path(os.path.realpath(src.path))
    rel = real.relative_to(os.path.realpath(top)).as_posix()
    return None if kind_of(rel) is not None else rel


def _imports(src: Source, doc: md.Document, imported: Collection[str]) -> list[int]:
    """The `@path` lines of a file that import a file whose text was imported."""
    here = posixpath.dirname(src.rel)
    return [
        n
        for part in doc.parts
        for n in part.imports
        if posixpath.normpath(posixpath.join(here, doc.lines[n].strip()[1:])) in imported
    ]


def _change(
    src: Source,
    doc: md.Document,
    covered: Collection[md.Part],
    imported: Collection[str],
    linked: Collection[str],
    nested: bool = False,
) -> Change | None:
    drop: set[int] = set()
    for part in covered:
        drop.update(range(part.start, part.end))
    if doc.memkit:
        drop.difference_update(range(*doc.memkit))
    drop.update(_imports(src, doc, imported))
    shared = (src.rel in SHARED or nested) and doc.memkit is None
    out: list[str] = []
    seam = skip_blank = marked = False
    for n, line in enumerate(doc.lines):
        if n in drop:
            seam = True
            continue
        if seam:
            seam, skip_blank = False, True
            if shared and not marked:
                out, marked = _mark(out), True
        if skip_blank:
            if not line.strip():
                continue
            out, skip_blank = _trim(out), False
        out.append(line)
    if seam and shared and not marked:
        out = _mark(out)
    elif seam:
        while out and not out[-1].strip():
            out.pop()
    text = "".join(out)
    raw = src.path.read_bytes()
    if not shared and not _has_text(text, doc) and src.rel not in linked:
        return Change(src.rel, raw, None, "all of its text is in memories")
    if b"\r\n" in raw:
        text = text.replace("\n", "\r\n")
    new = (BOM if raw.startswith(BOM.encode("utf-8")) else "") + text
    if new.encode("utf-8") == raw:
        return None
    note = "imported text replaced by memkit's section" if shared else "imported text taken out"
    return Change(src.rel, raw, new.encode("utf-8"), note)


def _mark(out: list[str]) -> list[str]:
    """`out` followed by an empty memkit section, a blank line between."""
    return [*_trim(out), BEGIN, END]


def _trim(kept: list[str]) -> list[str]:
    """`kept` without blank lines at its end, then one blank line (nothing when empty)."""
    while kept and not kept[-1].strip():
        kept = kept[:-1]
    if kept and not kept[-1].endswith("\n"):
        kept = [*kept[:-1], kept[-1] + "\n"]
    return [*kept, "\n"] if kept else kept


def _has_text(text: str, doc: md.Document) -> bool:
    """Whether anything is left besides front matter, headings and blank lines."""
    body = md.text_of(text).splitlines()[doc.content_start :]
    return any(ln.strip() and not ln.lstrip().startswith("#") for ln in body)


def apply(
    root: Path, changes: Iterable[Change], backup_dir: Path, at_head: dict[str, bytes]
) -> list[str]:
    """Write the changes; a file not as git's HEAD has it is copied to `backup_dir` first.
    Returns the backups made (paths relative to `backup_dir`)."""
    from memkit.fsutil import atomic_write, write_target

    backups = []
    for c in changes:
        if at_head.get(c.rel) != c.old:
            copy = backup_dir / c.rel
            copy.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(copy, c.old)
            backups.append(c.rel)
        real = write_target(root, c.rel, links_to=None)  # `_linked`: to an agent's file only
        if c.new is None:
            os.unlink(real)
        else:
            atomic_write(real, c.new)
    return backups


def nested(sources: Iterable[Source]) -> bool:
    """Whether any of the adopted files is a folder's own agent file."""
    return any(s.kind in NESTED_KINDS and s.folder for s in sources)


def with_nested(text: str) -> str | None:
    """The config text with `nested_agents = true` under [compile]; None when the text
    sets `nested_agents` already (or the table is not written plainly)."""
    if _KEY.search(text):
        return None
    nl = "\r\n" if "\r\n" in text else "\n"
    table = _TABLE.search(text)
    line = f"nested_agents = true  # set by `memkit import --adopt`: folder files stay{nl}"
    if table is None:
        sep = "" if not text or text.endswith("\n") else nl
        return f"{text}{sep}{nl}[compile]{nl}{line}"
    end = text.find("\n", table.end())
    end = len(text) if end < 0 else end + 1
    head = text[:end] if text[:end].endswith("\n") else text[:end] + nl
    return head + line + text[end:]


def keep_nested(config: Path) -> bool:
    """Set `nested_agents = true` in the config file; whether it changed."""
    from memkit.fsutil import atomic_write

    try:
        text = config.read_bytes().decode("utf-8") if config.exists() else ""
    except (OSError, UnicodeDecodeError):
        return False
    new = with_nested(text)
    if new is None:
        return False
    atomic_write(config, new.encode("utf-8"))
    return True
