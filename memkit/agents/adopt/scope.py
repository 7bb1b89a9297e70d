"""A format's front matter -> a memory's `paths`, `description` and `activation`.

Cursor: `alwaysApply: true` is always on; `globs` scope a rule; a `description` alone
lets the agent decide (activation `agent`); none of them is a manual rule. Copilot:
`applyTo`. Claude Code and Cline: `paths`. Windsurf: `trigger` and `globs`. Kiro:
`inclusion` and `fileMatchPattern`. Cline workflows and hook docs, and Roo Code's
per-mode rules, are used on demand (`manual`). Globs are split at commas outside
braces (`**/*.{ts,tsx}` stays whole) and put under the folder a nested file applies to.
"""

from __future__ import annotations

from dataclasses import dataclass

from memkit.agents.adopt.markdown import meta_text
from memkit.agents.adopt.sources import Source

ALWAYS_GLOBS = frozenset({"**", "**/*", "*", "**/*.*", "/**", "./**"})
# kind: (its mode key, the mode scoped by globs, the key holding them, the mode the agent decides)
_MODES = {
    "windsurf-rule": ("trigger", "glob", "globs", "model_decision"),
    "kiro": ("inclusion", "fileMatch", "fileMatchPattern", "auto"),
}


@dataclass(frozen=True)
class Scope:
    paths: tuple[str, ...] = ()
    description: str | None = None
    activation: str | None = None  # None: always (memkit.fields.ACTIVATIONS)


def split_globs(value: str | list[str] | None) -> list[str]:
    """Globs from a front-matter value: a list, or one string split at commas outside braces."""
    if not value:
        return []
    items = value if isinstance(value, list) else _split(value.strip().strip("[]"))
    globs = (raw.strip().strip("'\"").strip().removeprefix("./").lstrip("/") for raw in items)
    return [glob for glob in globs if glob]


def _split(value: str) -> list[str]:
    parts, depth, last = [], 0, 0
    for i, c in enumerate(value):
        depth += (c == "{") - (c == "}" and depth > 0)
        if c == "," and depth == 0:
            parts.append(value[last:i])
            last = i + 1
    parts.append(value[last:])
    return parts


def _under(folder: str, globs: list[str]) -> tuple[str, ...]:
    """Globs relative to `folder` made relative to the root; () when one means everything."""
    if any(g in ALWAYS_GLOBS for g in globs):
        return (f"{folder}/**",) if folder else ()
    if not folder:
        return tuple(dict.fromkeys(globs))
    return tuple(dict.fromkeys(f"{folder}/{g}" for g in globs))


def _true(meta: dict[str, str | list[str]], key: str) -> bool:
    return str(meta.get(key, "")).strip().lower() == "true"


def scope_of(src: Source, meta: dict[str, str | list[str]]) -> Scope:
    """Where and when a file's sections apply."""
    folder = (f"{src.folder}/**",) if src.folder else ()
    desc = meta_text(meta, "description")
    kind = src.kind
    if kind == "cursor-rule" or (kind == "markdown" and src.rel.endswith(".mdc")):
        globs = split_globs(meta.get("globs"))
        if _true(meta, "alwaysApply"):
            return Scope(folder, desc)
        if globs:
            return Scope(_under(src.folder, globs), desc)
        return Scope(folder, desc, "agent" if desc else "manual")
    if kind in _MODES:  # any other mode (always_on, always, none) is always on
        key, glob, globs_key, agent = _MODES[kind]
        mode = str(meta.get(key, "")).strip()
        if mode == glob:
            return Scope(_under("", split_globs(meta.get(globs_key))), desc)
        if mode in ("manual", agent):
            return Scope((), desc, "agent" if mode == agent and desc else "manual")
        return Scope((), desc)
    if kind == "cline" and src.rel.startswith((".clinerules/workflows/", ".clinerules/hooks/")):
        return Scope((), desc, "manual")
    if kind == "roo" and not src.rel.startswith(".roo/rules/"):
        return Scope((), desc, "manual")  # .roo/rules-<mode>/: only in that mode
    globs = split_globs(meta.get("applyTo") or meta.get("paths") or meta.get("globs"))
    return Scope(_under(src.folder, globs) if globs else folder, desc)
