"""`memkit search` without click (memkit.commands.fast) prints what the click command prints."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memkit.commands.fast import parse, parse_context
from memkit.store import Store
from tests.search.helpers import mem, seed_context


def _seed(store: Store) -> None:
    body = "The gateway double-charges when we retry more often."
    mem(store, "retry-limit", "Retry failed charges three times", body, type="decision",
        tags="[billing]", updated="2026-02-01")  # fmt: skip
    mem(store, "backoff", "Back off between retries", "Wait 1, 10, 60 minutes.", type="convention")
    mem(store, "draft-retry", "Retry draft", "retry", status="draft")


def _memkit(root: Path, *args: str, fast: bool) -> tuple[int, str, str]:
    """Run memkit in a process: by memkit.cli.main (fast path) or by the click group."""
    entry = "main" if fast else "cli"
    code = f"import sys\nfrom memkit.cli import {entry}\n{entry}(sys.argv[1:])"
    env = {"PATH": "/usr/bin:/bin", "MEMKIT_TODAY": "2026-11-22"}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=root, capture_output=True,
                          text=True, env=env)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("retry", "charges"),
        ("retry", "--all", "--json", "-n", "2"),
        ("retry", "--type=convention"),
        ("--tag", "billing", "retry"),
        ("-s", "draft", "retry"),
        ("zebra",),
        ("--", "-n", "retry"),
    ],
)
def test_fast_path_prints_what_click_prints(store: Store, args: tuple[str, ...]) -> None:
    _seed(store)
    fast = _memkit(store.root, "search", *args, fast=True)
    assert fast == _memkit(store.root, "search", *args, fast=False)
    assert parse(list(args)) is not None


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("retry", "-flaky"),
        ("-n", "0", "retry"),
        ("-n", "x", "retry"),
        ("--type", "nope", "retry"),
        ("--limit",),
        ("--json",),
        ("--allx", "retry"),
    ],
)
def test_anything_else_is_left_to_click(args: tuple[str, ...]) -> None:
    assert parse(list(args)) is None


def test_fast_path_imports_no_click(store: Store) -> None:
    _seed(store)
    code = "import sys\nfrom memkit.cli import main\ntry:\n    main(['search', 'retry'])\n" \
        "except SystemExit:\n    pass\nprint('click' in sys.modules, file=sys.stderr)"  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], cwd=store.root, capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.stderr.strip().splitlines()[-1] == "False"
    assert done.stdout.startswith("retry-limit  ")


def test_a_damaged_index_is_rebuilt_with_a_note(store: Store) -> None:
    _seed(store)
    assert _memkit(store.root, "search", "retry", fast=True)[0] == 0
    (store.cache_dir / "search" / "index.db").write_bytes(b"not a database" * 100)
    code, out, err = _memkit(store.root, "search", "retry", fast=True)
    assert (code, out.split()[0]) == (0, "retry-limit")
    assert err.startswith("memkit: note: the search index was unreadable")


def _seed_files(store: Store) -> None:
    seed_context(store)
    for name in ("src/auth/login.py", "src/billing/pay.py"):
        (store.root / name).parent.mkdir(parents=True, exist_ok=True)
        (store.root / name).write_text("x = 1\n")


@pytest.mark.parametrize(
    "args",
    [
        ("--file", "src/billing/pay.py"),
        ("-f", "src/auth/login.py", "--format", "json"),
        ("--file=src/auth/login.py", "--budget", "20", "--exclude-always-on"),
        ("-f", "src/auth/login.py", "-f", "src/billing/pay.py", "--format=json"),
        ("--file", "src/auth"),  # a folder: the full path answers
        ("--file", "nowhere.py"),
        ("--exclude-always-on", "--file", "./src/billing/pay.py"),
    ],
)
def test_context_fast_path_prints_what_click_prints(store: Store, args: tuple[str, ...]) -> None:
    _seed_files(store)
    fast = _memkit(store.root, "context", *args, fast=True)
    assert fast[0] == 0
    assert fast == _memkit(store.root, "context", *args, fast=False)
    assert parse_context(list(args)) is not None


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--help",),
        ("--file",),
        ("-f", "a.py", "--query", "login"),
        ("-f", "a.py", "-q", "login"),
        ("-f", "a.py", "--budget", "0"),
        ("-f", "a.py", "--budget", "many"),
        ("-f", "a.py", "--format", "yaml"),
        ("-f", "a.py", "--exclude-always-on=1"),
        ("a.py",),
    ],
)
def test_other_context_calls_are_left_to_click(args: tuple[str, ...]) -> None:
    assert parse_context(list(args)) is None


def test_context_fast_path_imports_no_click(store: Store) -> None:
    _seed_files(store)
    code = "import sys\nfrom memkit.cli import main\ntry:\n" \
        "    main(['context', '--file', 'src/billing/pay.py'])\n" \
        "except SystemExit:\n    pass\nprint('click' in sys.modules, file=sys.stderr)"  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], cwd=store.root, capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.stderr.strip().splitlines()[-1] == "False"
    assert done.stdout.startswith("# Project memories for `src/billing/pay.py`\n")
    assert "Money is integer cents" in done.stdout
