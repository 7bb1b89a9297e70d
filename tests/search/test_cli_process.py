"""`memkit search` and `memkit context` as the installed command runs them (memkit.cli.main).

`memkit(root, ...)` calls main in this process, in `root`, with the command's environment
only (PATH and the pinned date) and its exit code, output and errors captured;
`process=True` runs it in a fresh interpreter, as the launcher does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memkit.store import Store
from tests.search.helpers import seed_context, seed_retries

Memkit = Callable[..., tuple[int, str, str]]
ENV = {"PATH": "/usr/bin:/bin", "MEMKIT_TODAY": "2026-11-22"}


@pytest.fixture
def memkit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Memkit:
    def call(root: Path, *args: str, process: bool = False) -> tuple[int, str, str]:
        """memkit.cli.main at `root`: exit code, output, errors."""
        if process:
            code = "import sys\nfrom memkit.cli import main\nmain(sys.argv[1:])"
            done = subprocess.run(
                [sys.executable, "-c", code, *args],
                cwd=root,
                capture_output=True,
                text=True,
                env=ENV,
            )
            return done.returncode, done.stdout, done.stderr
        from memkit.cli import main

        with monkeypatch.context() as m:
            for name in list(os.environ):
                m.delenv(name)
            for name, value in ENV.items():
                m.setenv(name, value)
            m.chdir(root)
            capsys.readouterr()
            try:
                main(list(args))
                rc: int | str | None = 0
            except SystemExit as e:
                rc = e.code
        out, err = capsys.readouterr()
        assert isinstance(rc, int), rc
        return rc, out, err

    return call


def _ids(out: str) -> list[str]:
    if out.startswith("["):
        return [hit["id"] for hit in json.loads(out)]
    return [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]


@pytest.mark.parametrize(
    ("args", "ids"),
    [
        (("retry", "charges"), ["retry-limit", "backoff"]),
        (("retry", "--all", "--json", "-n", "2"), ["draft-retry", "retry-limit"]),
        (("retry", "--type=convention"), ["backoff"]),
        (("--tag", "billing", "retry"), ["retry-limit"]),
        (("-s", "draft", "retry"), ["draft-retry"]),
        (("--", "-n", "retry"), ["retry-limit", "backoff"]),
    ],
)
def test_search_options(
    memkit: Memkit, store: Store, args: tuple[str, ...], ids: list[str]
) -> None:
    seed_retries(store)
    code, out, err = memkit(store.root, "search", *args)
    assert (code, _ids(out), err) == (0, ids, "")


def test_search_finding_nothing_says_so(memkit: Memkit, store: Store) -> None:
    seed_retries(store)
    assert memkit(store.root, "search", "zebra") == (0, "", "no memories match\n")


def test_search_prints_each_hit(memkit: Memkit, store: Store) -> None:
    seed_retries(store)
    code, out, _ = memkit(store.root, "search", "retry", process=True)
    assert code == 0 and out.startswith("retry-limit  ")


def test_a_damaged_index_is_rebuilt_with_a_note(memkit: Memkit, store: Store) -> None:
    seed_retries(store)
    assert memkit(store.root, "search", "retry")[0] == 0
    (store.cache_dir / "search" / "index.db").write_bytes(b"not a database" * 100)
    code, out, err = memkit(store.root, "search", "retry")
    assert (code, out.split()[0]) == (0, "retry-limit")
    assert err.startswith("memkit: note: the search index was unreadable")


def _seed_files(store: Store) -> None:
    seed_context(store)
    for name in ("src/auth/login.py", "src/billing/pay.py"):
        (store.root / name).parent.mkdir(parents=True, exist_ok=True)
        (store.root / name).write_text("x = 1\n")


@pytest.mark.parametrize(
    ("args", "ids"),
    [
        (("--file", "src/billing/pay.py"), ["cents"]),
        (("-f", "src/auth/login.py", "--format", "json"), ["limits", "argon"]),
        (("--file=src/auth/login.py", "--budget", "20", "--exclude-always-on"), []),
        (
            ("-f", "src/auth/login.py", "-f", "src/billing/pay.py", "--format=json"),
            ["limits", "cents", "argon"],
        ),
        (("--file", "src/auth"), ["limits"]),  # a folder: the full path answers
        (("--file", "nowhere.py"), []),
        (("--exclude-always-on", "--file", "./src/billing/pay.py"), ["cents"]),
    ],
)
def test_context_for_files(
    memkit: Memkit, store: Store, args: tuple[str, ...], ids: list[str]
) -> None:
    _seed_files(store)
    code, out, err = memkit(store.root, "context", *args)
    assert (code, err) == (0, "")
    if "json" in " ".join(args):
        assert [item["id"] for item in json.loads(out)["items"]] == ids
    else:
        assert re.findall(r"^_\w+ `([^`]+)`", out, re.M) == ids


def test_context_for_a_file_prints_its_memories(memkit: Memkit, store: Store) -> None:
    _seed_files(store)
    code, out, _ = memkit(store.root, "context", "--file", "src/billing/pay.py", process=True)
    assert code == 0 and out.startswith("# Project memories for `src/billing/pay.py`\n")
    assert "Money is integer cents" in out


def test_context_needs_a_file_or_a_query(memkit: Memkit, store: Store) -> None:
    assert memkit(store.root, "context", process=True) == (
        2,
        "",
        "memkit: give at least one --file or a --query\n",
    )


@pytest.mark.parametrize(
    "args",
    [("--file",), ("-f", "a.py", "--budget", "0"), ("-f", "a.py", "--format", "yaml"), ("a.py",)],
)
def test_context_usage_errors(memkit: Memkit, store: Store, args: tuple[str, ...]) -> None:
    code, out, err = memkit(store.root, "context", *args)
    assert (code, out) == (2, "")
    assert err.splitlines()[-1].startswith("Error: ") and "Traceback" not in err


def warm_search(store: Store, unused: set[str]) -> tuple[dict[str, str], list[str]]:
    """`memkit search --json login` once the index is built: each hit's state, and which
    of the `unused` modules it imported."""
    seed_context(store)
    code = (
        "import sys\nfrom memkit.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"print(sorted({sorted(unused)!r} & sys.modules.keys()), file=sys.stderr)"
    )
    for _ in range(2):  # the first builds the index
        done = subprocess.run(
            [sys.executable, "-c", code, "search", "--json", "login"],
            cwd=store.root,
            capture_output=True,
            text=True,
            env=ENV,
            check=True,
        )
    hits = {hit["id"]: hit["state"] for hit in json.loads(done.stdout)}
    return hits, json.loads(done.stderr.replace("'", '"'))


def test_a_search_of_a_current_index_loads_only_what_it_uses(store: Store) -> None:
    """A hit whose links were never fingerprinted is `unverified` without the staleness
    engine; a current index is read without the tools that rebuild one."""
    hits, loaded = warm_search(store, {"memkit.staleness.engine", "shutil"})
    assert hits["limits"] == "unverified"
    assert loaded == []


def test_a_warm_search_reads_no_memory_it_can_answer_from_the_index(store: Store) -> None:
    """Hits without a recorded fingerprint get their state from the index, and ASCII text
    needs no folding: a warm search imports neither the memory parser, the staleness
    checks, the parse cache, the field registry nor memkit.search.folding."""
    unused = {"memkit.memory", "memkit.staleness", "memkit.store.parse_cache"}
    unused |= {"memkit.store.loading", "memkit.fields", "memkit.search.folding"}
    hits, loaded = warm_search(store, unused)
    assert hits["limits"] == "unverified"
    assert loaded == []
