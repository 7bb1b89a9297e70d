"""`memkit diff --format markdown`, the review comment: what a pull request writes in
titles, field values and file names stays text, and the comment fits GitHub's limit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Invoke, git, write_memory

from memkit.store import Store

GITHUB_LIMIT = 65_536
HOSTILE = (
    "[click](https://evil.example/a) ![pixel](https://evil.example/p.png) "
    "<img src=x> @mallory @org/team www.evil.example https://evil.example/b "
    "`` ` ``x &#64;eve **bold**"
)
FOLDER = "we`ird [f](evil.example) @mallory \\`"


def _all(text: str) -> list[Any]:
    from markdown_it import MarkdownIt

    def walk(tokens: list[Any]) -> list[Any]:
        out = []
        for t in tokens:
            out.append(t)
            out += walk(t.children or [])
        return out

    return walk(MarkdownIt("commonmark").parse(text))


def _tokens(text: str) -> list[str]:
    return [t.type for t in _all(text)]


def _comment(store: Store, run: Invoke) -> str:
    git(store.root, "commit", "-q", "--allow-empty", "-m", "base")
    quoted = HOSTILE.replace("'", "''")
    (store.dir / FOLDER).mkdir()
    write_memory(
        store,
        "hostile",
        f"---\ntitle: '{quoted}'\ntags: ['@mallory', '[x](https://evil.example/t)']\n"
        f"owner: '{quoted}'\n---\nText.\n",
        folder=FOLDER,
    )
    return str(run("diff", "HEAD", "--format", "markdown").stdout)


def test_no_link_image_html_or_mention_gets_through(store: Store, run: Invoke) -> None:
    out = _comment(store, run)
    kinds = _tokens(out)
    assert "link_open" not in kinds and "image" not in kinds
    assert [k for k in kinds if k == "html_inline"] == [] or "<img" not in out
    assert "<img" not in out and "&#64;" not in out
    text = " ".join(t.content for t in _all(out) if t.type == "text")  # not code: no mention
    assert "@mallory" in out  # (in the file name's code span, where GitHub links nothing)
    assert not re.search(r"@[A-Za-z0-9]", text)  # every @ is followed by a joiner
    assert not re.search(r"(?i)(https?:|www\.)", text)  # no bare URL to autolink


def test_a_file_name_cannot_break_out_of_its_code_span(store: Store, run: Invoke) -> None:
    from markdown_it import MarkdownIt

    out = _comment(store, run)
    line = next(x for x in out.splitlines() if x.startswith("- **") and "hostile.md" in x)
    spans = [
        t.content
        for t in MarkdownIt("commonmark").parseInline(line)[0].children or []
        if t.type == "code_inline"
    ]
    assert f".memory/{FOLDER}/hostile.md" in spans


@pytest.mark.parametrize("count", [300])
def test_a_big_change_fits_in_one_comment(store: Store, run: Invoke, count: int) -> None:
    git(store.root, "commit", "-q", "--allow-empty", "-m", "base")
    body = "A long rule that explains itself at length. " * 20
    for i in range(count):
        write_memory(store, f"m{i:03d}", f"---\ntitle: Memory {i}\npaths: [src/**]\n---\n{body}\n")
    out = str(run("diff", "HEAD", "--format", "markdown").stdout)
    assert len(out) < GITHUB_LIMIT
    assert f"`: {count} added." in out  # the summary is always there
    assert "- **`m000`** Memory 0" in out  # the first memories are listed
    shown = len(re.findall(r"^- \*\*`m\d{3}`\*\*", out, re.M))
    assert 0 < shown < count
    assert f"… and {count - shown} more not shown here" in out
    assert _tokens(out).count("fence") == shown  # no block cut in the middle
