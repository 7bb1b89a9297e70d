from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import Invoke, git

from memkit.search import search
from memkit.search.context import build_context
from memkit.store import Store
from tests.search.helpers import TODAY, mem, seed_context, seed_retries


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_search_text_and_json(run: Invoke, store: Store) -> None:
    seed_retries(store)
    assert run("search", "retry", "charges").stdout == (
        "retry-limit  3.30  decision  Retry failed charges three times\n"
        "    The gateway double-**charges** when we **retry** more often.\n"
        "backoff  1.09  convention  Back off between retries\n"
        "    Wait 1, 10, 60 minutes.\n"
    )
    hits = json.loads(run("search", "retry", "--all", "--json", "-n", "2").stdout)
    assert [(h["id"], h["state"]) for h in hits] == [
        ("draft-retry", "draft"),
        ("retry-limit", "fresh"),
    ]
    assert hits[1] == {
        "id": "retry-limit",
        "title": "Retry failed charges three times",
        "score": hits[1]["score"],
        "state": "fresh",
        "path": ".memory/retry-limit.md",
        "type": "decision",
        "snippet": "The gateway double-charges when we **retry** more often.",
        "stale": None,
    }
    assert [
        h["id"] for h in json.loads(run("search", "retry", "--type", "convention", "--json").stdout)
    ] == ["backoff"]
    assert json.loads(run("search", "retry", "--tag", "billing", "--json").stdout)[0]["id"] == (
        "retry-limit"
    )
    assert run("search", "--status", "draft", "retry").stdout.startswith("draft-retry  ")
    nothing = run("search", "zebra")
    assert (nothing.stdout, nothing.stderr) == ("", "no memories match\n")


def test_index_command(run: Invoke, store: Store) -> None:
    seed_retries(store)
    assert run("index").stdout == "index built 3\n"
    assert run("index").stdout == "index current\n"
    assert run("index", "--rebuild").stdout == "indexed 3 memories\n"
    mem(store, "new", "New one", "text")
    assert run("index").stdout == "index updated 1\n"
    assert search(store, "text", today=TODAY)[0].id == "new"


def test_cli_context(run: Invoke, store: Store) -> None:
    seed_context(store)
    out = run("context", "--file", str(store.root / "src/billing/pay.py")).stdout
    assert out.startswith("# Project memories for `src/billing/pay.py`\n")
    rec = json.loads(
        run(
            "context",
            "-f",
            "src/auth/login.py",
            "-q",
            "utc",
            "--format",
            "json",
            "--exclude-always-on",
        ).stdout
    )
    assert [i["id"] for i in rec["items"]] == ["argon"]
    assert run("context", code=2).stderr == "memkit: give at least one --file or a --query\n"
    assert build_context(store, files=["src/billing/x.py"], today=TODAY).items[0].id == "cents"


def test_stale_after_a_real_code_change(run: Invoke, repo: Path, store: Store) -> None:
    src = repo / "src" / "pay.py"
    src.parent.mkdir()
    src.write_text("def charge(amount):\n    return amount\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    run("add", "Charges are rounded to cents", "--link", "src/pay.py::charge", "-b", "charge")
    run("add", "Charge in the customer's currency", "-b", "charge currency")
    run("verify", "charges-are-rounded-to-cents")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memories")
    src.write_text("def charge(amount, currency):\n    return round(amount, 2)\n")
    hits = json.loads(run("search", "charge", "--json").stdout)
    assert [(h["id"], h["state"]) for h in hits] == [
        ("charge-in-the-customer-s-currency", "fresh"),
        ("charges-are-rounded-to-cents", "stale"),
    ]
    assert hits[1]["stale"].startswith("src/pay.py::charge (signature since ")
    out = run("context", "--file", "src/pay.py").stdout
    assert "> **Stale**: the code it describes changed: src/pay.py::charge (signature" in out


def test_search_and_context_print_control_characters_escaped(run: Invoke, store: Store) -> None:
    body = "Retry \x1b[2Jthe charge\x07 with \x9b31m colour and \u202eevil\rover"
    mem(store, "evil", "Retry charges", body, paths="['src/**']")
    # search prints to a terminal (\x1b); context is text for an agent (\u001b)
    for result, esc in (
        (run("search", "retry"), "\\x1b"),
        (run("context", "--query", "retry"), "\\u001b"),
        (run("context", "--file", "src/pay.py"), "\\u001b"),
    ):
        out = result.stdout
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", out), out
        assert f"{esc}[2J" in out and "\\u202eevil" in out, out
    hit = json.loads(run("search", "retry", "--json").stdout)[0]
    assert "\x1b[2J" in hit["snippet"]  # JSON keeps the exact text


@pytest.mark.parametrize(
    "args",
    [["search", "retry", "-n", "-1"], ["search", "retry", "-n", "0"],
     ["search", "retry", "--limit=-3"], ["context", "-q", "retry", "--budget", "-5"],
     ["context", "-q", "retry", "--budget", "0"]],
)  # fmt: skip
def test_limits_below_one_are_usage_errors(run: Invoke, store: Store, args: list[str]) -> None:
    seed_retries(store)
    result = run(*args, code=2)
    assert result.stdout == ""
    assert "is not in the range x>=1" in result.stderr and "Usage:" in result.stderr


@pytest.mark.parametrize("query", ["WORD", "the", "-word", "type:decision", '"two words"'])
def test_a_fresh_store_finds_nothing_and_says_so(run: Invoke, query: str) -> None:
    run("init")
    nothing = run("search", "--", query)
    assert (nothing.stdout, nothing.stderr) == ("", "no memories match\n")
    assert json.loads(run("search", "--json", "--", query).stdout) == []
    assert run("context", f"--query={query}").exit_code == 0


def test_a_store_whose_memories_are_all_filtered_out_finds_nothing(
    run: Invoke, store: Store
) -> None:
    mem(store, "draft-retry", "Retry draft", "retry", status="draft")
    assert run("search", "retry", "--type", "gotcha").stderr == "no memories match\n"
    assert run("search", "retry").stderr == "no memories match\n"
    assert run("context", "--query", "retry").exit_code == 0


def test_search_folds_accents_and_finds_words_inside_unspaced_text(
    run: Invoke, store: Store
) -> None:
    mem(store, "cafe", "Le café du coin", "On boit un café.")
    mem(store, "ja", "日本語のメモ", "東京の設定。")
    for query in ("cafe", "café", "CAFE"):
        assert run("search", query).stdout.startswith("cafe  ")
    assert run("search", "日本語").stdout.startswith("ja  ")
    assert json.loads(run("search", "--json", "日本語").stdout)[0]["id"] == "ja"
