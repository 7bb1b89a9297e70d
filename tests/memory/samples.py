"""A sample memory file, and hypothesis strategies and settings shared by the memory tests.

FUZZ's example count comes from MEMKIT_FUZZ_EXAMPLES (benchmarks/fuzz.py raises it), else
it is 150 scaled by the hypothesis profile (`examples` in tests/conftest.py).
"""

from __future__ import annotations

import datetime as dt
import os

from hypothesis import HealthCheck, reject, settings
from hypothesis import strategies as st

from memkit import memory as mm
from memkit.errors import MemkitError
from tests.conftest import examples

FULL = """\
---
# a comment people wrote
title: "Retry: use exponential backoff"
type: gotcha
status: active
tags: [http, retry]
paths:
- src/http/**/*.py
links:
- src/http/client.py::Client.send
source: https://example.com/pr/12
confidence: high
created: 2026-01-02
updated: 2026-01-03
review_after: 2026-06-01
priority: 3
pin: true
owner: team-http   # unknown key, kept
---

The client retries **idempotent** requests only.

<!-- a comment in the body -->
"""

FUZZ_TODAY = dt.date(2026, 3, 1)
FUZZ = settings(
    max_examples=int(os.environ.get("MEMKIT_FUZZ_EXAMPLES", examples(150))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Text that exercises the parser's edges: delimiters, YAML syntax, markers, fences, CR.
PIECES = st.sampled_from(
    [
        "---",
        "...",
        "\n",
        "\r\n",
        "\r",
        "\ufeff",
        ": ",
        "- ",
        "&a",
        "*a",
        "!!str",
        "#",
        "'",
        '"',
        "{",
        "}",
        "[",
        "]",
        "title",
        "tags",
        "created",
        "2026-01-31",
        "2026-13-45",
        "\t",
        " ",
        "<!-- memkit:end -->",
        "```",
        "~~~",
        "===",
        "\x00",
        "\x85",
        "\u2028",
        "é",
        "🙂",
    ]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=40).map("".join)
LINE = st.text(
    st.characters(blacklist_categories=["Cs", "Cc", "Zl", "Zp"], blacklist_characters="\x85"),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip())
WORD = st.from_regex(r"[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,5}){0,2}", fullmatch=True)
GLOB = st.from_regex(r"(src|lib|docs)/[a-z*]{1,6}(/\*\*)?(\.py)?", fullmatch=True)
BODY = st.one_of(TEXT, st.text(max_size=300))
DATE = st.dates(dt.date(2000, 1, 1), dt.date(2100, 1, 1))


@st.composite
def new_memories(draw: st.DrawFn) -> mm.Memory:
    """Memories made as `memkit add` makes them (mm.new), from fuzzed input."""
    fields = {
        "type": draw(st.sampled_from(mm.TYPES)),
        "status": draw(st.sampled_from(mm.STATUSES)),
        "tags": draw(st.lists(WORD, max_size=3, unique=True)),
        "paths": draw(st.lists(GLOB, max_size=2, unique=True)),
        "source": draw(st.none() | LINE),
        "confidence": draw(st.none() | st.sampled_from(mm.CONFIDENCES)),
        "review_after": draw(st.none() | DATE),
        "priority": draw(st.none() | st.integers(-5, 5)),
        "pin": draw(st.none() | st.just(True)),
    }
    try:
        return mm.new(draw(LINE), draw(BODY), mid=draw(WORD), today=FUZZ_TODAY, **fields)
    except MemkitError:  # e.g. a NUL byte in the body: refused, as `memkit add` does
        reject()
