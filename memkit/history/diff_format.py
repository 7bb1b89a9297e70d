"""A Review as text for a terminal or markdown for a pull-request comment."""

from __future__ import annotations

import re

from memkit.history.diff import FLAGS, FieldChange, MemoryChange, Review

KINDS = ("added", "changed", "renamed", "removed")
MARKER = "<!-- memkit-diff -->"  # lets a CI job find and update its own comment


def _range(review: Review) -> str:
    return f"{review.base[:12]}..{review.head[:12] if review.head else 'working tree'}"


def _counts(review: Review) -> str:
    parts = []
    for kind in KINDS:
        n = sum(1 for c in review.changes if c.kind == kind)
        if n:
            parts.append(f"{n} {kind}")
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


def markdown(review: Review) -> str:
    out = [MARKER, "### memkit: memory changes", ""]
    out.append(f"`{_range(review)}`: {_counts(review)}.")
    if review.flagged():
        out += ["", "#### Needs a reviewer's eye", ""]
        for c in review.flagged():
            why = "; ".join(FLAGS[f] for f in c.flags)
            out.append(f"- **`{c.id}`** {_md(c.title)}: {why}")
    if review.stale:
        out += ["", "#### Stale because of code changed in this range", ""]
        for s in review.stale:
            out.append(f"- **`{s.id}`**: {_md(s.describe() or s.state)}")
    for kind in KINDS:
        group = [c for c in review.changes if c.kind == kind]
        if group:
            out += ["", f"#### {kind.capitalize()}", ""]
            for c in group:
                out += _md_change(c)
    out.extend(f"\n_{_md(n)}_" for n in review.notes)
    return "\n".join(out) + "\n"


def _md_change(c: MemoryChange) -> list[str]:
    where = f"`{c.old_path}` → `{c.path}`" if c.kind == "renamed" else f"`{_where(c)}`"
    lines = [f"- **`{c.id}`** {_md(c.title)} ({where})"]
    if c.invalid:
        lines.append("  - does not parse: run `memkit validate`")
    if c.owners:
        lines.append(f"  - review: {_md(' '.join(c.owners))}")
    if c.kind == "added":
        lines += [f"  - `{f.name}`: {_md(f.new or '')}" for f in c.fields if f.name != "title"]
    else:
        for f in c.fields:
            lines.append(f"  - `{f.name}`: {_md(f.old or '(none)')} → {_md(f.new or '(none)')}")
    if c.body_diff:
        fence = _fence(c.body_diff)
        lines += ["", "  <details><summary>text</summary>", ""]
        lines += [f"  {fence}diff", *(f"  {x}" for x in c.body_diff.splitlines()), f"  {fence}"]
        lines += ["", "  </details>"]
    return lines


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in `text` (at least three)."""
    return "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))


def _md(s: str) -> str:
    """Inline text safe in markdown: no HTML, no line breaks, no table pipes."""
    return (
        s.replace("\\", "\\\\")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("|", "\\|")
        .replace("\n", " ")
    )
