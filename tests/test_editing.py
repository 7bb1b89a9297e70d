"""memkit.editing: a kept edit is merged with what changed meanwhile, never saved over it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from memkit import memory as mm
from memkit.audit.suggest import add_links
from memkit.editing import draft_path, edit_memory, three_way
from memkit.errors import MemkitError
from memkit.store import Store
from tests.conftest import commit_files

TODAY = dt.date(2026, 3, 1)
START = "---\ntitle: Target\ntags: [a]\n---\noriginal\n"


@pytest.fixture
def target(store: Store) -> Path:
    commit_files(store.root, {"src/app.py": "def run():\n    return 1\n"})
    path = store.dir / "target.md"
    path.write_text(START, encoding="utf-8")
    return path


def _writes(
    old: str, new: str, meanwhile: Callable[[], None] = lambda: None
) -> Callable[[Path], None]:
    """An editor that replaces `old` with `new` in the draft while `meanwhile` runs."""

    def editor(draft: Path) -> None:
        meanwhile()
        draft.write_text(draft.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")

    return editor


def _unchanged(draft: Path) -> None:
    pass


def _edit(store: Store, editor: Callable[[Path], None]) -> str:
    return edit_memory(store, "target", editor=editor, today=TODAY)


def _theirs(target: Path, old: str, new: str) -> Callable[[], None]:
    def change() -> None:
        target.write_text(target.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")

    return change


def test_a_link_added_meanwhile_is_merged_with_the_edit(store: Store, target: Path) -> None:
    linked = lambda: add_links(store, "target", ["src/app.py"], today=TODAY)  # noqa: E731
    assert _edit(store, _writes("original", "mine", linked)) == "saved .memory/target.md"
    mem = store.get("target")
    assert mem.text == "mine"
    assert mem.links == ("src/app.py",)
    assert mem.verified is not None and "src/app.py" in mem.verified.fingerprints
    assert not draft_path(store, "target").exists()


def test_a_resumed_edit_never_saves_over_a_newer_file(store: Store, target: Path) -> None:
    with pytest.raises(MemkitError, match=r"both changed body, so nothing was saved"):
        _edit(store, _writes("original", "mine", _theirs(target, "original", "theirs")))
    # Meanwhile, someone links the memory; its fingerprint must survive everything below.
    add_links(store, "target", ["src/app.py"], today=TODAY)
    with pytest.raises(MemkitError, match=r"both changed body"):
        _edit(store, _unchanged)  # reopened and closed as it was: refused again
    assert store.get("target").text == "theirs"
    with pytest.raises(MemkitError, match=r"both changed body"):
        _edit(store, _unchanged)  # the refusal showed this version; still not a resolution
    # Resolved by hand: the body says what it should, the link made meanwhile stays.
    assert _edit(store, _writes("mine", "mine and theirs")).startswith("saved")
    mem = store.get("target")
    assert mem.text == "mine and theirs"
    assert mem.links == ("src/app.py",) and mem.verified is not None
    assert not draft_path(store, "target").with_suffix(".base").exists()


def test_a_resolution_against_an_older_version_is_refused(store: Store, target: Path) -> None:
    with pytest.raises(MemkitError, match=r"both changed body"):
        _edit(store, _writes("original", "mine", _theirs(target, "original", "theirs")))
    change = _theirs(target, "theirs", "theirs again")  # changes again while resolving
    with pytest.raises(MemkitError, match=r"both changed body"):
        _edit(store, _writes("mine", "mine resolved", change))
    assert store.get("target").text == "theirs again"
    assert "mine resolved" in draft_path(store, "target").read_text(encoding="utf-8")


def test_the_refusal_names_every_field_both_changed(store: Store, target: Path) -> None:
    def both() -> None:
        target.write_text(START.replace("[a]", "[b]").replace("original", "x"), encoding="utf-8")

    def mine(draft: Path) -> None:
        both()
        draft.write_text(START.replace("[a]", "[c]").replace("original", "y"), encoding="utf-8")

    with pytest.raises(MemkitError) as err:
        _edit(store, mine)
    assert "both changed tags, body," in str(err.value) and "\n" not in str(err.value)


def test_three_way_keeps_unknown_keys_from_the_side_that_changed_them() -> None:
    def parse(text: str) -> mm.Memory:
        return mm.parse(text, mid="m", path=".memory/m.md")

    base = parse("---\ntitle: T\nx-owner: ann\n---\nbody\n")
    mine = parse("---\ntitle: T\nx-owner: ann\n---\nnew body\n")
    theirs = parse("---\ntitle: T2\nx-owner: bob\n---\nbody\n")
    merged, clash = three_way(base, mine, theirs)
    assert clash == []
    text = mm.dumps(merged)
    assert "x-owner: bob" in text and "title: T2" in text and text.endswith("new body\n")
