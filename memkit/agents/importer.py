"""`memkit import`: existing agent instruction files -> memories, one per meaningful section.

Reads CLAUDE.md, AGENTS.md, GEMINI.md, .claude/rules/*.md, .cursor/rules/*.mdc, .cursorrules,
.github/copilot-instructions.md, .github/instructions/*.instructions.md, .clinerules
(file or folder), memory-bank/ and plain markdown. Never changes the originals.
Scoping carries over: Cursor `globs`, Copilot `applyTo` and Cline `paths` become
`paths`; a CLAUDE.md or AGENTS.md in a subfolder applies to that subfolder.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass
from pathlib import Path

from memkit import memory as mm
from memkit.errors import MemkitError
from memkit.store import Store, check_secrets

# What `memkit import .` looks for, relative to the folder given.
KNOWN = (
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    ".claude/rules",
    ".cursorrules",
    ".github/copilot-instructions.md",
    ".github/instructions",
    ".cursor/rules",
    ".clinerules",
    "memory-bank",
)
_ALWAYS = {"**", "**/*", "*", "**/*.*"}
MAX_FILE_BYTES = 4 * 1024 * 1024  # one instruction file
_IMPORT_LINE = re.compile(r"^@[\w./~-]+\s*$")
_MEMKIT_BLOCK = re.compile(r"<!--\s*memkit:begin.*?<!--\s*memkit:end[^>]*-->\n?", re.DOTALL)
_GENERATED = "<!-- memkit:generated"  # a file `memkit compile` owns whole
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TYPE_WORDS = (
    ("gotcha", r"gotcha|pitfall|caveat|warning|careful|known issue|troubleshoot|never|avoid"),
    ("procedure", r"build|test|run|setup|set up|install|deploy|release|workflow|command|how to"),
    ("decision", r"decision|architecture|design|rationale|patterns?\b|why"),
    ("note", r"overview|context|about|brief|progress|status|product|project"),
)


@dataclass(frozen=True)
class Section:
    source: str  # file#anchor
    title: str
    body: str
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class Item:
    source: str
    id: str  # the memory created (empty when skipped)
    note: str  # what was done, or why it was skipped


@dataclass(frozen=True)
class Report:
    created: tuple[Item, ...]
    skipped: tuple[Item, ...]


def discover(root: Path, given: list[Path]) -> list[Path]:
    """The instruction files named by `given` (files, or folders searched for known files)."""
    out: list[Path] = []
    for path in given:
        if not path.exists():
            raise MemkitError(f"{path} does not exist; give an instruction file or a folder")
        if path.is_file():
            out.append(path)
            continue
        name = path.name
        if name in ("rules", "instructions", ".clinerules", "memory-bank"):
            pattern = {"rules": "*.mdc", "instructions": "*.instructions.md"}.get(name, "*.md")
            if path.parent.name == ".claude":
                pattern = "*.md"  # Claude Code's rules: markdown, optional `paths:` list
            out.extend(sorted(p for p in path.rglob(pattern) if p.is_file()))
            continue
        found = [path / k for k in KNOWN if (path / k).exists()]
        if not found:
            raise MemkitError(
                f"{path} holds no known instruction file ({', '.join(KNOWN)}); name the files"
            )
        out.extend(discover(root, found))
    unique: dict[Path, Path] = {}  # real file -> the path it was found by (kept lexical)
    for p in out:
        unique.setdefault(p.resolve(), Path(os.path.abspath(p)))
    return list(unique.values())


def front_matter(text: str) -> tuple[dict[str, str | list[str]], str]:
    """Lenient `key: value` front matter (Cursor's is not always valid YAML) and the rest."""
    m = re.match(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", text, re.DOTALL | re.MULTILINE)
    if not m:
        return {}, text
    data: dict[str, str | list[str]] = {}
    key = ""
    for line in m.group(1).splitlines():
        item = re.match(r"^\s+-\s*(.*)$", line)
        if item and key:
            current = data.get(key)
            items = current if isinstance(current, list) else []
            data[key] = [*items, _unquote(item.group(1))]
            continue
        kv = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", line)
        if kv:
            key = kv.group(1)
            data[key] = _unquote(kv.group(2))
    return data, text[m.end() :]


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _globs(value: str | list[str] | None) -> tuple[str, ...]:
    if not value:
        return ()
    items = value if isinstance(value, list) else value.strip("[]").split(",")
    out = []
    for raw in items:
        glob = _unquote(raw).removeprefix("./").lstrip("/")
        if glob and glob not in _ALWAYS:
            out.append(glob)
    return tuple(out) if len(out) == len([i for i in items if _unquote(i)]) else ()


def split_sections(text: str) -> list[tuple[str | None, str]]:
    """(heading, body) per top section; a lone leading `# Title` is the document's own title."""
    from memkit.compile.mdtext import parse

    tokens = parse(text)
    heads = [
        (t.map[0], t.map[1], int(t.tag[1]), tokens[i + 1].content)
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.map
    ]
    lines = text.splitlines(keepends=True)
    if not heads:
        return [(None, text)]
    levels = [h[2] for h in heads]
    top = min(levels)
    doc_title = None
    if levels.count(top) == 1 and levels[0] == top and len(heads) > 1:
        doc_title = heads[0][3]
        heads = heads[1:]
        top = min(h[2] for h in heads)
    cuts = [h for h in heads if h[2] <= top]
    out: list[tuple[str | None, str]] = []
    first = cuts[0][0]
    intro = "".join(lines[:first])
    if doc_title is not None:
        intro = re.sub(r"\A\s*#\s.*\n?", "", intro, count=1)
    out.append((doc_title, intro))
    for n, (_, body_start, _, title) in enumerate(cuts):
        end = cuts[n + 1][0] if n + 1 < len(cuts) else len(lines)
        out.append((title, "".join(lines[body_start:end])))
    return out


def guess_type(title: str) -> str:
    for kind, words in _TYPE_WORDS:
        if re.search(rf"\b(?:{words})", title, re.IGNORECASE):
            return kind
    return "convention"


def _anchor(title: str | None) -> str:
    return mm.slugify(title) if title else "top"


def file_sections(root: Path, path: Path) -> tuple[list[Section], list[Item]]:
    """The sections of one instruction file, and what was left out of it and why."""
    rel = _rel(root, path)
    try:
        text = _read(root, path).decode("utf-8").replace("\r\n", "\n")
    except (OSError, UnicodeDecodeError) as e:
        raise MemkitError(f"cannot read {rel} ({e}); give a UTF-8 text file") from None
    if _GENERATED in text:
        return [], [Item(rel, "", "compiled by memkit from .memory/: nothing to import")]
    meta, text = front_matter(text)
    text = _MEMKIT_BLOCK.sub("", text)
    paths = _globs(meta.get("globs") or meta.get("applyTo") or meta.get("paths"))
    if str(meta.get("alwaysApply", "")).lower() == "true":
        paths = ()
    if not paths and path.name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md") and "/" in rel:
        folder = rel.rsplit("/", 1)[0].removesuffix("/.claude").removesuffix(".claude")
        paths = (f"{folder}/**",) if folder else ()
    fallback = str(meta.get("description") or "") or _name_title(path)
    sections: list[Section] = []
    skipped: list[Item] = []
    parts = split_sections(text)
    for title, body in parts:
        source = f"{rel}#{_anchor(title)}"
        kept = [ln for ln in body.splitlines() if not _IMPORT_LINE.match(ln.strip())]
        for ln in body.splitlines():
            if _IMPORT_LINE.match(ln.strip()):
                skipped.append(Item(source, "", f"{ln.strip()} imports a file: import it itself"))
        body = "\n".join(kept).strip("\n")
        if not _COMMENT.sub("", body).strip():
            continue
        if title is None or (len(parts) == 1 and meta.get("description")):
            title = fallback
        sections.append(Section(source, title.strip(), body + "\n", paths))
    return sections, skipped


def _name_title(path: Path) -> str:
    stem = path.name.split(".")[0] or path.name.lstrip(".")
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", stem).replace("-", " ").replace("_", " ")
    return words.strip().capitalize() or path.name


def _read(root: Path, path: Path) -> bytes:
    """An instruction file's bytes: inside the repository through the safe-path layer
    (a link leading out of it is refused); a file named outside it, as given."""
    from memkit.fsutil import read_inside, read_regular

    if path.is_relative_to(root):
        return read_inside(root, path.relative_to(root), limit=MAX_FILE_BYTES)
    return read_regular(path.resolve(), limit=MAX_FILE_BYTES, what=str(path))


def _rel(root: Path, path: Path) -> str:
    """The path as found (links not resolved), relative to the root when inside it."""
    lexical = Path(os.path.abspath(path))
    try:
        return lexical.relative_to(root).as_posix()
    except ValueError:
        return path.name


def plan(store: Store, given: list[Path], *, today: dt.date) -> tuple[list[mm.Memory], Report]:
    """The memories an import would create (validated, not written) and the report."""
    current = store.memories()
    existing = {(m.source, m.title) for m in current}
    seen = {_key(m.body): m.source or m.id for m in current}
    memories: list[mm.Memory] = []
    created: list[Item] = []
    skipped: list[Item] = []
    for path in discover(store.root, given):
        sections, left_out = file_sections(store.root, path)
        skipped.extend(left_out)
        for s in sections:
            key = _key(s.body)
            if (s.source, s.title) in existing:
                skipped.append(Item(s.source, "", "already imported"))
                continue
            if key in seen:
                skipped.append(Item(s.source, "", f"same text as {seen[key]}"))
                continue
            seen[key] = s.source
            mem = _memory(s, today)
            memories.append(mem)
            created.append(Item(s.source, mem.id, s.title))
    return memories, Report(tuple(created), tuple(skipped))


def _key(body: str) -> str:
    return re.sub(r"\s+", " ", body).strip()


def _memory(s: Section, today: dt.date) -> mm.Memory:
    try:
        return mm.new(
            s.title.splitlines()[0],
            s.body,
            mid=mm.slugify(s.title),
            today=today,
            type=guess_type(s.title),
            tags=["imported"],
            paths=list(s.paths) or None,
            source=s.source,
        )
    except MemkitError as e:
        raise MemkitError(f"{s.source}: cannot become a memory: {e}") from None


def import_files(
    store: Store,
    given: list[Path],
    *,
    today: dt.date,
    allow_secret: bool = False,
    dry_run: bool = False,
) -> Report:
    """Create one memory per meaningful section of the given files; all or nothing on secrets."""
    store.require()
    memories, report = plan(store, given, today=today)
    for mem, item in zip(memories, report.created, strict=True):
        check_secrets(mm.dumps(mem), item.source, allow_secret, mem=mem)
    if dry_run:
        return report
    created = []
    with store.lock():
        for mem, item in zip(memories, report.created, strict=True):
            saved = store.add(mem, allow_secret=allow_secret)
            created.append(Item(item.source, saved.id, item.note))
    return Report(tuple(created), report.skipped)
