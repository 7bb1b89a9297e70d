"""A Review as text for a terminal or markdown for a pull-request comment."""

from __future__ import annotations

import re

from memkit.history.diff import FLAGS, FieldChange, MemoryChange, Review

KINDS = ("added", "changed", "renamed", "removed")
MARKER = "<!-- memkit-diff -->"  # lets a CI job find and update its own comment


def _range(review: Review) -> str:
    return f"{review.base[:12]}..{review.head[:12] if review.head else 'working tree'}"


def _counts(review: Review) -> str:
    counted = [(sum(c.kind == kind for c in review.changes), kind) for kind in KINDS]
    parts = [f"{n} {kind}" for n, kind in counted if n]
    if review.stale:
        parts.append(f"{len(review.stale)} stale")
    return ", ".join(parts) or "no memory changes"


def _field(f: FieldChange) -> str:
    if f.old is None:
        return f"{f.name}: {f.new}"
    if f.new is None:
        return f"{f.name}: {f.old} -> (removed)"
    return f"{f.name}: {f.old} -> {f.new}"


def _where(c: MemoryChange) -> str:
    if c.kind == "renamed":
        return f"{c.old_path} -> {c.path}"
    return str(c.path or c.old_path)


def text(review: Review) -> str:
    out = [f"memory changes {_range(review)}: {_counts(review)}"]
    for c in review.changes:
        flags = f"  [{', '.join(c.flags)}]" if c.flags else ""
        out.append(f"\n{c.kind:<8} {c.id}  {c.title}{flags}\n  {_where(c)}")
        if c.invalid:
            out.append("  does not parse: run `memkit validate`")
        if c.owners:
            out.append(f"  review: {' '.join(c.owners)}")
        if c.kind != "added":
            out.extend(f"  {_field(f)}" for f in c.fields)
        if c.body_diff and c.kind != "added":
            out.extend(f"    {line}" for line in c.body_diff.splitlines())
    if review.stale:
        out.append("\nstale because of code changed in this range:")
        out.extend(f"  {s.id}: {s.describe() or s.state}" for s in review.stale)
    if review.flagged():
        out.append("\nneeds a reviewer's eye:")
        for c in review.flagged():
            out.extend(f"  {c.id}: {FLAGS[f]}" for f in c.flags)
    out.extend(f"\nnote: {n}" for n in review.notes)
    return "\n".join(out) + "\n"


LIMIT = 60_000  # GitHub refuses a comment over 65,536 characters; room for the job's link


def markdown(review: Review, *, limit: int = LIMIT) -> str:
    """The pull-request comment: every piece of memory text escaped (no live link, image,
    mention or HTML), and under `limit` characters: the summary always, then the items
    in order while they fit, then how many more were left out."""
    head = [MARKER, "### memkit: memory changes", ""]
    head.append(f"{_code(_range(review))}: {_counts(review)}.")
    sections: list[tuple[str, list[list[str]]]] = []
    if review.flagged():
        items = []
        for c in review.flagged():
            why = "; ".join(FLAGS[f] for f in c.flags)
            items.append([f"- **{_code(c.id)}** {_md(c.title)}: {why}"])
        sections.append(("Needs a reviewer's eye", items))
    if review.stale:
        items = [[f"- **{_code(s.id)}**: {_md(s.describe() or s.state)}"] for s in review.stale]
        sections.append(("Stale because of code changed in this range", items))
    for kind in KINDS:
        if group := [_md_change(c) for c in review.changes if c.kind == kind]:
            sections.append((kind.capitalize(), group))
    notes = [f"\n_{_md(n)}_" for n in review.notes]
    return _capped(head, sections, notes, limit)


def _capped(
    head: list[str], sections: list[tuple[str, list[list[str]]]], notes: list[str], limit: int
) -> str:
    out = list(head)
    size = sum(len(x) + 1 for x in out)
    total = sum(len(items) for _, items in sections)
    shown = 0
    room = limit - 200 - sum(len(n) + 1 for n in notes)  # the closing line and the notes
    for title, items in sections:
        block = ["", f"#### {title}", ""]
        for item in items:
            cost = sum(len(x) + 1 for x in (*block, *item))
            if size + cost > room:
                out.append(
                    f"\n_… and {total - shown} more not shown here (the comment has "
                    "a size limit): run `memkit diff` to see them all._"
                )
                return "\n".join([*out, *notes]) + "\n"
            out += block + item
            size += cost
            shown += 1
            block = []
    return "\n".join([*out, *notes]) + "\n"


def _md_change(c: MemoryChange) -> list[str]:
    if c.kind == "renamed":
        where = f"{_code(str(c.old_path))} → {_code(str(c.path))}"
    else:
        where = _code(_where(c))
    lines = [f"- **{_code(c.id)}** {_md(c.title)} ({where})"]
    if c.invalid:
        lines.append("  - does not parse: run `memkit validate`")
    if c.owners:
        lines.append(f"  - review: {' '.join(_code(o) for o in c.owners)}")
    if c.kind == "added":
        lines += [f"  - {_code(f.name)}: {_md(f.new or '')}" for f in c.fields if f.name != "title"]
    else:
        for f in c.fields:
            lines.append(
                f"  - {_code(f.name)}: {_md(f.old or '(none)')} → {_md(f.new or '(none)')}"
            )
    if c.body_diff:
        fence = _fence(c.body_diff)
        lines += ["", "  <details><summary>text</summary>", ""]
        lines += [f"  {fence}diff", *(f"  {x}" for x in c.body_diff.splitlines()), f"  {fence}"]
        lines += ["", "  </details>"]
    return lines


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in `text` (at least three)."""
    return "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))


def _code(s: str) -> str:
    """`s` as one inline code span it cannot break out of: a fence of backticks longer
    than any run inside, padded when `s` starts or ends with one; no line break."""
    s = " ".join(s.splitlines())
    fence = "`" * (1 + max((len(r) for r in re.findall(r"`+", s)), default=0))
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


_SPECIAL = re.compile(r"([\\`*_\[\]!~|#])")
_AUTOLINK = re.compile(r"(?i)\b(https?|ftp|mailto|www)(?=[:.])")
ZWJ = "\u200d"  # joins nothing visible; splits `@name` and `https:` so GitHub links neither


def _md(s: str) -> str:
    """Inline text safe in markdown: no HTML, no line break, no table pipe, no link or
    image (`[`, `!`), no emphasis or code span, no @-mention, no autolinked URL."""
    s = " ".join(s.splitlines())
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _SPECIAL.sub(r"\\\1", s)
    s = _AUTOLINK.sub(lambda m: m.group(1) + ZWJ, s)
    return s.replace("@", "@" + ZWJ)
