"""What the staleness engine says about memories, and the one policy of what fails.

The staleness engine (memkit.staleness) produces these; the compiler, search,
context, hooks, the CI gate and the MCP server consume them. `fails` (with
FAILING_STATES and `[check] fail_on`) is THE place that decides which verdicts
make `memkit check` and `memkit ci` exit 1; everything else in ATTENTION_STATES
is reported without failing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# LinkStatus.state, per link. Symbol links: unchanged | docs | body | signature | moved | removed.
# File links: unchanged | changed | moved | removed. Never checked: unverified.
# Anchors (staleness/anchors/): config keys value | removed; dependencies version |
# removed | added; commands body | removed; environment variables removed. Any link:
# unreadable (a limit kept memkit from reading its file; `reason` says which and why).
# The states that make a link stale (all but unchanged, docs and unverified):
STALE_LINK_STATES = frozenset(
    {"body", "signature", "changed", "value", "version", "added", "moved", "removed", "unreadable"}
)
# Per memory, in the order reports list them.
MEMORY_STATES = ("fresh", "stale", "expired", "review-due", "unverified")
# The one place that decides what fails `memkit check` and `memkit ci` (exit 1), by
# default: an active memory whose code changed under it, or whose links were never
# fingerprinted. Expired and review-due memories are reported, never failed, unless
# `[check] fail_on` in .memory/config.toml lists them: they become due with the
# calendar, not with a change, and would turn every pull request red that day.
# Drafts, proposed revisions and archived memories (MemoryStatus.active False)
# never fail: agents write drafts, and a draft waits for a person's review.
FAILING_STATES = frozenset({"stale", "unverified"})
# What needs a person's attention (reports, the MCP `list_stale` tool): all but fresh.
ATTENTION_STATES = tuple(s for s in MEMORY_STATES if s != "fresh")


def fail_on(config: object | None, where: str = ".memory/config.toml") -> frozenset[str]:
    """The failing states: `[check] fail_on` (a list of MEMORY_STATES) or FAILING_STATES.

    `config` is the `[check]` section (a mapping) or None.
    """
    from collections.abc import Mapping

    from memkit.errors import ConfigError

    value = config.get("fail_on") if isinstance(config, Mapping) else None
    if value is None:
        return FAILING_STATES
    if not isinstance(value, list) or any(v not in ATTENTION_STATES for v in value):
        raise ConfigError(
            f"{where}: [check] fail_on must be a list of {', '.join(ATTENTION_STATES)}, "
            f"not {value!r}"
        )
    return frozenset(value)


def fails(status: MemoryStatus, failing: frozenset[str] = FAILING_STATES) -> bool:
    """Whether this verdict fails a check: an active memory in a failing state."""
    return status.active and status.state in failing


@dataclass(frozen=True)
class LinkStatus:
    link: str
    state: str
    moved_to: str | None = None  # where moved code lives now (a link string)
    since: str | None = None  # the commit the link was last verified at
    # moved, but to several places equally alike: each of them (moved_to is then None)
    candidates: tuple[str, ...] = ()
    # moved symbols: how the code changed on the way (unchanged, docs, body, signature)
    change: str | None = None
    # unreadable: the file and the limit that kept memkit from reading it, and what to do
    reason: str | None = None

    @property
    def stale(self) -> bool:
        return self.state in STALE_LINK_STATES

    def to_record(self) -> dict[str, object]:
        """The JSON form; `candidates` only when a move was ambiguous."""
        out: dict[str, object] = {"link": self.link, "state": self.state}
        out["moved_to"] = self.moved_to
        if self.candidates:
            out["candidates"] = list(self.candidates)
        if self.change is not None:
            out["change"] = self.change
        out["since"] = self.since
        if self.reason is not None:
            out["reason"] = self.reason
        return out

    def how(self) -> str:
        """`body`, `moved to a.py::f`, `moved to one of a.py::f, b.py::f`... (`reason`, if
        any, goes after it and the commit: `unreadable since 1a2b3c: a.py is ...`)"""
        changed = f" ({self.change} changed)" if self.change not in (None, "unchanged") else ""
        if self.moved_to:
            return f"moved to {self.moved_to}{changed}"
        if self.candidates:
            return f"moved to one of {', '.join(self.candidates)}{changed}"
        return self.state


@dataclass(frozen=True)
class MemoryStatus:
    id: str
    state: str
    links: tuple[LinkStatus, ...] = ()
    # Active and not a proposed revision: it reaches agents' files and can fail a check.
    active: bool = True

    @property
    def stale(self) -> bool:
        return self.state == "stale"

    def stale_links(self) -> tuple[LinkStatus, ...]:
        return tuple(link for link in self.links if link.stale)

    def describe(self) -> str:
        """One line for annotations: which links changed, how, since which commit."""
        parts = []
        for link in self.stale_links():
            how = link.how()
            since = f" since {link.since[:12]}" if link.since else ""
            why = f": {link.reason}" if link.reason else ""
            parts.append(f"{link.link} ({how}{since}{why})")
        return "; ".join(parts)

    def to_record(self) -> dict[str, object]:
        return {
            "id": self.id,
            "state": self.state,
            "active": self.active,
            "links": [x.to_record() for x in self.links],
        }


def advice(mid: str, links: Iterable[LinkStatus]) -> str:
    """The command that settles memory `mid` whose links are `links`, one that works in
    its situation: a link to what is gone is removed (verify would fail on it), moved
    code is followed, anything else re-verified after a person checked the memory."""
    import shlex

    links = list(links)
    if gone := [x.link for x in links if x.state in ("removed", "unreadable")]:
        return f"memkit link {mid} --remove {' '.join(shlex.quote(x) for x in gone)}"
    if any(x.state == "moved" and x.moved_to for x in links):
        return f"memkit verify --follow {mid}"
    if any(x.state == "moved" for x in links):
        return f"memkit edit {mid}"
    return f"memkit verify {mid}"
