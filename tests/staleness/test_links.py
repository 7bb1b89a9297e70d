"""Links as text: what language a linked file is in (by its suffix, as pathlib reads it)."""

from __future__ import annotations

import random
from pathlib import PurePosixPath

import pytest

from memkit.staleness.links import LANGUAGES, language_of


def pathlib_language(path: str) -> str | None:
    return LANGUAGES.get(PurePosixPath(path).suffix.lower())


@pytest.mark.parametrize(
    "path",
    [
        "src/app.py",
        "app.PY",
        "a/b.c/d",
        "a/b.py/",
        "a/b.py/.",
        "a/b.py/./",
        "a/..py",
        "a/.py",
        ".py",
        "a.py.",
        "a/..",
        "..",
        ".",
        "./",
        "",
        "/",
        "//x.go",
        "x.tar.ts",
        "dir.rs/file",
        "a//b.java",
        "a/b.tsx/..",
        "weird name.jsx",
    ],
)
def test_language_is_what_pathlib_reads_from_the_suffix(path: str) -> None:
    assert language_of(path) == pathlib_language(path)


def test_language_agrees_with_pathlib_on_random_paths() -> None:
    rng = random.Random(7)
    pieces = ["a", "b", ".", "..", "", "x.py", ".py", "py.", "y.Ts", "z.go.", "q.rs"]
    for _ in range(5000):
        path = "/".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        assert language_of(path) == pathlib_language(path), path
