"""The pre-commit checks' answer for a commit of known memories, from their records alone
(checks.known_valid and memkit.hookvalid, compile-current): in real `git commit` runs, a
commit of memories the hook already knows needs neither the store nor the memory model,
and anything else makes the checks open the store, and say what they always said."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Invoke, git, write_memory

from memkit import hookvalid
from memkit.cachedir import cache_dir
from memkit.clock import today
from memkit.compile import current
from memkit.compile.plan import apply, plan
from memkit.githooks import checks, fastpath
from memkit.githooks.index import INDEX_NAME, Opener, memory_walk
from memkit.store import Store
from tests.githooks import committing
from tests.githooks.committing import commit

# the fixtures: memory use-tabs, target AGENTS.md, hook installed; built once a module
built, project = committing.built, committing.project
EDITED = "---\ntitle: Use tabs\ntype: convention\n---\n\nUse tabs, never spaces.\n"
SECRET = "ghp_" + "a" * 36


def hand_edit(project: Path, text: str = EDITED, mid: str = "use-tabs") -> Path:
    """A memory edited by hand and staged, then the first `git commit`: the hook validates
    it, regenerates AGENTS.md and stops; the regenerated file is staged as asked."""
    path = project / ".memory" / f"{mid}.md"
    path.write_text(text, encoding="utf-8")
    git(project, "add", "-A")
    first = commit(project)
    assert first.returncode == 1 and "regenerated AGENTS.md" in first.stderr
    git(project, "add", "-A")
    return path


class _NoStore(Opener):
    """An Opener that refuses to open the store: the checks must answer without it."""

    def __call__(self) -> Store:
        raise LookupError("the checks needed the store")


def knows(project: Path) -> bool:
    """Whether the hook's checks find nothing to say about the staged commit without
    opening the store, as the hook runs them."""
    root = str(project)
    stamps, tree = memory_walk(root)
    opener = _NoStore(root)
    opener.tree = tree
    names = fastpath.staged_names(root)
    try:
        outcome = checks.run_hook(
            None, "pre-commit", names, stamps=stamps, today=today(), opener=opener
        )
    except LookupError:
        return False
    return outcome == checks.Outcome()


def hook_in_a_process(project: Path) -> tuple[int, str, list[str]]:
    """The installed hook's entry point in a fresh interpreter: exit code, output, and
    which of the heavier modules it imported."""
    code = (
        "import sys\n"
        "from memkit.githooks.fastpath import main\n"
        "rc = main(['pre-commit', '--root', '.'])\n"
        "heavy = {'memkit.store', 'memkit.memory', 'memkit.secrets', 'json'}\n"
        "print(rc, sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], cwd=project, capture_output=True, text=True, check=True
    )
    rc, _, modules = done.stdout.strip().partition(" ")
    return int(rc), done.stderr, eval(modules)  # a list of names printed by the script above


def test_the_commit_after_the_hook_regenerated_needs_no_store(project: Path) -> None:
    hand_edit(project)
    assert knows(project)
    assert hook_in_a_process(project) == (0, "", [])
    done = commit(project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_what_the_records_let_through_the_checks_let_through(project: Path, store: Store) -> None:
    hand_edit(project)
    names = fastpath.staged_names(str(project))
    assert knows(project)
    outcome = checks.run_hook(Store(project), "pre-commit", names, today=today())
    assert outcome == checks.Outcome()


def test_a_memory_compiled_by_hand_needs_no_store_either(project: Path, run: Invoke) -> None:
    (project / "README").write_text("more\n", encoding="utf-8")
    git(project, "add", "README")
    assert commit(project).returncode == 0  # the hook's index is made once, on a first commit
    (project / ".memory" / "use-tabs.md").write_text(EDITED, encoding="utf-8")
    run("compile")  # read afresh, found clean: remembered for the hook
    git(project, "add", "-A")
    assert hook_in_a_process(project) == (0, "", [])
    assert commit(project).returncode == 0


def test_compile_remembers_no_memory_holding_a_secret(project: Path, run: Invoke) -> None:
    (project / ".memory" / "use-tabs.md").write_text(EDITED + f"\n{SECRET}\n", "utf-8")
    run("compile")
    git(project, "add", "-A")
    assert not knows(project)
    done = commit(project)
    assert done.returncode == 1 and "looks like a GitHub token" in done.stderr, done.stderr


def test_other_bytes_than_those_validated_take_the_checks(project: Path) -> None:
    path = hand_edit(project)
    path.write_text(EDITED + f"\nThe token is {SECRET}.\n", encoding="utf-8")
    git(project, "add", "-A")
    assert not knows(project)
    done = commit(project)
    assert done.returncode == 1 and "looks like a GitHub token" in done.stderr, done.stderr


def test_a_record_that_does_not_match_is_not_trusted(project: Path) -> None:
    hand_edit(project)
    record = Path(cache_dir(str(project)), hookvalid.NAME)
    text = record.read_text("utf-8")
    good = text.split("\n")[2].split(" ")[1]
    record.write_text(text.replace(good, "0" * 64), encoding="utf-8")
    assert not knows(project)  # another file's digest
    size = text.split("\n")[2].split(" ")[2]
    record.write_text(text.replace(f" {size} ", f" {int(size) + 1} "), encoding="utf-8")
    assert not knows(project)  # another size
    record.write_text(text.replace("key ", "key 0", 1), encoding="utf-8")
    assert not knows(project)  # recorded under another version of memkit, or another day
    mangled_texts = (
        "",
        text.replace("\nv ", "\nx "),
        text[:-1],
        text.replace(good, "short"),
        text.replace(f" {size} ", " big "),
        text.replace("key ", "kex "),
    )
    for mangled in mangled_texts:
        record.write_text(mangled, encoding="utf-8")
        assert not knows(project)
    record.write_text(text, encoding="utf-8")
    assert knows(project)


@pytest.mark.parametrize(
    "change",
    ["same name elsewhere", "config", "deleted memory", "outputs by hand",
     "stale warning", "record of today missing", "store behind a link"],
)  # fmt: skip
def test_anything_else_takes_the_checks(project: Path, store: Store, change: str) -> None:
    hand_edit(project)
    assert knows(project)
    if change == "same name elsewhere":  # two files, one id: the load decides
        write_memory(store, "sub/use-tabs", EDITED)
        apply(plan(Store(project), today=today()))  # compiled since: the record is current
        git(project, "add", "AGENTS.md")
    elif change == "config":
        (store.dir / "config.toml").write_text('[compile]\ntargets = ["agents"]\n\n', "utf-8")
        git(project, "add", "-A")
    elif change == "deleted memory":
        git(project, "rm", "-qf", ".memory/use-tabs.md")
    elif change == "outputs by hand":
        agents = project / "AGENTS.md"
        agents.write_text(agents.read_text("utf-8") + "\nMine.\n", encoding="utf-8")
        git(project, "add", "-A")
    elif change == "stale warning":
        record = Path(cache_dir(str(project)), current.NAME)
        text = record.read_text("utf-8").replace("stale\t-\n", "stale\t+\ns\tuse-tabs\tx\n")
        record.write_text(text, encoding="utf-8")
    elif change == "record of today missing":
        Path(cache_dir(str(project)), current.NAME).unlink()
    else:
        moved = project.parent / "elsewhere"
        (project / ".memory").rename(moved)
        (project / ".memory").symlink_to(moved)
    assert not knows(project)


def test_a_staged_linked_file_takes_the_checks(project: Path, store: Store) -> None:
    (project / "src.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    write_memory(store, "linked", "---\ntitle: L\nlinks:\n- src.py::f\n---\n\nB.\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "--no-verify", "-m", "linked")
    hand_edit(project)
    assert knows(project)
    (project / "src.py").write_text("def f():\n    return 2\n", encoding="utf-8")
    git(project, "add", "src.py")
    assert not knows(project)  # the staleness report is the checks' to give
    done = commit(project)
    assert done.returncode == 0 and "linked: L (.memory/linked.md)" in done.stderr, done.stderr


def test_the_index_takes_a_known_memorys_links_without_parsing_it(
    project: Path, store: Store
) -> None:
    (project / "src.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    linked = "---\ntitle: Use tabs\ntype: convention\nlinks:\n- src.py::f\n---\n\nTabs.\n"
    path = hand_edit(project, linked)
    index = Path(cache_dir(str(project)), INDEX_NAME)
    st = path.stat()
    text = index.read_text("utf-8")
    stamp = f"m {st.st_size} {st.st_mtime_ns} .memory/use-tabs.md\n"
    assert stamp in text or "m - - .memory/use-tabs.md\n" in text
    index.write_text(text.replace(stamp, "m 0 0 .memory/use-tabs.md\n"), encoding="utf-8")
    code = (
        "import sys\n"
        "from memkit.githooks.index import Opener, memory_stamps, read_index\n"
        "print(read_index('.', memory_stamps('.'), Opener('.'))[0], 'memkit.memory' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, check=True
    )
    assert done.stdout == "['src.py'] False\n"


def test_the_record_keeps_the_files_there_are(tmp_path: Path) -> None:
    root = str(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.md").write_bytes(b"A")
    (tmp_path / "b.md").write_bytes(b"B")
    da, db = hookvalid.digest(b"A"), hookvalid.digest(b"B")
    hookvalid.remember(root, "k", {"a.md": (da, 1, ("src/x.py", "docs/"))}, {"a.md"})
    hookvalid.remember(root, "k", {"b.md": (db, 1, ())}, {"a.md", "b.md"})
    assert hookvalid.read(root, "k") == {
        "a.md": (da, 1, ("src/x.py", "docs/")),
        "b.md": (db, 1, ()),
    }
    sizes = {"a.md": 1, "b.md": 1, "c.md": 1}
    asked = []

    def key() -> str:
        asked.append(1)
        return "k"

    found = hookvalid.known(root, ["a.md", "b.md", "c.md"], sizes, key)
    assert found == {"a.md": ("src/x.py", "docs/"), "b.md": ()} and asked == [1]
    assert hookvalid.known(root, ["a.md"], sizes, lambda: "other") == {}  # another key
    (tmp_path / "b.md").write_bytes(b"C")  # the same size, other bytes
    assert hookvalid.known(root, ["b.md"], sizes, key) == {} and asked == [1]
    assert hookvalid.known(root, ["a.md"], {"a.md": 2}, key) == {} and asked == [1]  # not read
    assert hookvalid.read(root, "other") == {}
    hookvalid.remember(root, "k", {"b.md": (db, 1, ())}, {"b.md"})  # a.md is gone from the store
    assert set(hookvalid.read(root, "k")) == {"b.md"}
    hookvalid.remember(root, "new", {"a.md": (da, 1, ())}, {"a.md", "b.md"})  # another key: anew
    assert hookvalid.read(root, "new") == {"a.md": (da, 1, ())} and hookvalid.read(root, "k") == {}
    hookvalid.remember(root, "k", {"x\ny.md": (da, 1, ()), "c.md": (da, 1, ("a\nb",))}, {"c.md"})
    assert hookvalid.read(root, "k") == {}  # names the lines cannot hold are not recorded
