"""memkit log, show --at, revert: history of real repositories with several authors and renames."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Invoke, copy_into, git, isolated, new_repo, write_memory

from memkit.errors import GitError, MemoryNotFoundError
from memkit.history.provenance import memory_at, memory_log, provenance, store_log
from memkit.history.rollback import revert
from memkit.store import Store, init

PEOPLE = {
    "ada": ("Ada Lovelace", "ada@example.com"),
    "bob": ("Bob Kahn", "bob@example.com"),
    "cy": ("Cy Young", "cy@example.com"),
}
ALPHA = "---\ntitle: Alpha\ntype: decision\nstatus: draft\n---\n\nFirst text.\n"


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def commit(repo: Path, who: str, message: str, day: int) -> str:
    """Commit everything staged as `who` on 2026-01-<day>; return the commit id."""
    name, email = PEOPLE[who]
    when = f"2026-01-{day:02d}T12:00:00+01:00"
    git(
        repo,
        "commit",
        "-q",
        "-m",
        message,
        GIT_AUTHOR_NAME=name,
        GIT_AUTHOR_EMAIL=email,
        GIT_AUTHOR_DATE=when,
        GIT_COMMITTER_NAME=name,
        GIT_COMMITTER_EMAIL=email,
        GIT_COMMITTER_DATE=when,
    )
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory, empty_git_dir: Path
) -> tuple[Path, dict[str, str]]:
    """The history below, committed once a module: (the repository, its commits by name)."""
    with isolated(tmp_path_factory):
        repo = new_repo(tmp_path_factory, empty_git_dir)
        init(repo)
        return repo, make_history(repo, Store(repo))


@pytest.fixture
def history(built: tuple[Path, dict[str, str]], repo: Path, store: Store) -> dict[str, str]:
    """A copy of `built` at `repo`, where `store` has it: its commits by name."""
    copy_into(built[0], repo)
    store._config = None
    return dict(built[1])


def make_history(repo: Path, store: Store) -> dict[str, str]:
    """alpha: added, edited, moved to a folder, code commit, re-tagged; beta: added, deleted."""
    c = {}
    write_memory(store, "alpha", ALPHA)
    git(repo, "add", ".")
    c["add"] = commit(repo, "ada", "Add alpha", 1)
    write_memory(store, "alpha", ALPHA.replace("draft", "active").replace("First", "Second"))
    git(repo, "add", ".")
    c["edit"] = commit(repo, "bob", "Activate alpha", 2)
    (store.dir / "git").mkdir()
    git(repo, "mv", ".memory/alpha.md", ".memory/git/alpha.md")
    c["move"] = commit(repo, "cy", "Move alpha into git/", 3)
    (repo / "app.py").write_text("x = 1\n")
    git(repo, "add", "app.py")
    c["code"] = commit(repo, "ada", "Code only", 4)
    text = (store.dir / "git" / "alpha.md").read_text().replace("status", "tags: [git]\nstatus")
    write_memory(store, "alpha", text, folder="git")
    git(repo, "add", ".")
    c["tag"] = commit(repo, "bob", "Tag alpha\n\nWith a longer message.", 5)
    write_memory(store, "beta", "---\ntitle: Beta\n---\nBeta text.\r\n")
    git(repo, "add", ".")
    c["beta"] = commit(repo, "cy", "Add beta", 6)
    git(repo, "rm", "-q", ".memory/beta.md")
    c["rm"] = commit(repo, "ada", "Drop beta", 7)
    return c


def named(text: str, commits: dict[str, str]) -> str:
    """Replace commit ids (full and 12-character) by their names in the fixture."""
    for name, sha in commits.items():
        text = text.replace(sha, f"<{name}>").replace(sha[:12], f"<{name}>")
    return text


def test_history_complete_in_order_following_renames(store: Store, history: dict[str, str]) -> None:
    log = memory_log(store, "alpha")
    got = [
        (e.commit, e.author, e.action, e.path, e.old_path, e.fields, e.body) for e in log.entries
    ]
    assert got == [
        (
            history["tag"],
            "Bob Kahn",
            "modified",
            ".memory/git/alpha.md",
            ".memory/git/alpha.md",
            ("tags",),
            False,
        ),
        (
            history["move"],
            "Cy Young",
            "renamed",
            ".memory/git/alpha.md",
            ".memory/alpha.md",
            (),
            False,
        ),
        (
            history["edit"],
            "Bob Kahn",
            "modified",
            ".memory/alpha.md",
            ".memory/alpha.md",
            ("status",),
            True,
        ),
        (history["add"], "Ada Lovelace", "added", ".memory/alpha.md", None, (), False),
    ]
    assert log.entries[0].date == "2026-01-05T12:00:00+01:00"
    assert log.boundary is None and not log.shallow


def test_log_cli_text_and_json(run: Invoke, history: dict[str, str]) -> None:
    out = run("log", "alpha").stdout
    assert named(out, history) == (
        "<tag>  2026-01-05  Bob Kahn  modified: tags\n    Tag alpha\n"
        "<move>  2026-01-03  Cy Young  renamed from .memory/alpha.md\n    Move alpha into git/\n"
        "<edit>  2026-01-02  Bob Kahn  modified: status, body\n    Activate alpha\n"
        "<add>  2026-01-01  Ada Lovelace  added\n    Add alpha\n"
    )
    first = json.loads(run("log", "alpha", "--json").stdout)[0]
    assert first == {
        "commit": history["tag"],
        "author": "Bob Kahn",
        "email": "bob@example.com",
        "date": "2026-01-05T12:00:00+01:00",
        "message": "Tag alpha\n\nWith a longer message.",
        "id": "alpha",
        "action": "modified",
        "path": ".memory/git/alpha.md",
        "old_path": ".memory/git/alpha.md",
        "fields": ["tags"],
        "body": False,
    }


def test_log_of_the_store(run: Invoke, store: Store, history: dict[str, str]) -> None:
    assert named(run("log", "-n", "3").stdout, history) == (
        "<rm>  2026-01-07  Ada Lovelace  beta: deleted\n    Drop beta\n"
        "<beta>  2026-01-06  Cy Young  beta: added\n    Add beta\n"
        "<tag>  2026-01-05  Bob Kahn  alpha: modified: tags\n    Tag alpha\n"
    )
    assert [e.commit for e in store_log(store, 100).entries] == [
        history[k] for k in ("rm", "beta", "tag", "move", "edit", "add")
    ]


def test_log_of_a_deleted_memory(store: Store, history: dict[str, str]) -> None:
    log = memory_log(store, "beta")
    assert [(e.commit, e.action) for e in log.entries] == [
        (history["rm"], "deleted"),
        (history["beta"], "added"),
    ]
    with pytest.raises(MemoryNotFoundError, match="no memory with id 'gamma' now or in the"):
        memory_log(store, "gamma")


def test_show_provenance_and_at(run: Invoke, history: dict[str, str]) -> None:
    out = run("show", "alpha").stdout
    assert named(out, history) == (
        "# Alpha\n\n"
        "id:           alpha\n"
        "path:         .memory/git/alpha.md\n"
        "type:         decision\n"
        "status:       active\n"
        "tags:         git\n"
        "committed:    2026-01-01 by Ada Lovelace in <add> (added)\n"
        "changed:      2026-01-05 by Bob Kahn in <tag> (modified: tags)\n"
        "\nSecond text.\n"
    )
    old = run("show", "alpha", "--at", history["add"][:8]).stdout
    assert "path:         .memory/alpha.md\nstatus:       draft\n" in old.replace(
        "type:         decision\n", ""
    )
    assert old.endswith("\nFirst text.\n")
    gone = run("show", "beta", "--at", "HEAD~1").stdout
    assert named(gone, history).endswith(
        "committed:    2026-01-06 by Cy Young in <beta> (added)\n\nBeta text.\n"
    )
    assert "did not exist at HEAD~6" in run("show", "beta", "--at", "HEAD~6", code=2).stderr
    assert "unknown revision 'nope'" in run("show", "alpha", "--at", "nope", code=2).stderr


def test_show_marks_uncommitted_changes(run: Invoke, store: Store, history: dict[str, str]) -> None:
    path = store.dir / "git" / "alpha.md"
    path.write_text(path.read_text() + "More.\n")
    assert "uncommitted:  the file differs from HEAD\n" in run("show", "alpha").stdout
    run("add", "Fresh", "-b", "x")
    assert "committed:    not yet (the file is not in HEAD)\n" in run("show", "fresh").stdout
    assert run("log", "fresh", code=2).stderr == (
        "memkit: .memory/fresh.md is not committed yet, so it has no history; commit it first "
        "(`memkit add --commit`, or `git add` and `git commit`)\n"
    )
    run("revert", "beta")  # back after its deletion: its history is still there
    assert [e.action for e in memory_log(store, "beta").entries] == ["deleted", "added"]


def test_provenance_of_a_memory_removed_meanwhile(store: Store, history: dict[str, str]) -> None:
    """`memkit show` read the memory, then `memkit rm` (another process) removed it before
    its provenance was read: a clear error naming the file, not a crash."""
    path = store.dir / "git" / "alpha.md"
    path.write_text(path.read_text() + "More.\n")  # uncommitted: show compares the file
    mem = store.get("alpha")
    subprocess.run(
        [sys.executable, "-m", "memkit", "rm", "alpha"],
        cwd=store.root,
        check=True,
        capture_output=True,
    )
    with pytest.raises(MemoryNotFoundError, match=r"^\.memory/git/alpha\.md no longer exists"):
        provenance(store, mem)


def test_memory_at_follows_renames(store: Store, history: dict[str, str]) -> None:
    assert memory_at(store, "alpha", history["edit"]).path == ".memory/alpha.md"
    assert memory_at(store, "alpha", "main").tags == ("git",)


def test_revert_restores_exact_bytes(
    run: Invoke, repo: Path, store: Store, history: dict[str, str]
) -> None:
    path = store.dir / "git" / "alpha.md"
    before_tag = git(repo, "show", f"{history['move']}:.memory/git/alpha.md")
    out = run("revert", "alpha").stdout
    assert named(out, history) == "restored .memory/git/alpha.md from <code>\n"
    assert path.read_text() == before_tag
    run("revert", "alpha", "--to", history["add"])
    assert path.read_bytes() == ALPHA.encode()
    assert git(repo, "status", "--short") == " M .memory/git/alpha.md\n"
    assert run("revert", "alpha", "--to", history["add"]).stdout.startswith("already as at ")


def test_revert_deleted_memory_byte_for_byte(
    run: Invoke, repo: Path, store: Store, history: dict[str, str]
) -> None:
    assert named(run("revert", "beta").stdout, history) == (
        "restored .memory/beta.md from <beta>\n"
    )
    assert (store.dir / "beta.md").read_bytes() == b"---\ntitle: Beta\n---\nBeta text.\r\n"
    assert git(repo, "status", "--short") == "?? .memory/beta.md\n"


def test_revert_default_undoes_an_uncommitted_edit(store: Store, history: dict[str, str]) -> None:
    path = store.dir / "git" / "alpha.md"
    committed = path.read_bytes()
    path.write_bytes(committed + b"A bad learning.\n")
    done = revert(store, "alpha")
    assert (done.rev, done.changed) == (history["rm"], True)
    assert path.read_bytes() == committed
    assert done.kept == ".git/memkit/revert/alpha.md"
    assert (store.root / done.kept).read_bytes() == committed + b"A bad learning.\n"
    assert revert(store, "alpha", history["add"]).kept is None  # committed text: in git


def test_revert_without_earlier_version(store: Store, repo: Path) -> None:
    write_memory(store, "only", "---\ntitle: Only\n---\n")
    git(repo, "add", ".")
    sha = commit(repo, "ada", "Add only", 1)
    with pytest.raises(GitError, match=f"no earlier version .* \\(in {sha[:12]}\\)"):
        revert(store, "only")


def test_revert_commit_leaves_staged_work_alone(
    run: Invoke, repo: Path, history: dict[str, str]
) -> None:
    (repo / "other.txt").write_text("staged, not memkit's\n")
    git(repo, "add", "other.txt")
    # unstaged; a new size: a same-size rewrite in the second the index is written is
    # git's "racy" case, which the index written through libgit2 does not always catch
    (repo / "app.py").write_text("x = 22\n")
    out = run("revert", "alpha", "--to", history["edit"], "--commit").stdout
    assert named(out, history).splitlines()[1].endswith("memkit: revert alpha to <edit>")
    assert git(repo, "show", "--name-only", "--format=%an|%s", "HEAD") == (
        f"Ada Lovelace|memkit: revert alpha to {history['edit'][:12]}\n\n"
        ".github/instructions/memkit.instructions.md\n.memory/git/alpha.md\nAGENTS.md\nCLAUDE.md\n"
    )  # the compiled files come along, as the git hook would have had them
    assert git(repo, "diff", "--cached", "--name-only") == "other.txt\n"
    assert git(repo, "diff", "--name-only") == "app.py\n"
    latest = memory_log(Store(repo), "alpha").entries[0]
    assert (latest.action, latest.fields, latest.body) == ("modified", ("tags",), False)


def test_no_commits_and_not_a_repo(run: Invoke, store: Store, tmp_path: Path) -> None:
    run("add", "Early", "-b", "x")
    err = run("log", "early", code=2).stderr
    assert err == (
        f"memkit: `memkit log` needs git history, but the repository at {store.root} has no "
        "commits yet; commit the memories first (`git add .memory && git commit`)\n"
    )
    assert "has no commits yet" in run("revert", "early", code=2).stderr
    assert "has no commits yet" in run("diff", code=2).stderr


def test_detached_head_and_worktree(
    run: Invoke,
    repo: Path,
    history: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    git(repo, "checkout", "-q", "--detach", history["tag"])
    assert run("log", "alpha").stdout.count("\n") == 8
    git(repo, "checkout", "-q", "main")
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "--detach", str(wt), history["move"])
    monkeypatch.chdir(wt)
    assert run("log", "alpha").stdout.count("\n") == 6
    assert "path:         .memory/git/alpha.md" in run("show", "alpha").stdout


def test_shallow_clone_says_how_far_history_goes(
    run: Invoke,
    repo: Path,
    tmp_path: Path,
    history: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "3", f"file://{repo}", str(clone))
    monkeypatch.chdir(clone)
    out = named(run("log", "alpha").stdout, history)
    assert out == (
        "<tag>  2026-01-05  Bob Kahn  present (a shallow clone's history starts here)\n"
        "    Tag alpha\n"
        "(shallow clone: history starts at <tag>; `git fetch --unshallow` fetches the rest)\n"
    )
    assert "history:      shallow clone, starts at <tag>\n" in named(
        run("show", "alpha").stdout, history
    )


def test_merged_change_is_credited_to_its_commit(
    store: Store, repo: Path, history: dict[str, str]
) -> None:
    git(repo, "checkout", "-q", "-b", "side")
    path = store.dir / "git" / "alpha.md"
    path.write_text(path.read_text() + "From the side branch.\n")
    git(repo, "add", ".")
    side = commit(repo, "cy", "Side edit", 8)
    git(repo, "checkout", "-q", "main")
    (repo / "app.py").write_text("x = 3\n")
    git(repo, "add", ".")
    commit(repo, "bob", "Main moves on", 9)
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
    log = memory_log(store, "alpha")
    assert [(e.commit, e.author, e.body) for e in log.entries[:2]] == [
        (side, "Cy Young", True),
        (history["tag"], "Bob Kahn", False),
    ]
    assert len(log.entries) == 5
