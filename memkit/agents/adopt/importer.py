"""`memkit import`: existing agent instruction files -> memories, one per meaningful section.

Every file an agent loads is found (sources.py); scopes, descriptions and activation
carry over (scope.py); the same text in several files becomes one memory for all their
scopes; a section that looks like a secret is skipped with the reason. With `adopt`,
the imported text then leaves the files (rewrite.py).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit import memory as mm
from memkit.agents.adopt import markdown as md
from memkit.agents.adopt import rewrite
from memkit.agents.adopt.scope import Scope, scope_of
from memkit.agents.adopt.sources import Source, discover
from memkit.errors import MemkitError, SecretError
from memkit.store import Store, check_secrets

_GENERATED = "<!-- memkit:generated"  # a file `memkit compile` owns whole
MAX_FILE_BYTES = 4 * 1024 * 1024  # one instruction file
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
    scope: Scope
    file: str  # the instruction file, relative to the root
    part: md.Part
    name: str = ""  # the section's own heading: the memory id comes from it
    order: int = 0  # its place among its file's sections (1: the first)


@dataclass(frozen=True)
class Item:
    source: str
    id: str  # the memory created (empty when skipped)
    note: str  # what was done, or why it was skipped


@dataclass(frozen=True)
class Report:
    created: tuple[Item, ...]
    skipped: tuple[Item, ...]


@dataclass(frozen=True)
class Parsed:
    """One instruction file read: its source, its sections, and which of them are now in
    the store (imported, or the same text as a memory)."""

    source: Source
    doc: md.Document
    covered: tuple[md.Part, ...]


@dataclass(frozen=True)
class Plan:
    memories: tuple[mm.Memory, ...]
    report: Report
    files: tuple[Parsed, ...]
    linked: frozenset[str] = frozenset()  # files other paths lead to through links


def guess_type(title: str) -> str:
    for kind, words in _TYPE_WORDS:
        if re.search(rf"\b(?:{words})", title, re.IGNORECASE):
            return kind
    return "convention"


def _name_title(src: Source) -> str:
    name = src.path.name
    stem = name.split(".")[0] or name.lstrip(".")
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", stem).replace("-", " ").replace("_", " ")
    title = words.strip().capitalize() or name
    return f"{title} for {src.folder}" if src.folder and src.kind != "cursor-rule" else title


def read_file(root: Path, src: Source) -> md.Document:
    """An instruction file cut into sections; MemkitError when it cannot be read."""
    try:
        raw = _read(root, src.path).decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MemkitError(f"cannot read {src.rel} ({e}); give a UTF-8 text file") from None
    return md.parse(raw, imports=src.imports)


def file_sections(src: Source, doc: md.Document, skipped: list[Item]) -> list[Section]:
    """The sections of one instruction file; what was left out of it goes to `skipped`,
    with the reason."""
    scope = scope_of(src, doc.meta)
    fallback = scope.description if len(doc.parts) <= 2 and scope.description else None
    fallback = fallback or _name_title(src)
    sections: list[Section] = []
    anchors: dict[str, int] = {}
    # A document title with no text of its own under it names every section instead.
    lead = doc.title.text if doc.title and not _intro_text(doc) else ""
    for part in doc.parts:
        body = part.body(doc.visible)
        if part.title is None:  # text before the first section: the document's own
            title = doc.title.text if doc.title else fallback
        else:
            title = f"{lead}: {part.title}" if lead and part.title else part.title
            title = title or lead or fallback  # an empty heading
        named = part.title or (doc.title.text if doc.title and part.title is None else "")
        anchor = mm.slugify(named) if named.strip() else "top"
        anchors[anchor] = anchors.get(anchor, 0) + 1
        if anchors[anchor] > 1:
            anchor = f"{anchor}-{anchors[anchor]}"
        source = f"{src.rel}#{anchor}"
        for n in part.imports:
            line = doc.lines[n].strip()
            skipped.append(Item(source, "", f"{line} imports a file: it stays where it is"))
        if not md.has_text(body):
            continue
        one_line = " ".join(title.split())
        name = " ".join((part.title or title).split())
        n = len(sections) + 1
        sections.append(Section(source, one_line, body + "\n", scope, src.rel, part, name, n))
    return sections


def _intro_text(doc: md.Document) -> bool:
    intro = next((p for p in doc.parts if p.title is None), None)
    return intro is not None and md.has_text(intro.body(doc.visible))


def _read(root: Path, path: Path) -> bytes:
    """An instruction file's bytes: inside the repository through the safe-path layer
    (a link leading out of it is refused); a file named outside it, as given."""
    from memkit.fsutil import read_inside, read_regular

    if path.is_relative_to(root):
        return read_inside(root, path.relative_to(root), limit=MAX_FILE_BYTES)
    return read_regular(path.resolve(), limit=MAX_FILE_BYTES, what=str(path))


def _ignored(root: Path) -> Callable[[str], bool]:
    from memkit.git.repo import find_repo

    repo = find_repo(root)
    if repo is None or repo.workdir is None:
        return lambda rel: False
    top = Path(repo.workdir).resolve()

    def ignored(rel: str) -> bool:
        full = (root / rel).resolve()
        try:
            inside = full.relative_to(top).as_posix() + ("/" if rel.endswith("/") else "")
        except ValueError:
            return False
        return bool(repo.path_is_ignored(inside))

    return ignored


def _key(body: str) -> str:
    return re.sub(r"\s+", " ", body).strip()


def plan(store: Store, given: list[Path], *, today: dt.date, allow_secret: bool = False) -> Plan:
    """The memories an import would create (validated, not written), the report, the files."""
    sources, left = discover(store.root, given, _ignored(store.root))
    skipped = [Item(s.rel, "", s.why) for s in left]
    current = store.memories()
    existing = {(m.source, m.title): m for m in current}
    by_text = {(_key(m.body), m.activation, m.description): m for m in current}
    groups: dict[tuple[str, str | None, str | None], list[Section]] = {}
    docs: list[tuple[Source, md.Document, list[Section]]] = []
    for src in sources:
        try:
            doc = read_file(store.root, src)
        except MemkitError as e:
            skipped.append(Item(src.rel, "", str(e)))
            continue
        if any(ln.startswith(_GENERATED) for ln in doc.lines):
            skipped.append(Item(src.rel, "", "compiled by memkit from .memory/: nothing to import"))
            continue
        sections = file_sections(src, doc, skipped)
        docs.append((src, doc, sections))
        for s in sections:
            groups.setdefault((_key(s.body), s.scope.activation, s.scope.description), []).append(s)
    memories: list[mm.Memory] = []
    created: list[Item] = []
    stored: set[str] = set()  # sources whose text is in the store
    for key, group in groups.items():
        first = group[0]
        old = existing.get((first.source, first.title)) or by_text.get(key)
        if old is not None:
            for s in group:
                skipped.append(Item(s.source, "", f"already imported as {old.id}"))
                stored.add(s.source)
            continue
        try:
            mem = _memory(first, _merged(group), today, allow_secret)
        except SecretError as e:
            skipped += [Item(s.source, "", f"not imported: {e}") for s in group]
            continue
        memories.append(mem)
        created.append(Item(first.source, mem.id, first.title))
        stored.update(s.source for s in group)
        skipped += [
            Item(s.source, "", f"same text as {first.source}: one memory") for s in group[1:]
        ]
    files = tuple(
        Parsed(src, doc, tuple(s.part for s in sections if s.source in stored))
        for src, doc, sections in docs
    )
    linked = frozenset(s.same_as for s in left if s.same_as)
    return Plan(tuple(memories), Report(tuple(created), tuple(skipped)), files, linked)


def _merged(group: list[Section]) -> tuple[str, ...]:
    """The scope of text found in several files: everywhere if one applies everywhere."""
    if any(not s.scope.paths for s in group):
        return ()
    return tuple(dict.fromkeys(p for s in group for p in s.scope.paths))


def _memory(s: Section, paths: tuple[str, ...], today: dt.date, allow_secret: bool) -> mm.Memory:
    try:
        fields: dict[str, Any] = dict(tags=["imported"], paths=list(paths) or None)
        fields |= dict(description=s.scope.description, activation=s.scope.activation)
        fields |= dict(type=guess_type(s.title), source=s.source, order=s.order or None)
        mem = mm.new(s.title, s.body, mid=mm.slugify(s.name or s.title), today=today, **fields)
    except MemkitError as e:
        raise MemkitError(f"{s.source}: cannot become a memory: {e}") from None
    check_secrets(mm.dumps(mem), s.source, allow_secret, mem=mem)
    return mem


def import_files(
    store: Store,
    given: list[Path],
    *,
    today: dt.date,
    allow_secret: bool = False,
    dry_run: bool = False,
) -> tuple[Report, Plan]:
    """Create one memory per meaningful section of the given files (secrets skipped)."""
    store.require()
    p = plan(store, given, today=today, allow_secret=allow_secret)
    if dry_run:
        return p.report, p
    created = []
    with store.lock():
        taken = {f.stem.casefold() for f in store.files()}
        for mem, item in zip(p.memories, p.report.created, strict=True):
            saved = store.add(mem, allow_secret=allow_secret, taken=taken)
            created.append(Item(item.source, saved.id, item.note))
    return Report(tuple(created), p.report.skipped), p


@dataclass(frozen=True)
class Adoption:
    changes: tuple[rewrite.Change, ...]
    kept: tuple[tuple[str, str], ...]  # (file, why it was left alone)
    backup_dir: Path | None  # where files not in git's HEAD were copied first
    backups: tuple[str, ...]
    nested: bool = False  # `[compile] nested_agents = true` was set (or would be)


def adopt_files(store: Store, p: Plan, *, dry_run: bool = False) -> Adoption:
    """Take the imported text out of the files it came from (see rewrite.py)."""
    from memkit.compile.targets import settings

    conf = settings(store.config.section("compile"), store.config.path or "config.toml")
    used = [(f.source, f.doc, f.covered) for f in p.files]
    unset = store.config.section("compile").get("nested_agents") is None
    folders = unset and rewrite.nested(f.source for f in p.files if f.covered)
    changes, kept = rewrite.plan(used, conf.targets, p.linked, nested=conf.nested_agents or folders)
    if dry_run or not changes:
        return Adoption(tuple(changes), tuple(kept), None, (), folders and bool(changes))
    if folders:  # before the files change: compile then finds its config as adoption meant
        folders = rewrite.keep_nested(store.dir / "config.toml")
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    backup_dir = store.private_dir() / "import-backups" / stamp
    backups = rewrite.apply(store.root, changes, backup_dir, _at_head(store.root, changes))
    where = backup_dir if backups else None
    return Adoption(tuple(changes), tuple(kept), where, tuple(backups), folders)


def _at_head(root: Path, changes: list[rewrite.Change]) -> dict[str, bytes]:
    """The bytes git's HEAD has for each changed file (missing outside git or untracked)."""
    from memkit.git.blobs import read_at
    from memkit.git.repo import find_repo, head_commit

    repo = find_repo(root)
    if repo is None or repo.workdir is None or head_commit(repo) is None:
        return {}
    top = Path(repo.workdir).resolve()
    out = {}
    for c in changes:
        rel = (root / c.rel).resolve().relative_to(top).as_posix()
        blob = read_at(repo, "HEAD", rel)
        if blob is not None:
            out[c.rel] = blob
    return out
