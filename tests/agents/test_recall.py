"""The point-of-action index's file lookup: the same answers as a plain lookup of every
folder's key, at a cost that grows with the length of the path, not its square."""

from __future__ import annotations

import datetime
import random
import re
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest

from memkit import memory as mm
from memkit.agents.claude import indexer, recall, words
from memkit.store import Store

DAY = datetime.date(2026, 11, 22)
SEGMENTS = ["src", "a", "b", "lib", "x.py", "docs", "é", "日本", ".hidden", "a.b"]


def reference(index: recall.Index, rel: str) -> Iterator[tuple[Any, int, int, bool]]:
    """The plain lookup: every folder's key built and hashed on its own."""
    parts = rel.split("/")
    base = parts[-1]
    ext = "." + base.rsplit(".", 1)[1] if "." in base else ""
    for i in range(len(parts), 0, -1):
        key = "/".join(parts[:i])
        for mid, linked, literal in index.bucket("f", "k:" + key).get("k", {}).get(key, ()):
            yield mid, linked, literal, i == len(parts)
    for i in range(len(parts) - 1, -1, -1):
        folder = "/".join(parts[:i])
        for tail in (ext, "") if ext else ("",):
            key = f"g:{tail}\x00{folder}"
            for pattern, ids in index.bucket("f", key).get("g", {}).get(key, {}).items():
                if re.fullmatch(pattern, rel):
                    for mid, literal in ids:
                        yield mid, 0, literal, False


def random_path(rng: random.Random) -> str:
    return "/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(1, 7)))


@pytest.fixture
def index(store: Store) -> recall.Index:
    rng = random.Random(7)
    for n in range(60):
        links = [random_path(rng) for _ in range(rng.randint(0, 2))]
        paths = [random_path(rng) for _ in range(rng.randint(0, 1))]
        globs = ["src/**/*.py", "**/*.py", "docs/**", "a/*/x.py", "日本/**/*.b", "*.py", "a/**"]
        paths += rng.sample(globs, rng.randint(0, 2))
        m = mm.new(f"Memory {n}", "Body.", mid=f"m-{n}", today=DAY, links=links, paths=paths)
        store.add(m)
    return recall.from_bytes(str(store.root), indexer.build(store, today=DAY))


def test_file_lookup_answers_as_the_plain_lookup_does(index: recall.Index) -> None:
    rng = random.Random(11)
    rels = [random_path(rng) for _ in range(400)]
    rels += ["", "/", "src/", "/src/x.py", "a//b/x.py", "src/a/b/x.py", "a.b", "x.py/"]
    hits = 0
    for rel in rels:
        got = [
            (mid, linked, literal, names)
            for _, mid, linked, literal, names in recall._matches(index, rel)
        ]
        assert got == list(reference(index, rel)), rel
        hits += bool(got)
    assert hits > 100  # the paths do hit the index's keys and globs


def lines_run(index: recall.Index, rel: str) -> int:
    """Lines of memkit.agents.claude.recall run to look `rel` up."""
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if frame.f_code.co_filename == recall.__file__:
            if event == "line":
                count += 1
            return trace
        return None

    before = sys.gettrace()  # a coverage run's tracer, put back after
    sys.settrace(trace)
    try:
        recall.about_file(index, rel)
    finally:
        sys.settrace(before)
    return count


def test_the_lookup_grows_with_the_path_not_its_square(index: recall.Index) -> None:
    counts = [lines_run(index, "src/" + "ab/" * depth + "x.py") for depth in (150, 300, 600)]
    assert counts[1] < 2.3 * counts[0] and counts[2] < 2.3 * counts[1], counts


def prompt_index(store: Store, titles: list[str]) -> recall.Index:
    for n in range(30):
        store.add(
            mm.new(
                f"Filler memory number {n} about logging",
                "Body.",
                mid=f"f-{n}",
                today=DAY,
                tags=["logging"],
            )
        )
    for n, title in enumerate(titles):
        store.add(mm.new(title, "Body.", mid=f"t-{n}", today=DAY))
    return recall.from_bytes(str(store.root), indexer.build(store, today=DAY))


