"""The page in a real browser: Debian's Chromium, driven headless by Playwright.

It must render with no console error, load nothing over the network, let no memory
text run, and filter. A screenshot is kept in build/test-artifacts/. Skipped, with
the reason, where no Chromium is installed (`make browser` installs it as root).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke, git, write_memory

from memkit.report import build_page
from memkit.store import Store
from tests.report.sample import TODAY, build

pytestmark = pytest.mark.slow
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"
FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip


def chromium() -> str | None:
    found = os.environ.get("MEMKIT_CHROMIUM") or shutil.which("chromium")
    return found or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    exe = chromium()
    if exe is None:
        pytest.skip("no Chromium: install Debian's `chromium` (`make browser`, as root)")
    sync = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=FLAGS, chromium_sandbox=False)
        yield b
        b.close()


@pytest.fixture
def page_file(repo: Path, run: Invoke, monkeypatch: pytest.MonkeyPatch) -> Path:
    build(repo, run, monkeypatch)
    store = Store(repo)
    write_memory(
        store,
        "evil",
        "---\ntitle: '<img src=x onerror=alert(1)>'\ntags: [auth]\n---\n\n"
        "<script>alert(2)</script> ![t](https://tracker.example/p.png) "
        "[x](javascript:alert(3))\n",
    )
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "evil")
    out = repo / "report.html"
    out.write_text(build_page(store, today=dt.date.fromisoformat(TODAY)), encoding="utf-8")
    return out


class Watch:
    """Console errors, page errors, dialogs and every request a page makes."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", lambda m: m.type in ("error", "warning") and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))


def shown(page: Any) -> list[str]:
    ids: list[str] = page.eval_on_selector_all(
        "#memory-list>details", "els => els.filter(e => !e.hidden).map(e => e.id.slice(2))"
    )
    return ids


def test_renders_filters_and_loads_nothing(browser: Any, page_file: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = Watch(page)
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    assert page.title() == "memkit report: repo"
    assert page.is_visible("#filters")  # the script ran (CSP let the page's own script run)
    assert len(shown(page)) == 8
    page.fill("#q", "password")
    assert shown(page) == ["login-checks-the-password"]
    assert page.text_content("#shown") == "1 shown"
    page.fill("#q", "")
    page.select_option("#f-freshness", "stale")
    assert shown(page) == ["login-checks-the-password"]
    page.select_option("#f-freshness", "")
    page.select_option("#f-tag", "auth")
    assert shown(page) == ["evil", "login-checks-the-password", "sessions-refresh-their-token"]
    page.fill("#q", "no such words")
    assert shown(page) == [] and page.is_visible("#none-shown")
    page.fill("#q", "")
    page.select_option("#f-tag", "")
    page.click("#queue a[href='#m-login-checks-the-password']")  # opens the memory
    assert page.eval_on_selector("#m-login-checks-the-password", "e => e.open")
    page.keyboard.press("Tab")  # keyboard reaches the page's links
    assert page.evaluate("document.activeElement.tagName") in ("A", "SUMMARY", "INPUT")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    assert watch.errors == [] and watch.dialogs == []
    assert watch.requests == [page_file.as_uri()]
    context.close()


def test_readable_without_javascript(browser: Any, page_file: Path) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(page_file.as_uri())
    assert page.is_hidden("#filters")  # only the script shows the filters
    assert page.is_visible("#m-login-checks-the-password summary")
    assert "stale" in (page.text_content("#queue") or "")
    context.close()
