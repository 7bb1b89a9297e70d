"""validate: every problem in a store, or in some of its files."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import write_memory

from memkit import memory as mm
from memkit.store import Store
from memkit.validation import validate

TODAY = dt.date(2026, 11, 22)


def test_validate_collects_all_problems(store: Store) -> None:
    store.add(mm.new("Good", "Body.", mid="good", today=TODAY))
    write_memory(store, "bad-type", "---\ntitle: A\ntype: idea\n---\n")
    write_memory(store, "dup", "---\ntitle: A\n---\n")
    write_memory(store, "dup", "---\ntitle: B\n---\n", folder="sub")
    write_memory(store, "secret", "---\ntitle: S\n---\n\ntoken ghp_" + "a" * 36 + "\n")
    write_memory(store, "refs", "---\ntitle: R\nsupersedes: [gone]\n---\n")
    lines = [str(p) for p in validate(store)]
    assert lines[0] == (
        ".memory/bad-type.md:3: type: unknown value 'idea'; use one of: "
        "decision, convention, gotcha, procedure, episode, preference, note"
    )
    assert lines[1] == ".memory/refs.md:3: supersedes: no memory with id 'gone' in the store"
    assert lines[2].startswith(".memory/secret.md:5: secret: looks like a GitHub token")
    assert lines[3].startswith(".memory/sub/dup.md:1: id: duplicate id 'dup'")
    assert len(lines) == 4


def test_only_limits_the_files_but_not_the_duplicate_rule(store: Store) -> None:
    write_memory(store, "bad-type", "---\ntitle: A\ntype: idea\n---\n")
    write_memory(store, "refs", "---\ntitle: R\nstatus: draft\nrevises: gone\n---\n")
    write_memory(store, "dup", "---\ntitle: A\n---\n")
    write_memory(store, "dup", "---\ntitle: B\n---\n", folder="sub")
    assert [str(p) for p in validate(store, only=[".memory/refs.md"])] == [
        ".memory/refs.md:4: revises: no memory with id 'gone' in the store"
    ]
    # The duplicate is reported when either of its files is checked.
    assert [(p.path, p.field) for p in validate(store, only=[".memory/dup.md"])] == [
        (".memory/sub/dup.md", "id")
    ]


CASES = {
    "valid": "---\ntitle: Fine\ntype: convention\n---\n\nBody.\n",
    "bad yaml": "---\ntitle: [unclosed\n---\n\nBody.\n",
    "bad field": "---\ntitle: T\ntype: opinion\nconfidence: sure\n---\n\nBody.\n",
    "secret": "---\ntitle: Keys\ntype: gotcha\n---\n\nThe key is AKIAIOSFODNN7EXAMPLF in prod.\n",
    "allowed secret": (
        "---\ntitle: Keys\n---\n\nAKIAIOSFODNN7EXAMPLF <!-- memkit: allow-secret -->\n"
    ),
    "secret in title": "---\ntitle: token ghp_0123456789abcdefghijABCDEFGHIJ012345\n---\n\nB.\n",
    "supersedes": "---\ntitle: New\nsupersedes:\n- old\n---\n\nBody.\n",
    "dangling": "---\ntitle: New\nstatus: draft\nrevises: nothing-here\n---\n\nBody.\n",
    "no front matter": "Just text.\n",
    "not utf-8": b"---\ntitle: \xff\n---\n",
    "huge": "---\ntitle: Big\n---\n\n" + "x" * 1_100_000 + "\n",
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("twin", [False, True])
def test_validate_files_agrees_with_validate(store: Store, case: str, twin: bool) -> None:
    """The hook's staged-files-only validation finds what validate(only=...) finds, or
    steps aside (None) when the answer depends on other memories."""
    from memkit.githooks.index import memory_stamps
    from memkit.validation import validate_files

    write_memory(store, "old", "---\ntitle: Old\n---\n\nOld.\n")
    write_memory(store, "other", "---\ntitle: Other\n---\n\nOther.\n")
    text = CASES[case]
    path = store.dir / "sub" / "staged.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    if twin:
        write_memory(store, "staged", "---\ntitle: Twin\n---\n\nSame file name.\n")
    stamps = memory_stamps(str(store.root))
    staged = {".memory/sub/staged.md"}
    clean: dict[str, tuple[bytes, object]] = {}
    lean = validate_files(Store(store.root), staged, stamps, clean)  # type: ignore[arg-type]
    full = validate(Store(store.root), only=staged)
    if twin or case in ("supersedes", "dangling"):
        assert lean is None
    else:
        assert lean is not None
        assert [str(p) for p in lean] == [str(p) for p in full]
        assert bool(full) == (case not in ("valid", "allowed secret")), full
        # what the hook remembers as valid (memkit.hookvalid): the bytes it read
        assert list(clean) == ([] if full else [".memory/sub/staged.md"])
        assert all(data == path.read_bytes() for data, _ in clean.values())


def test_paths_differing_only_in_case_are_one_problem(store: Store) -> None:
    write_memory(store, "db", "---\ntitle: A\n---\n", folder="Team")
    write_memory(store, "db", "---\ntitle: B\n---\n", folder="team")
    write_memory(store, "Pool", "---\ntitle: C\n---\n")
    write_memory(store, "pool", "---\ntitle: D\n---\n")
    twins = [str(p) for p in validate(store) if "differ only in case" in p.message]
    assert twins == [
        ".memory/pool.md:1: file: .memory/Pool.md and .memory/pool.md differ only in case: "
        "macOS and Windows hold them as one file; merge them into one, or rename one",
        ".memory/team/db.md:1: file: .memory/Team/db.md and .memory/team/db.md differ only in "
        "case: macOS and Windows hold them as one file; merge them into one, or rename one",
    ]
    # checking either file alone reports it (the pre-commit hook's way)
    assert any(
        "differ only in case" in p.message for p in validate(store, only=[".memory/Pool.md"])
    )


def test_folders_windows_cannot_hold(store: Store) -> None:
    write_memory(store, "fine", "---\ntitle: A\n---\n", folder="aux")
    write_memory(store, "also", "---\ntitle: B\n---\n", folder="notes.")
    lines = [str(p) for p in validate(store)]
    assert [line.split(": ", 1)[0] for line in lines] == [
        ".memory/aux/fine.md:1",
        ".memory/notes./also.md:1",
    ]
    assert all("folder" in line and "rename the folder" in line for line in lines)


def test_the_hook_validation_steps_aside_for_case_twins(store: Store) -> None:
    from memkit.githooks.index import memory_stamps
    from memkit.validation import validate_files

    write_memory(store, "Pool", "---\ntitle: C\n---\n")
    write_memory(store, "pool", "---\ntitle: D\n---\n")
    stamps = memory_stamps(str(store.root))
    assert validate_files(Store(store.root), {".memory/pool.md"}, stamps) is None