@pytest.mark.parametrize(
    "prompt",
    [
        "rename the variable x to count",
        "create a new branch for the feature",
        "summarise the changes in the last commit",
        "bump the version number for the next release",
    ],
)
def test_a_prompt_sharing_only_everyday_words_gets_nothing(store: Store, prompt: str) -> None:
    titles = [
        "Variable names follow the glossary",
        "New branches start from main",
        "Commit messages explain the change",
        "Release versions are tagged by CI",
    ]
    assert words.about_prompt(prompt_index(store, titles), prompt, limit=3) == []


def test_a_distinctive_word_is_enough_and_the_reason_says_why(store: Store) -> None:
    index = prompt_index(store, ["Run pyright on the client before a release"])
    (mid, why), *rest = words.about_prompt(index, "run pyright on the new code", limit=3)
    assert mid == "t-0" and rest == []
    assert why.startswith("pyright ") and "score " in why and "floor " in why


def test_one_general_english_word_alone_is_not_enough(store: Store) -> None:
    index = prompt_index(store, ["Feature flags are removed after launch", "Pyright runs in CI"])
    assert words.about_prompt(index, "add a --quiet flag to the report command", limit=3) == []
    got = words.about_prompt(index, "remove the old feature flags now", limit=3)
    assert [m for m, _ in got] == ["t-0"]  # two words shared: feature and flag
    got = words.about_prompt(index, "flags?", limit=3)
    assert [m for m, _ in got] == ["t-0"]  # the prompt's only word
    assert all(words.general(w) for w in ("flag", "match", "stream", "aardvark"))
    assert not any(words.general(w) for w in ("pyright", "anyio", "cve", "a"))


def test_a_weak_second_match_is_left_out(store: Store) -> None:
    titles = ["Async tests use anyio and never sleep to wait", "Wrap waits in anyio timeouts",
              "Tests for anyio streams"]  # fmt: skip
    got = words.about_prompt(prompt_index(store, titles), "my test calls anyio sleep", limit=3)
    assert [mid for mid, _ in got] == ["t-0"]


def test_a_short_plural_finds_its_singular(store: Store) -> None:
    index = prompt_index(store, ["Dependency floors are not raised for CVEs"])
    assert [m for m, _ in words.about_prompt(index, "a CVE in starlette", limit=3)] == ["t-0"]


def test_a_rare_word_only_in_a_tag_is_not_enough(store: Store) -> None:
    store.add(mm.new("Packages are locked", "Body.", mid="tagged", today=DAY, tags=["pydantic"]))
    index = prompt_index(store, ["Starlette floors stay where they are"])
    assert words.about_prompt(index, "upgrade pydantic now", limit=3) == []
    got = words.about_prompt(index, "raise the starlette floor", limit=3)
    assert [m for m, _ in got] == ["t-0"]


def test_two_rare_words_in_tags_are_enough(store: Store) -> None:
    store.add(
        mm.new(
            "Packages are locked", "Body.", mid="tagged", today=DAY, tags=["pydantic", "starlette"]
        )
    )
    index = prompt_index(store, [])
    got = words.about_prompt(index, "upgrade pydantic and starlette", limit=3)
    assert [m for m, _ in got] == ["tagged"]


def test_the_reasons_score_is_the_one_held_against_the_floor(store: Store) -> None:
    index = prompt_index(store, ["Run pyright on the client before a release"])
    ((_, why),) = words.about_prompt(index, "run pyright on the client", limit=3)
    score, floor = re.fullmatch(r"pyright client \(score (\S+), floor (\S+)\)", why).groups()
    assert score == floor  # one word in 1 memory: the everyday `client` adds nothing


def test_titles_are_read_only_while_an_unread_memory_could_still_be_given(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title only lowers a score: once `limit` memories reach the floor, one that scores
    less before its title is read is left out unread (each read decodes an index bucket)."""
    titles = ["Pyright checks anyio streams", "Pyright checks anyio", "Pyright checks anyio too"]
    index = prompt_index(store, titles)
    read: list[str] = []
    entry = index.entry
    monkeypatch.setattr(index, "entry", lambda mid: read.append(mid) or entry(mid))
    got = words.about_prompt(index, "pyright on anyio streams", limit=1)
    assert [m for m, _ in got] == ["t-0"] and read == ["t-0"]
    read.clear()
    got = words.about_prompt(index, "pyright on anyio streams", limit=3)
    assert [m for m, _ in got] == ["t-0", "t-1", "t-2"] and sorted(read) == ["t-0", "t-1", "t-2"]
