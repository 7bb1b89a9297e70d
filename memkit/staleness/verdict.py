"""What the staleness engine says about memories: the shared vocabulary.

The staleness engine (memkit.staleness) produces these; the compiler, search,
context, hooks and the MCP server consume them. Nothing here does any work.
"""

from __future__ import annotations

from dataclasses import dataclass

# Per link. Symbol links: unchanged | docs | body | signature | moved | removed.
# File links: unchanged | changed | moved | removed. Never checked: unverified.
# Anchors (staleness/anchors/): config keys value | removed; dependencies version |
# removed | added; commands body | removed; environment variables removed.
LINK_STATES = (
    "unchanged",
    "docs",
    "body",
    "signature",
    "changed",
    "value",
    "version",
    "added",
    "moved",
    "removed",
    "unverified",
)
STALE_LINK_STATES = frozenset(
    {"body", "signature", "changed", "value", "version", "added", "moved", "removed"}
)
# Per memory, in the order reports list them.
MEMORY_STATES = ("fresh", "stale", "expired", "review-due", "unverified")
# The one place that decides what fails `memkit check` (exit 1); review-due only reports.
FAILING_STATES = frozenset({"stale", "expired", "unverified"})
# What needs a person's attention (reports, the MCP `list_stale` tool): all but fresh.
ATTENTION_STATES = tuple(s for s in MEMORY_STATES if s != "fresh")


@dataclass(frozen=True)
class LinkStatus:
    link: str
    state: str
    moved_to: str | None = None  # where moved code lives now (a link string)
    since: str | None = None  # the commit the link was last verified at

    @property
    def stale(self) -> bool:
        return self.state in STALE_LINK_STATES


@dataclass(frozen=True)
class MemoryStatus:
    id: str
    state: str
    links: tuple[LinkStatus, ...] = ()

    @property
    def stale(self) -> bool:
        return self.state == "stale"

    @property
    def failing(self) -> bool:
        """Whether this verdict fails `memkit check` (FAILING_STATES)."""
        return self.state in FAILING_STATES

    def stale_links(self) -> tuple[LinkStatus, ...]:
        return tuple(link for link in self.links if link.stale)

    def describe(self) -> str:
        """One line for annotations: which links changed, how, since which commit."""
        parts = []
        for link in self.stale_links():
            how = f"moved to {link.moved_to}" if link.moved_to else link.state
            since = f" since {link.since[:12]}" if link.since else ""
            parts.append(f"{link.link} ({how}{since})")
        return "; ".join(parts)

    def to_record(self) -> dict[str, object]:
        return {
            "id": self.id,
            "state": self.state,
            "links": [
                {"link": x.link, "state": x.state, "moved_to": x.moved_to, "since": x.since}
                for x in self.links
            ],
        }
