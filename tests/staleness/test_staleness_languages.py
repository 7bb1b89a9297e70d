"""Every link state, for Python and each tree-sitter language, on real git commits."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from memkit import memory as mm
from memkit.staleness import check_store, fingerprint
from memkit.staleness.verdict import LinkStatus
from memkit.store import Store
from tests.conftest import git
from tests.staleness.sources import CASES, edit

TODAY = dt.date(2026, 3, 1)
EXPECTED = {
    "format": "unchanged",
    "comment": "unchanged",
    "docs": "docs",
    "body": "body",
    "signature": "signature",
    "rename": "moved",
    "remove": "removed",
}


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def remember(repo: Path, store: Store, links: list[str], mid: str = "m") -> None:
    """Add a memory linked to `links`, fingerprinted now, and commit everything."""
    mem = mm.new("About the code", "text", mid=mid, today=TODAY, links=links)
    store.add(dataclasses.replace(mem, verified=fingerprint(repo, links, today=TODAY)))
    commit_all(repo, f"memory {mid}")


def link_status(store: Store) -> LinkStatus:
    [status] = check_store(store, today=TODAY)
    return status.links[0]


def write(repo: Path, path: str, text: str) -> None:
    full = repo / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("language", sorted(CASES))
@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_symbol_states(repo: Path, store: Store, language: str, kind: str) -> None:
    path, source, symbol, edits, renamed = CASES[language]
    write(repo, path, source)
    commit_all(repo, "code")
    remember(repo, store, [f"{path}::{symbol}"])
    write(repo, path, edit(source, edits[kind]))
    commit_all(repo, kind)
    status = link_status(store)
    assert status.state == EXPECTED[kind]
    assert status.moved_to == (f"{path}::{renamed}" if kind == "rename" else None)
    assert status.since == git(repo, "rev-parse", "HEAD~2").strip()


@pytest.mark.parametrize("language", sorted(CASES))
def test_symbol_moved_to_renamed_file(repo: Path, store: Store, language: str) -> None:
    path, source, symbol, _, _ = CASES[language]
    write(repo, path, source)
    commit_all(repo, "code")
    remember(repo, store, [f"{path}::{symbol}", path])
    new = path.replace("m.", "moved.").replace("lib.", "moved.").replace("Greeter.", "Moved.")
    git(repo, "mv", path, new)
    commit_all(repo, "rename")
    [status] = check_store(store, today=TODAY)
    assert [(x.state, x.moved_to) for x in status.links] == [
        ("moved", f"{new}::{symbol}"),
        ("moved", new),
    ]


@pytest.mark.parametrize("language", sorted(CASES))
def test_file_states(repo: Path, store: Store, language: str) -> None:
    path, source, _, edits, _ = CASES[language]
    write(repo, path, source)
    commit_all(repo, "code")
    remember(repo, store, [path])
    for kind in ("format", "comment"):
        write(repo, path, edit(source, edits[kind]))
        assert link_status(store).state == "unchanged", kind
    write(repo, path, edit(source, edits["body"]))
    assert link_status(store).state == "changed"
    (repo / path).unlink()
    assert link_status(store).state == "removed"


@pytest.mark.parametrize("language", sorted(CASES))
def test_symbol_moved_to_another_file(repo: Path, store: Store, language: str) -> None:
    path, source, symbol, edits, _ = CASES[language]
    write(repo, path, source)
    commit_all(repo, "code")
    remember(repo, store, [f"{path}::{symbol}"])
    other = path.rsplit("/", 1)[0] + "/other" if "/" in path else "other"
    other += "." + path.rsplit(".", 1)[1]
    if language == "java":
        other = "src/Other.java"
    write(repo, other, source)  # the whole class now lives in the other file...
    write(repo, path, edit(source, edits["remove"]))  # ...and left the first one
    commit_all(repo, "move")
    status = link_status(store)
    assert (status.state, status.moved_to) == ("moved", f"{other}::{symbol}")
