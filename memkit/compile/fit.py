"""Fit: an output's text with as many memories in full as its budget allows, then one-liners.

The fit gallops over how many memories stay in full, rendering the file (through
memkit.compile.render) at each probe, then over how many more are shortened to a
line; whatever is left is named by id in the file. Entries are rendered once each
(Renderer caches them), so a budget that keeps 40 of 10,000 memories in full renders
about 40 bodies, not 10,000; and the file's text is the probe's that decided it,
not rendered again (most files fit whole: one render each).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memkit.compile import markers

if TYPE_CHECKING:
    from memkit.compile.render import Renderer
    from memkit.compile.targets import Output
    from memkit.memory import Memory


@dataclass(frozen=True)
class Fitted:
    """A file's text as fitted to its budget (None: the file should not exist)."""

    text: str | None
    index: tuple[Memory, ...] = ()  # shortened to one line
    full: tuple[Memory, ...] = ()  # in full
    cut: tuple[Memory, ...] = ()  # the ones left out
    notes: tuple[str, ...] = ()  # what the budget shortened or left out, for the user


def fit(out: Output, existing: str | None, renderer: Renderer) -> Fitted:
    """`out` as a file: memkit's own whole file (a file of its own holds no other text to
    keep), or `existing` (a shared file's text on disk, None: absent) with memkit's section
    replaced. The text is None when the file should not exist."""
    if not out.memories and not out.context.get("folders"):
        return Fitted(framing(out, existing, renderer)(None))
    if "import" in out.context:  # CLAUDE.md reading AGENTS.md through `@AGENTS.md`
        section = renderer.render("claude_import.md.j2", **out.context)
        return Fitted(framing(out, existing, renderer)(section))
    text = probed(texts(out, existing, renderer))
    return fitted(out, text, *_decide(out, text, renderer))


def probed(text: Callable[[int, int], str]) -> Callable[[int, int], str]:
    """`text` (see `texts`) rendering each (k, j) once in one fit: the file's text is
    that of a probe that decided it (all of them while the file fits whole)."""
    return functools.cache(text)


def texts(out: Output, existing: str | None, renderer: Renderer) -> Callable[[int, int], str]:
    """The text of `out` with its first k memories in full and the next j shortened to a
    line (the rest named as left out): what a budget is measured on. An AGENTS.md whose
    context names `folders` (the nested AGENTS.md files) says where they are first."""
    ms = out.memories
    frame = framing(out, existing, renderer)
    folders = out.context.get("folders")
    lead = renderer.render("agents_folders.md.j2", folders=folders).strip("\n") if folders else ""

    def text(k: int, j: int) -> str:
        section = renderer.section(out, ms[:k], ms[k : k + j], ms[k + j :])
        if lead:
            section = lead + "\n" + ("\n" + section if section else "")
        got = frame(section)
        assert got is not None
        return got

    return text


def framing(
    out: Output, existing: str | None, renderer: Renderer
) -> Callable[[str | None], str | None]:
    """The file around a section of `out` (None: no section): memkit's own file rendered
    whole, or `existing` with memkit's section replaced."""
    if out.whole:
        return functools.partial(renderer.file, out)
    return markers.framer(existing, out.path)


def fitted(out: Output, text: Callable[[int, int], str], k: int, j: int, over: bool) -> Fitted:
    """`out` with its first `k` memories in full and the next `j` shortened (`texts`)."""
    ms = out.memories
    index, cut = ms[k : k + j], ms[k + j :]
    return Fitted(text(k, j), index, ms[:k], cut, _notes(out, index, cut, over))


def _notes(
    out: Output, index: tuple[Memory, ...], cut: tuple[Memory, ...], over: bool
) -> tuple[str, ...]:
    """What a fit shortened (`index`) or left out (`cut`), naming the memories."""
    notes = [f"{out.path}: over its budget of {out.budget} even without memories"] if over else []
    if not index and not cut:
        return tuple(notes)
    from memkit.capped import MAX_NAMED, capped
    from memkit.compile.readers import agent_of

    see = f"`memkit compile --explain {agent_of(out.target)}`"
    parts = []
    for ms, what in ((index, "shortened to one line"), (cut, "left out")):
        if ms:  # the ids named are the first few: thousands need not be walked
            named = capped((m.id for m in ms[:MAX_NAMED]), total=len(ms), see=see)
            parts.append(f"{len(ms)} {what} ({named})")
    lowest = " and ".join(parts)
    notes.append(f"{out.path}: over its budget of {out.budget}: lowest-ranked memories {lowest}")
    return tuple(notes)


def _decide(
    out: Output, text: Callable[[int, int], str], renderer: Renderer | None = None
) -> tuple[int, int, bool]:
    """(in full, shortened, over budget even so): the most memories in full, then
    one-liners, that keep the file within its budget. With `renderer`, each search
    starts where the entries' own sizes say the answer is (`guess`)."""
    n = len(out.memories)
    if n <= 64 and out.budget.fits(text(n, 0)):  # most scoped files: one render
        return n, 0, False
    if not out.budget.fits(text(0, 0)):
        return 0, 0, True
    ms = out.memories
    full: Iterator[str] = iter(())
    lines: Callable[[int], Iterator[str]] = lambda k: iter(())  # noqa: E731
    if renderer is not None:
        full = (renderer.entry(m, out.scoped) for m in ms)
        lines = lambda k: (renderer.line(m) for m in ms[k + 1 :])  # noqa: E731
    # Room for at least one one-liner, so what does not fit in full is still named.
    k = largest(lambda k: out.budget.fits(text(k, min(1, n - k))), n, guess(out, text(0, 0), full))
    if k == n:
        return k, 0, False
    start = 1 + guess(out, text(k, 1), lines(k))  # text(k, 1) fitted: k's own probe
    j = largest(lambda j: out.budget.fits(text(k, j)), n - k, start)
    return k, j, False


def guess(out: Output, base: str, pieces: Iterator[str]) -> int:
    """How many of `pieces` (rendered entries, one-liners, in order) fit in `out`'s budget
    after `base`, by their sizes alone: where a search for the exact answer starts.
    Only the pieces up to the first that does not fit are rendered."""
    parts = out.budget.parts
    room = [b.limit - b.measure(base) for b in parts]
    got = 0
    for piece in pieces:
        room = [r - b.measure(piece) for r, b in zip(room, parts, strict=True)]
        if min(room) < 0:
            break
        got += 1
    return got


def largest(ok: Callable[[int], bool], hi: int, start: int = 0) -> int:
    """The largest n in [0, hi] with ok(n), ok being true up to some point (ok(0) holds).

    Gallops from `start` (an estimate of the answer; 0 when there is none), up while ok
    holds, down while it does not, then halves the gap: the cost follows the estimate's
    error, not `hi`.
    """
    start = max(0, min(start, hi))
    if start and not ok(start):
        good, bad, step = 0, start, 1
        while bad - step > 0:  # down: ok(0) holds
            probe = bad - step
            if ok(probe):
                good = probe
                break
            bad, step = probe, step * 2
    else:
        good, step = start, 1
        while True:
            probe = min(good + step, hi)
            if probe == good:
                return good
            if not ok(probe):
                bad = probe
                break
            good, step = probe, step * 2
    while bad - good > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good
