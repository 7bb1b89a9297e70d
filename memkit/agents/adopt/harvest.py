"""`memkit import --harvest`: what agents remembered on their own -> drafts for review.

Each topic file, section or saved fact found (places.py) becomes one draft, tagged
`harvested` and the agent's name. Skipped, with the reason: text already in a memory
(the same, contained, or nearly the same words), text harvested before (a ledger in
memkit's private folder keeps rejected drafts from coming back), a likely secret, an
unreadable file. The source files are never written.
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import itertools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memkit import memory as mm
from memkit.agents.adopt import markdown as md
from memkit.agents.adopt.places import Place, git_roots, locate
from memkit.errors import MemkitError, SecretError
from memkit.store import Store

MAX_FILE = 1024 * 1024  # bytes of one agent memory file
NEAR = 0.8  # word overlap (Jaccard) from which two texts are "nearly the same"
LEDGER = "harvested.json"
_CLAUDE_TYPES = {"user": "preference", "feedback": "convention", "project": "note",
                 "reference": "note"}  # fmt: skip
_INDEX_LINE = re.compile(r"^\s*[-*+]\s*\[[^\]]*\]\(([^)\s]+\.md)\)")
_GEMINI_SECTION = re.compile(r"^##\s+Gemini Added Memories\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(\S.*)$")
_WORD = re.compile(r"\w+")
# Headings that only say what the file is: the text's first line makes a better title.
_GENERIC = re.compile(r"(?i)(?:project |claude )?(?:memory|memories|memory index|notes?|index)")


@dataclass(frozen=True)
class Candidate:
    """One thing an agent remembered, as a draft would hold it."""

    where: str  # shown to a person: the file's label, and #anchor
    source: str  # recorded in the draft
    agent: str
    title: str
    body: str
    type: str
    paths: tuple[str, ...] = ()
    name: str = ""  # the section's own heading, when the id should come from it (as import does)


@dataclass(frozen=True)
class Outcome:
    where: str
    id: str  # the draft written (or that would be), empty when skipped
    note: str


@dataclass(frozen=True)
class Harvest:
    drafted: tuple[Outcome, ...]
    skipped: tuple[Outcome, ...]
    places: tuple[Place, ...]


def _read(place: Place, root: Path) -> str:
    from memkit.fsutil import read_inside, read_regular

    if place.inside:
        raw = read_inside(root, place.path.relative_to(root), limit=MAX_FILE, what=place.label)
    else:
        raw = read_regular(place.path, limit=MAX_FILE, what=place.label)
    try:
        return md.text_of(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise MemkitError(f"{place.label} is not UTF-8 text; memkit reads UTF-8") from None


def _one_line(text: str, limit: int = 70) -> str:
    words = " ".join(text.split()).strip(" .:")
    if len(words) <= limit:
        return words
    cut = words[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


def candidates(place: Place, text: str, skipped: list[Outcome]) -> list[Candidate]:
    """What one file holds; what in it is left out goes to `skipped`, with the reason."""
    if place.agent == "gemini":
        return _gemini_facts(place, text)
    if place.agent == "claude-auto-memory" and place.path.name != "MEMORY.md":
        return [_topic_file(place, text)]
    if place.agent == "claude-auto-memory":  # MEMORY.md: an index of the topic files
        lines = text.splitlines(keepends=True)
        kept = [line for line in lines if not _names_a_topic(place.path.parent, line)]
        text = "".join(kept)
        if n := len(lines) - len(kept):
            why = f"{n} index line(s) name topic files: those are harvested from the files"
            skipped.append(Outcome(place.label, "", why + " themselves"))
    return _sections(place, text, skipped)


def _names_a_topic(folder: Path, line: str) -> bool:
    m = _INDEX_LINE.match(line)
    return bool(m and (folder / m.group(1)).is_file())


def _sections(place: Place, text: str, skipped: list[Outcome]) -> list[Candidate]:
    from memkit.agents.adopt.importer import Item, file_sections, guess_type
    from memkit.agents.adopt.sources import Source, folder_of

    rel = place.source if place.inside else place.path.name
    kind = {"claude-local": "claude", "memory-bank": "memory-bank"}.get(place.agent, "markdown")
    folder = folder_of(rel, kind) if place.inside else ""
    src = Source(rel, place.path, kind, kind == "claude", folder)
    doc = md.parse(text, imports=src.imports)
    left: list[Item] = []
    sections = file_sections(src, doc, left)
    skipped += [Outcome(place.label + "#" + s.source.partition("#")[2], "", s.note) for s in left]
    out = []
    for s in sections:
        anchor = "#" + s.source.partition("#")[2]
        generic = not s.part.title or _GENERIC.fullmatch(s.title.strip())
        title = _first_line(s.body) or s.title if generic else s.title
        where, source = place.label + anchor, place.source + anchor
        kind, name = guess_type(title), "" if generic else s.name
        out.append(Candidate(where, source, place.agent, title, s.body, kind, s.scope.paths, name))
    return out


def _first_line(body: str) -> str:
    """A title for text with no heading of its own: its first line, shortened."""
    for line in body.splitlines():
        line = line.strip().lstrip("-*+>").strip().strip("*_`")
        if line and not line.startswith("<!--"):
            return _one_line(line, 60)
    return ""


def _topic_file(place: Place, text: str) -> Candidate:
    """A Claude Code topic file: front matter `name`, `description`, `type` (also under
    `metadata:`), then the text, which may repeat the name as a `# heading`; one memory."""
    from memkit.agents.adopt.importer import guess_type

    doc = md.parse(text, imports=False)
    front = "".join(doc.lines[: doc.content_start])
    nested = re.search(r"(?m)^\s+type:\s*['\"]?(\w+)", front)
    kind = md.meta_text(doc.meta, "type") or (nested.group(1) if nested else "")
    lines = doc.visible[doc.content_start :]
    while lines and not lines[0].strip():
        lines = lines[1:]
    heading = None
    if lines and (m := re.match(r"^#\s+(.+?)\s*#*\s*$", lines[0])):
        heading, lines = m.group(1), lines[1:]
    name, desc = md.meta_text(doc.meta, "name"), md.meta_text(doc.meta, "description")
    if name and heading and " " not in name:  # a file-like name: the heading reads better
        name = heading
    stem = place.path.stem.replace("_", " ").replace("-", " ").strip()
    title = name or heading or desc or stem.capitalize() or place.path.name
    body = "".join(lines).strip("\n") + "\n"
    if desc and desc != title and desc not in body:
        body = f"{desc}\n\n{body}"
    kind = _CLAUDE_TYPES.get(kind.lower()) or guess_type(title)
    return Candidate(place.label, place.source, place.agent, _one_line(title), body, kind)


def _gemini_facts(place: Place, text: str) -> list[Candidate]:
    """Each `- fact` line Gemini CLI's save_memory added under `## Gemini Added Memories`."""
    out: list[Candidate] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("#"):
            inside = bool(_GEMINI_SECTION.match(line.strip()))
            continue
        m = _BULLET.match(line) if inside else None
        if m:
            fact, anchor = m.group(1).strip(), "#gemini-added-memories"
            where = f"{place.label}{anchor} ({len(out) + 1})"
            title, body = _one_line(fact, 60), fact + "\n"
            out.append(Candidate(where, place.source + anchor, place.agent, title, body, "note"))
    return out


