"""`memkit import` suggests links for every memory it creates, reading each file once."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import Invoke, commit_files

from memkit.staleness.anchors import commands, manifests
from memkit.store import Store

LOCK_HEAD = "version = 1\nrequires-python = '>=3.11'\n"
UV_LOCK = (
    LOCK_HEAD
    + "".join(f'\n[[package]]\nname = "pkg{i}"\nversion = "1.{i}.0"\n' for i in range(200))
    + '\n[[package]]\nname = "httpx"\nversion = "0.28.1"\n'
)
PYPROJECT = """\
[project]
name = "acme"
dependencies = ["httpx>=0.27", "pkg1"]

[tool.ruff]
line-length = 100
"""
MAKEFILE = "test:\n\tpytest -q\n\nlint:\n\truff check .\n"
SECTIONS = 40


def _agents_md() -> str:
    parts = ["# Acme\n"]
    for i in range(SECTIONS):
        parts.append(
            f"\n## Rule {i}\n\nCall the API with `httpx` and `pkg1`; run `make test` and "
            f"`make lint`; keep `pyproject.toml::tool.ruff.line-length` at 100 (rule {i}).\n"
        )
    return "".join(parts)


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_one_import_parses_each_linked_file_once(
    run: Invoke, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"uv.lock": UV_LOCK, "pyproject.toml": PYPROJECT, "Makefile": MAKEFILE,
             "AGENTS.md": _agents_md()}  # fmt: skip
    commit_files(store.root, files)
    parsed: Counter[str] = Counter()
    locks, targets = manifests._locks, commands.make_targets

    def counted_locks(read: manifests.Reader) -> dict[str, str]:
        parsed["locks"] += 1
        return locks(read)

    def counted_targets(text: str) -> dict[str, str]:
        parsed["Makefile"] += 1
        return targets(text)

    monkeypatch.setattr(manifests, "_locks", counted_locks)
    monkeypatch.setattr(commands, "make_targets", counted_targets)
    out = run("import", "AGENTS.md")
    assert f"{SECTIONS} memories created" in out.stdout
    suggested = [ln for ln in out.stderr.splitlines() if ln.startswith("suggested links for")]
    assert len(suggested) == SECTIONS  # every rule mentions what resolves
    assert all("dep:httpx" in ln and "'cmd:make test'" in ln for ln in suggested)
    assert parsed["locks"] == 1  # uv.lock
    assert parsed["Makefile"] == 1
