"""Memory text is untrusted: nothing in it may run, load, or break out of where it is shown."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit.report import build_page
from memkit.store import Store
from tests.report.htmltree import El, parse

DAY = dt.date(2026, 6, 1)
HOSTILE_TITLE = '</title><script>alert("t")</script>" onmouseover="alert(1)'
BODY = """\
<script>alert("body")</script>

<img src=x onerror="alert(2)">

[click](javascript:alert(3)) [vb](vbscript:msgbox) [data](data:text/html,<script>alert(4)</script>)

![pixel](https://tracker.example/p.png)

<a href="https://evil.example" onclick="alert(5)">raw link</a>

</details></div><script>alert(6)</script>

```html
<style>body{display:none}</style>
```

[ok](https://example.com/"onmouseover="alert(7))
"""


def hostile(title: str, **fields: str) -> str:
    quoted = title.replace("'", "''")
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\ntitle: '{quoted}'\n{extra}---\n\n{BODY}"


@pytest.fixture
def page(repo: Path, store: Store) -> tuple[str, El]:
    write_memory(
        store,
        "evil",
        hostile(
            HOSTILE_TITLE,
            tags='["x\\" onfocus=\\"alert(8)", "</option><script>alert(9)</script>"]',
            paths='["src/&amp;lt;x/*.py", "javascript:alert(11)"]',
            links='["src/\\"><img src=x onerror=alert(12)>.py"]',
            source="'<iframe src=https://evil.example>'",
        ),
    )
    write_memory(store, "broken", hostile("Broken", paths='["src/<script>alert(10)</script>/*"]'))
    git(repo, "add", ".")
    git(
        repo,
        "commit",
        "-q",
        "-m",
        '<script>alert("commit")</script>',
        GIT_AUTHOR_NAME='"><svg onload=alert(13)>',  # git drops the < and >
    )
    text = build_page(store, today=DAY)
    return text, parse(text)


def test_no_markup_from_memory_text(page: tuple[str, El]) -> None:
    _, root = page
    assert root.by_id("m-evil")
    assert "alert(10)" in root.by_id("problems").text  # an invalid file, named as text
    assert len(root.find_all("script")) == 1  # the page's own
    assert root.find_all("img") == [] and root.find_all("iframe") == []
    assert root.find_all("svg", onload="alert(13)") == []
    for el in root.iter():
        assert not [a for a in el.attrs if a.startswith("on")], (el.tag, el.attrs)
        for attr in ("href", "src", "action", "formaction"):
            value = el.attrs.get(attr, "").strip().lower()
            assert not value.startswith(("javascript:", "vbscript:", "data:")), (el.tag, value)
    assert [s.text for s in root.find_all("style")] == [root.find("style").text]
    assert "alert(" not in root.find("script").text


def test_hostile_text_is_shown_as_text(page: tuple[str, El]) -> None:
    _, root = page
    evil = root.by_id("m-evil")
    assert evil.find("summary").find_all("b")[1].text == HOSTILE_TITLE
    body = evil.find("div")  # the text, after the facts
    assert '<script>alert("body")</script>' in body.text
    assert "[image: pixel]" in body.text  # the image is its alt text: nothing is fetched
    assert "<style>body{display:none}</style>" in body.find("code").text
    tags = evil.attrs["data-tags"]
    assert tags == 'x" onfocus="alert(8) </option><script>alert(9)</script>'
    options = [o.text for o in root.by_id("f-tag").find_all("option")]
    assert "</option><script>alert(9)</script> (1)" in options
    history = evil.fact("history")
    assert "svg onload=alert(13)" in history and '<script>alert("commit")</script>' in history


def test_links_in_text_keep_only_safe_schemes(page: tuple[str, El]) -> None:
    _, root = page
    hrefs = [a.attrs.get("href") for a in root.by_id("m-evil").find("div").find_all("a")]
    assert hrefs == ["https://example.com/%22onmouseover=%22alert(7)"]
