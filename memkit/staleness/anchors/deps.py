"""Dependency links: `dep:NAME` (the project uses it) and `dep:!NAME` (it does not).

The fingerprint is `dep:` and the major version (`dep:5`, `dep:0.4` for a 0.x
release, `dep:any` when no version is known), or `dep:none` for an absent one. A
minor or patch upgrade leaves it unchanged; a major one is `version`; a used
dependency gone is `removed`, an unused one now present `added`. Names follow
each ecosystem's spelling (PEP 503 normalization for Python names, a Go module's
full path).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memkit.staleness.anchors.manifests import FILES, declared, major, normalize

if TYPE_CHECKING:
    from memkit.staleness.snapshot import Snapshot

ABSENT = "dep:none"


def dependencies(snap: Snapshot) -> dict[str, str]:
    """{normalized name: version} of the project at a snapshot (parsed once per snapshot)."""
    return snap.derived(("deps",), lambda: declared(snap.read))


@dataclass(frozen=True)
class Dependency:
    text: str
    name: str
    absent: bool  # `dep:!name`: the project must not use it
    any_source = False

    @classmethod
    def parse(cls, text: str) -> Dependency:
        name = text[len("dep:") :].strip()
        absent = name.startswith("!")
        return cls(text, normalize(name.lstrip("!").strip()), absent)

    def files(self, recorded: str | None) -> tuple[str, ...]:
        return FILES

    def current(self, snap: Snapshot, recorded: str | None) -> str | None:
        found = dependencies(snap).get(self.name)
        if found is None:
            return ABSENT if self.absent else None
        return f"dep:{major(found) or 'any'}"

    def compare(self, recorded: str, now: str | None) -> str:
        if now is None:
            return "removed"
        if recorded == ABSENT and now != ABSENT:
            return "added"
        if now == recorded or "dep:any" in (now, recorded):
            return "unchanged"
        return "version"

    def missing(self, snap: Snapshot) -> str:
        from memkit.staleness.anchors.hints import near

        names = dependencies(snap)
        if not self.name:
            return "name a dependency: `dep:NAME`"
        if not names:
            return (
                "no dependency manifest at the repository root (pyproject.toml, package.json, ...)"
            )
        return (
            f"no dependency {self.name!r} in the root manifests or lock files"
            f"{near(self.name, names)};"
            f" to record that the project does not use it, link `dep:!{self.name}`"
        )
