"""Scopes of compiled rule files: which memories share a file, its name, its globs' form.

A path-scoped memory goes to the rule file of its exact set of globs; on-demand
memories (activation `agent` or `manual`) get a file each, since each carries its
own description. File names are stable from run to run.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Sequence

from memkit.errors import MemkitError
from memkit.globs import expand_braces, for_agents
from memkit.memory import Memory

RULE_PREFIX = "memkit"
NEVER_NESTED = frozenset({".git", ".memory"})  # git's files and the store get no AGENTS.md
ACTIVATIONS = ("always", "agent", "manual")


def activation(m: Memory) -> str:
    """When `m` reaches an agent: always (the default), agent (by description), manual."""
    value = getattr(m, "activation", None) or "always"
    return value if value in ACTIVATIONS else "always"


def description(m: Memory) -> str:
    """What tells an agent when `m` is useful: its description, else its title."""
    return str(getattr(m, "description", None) or m.title).strip()


def always(memories: Iterable[Memory]) -> tuple[Memory, ...]:
    return tuple(m for m in memories if not m.paths and activation(m) == "always")


def agent_paths(globs: Iterable[str]) -> list[str]:
    """A memory's `paths` as agents' matchers read them, meaning what memkit means by them
    (memkit.globs.for_agents: `services/api` -> `services/api`, `services/api/**`)."""
    return list(dict.fromkeys(x for g in globs for x in for_agents(g)))


def expanded(globs: Iterable[str]) -> list[str]:
    """`agent_paths` with braces expanded, for agents that split a list on commas."""
    return list(dict.fromkeys(x for g in agent_paths(globs) for x in expand_braces(g)))


def plain_globs(globs: Sequence[str], own: str) -> str:
    """`globs` as Cursor and Windsurf read them: one unquoted comma-separated line.

    Cursor takes the rest of the `globs:` line as it is (quotes would become part of
    the pattern), and YAML cannot start an unquoted value with `*`, `!`, `[`, `{`
    and the like. So a glob that can lead goes first; when none can, the rule
    file's own path does (it matches no file an agent works on). docs/compile.md,
    "Cursor globs", has the sources.
    """
    from memkit.compile.yamltext import plain_ok

    lead = [g for g in globs if plain_ok(g)][:1]
    for order in (globs, [*lead, *(g for g in globs if g not in lead)], [own, *globs]):
        value = ",".join(order)
        if plain_ok(value):
            return value
    raise MemkitError(
        f"{own}: cannot write the globs {', '.join(globs)} so that both the agent and YAML "
        "read them; change them (see docs/compile.md, Cursor globs)"
    )


def literal_dir(globs: Sequence[str]) -> str:
    """The deepest directory every glob lies under ("" when they share none)."""
    literal = [
        list(itertools.takewhile(lambda p: not any(c in p for c in "*?[{"), g.split("/")[:-1]))
        for g in globs
    ]
    return "/".join(os.path.commonprefix(literal))  # noqa: RUF071 (lists of folder names)


def agents_dir(globs: Sequence[str]) -> str:
    """The folder of the nested AGENTS.md for memories scoped to `globs` ("": the root's)."""
    d = literal_dir(globs)
    return "" if d.split("/")[0] in NEVER_NESTED else d


def scope_names(scopes: Iterable[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """A stable file name for each distinct set of globs: `memkit-src-py`, `memkit-src-py-2`."""
    out: dict[tuple[str, ...], str] = {}
    used: set[str] = set()
    for scope in sorted(set(scopes)):
        slug = re.sub(r"[^a-z0-9]+", "-", " ".join(scope).lower()).strip("-")[:48].strip("-")
        base = f"{RULE_PREFIX}-{slug or 'all'}"
        name, n = base, 1
        while name in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name)
        out[scope] = name
    return out


def by_scope(memories: Iterable[Memory]) -> dict[tuple[str, ...], list[Memory]]:
    """Always-on path-scoped memories grouped by their exact set of globs."""
    groups: dict[tuple[str, ...], list[Memory]] = {}
    for m in memories:
        if m.paths and activation(m) == "always":
            groups.setdefault(tuple(sorted(set(m.paths))), []).append(m)
    return groups
