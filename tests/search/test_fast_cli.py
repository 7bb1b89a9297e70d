"""`memkit search` without click (memkit.commands.fast) prints what the click command prints."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memkit.commands.fast import parse
from memkit.store import Store
from tests.search.helpers import mem


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