# ------------------------------------------------------------------ deduplication


def normal(text: str) -> str:
    """Text compared for sameness: words only, lower case, one space between them."""
    return " ".join(_WORD.findall(text.casefold()))


def _key(text: str) -> str:
    return hashlib.sha256(normal(text).encode("utf-8")).hexdigest()[:32]


class _Known:
    """The store's memories (and this run's drafts) as the texts a candidate is compared to:
    exact text by dict, containment by one search of all texts joined, near sameness only
    against texts of a close number of distinct words (Jaccard >= NEAR needs that)."""

    def __init__(self, memories: list[mm.Memory], ledger: set[str]) -> None:
        self.ledger = ledger
        self.exact: dict[str, str] = {}
        self.by_size: dict[int, list[tuple[str, frozenset[str]]]] = {}
        self.ids: list[str] = []
        self.texts: list[str] = []
        self._joined: tuple[str, list[int]] | None = None
        for m in memories:
            self.add(m.id, m.body)

    def add(self, mid: str, body: str) -> None:
        text = normal(body)
        words = frozenset(text.split())
        self.exact.setdefault(text, mid)
        self.by_size.setdefault(len(words), []).append((mid, words))
        self.ids.append(mid)
        self.texts.append(f" {text} ")
        if self._joined is not None:  # extend it (a rebuild per draft costs seconds at 10k)
            hay, starts = self._joined
            starts.append(len(hay) + 1)
            self._joined = (f"{hay}\n {text} ", starts)

    def _haystack(self) -> tuple[str, list[int]]:
        if self._joined is None:  # each text starts after the ones before and their "\n"
            starts = [0, *itertools.accumulate(len(t) + 1 for t in self.texts)][:-1]
            self._joined = ("\n".join(self.texts), starts)
        return self._joined

    def why_known(self, c: Candidate) -> str | None:
        text = normal(c.body)
        if not text:
            return "no text"
        if text in self.exact:
            return f"same text as {self.exact[text]}"
        words = frozenset(text.split())
        if len(words) >= 4:
            hay, starts = self._haystack()
            at = hay.find(f" {text} ")  # no newline in a text: a match stays in one
            if at >= 0:
                return f"already in {self.ids[bisect.bisect_right(starts, at) - 1]}"
        if len(words) >= 3:
            n = len(words)
            for size in range(math.ceil(n * NEAR), math.floor(n / NEAR) + 1):
                for mid, other in self.by_size.get(size, ()):
                    if len(words & other) >= NEAR * len(words | other):
                        return f"nearly the same text as {mid}"
        if _key(c.body) in self.ledger:
            return "harvested before (`memkit approve` has the draft, or it was rejected)"
        return None


