"""The snippet under each hit: about 160 characters of the body, matched terms in **bold**
(an unspaced run's overlapping pairs in one mark).

The body is read again from the memory's file (the index stores no body), its
whitespace collapsed, and cut at word boundaries around the first matched term.
"""

from __future__ import annotations

from pathlib import Path

from memkit.errors import MemkitError
from memkit.memfile import split
from memkit.search.analysis import spans as term_spans


def snippet(path: Path, terms: frozenset[str], width: int = 160) -> str:
    """About `width` characters of the body around the first matched term, **marked**."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    try:
        body = split(text, str(path))[2]
    except MemkitError:
        body = text
    body = " ".join(body.split())
    first = next((s for t, s, _ in term_spans(body) if t in terms), None)
    spans: list[tuple[int, int]] = []
    if first is not None:  # the window is around the first match: only it needs analyzing
        # (again from there: a run's pairs overlap the first match)
        spans = [
            (s + first, e + first) for t, s, e in term_spans(body[first:], width) if t in terms
        ]
    start = spans[0][0] - width // 4 if spans and spans[0][0] > width // 2 else 0
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < spans[0][0] else start
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > start else end
    out, at = [], start
    for s, e in _merged(spans):
        if s >= at and e <= end:
            out += [body[at:s], "**", body[s:e], "**"]
            at = e
    out.append(body[at:end])
    return ("..." if start else "") + "".join(out) + ("..." if end < len(body) else "")


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` with overlapping ones joined (an unspaced run's pairs overlap: 日本 本語)."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s < out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return out
