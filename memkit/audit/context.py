"""What the prose around a reference says about it: whether it is a claim worth checking.

A reference is a claim about the project only when the sentence makes one. `Do not
create files like `src/x.ts``, `never call `legacy()``, `(was `views.py`)`, `e.g.
`foo_tools.go``, `PascalCase (`DashboardMenu.tsx`)`, `Branch naming: `ui/feature``
name things that are not there, or not this project's, on purpose. `unclaimed(ref,
kind)` says why such a reference is not checked (a reason word), or None.
"""

from __future__ import annotations

import re

from memkit.audit.sources import Ref

# The clause a reference sits in: the text after the last sentence break before it.
_BREAK = re.compile(
    r"(?:(?<!\be\.g)(?<!\bi\.e)[.!?](?:\s|\*)|;|:\s|\s[—–]\s|\(|\bbut\b|"
    r",\s*(?=(?:use|run|call|prefer|try|write|see)\b))"
)
_SPAN = re.compile(r"`+[^`]*`+")
_NEGATION = re.compile(
    r"(?i)\b(?:not|never|no|don'?t|doesn'?t|isn'?t|aren'?t|won'?t|shouldn'?t|avoid|"
    r"instead\s+of|rather\s+than|without|formerly|previously|no\s+longer|deprecated|was|were|old)\b"
    r"(?!\s+(?:forget|skip|omit|miss|only|just|even)\b)"
)
_EXAMPLE = re.compile(
    r"(?i)(?:\be\.?g\.|\bfor\s+(?:example|instance)\b|\bsuch\s+as\b|\bexamples?\b|"
    r"\bpascal\s*case\b|\bcamel\s*case\b|\bkebab[-\s]*case\b|\bsnake[_\s]*case\b|"
    r"\blower\s*case\b|\bnam(?:ed|ing)\b)"
)
_ENV_CLAIM = re.compile(
    r"(?i)(?:\benv\b|\benvironment\b|\bvariables?\b|\bvars?\b|\bexport\b|\bsets?\b|"
    r"\bsetting\b|\bconfigur|\breads?\b|\brequire|\bneeds?\b|\bdefaults?\b|\.env\b|"
    r"\boverrid|\benabl|\bdisabl|\btoggl|\bflag\b|=)"
)
_GENERATED = re.compile(r"(?i)\b(?:generated|build\s+outputs?|artifacts?|auto-?generated)\b")
_CONVENTION = re.compile(r"(?i)\b(?:conventions?|naming|examples?|patterns?)\b")
_BRANCH = re.compile(r"(?i)\bbranch(?:es)?\b")


def clause(before: str) -> str:
    """The part of `before` that belongs to the reference's own clause."""
    cut = 0
    for m in _BREAK.finditer(before):
        cut = m.end()
    return _SPAN.sub(" ", before[cut:])


def unclaimed(ref: Ref, kind: str, target: str) -> str | None:
    """Why the sentence around `ref` makes no claim that `target` exists, or None."""
    if ref.where not in ("span", "link"):
        return None
    own = clause(ref.before)
    if _NEGATION.search(own):
        return "negated"
    if _EXAMPLE.search(_SPAN.sub(" ", ref.before[-80:])):
        return "example"
    if kind == "env":
        around = f"{_SPAN.sub(' ', ref.before[-100:])} {ref.after[:100]} {ref.heading}"
        if not _ENV_CLAIM.search(around):
            return "no claim"
    if kind == "path" and (_GENERATED.search(ref.heading) or _GENERATED.search(own)):
        return "generated"
    if kind == "path" and _CONVENTION.search(ref.heading):
        return "example"
    bare = "." not in target.rsplit("/", 1)[-1]
    if kind == "path" and bare and (_BRANCH.search(ref.before) or _BRANCH.search(ref.heading)):
        return "branch"
    return None


_REPO = re.compile(r"^[\w-]+/[\w.-]+$")
_GITHUB = re.compile(r"github\.com/([\w-]+/[\w.-]+)")
_REPO_WORD = re.compile(r"(?i)\brepo(?:sitory|sitories|s)?\b")


def home_paths(refs: list[Ref]) -> frozenset[str]:
    """Paths the file also gives under `~/`: `.claude/settings.json` next to
    `~/.claude/settings.json` names a tool's per-project file, not one of this project."""
    return frozenset(r.text[2:].strip("/") for r in refs if r.text.startswith("~/"))


def foreign_lines(refs: list[Ref], dirs: frozenset[str]) -> frozenset[int]:
    """Lines that name another repository (`owner/name` or a github.com address, with the
    word repository): the paths on them are that repository's."""
    out = set()
    for ref in refs:
        text = f"{ref.before} {ref.after}"
        other = (_REPO.match(ref.text) and ref.text.split("/")[0] not in dirs) or _GITHUB.search(
            ref.text
        )
        if other and _REPO_WORD.search(text):
            out.add(ref.line)
    return frozenset(out)
