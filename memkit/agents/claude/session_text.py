"""The SessionStart text laid out: blocks in order within Claude Code's cap, everything counted.

Used by the SessionStart composition (memkit.agents.claude.startup) and by the index
builder, which sizes the candidates (indexer). Standard library only, no I/O.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

CONTEXT_CHARS = 10_000  # what Claude Code accepts as SessionStart additionalContext
MAX_LISTED = 20  # ids named in the left-out line; the rest are counted
HEAD = (
    "# Project memories (memkit)\n\nFrom .memory/, reviewed in git; CLAUDE.md does not "
    "carry these. `memkit show ID` prints one in full.\n"
)


def block(title: str, kind: str, mid: str, stale: str, text: str, about: str = "") -> str:
    """One memory's block; everything from the memory escaped (controls.for_agent)."""
    from memkit.controls import for_agent as inline

    warn = f"\n> **Possibly out of date**: {inline(stale)}\n" if stale else ""
    about = f", about {inline(about)}" if about else ""
    head = f"\n## {inline(title)}\n\n_{inline(kind)} `{inline(mid)}`{about}_\n{warn}"
    return f"{head}\n{inline(text, lines=True)}\n"


def left_out_note(left: list[str], unnamed: int = 0) -> str:
    """The line naming what was left out; `unnamed` more are only counted."""
    count = len(left) + unnamed
    if not count:
        return ""
    from memkit.capped import capped
    from memkit.controls import for_agent

    named = capped([for_agent(x) for x in left], total=count, most=MAX_LISTED, see="`memkit list`")
    return f"\n_Left out for size: {named} (`memkit show ID`)._\n"


def assemble(
    always: list[str],
    plain: dict[str, str],
    marked: Callable[[list[str]], dict[str, str]],
    room: int,
    unnamed: int = 0,
) -> tuple[str, list[tuple[str, int]], list[str]]:
    """(text, [(id, characters)] given, ids left out) for the always-on memories in
    order (`plain`: each one's block unmarked), within `room` including the left-out
    line. Only those that could fit unmarked are asked about (`marked`: the blocks of
    the stale ones among some ids, marked); `unnamed` more come after `always`."""
    fits, size = [], len(HEAD)
    for mid in always:  # what could fit unmarked: only these are checked for staleness
        size += len(plain[mid])
        if size > room:
            break
        fits.append(mid)
    stale = marked(fits) if fits else {}
    fitting = set(fits)
    blocks: list[str] = []
    given: list[tuple[str, int]] = []
    left: list[str] = []
    size = len(HEAD)
    for mid in always:
        b = stale.get(mid, plain[mid])
        if mid in fitting and size + len(b) <= room:
            blocks.append(b)
            given.append((mid, len(b)))
            size += len(b)
        else:
            left.append(mid)
    while blocks and size + len(left_out_note(left, unnamed)) > room:  # the list counts too
        size -= len(blocks.pop())
        left.insert(0, given.pop()[0])
    return (HEAD + "".join(blocks) if blocks else ""), given, left
