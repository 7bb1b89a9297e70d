"""The map of the code: folders and files with the memories linked or scoped to them.

Linked files and scope globs are placed in a tree by their folders (a glob under the
folders before its first wildcard). Each node carries its own memories and the worst
freshness found anywhere under it, so gaps and hot spots show at a glance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# Worst first: what colours a folder when its memories disagree.
SEVERITY = ("stale", "expired", "unverified", "draft", "review-due", "fresh")
WILDCARDS = frozenset("*?[{")


@dataclass(frozen=True)
class Node:
    name: str
    path: str
    glob: bool  # a scope glob rather than a linked file or a folder
    memories: tuple[tuple[str, str], ...]  # (id, freshness) linked or scoped here
    children: tuple[Node, ...] = ()

    @property
    def total(self) -> int:
        """Memories here and below (a memory counts once per place it names)."""
        return len(self.memories) + sum(c.total for c in self.children)

    @property
    def worst(self) -> str:
        states = {f for _, f in self.memories} | {c.worst for c in self.children}
        return next((s for s in SEVERITY if s in states), "fresh")


def build_map(by_path: Mapping[str, Sequence[tuple[str, str]]]) -> tuple[Node, ...]:
    """The top-level nodes, sorted by name, from path -> [(id, freshness)]."""
    tree: dict[str, object] = {}
    for path in sorted(by_path):
        parts = _parts(path)
        level = tree
        for folder in parts[:-1]:
            level = level.setdefault(folder + "/", {})  # type: ignore[assignment]
        level[parts[-1]] = path
    return _nodes(tree, "", by_path)


def _parts(path: str) -> list[str]:
    """Folders up to the first wildcard, then the rest as one name."""
    parts = [p for p in path.split("/") if p]
    for i, part in enumerate(parts):
        if WILDCARDS & set(part):
            return [*parts[:i], "/".join(parts[i:])]
    return parts or [path]


def _nodes(
    tree: Mapping[str, object], prefix: str, by_path: Mapping[str, Sequence[tuple[str, str]]]
) -> tuple[Node, ...]:
    out = []
    for name in sorted(tree):
        value = tree[name]
        if isinstance(value, str):
            glob = bool(WILDCARDS & set(value))
            out.append(Node(name, value, glob, tuple(by_path[value])))
        else:
            path = prefix + name
            children = _nodes(value, path, by_path)  # type: ignore[arg-type]
            out.append(Node(name, path, False, (), children))
    return tuple(out)