def _load_ledger(store: Store) -> set[str]:
    try:
        data = json.loads((store.private_dir() / LEDGER).read_text("utf-8"))
    except (OSError, ValueError):
        return set()
    keys = data.get("keys") if isinstance(data, dict) else None
    return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()


def _save_ledger(store: Store, keys: set[str]) -> None:
    from memkit.fsutil import atomic_write

    data = json.dumps({"keys": sorted(keys)}, indent=0) + "\n"
    atomic_write(store.private_dir() / LEDGER, data.encode("utf-8"))


# ------------------------------------------------------------------ drafts


def _draft(c: Candidate, today: dt.date) -> mm.Memory:
    from memkit.agents.proposals import AGENT_STATUS, check_agent_text

    try:
        tags, paths = ["harvested", c.agent], list(c.paths) or None
        mid = mm.slugify(c.name or c.title)
        fields = dict(type=c.type, status=AGENT_STATUS, tags=tags, paths=paths, source=c.source)
        mem = mm.new(c.title, c.body, mid=mid, today=today, **fields)
    except MemkitError as e:
        raise MemkitError(f"cannot become a memory: {e}") from None
    try:
        check_agent_text(mem)
    except SecretError:
        from memkit.store.secrets_guard import secret_findings

        found = secret_findings(mm.dumps(mem), mem, honour_pragma=False)
        kind = "".join(f" ({name})" for _, name in found[:1])
        raise SecretError(
            f"looks like it holds a secret{kind}: not harvested; remove it from the file, or "
            "add what is worth keeping by hand (`memkit add`)"
        ) from None
    return mem


def harvest(
    store: Store, *, today: dt.date, env: Mapping[str, str], dry_run: bool = False
) -> Harvest:
    """Draft what agents remembered for this project; see the module docstring."""
    from memkit.agents.proposals import save_draft

    store.require()
    _, main = git_roots(store.root)
    places = locate(store.root.resolve(), main, env)
    known = _Known(store.memories(), _load_ledger(store))
    drafted: list[Outcome] = []
    skipped: list[Outcome] = []
    new_keys: set[str] = set()
    for place in places:
        try:
            notes: list[Outcome] = []
            found = candidates(place, _read(place, store.root), notes)
        except (MemkitError, OSError) as e:
            skipped.append(Outcome(place.label, "", str(e)))
            continue
        skipped += notes
        for c in found:
            why = known.why_known(c)
            if why is not None:
                skipped.append(Outcome(c.where, "", why))
                continue
            try:
                mem = _draft(c, today)
                saved = mem if dry_run else save_draft(store, mem)
            except MemkitError as e:
                skipped.append(Outcome(c.where, "", str(e)))
                continue
            known.add(saved.id, c.body)
            new_keys.add(_key(c.body))
            drafted.append(Outcome(c.where, saved.id, c.title))
    if new_keys and not dry_run:
        _save_ledger(store, _load_ledger(store) | new_keys)
    return Harvest(tuple(drafted), tuple(skipped), tuple(places))
