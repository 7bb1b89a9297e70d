"""memkit.globs.match, the project's one glob matcher, against wcmatch as the reference."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.globs import MAX_LENGTH, MAX_SEGMENTS, check, for_agents, glob_re, match
from memkit.store import Store
from tests.conftest import Invoke, examples

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
GLOB_PART = st.sampled_from(
    ["*", "**", "a", "b", "src", "*.py", "*.{ts,tsx}", "{a,{b,src}}", "?", "[ab]", "[!a]*", "x.py"]
)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(GLOB_PART, min_size=1, max_size=4), st.lists(SEGMENT, min_size=1, max_size=4))
def test_match_agrees_with_wcmatch(parts: list[str], segments: list[str]) -> None:
    glob, path = "/".join(parts), "/".join(segments)
    assert match(glob, path) == reference(glob, path), (glob, path)


SEG_OR_STARS = st.sampled_from(["**", "**", "*", "a", "*a*", "a**", "**.py", "[!a]*", "{a,b}/**"])


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(SEG_OR_STARS, min_size=1, max_size=7), st.lists(SEGMENT, min_size=1, max_size=7))
def test_runs_of_globstars_agree_with_wcmatch(parts: list[str], segments: list[str]) -> None:
    glob, path = "/".join(parts), "/".join(segments)
    assert match(glob, path) == reference(glob, path), (glob, path)


def test_repeated_globstars_compile_to_one() -> None:
    assert glob_re("**/**/**/x").pattern == glob_re("**/x").pattern
    assert glob_re("src/**/**/*.py").pattern == glob_re("src/**/*.py").pattern
    assert glob_re("a/**/**").pattern == glob_re("a/**").pattern


PATHOLOGICAL = """
from memkit.globs import match
deep = "/".join(["a"] * 12) + "/b.py"
assert not match("**/" * 40 + "*.zz", deep)
assert not match("/".join(["**/a"] * 30) + "/zz", "/".join(["a"] * 60))
assert not match("*a" * 40 + "b", "a" * 4000)
assert not match("/".join(["*a*a*"] * 30), "/".join(["aaaa"] * 29 + ["b"]))
assert match("**/" * 40 + "*.py", deep)
print("done")
"""


def test_pathological_globs_finish() -> None:
    """Globs that made a backtracking matcher run for hours: each match is a few steps
    per path character, so the whole script ends far inside the generous limit."""
    out = subprocess.run(
        [sys.executable, "-c", PATHOLOGICAL], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"


@pytest.mark.parametrize("glob", ["src/" + "x" * MAX_LENGTH, "/".join(["*"] * (MAX_SEGMENTS + 1))])
def test_check_caps_length_and_segments(glob: str) -> None:
    with pytest.raises(ValueError) as err:
        check(glob)
    assert "\n" not in str(err.value) and "path glob" in str(err.value)


def test_check_takes_a_long_but_reasonable_glob() -> None:
    check("/".join(["src"] * (MAX_SEGMENTS - 1)) + "/**")


def test_too_many_alternatives_match_nothing() -> None:
    glob = "{a,b}" * 12 + "/*.py"  # 4096 alternatives
    assert not match(glob, "a" * 12 + "/x.py")
    assert glob_re(glob).fullmatch("a" * 12 + "/x.py") is None


def test_add_refuses_an_overlong_glob(store: Store, run: Invoke) -> None:
    result = run("add", "Deep", "-b", "text", "--path", "**/" * MAX_SEGMENTS + "*.zz", code=2)
    assert "segments" in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert not list(store.dir.rglob("deep*.md"))


@pytest.mark.parametrize(
    ("glob", "fix"),
    [("!vendor/**", "remove the '!'"), ("{src,!vendor}/**", "remove the '!'"),
     ("./src/api", "write 'src/api'"), ("src/./api/*.py", "write 'src/api/*.py'")],
)  # fmt: skip
def test_globs_agents_read_otherwise_are_refused(
    store: Store, run: Invoke, glob: str, fix: str
) -> None:
    """A glob an agent would read as a negation, or with a `./` memkit never matches: one
    line naming the file and the field, with the fix; the good memory is still read."""
    (store.dir / "bad.md").write_text(f"---\ntitle: Bad\npaths: ['{glob}']\n---\nBody.\n")
    (store.dir / "good.md").write_text("---\ntitle: Good\npaths: [src/api]\n---\nBody.\n")
    out = run("validate", code=1)
    (line,) = out.stdout.splitlines()
    assert line.startswith(".memory/bad.md:3: paths: ") and fix in line
    assert "Traceback" not in out.stdout + out.stderr


AGENT_PART = st.sampled_from(
    ["*", "**", "a", "b", "src", "*.py", "{a,b}", "?", "[ab]", "(a)", "x(1)", "[()]"]
)
AGENT_SEGMENT = st.sampled_from(["a", "b", "src", "x.py", "(a)", "x(1)", "(", "ab"])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(AGENT_PART, min_size=1, max_size=4),
    st.booleans(),
    st.lists(AGENT_SEGMENT, min_size=1, max_size=4),
)
def test_globs_for_agents_mean_what_memkit_means(
    parts: list[str], folder: bool, segments: list[str]
) -> None:
    """`for_agents` read by a matcher that takes a glob as written (wcmatch) matches what
    memkit.globs.match does, for globs without wildcards, ending in `/`, or with `(`."""
    glob, path = "/".join(parts) + ("/" if folder else ""), "/".join(segments)
    forms = for_agents(glob)
    if not match(glob, path) and any(g.endswith("/**") and path == g[:-3] for g in forms):
        return  # the folder itself named as a file (docs/compile.md, Known limits)
    assert bool(wcmatch.globmatch(path, forms, flags=FLAGS)) == match(glob, path), (glob, forms)


@pytest.mark.parametrize(
    "path",
    ["src/api", "src/api/", "src/api/x.py", "src/api/a/b", "src/apix/y", "src/ap", "src/api/a\nb",
     "src/api\n/x", "a/src/api/x"],
)  # fmt: skip
@pytest.mark.parametrize("glob", ["src/api/**", "/**", "src/a.b(c)\\d/**", "src/api//**"])
def test_a_folder_glob_matches_as_its_pattern_does_without_compiling_it(
    glob: str, path: str
) -> None:
    """`folder/**`, what compiled rule files hold for each linked file (a PostToolUse hook
    matches every rule file's against the file read): no regular expression compiled."""
    from memkit.globs import _regex

    _regex.cache_clear()
    got = match(glob, path)
    assert _regex.cache_info().currsize == 0
    assert got == (glob_re(glob).fullmatch(path) is not None)
