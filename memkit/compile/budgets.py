"""Size budgets, and the order memories are kept in when a budget cuts.

A file's `Limits` is every budget it must keep at once: its own target's (AGENTS.md:
32 KiB for Codex) and those of the other agents that load it together with their
own files (Claude Code in import mode reads AGENTS.md within its 200 lines;
Windsurf reads it within 12,000 characters). `rank` orders memories: pinned,
priority, type, then the order of their source file, so a cut keeps what an
imported file said first instead of what sorts first by id.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError, MemkitError
from memkit.memory import TYPES, Memory

MAX_SOURCE_BYTES = 4 * 1024 * 1024  # a source file read to learn its sections' order
NAMED_IN_FILE = 40  # ids a compiled file names when memories are left out of it


@dataclass(frozen=True)
class Budget:
    limit: int
    unit: str

    def measure(self, text: str) -> int:
        if self.unit == "lines":
            return text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if self.unit == "bytes":
            return len(text.encode("utf-8"))
        return len(text)

    def fits(self, text: str) -> bool:
        return self.measure(text) <= self.limit

    def __str__(self) -> str:
        return f"{self.limit:,} {self.unit}"


@dataclass(frozen=True)
class Limits:
    """Several budgets a file keeps at once; the first is its own target's."""

    parts: tuple[Budget, ...]

    def fits(self, text: str) -> bool:
        return all(b.fits(text) for b in self.parts)

    def __str__(self) -> str:
        return " and ".join(str(b) for b in self.parts)


def limits(*budgets: Budget | None) -> Limits:
    """Limits from budgets, dropping None and any looser one of the same unit."""
    best: dict[str, Budget] = {}
    for b in budgets:
        if b is not None and (b.unit not in best or b.limit < best[b.unit].limit):
            best[b.unit] = b
    return Limits(tuple(best.values()))


def parse_budget(value: Any, where: str) -> Budget:
    """A budget from config: "200 lines", "32 KiB", "4000 chars" or "12000 bytes"."""
    m = re.fullmatch(r"\s*(\d+)\s*(lines?|bytes?|chars?|KiB)\s*", str(value))
    if isinstance(value, bool) or not m or int(m.group(1)) <= 0:
        raise ConfigError(
            f'{where}: budget {value!r} is not a size; write it like "200 lines", '
            '"32 KiB", "12000 bytes" or "4000 chars"'
        )
    n, unit = int(m.group(1)), m.group(2)
    if unit == "KiB":
        return Budget(n * 1024, "bytes")
    return Budget(n, unit if unit.endswith("s") else unit + "s")


# ------------------------------------------------------------------ order

Position = tuple[str, int]


def rank(m: Memory, order: Mapping[str, Position] | None = None) -> tuple[Any, ...]:
    """The project's own memories before a shared store's (memkit.sharing.team), then
    pinned first, then higher priority, then source order, then type order, then id.

    Source order: memories imported from a file keep that file's order (`order`, from
    `source_order`), whatever type each was given, the root's files before nested
    ones: what an agent read first before the import is still read first. Memories
    with no position come after, by type.
    """
    pos = (order or {}).get(m.id)
    where = (0, pos[0].count("/"), *pos) if pos is not None else (1,)
    return (bool(m.origin), 0 if m.pin else 1, -m.priority, where, TYPES.index(m.type), m.id)


def select(memories: Iterable[Memory], today: dt.date, root: Path) -> tuple[Memory, ...]:
    """Select: the active, unexpired, not superseded memories, best ranked first (`rank`,
    with the order of the files under `root` they were imported from)."""
    chosen = [m for m in memories if m.in_force(today)]
    order = source_order(root, chosen)
    return tuple(sorted(chosen, key=lambda m: rank(m, order)))


_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$", re.M)


def source_order(root: Path, memories: Iterable[Memory]) -> dict[str, Position]:
    """Where each memory's `source` (`FILE#anchor`, as `memkit import` writes it) sits in FILE.

    A memory's `order` (the import writes it: 1 for the file's first section) is its
    place, read from the memory alone: adoption takes the text out of FILE, and the
    order must outlive it. A memory imported without `order` (by an older memkit) is
    placed by its anchor among FILE's hand-written headings, while they are there:
    memkit's own section (and a file memkit owns) is left out, so compiling never
    changes the order the next compile sees. Unreadable files and other sources (URLs,
    sessions) give no position.
    """
    by_file: dict[str, list[Memory]] = {}
    out: dict[str, Position] = {}
    for m in memories:
        path, sep, _ = (m.source or "").partition("#")
        if not sep or not path or "://" in path or path.startswith("/"):
            continue
        if m.order is not None:
            out[m.id] = (path, m.order)
        else:
            by_file.setdefault(path, []).append(m)
    for path, group in sorted(by_file.items()):
        where = _headings(root, path)
        for m in group:
            pos = where.get((m.source or "").partition("#")[2])
            if pos is not None:
                out[m.id] = (path, pos)
    return out


def _headings(root: Path, path: str) -> dict[str, int]:
    """{anchor: place (1: the first)} of the hand-written headings of `path`; empty when it
    cannot be read or memkit owns it."""
    from memkit.compile import markers
    from memkit.fsutil import read_inside
    from memkit.memory.ids import slugify

    try:
        text = read_inside(root, path, limit=MAX_SOURCE_BYTES).decode("utf-8", "replace")
        span = markers.locate(text, path)
    except (OSError, MemkitError):  # gone, a link out, too big, broken markers: no order
        return {}
    if markers.owns(text):
        return {}
    if span is not None:  # blank out memkit's section, keeping offsets
        text = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
    where: dict[str, int] = {}
    for n, h in enumerate(_HEADING.finditer(text), 1):
        where.setdefault(slugify(h.group(1)) if h.group(1).strip() else "", n)
    return where
