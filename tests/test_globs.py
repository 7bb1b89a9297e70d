"""memkit.globs.match, the project's one glob matcher, against wcmatch as the reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.globs import match

wcmatch = pytest.importorskip("wcmatch.glob")
FLAGS = wcmatch.GLOBSTAR | wcmatch.BRACE | wcmatch.DOTGLOB


def reference(glob: str, path: str) -> bool:
    """wcmatch's answer; a glob without wildcards also names a directory, as in memkit."""
    if not any(c in glob for c in "*?[{"):
        return bool(wcmatch.globmatch(path, [glob, glob.rstrip("/") + "/**"], flags=FLAGS))
    return bool(wcmatch.globmatch(path, glob, flags=FLAGS))


CASES = [
    ("src/**/*.{ts,tsx}", "src/a/b.tsx", True),
    ("src/**/*.{ts,tsx}", "src/b.ts", True),
    ("src/**/*.{ts,tsx}", "lib/b.ts", False),
    ("**/*.{json,md}", "docs/x.md", True),
    ("a/{b,{c,d}}/*.py", "a/d/x.py", True),  # nested braces: one engine, one answer
    ("a/{b,{c,d}}/*.py", "a/{c/x.py", False),
    ("db/[a-z]*.sql", "db/users.sql", True),
    ("db/[!a-z]*.sql", "db/users.sql", False),
    ("*.py", "a/b.py", False),
    ("?.py", "ab.py", False),
    ("packages/api/**", "packages/api/x/y.go", True),
]


@pytest.mark.parametrize(("glob", "path", "want"), CASES)
def test_match_table(glob: str, path: str, want: bool) -> None:
    assert match(glob, path) is want
    assert reference(glob, path) is want


SEGMENT = st.sampled_from(["a", "b", "src", "x.py", "y.ts", "z.tsx", ".hidden", "[", "c,d"])
GLOB_PART = st.sampled_from(["*", "**", "a", "b", "src", "*.py", "*.{ts,tsx}", "{a,{b,src}}",
                             "?", "[ab]", "[!a]*", "x.py"])  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(GLOB_PART, min_size=1, max_size=4), st.lists(SEGMENT, min_size=1, max_size=4))
def test_match_agrees_with_wcmatch(parts: list[str], segments: list[str]) -> None:
    glob, path = "/".join(parts), "/".join(segments)
    assert match(glob, path) == reference(glob, path), (glob, path)
