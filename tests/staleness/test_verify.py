"""`memkit verify`: every memory it can, one line per problem, and memkit's own records."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.staleness import fingerprint, verify, verify_store
from memkit.staleness.parsed import LinkError
from memkit.store import Store
from memkit.store.secrets_guard import machine_data_masked, secret_findings
from tests.conftest import Invoke, git
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

CODE = "def good(x):\n    return x + 1\n\n\ndef other(y):\n    return y * 2\n"


def test_one_bad_link_costs_only_its_memory(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::good"], mid="first")
    remember(repo, store, ["a.py::good", "a.py::other"], mid="second")
    remember(repo, store, ["a.py::other"], mid="third")
    write(repo, "a.py", CODE.replace("def other", "def gone").replace("y * 2", "y * 3"))
    commit_all(repo, "change")
    head = git(repo, "rev-parse", "HEAD").strip()
    before = store.get("first").verified.commit  # type: ignore[union-attr]
    done = run("verify", "--all", code=1)
    assert done.stdout == ""  # `first` still fingerprints as recorded: its file is left alone
    lines = done.stderr.splitlines()
    assert lines[0].startswith(
        "memkit: .memory/second.md:5: link 'a.py::other': a.py defines no symbol 'other'"
    )
    assert lines[0].endswith(
        "remove the link with `memkit link second --remove a.py::other`;"
        " or edit the memory's links with `memkit edit second`)"
    )
    assert lines[1].startswith("memkit: .memory/third.md:4: link 'a.py::other'")
    assert lines[2] == "memkit: 2 link(s) could not be verified"
    assert store.get("first").verified.commit == before != head  # type: ignore[union-attr]
    assert store.get("second").verified.commit != head  # type: ignore[union-attr]


def test_an_invalid_memory_file_is_a_problem_of_verify_all(
    run: Invoke, repo: Path, store: Store
) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::good"], mid="ok")
    (repo / ".memory" / "broken.md").write_text("---\ntitle: [\nlinks: [a.py::good]\n---\n")
    (repo / ".memory" / "no-title.md").write_text("---\nlinks: [a.py::other]\n---\n\nText.\n")
    write(repo, "a.py", CODE.replace("x + 1", "x + 2"))
    commit_all(repo, "change")
    done = run("verify", "--all", code=1)
    assert done.stdout.startswith("verified ok at ")  # the valid memory is verified all the same
    lines = done.stderr.splitlines()
    assert lines[0].startswith("memkit: .memory/broken.md:")
    assert lines[1].startswith("memkit: .memory/no-title.md:")
    assert lines[-1] == "memkit: 2 invalid memory file(s) (see `memkit validate`)"
    (repo / ".memory" / "broken.md").unlink()
    (repo / ".memory" / "no-title.md").unlink()
    assert run("verify", "--all").stderr == ""  # nothing left: exit 0


def test_verify_store_reports_and_verify_raises_after_saving(repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, ["a.py::good"], mid="ok")
    remember(repo, store, ["a.py::other"], mid="bad")
    write(repo, "a.py", CODE.replace("def other", "def gone").replace("y * 2", "y * 3"))
    commit_all(repo, "change")
    done = verify_store(store, None, today=TODAY)
    assert [m.id for m in done.saved] == [] and [m.id for m in done.unchanged] == ["ok"]
    assert [(p.id, p.where) for p in done.problems] == [("bad", ".memory/bad.md:4")]
    with pytest.raises(Exception, match=r"\.memory/bad\.md:4: link 'a\.py::other'"):
        verify(store, ["bad", "ok"], today=TODAY)


def test_fingerprint_names_every_bad_link(repo: Path) -> None:
    write(repo, "a.py", CODE)
    with pytest.raises(LinkError) as e:
        fingerprint(repo, ["a.py::nope", "a.py::good", "b.py"], today=TODAY)
    lines = str(e.value).splitlines()
    assert len(lines) == 2
    assert "defines no symbol 'nope'" in lines[0] and "no file b.py" in lines[1]
    write(repo, "pkg/c.py", CODE)
    for link in ("pkg", "pkg/"):
        with pytest.raises(LinkError, match=r"pkg/? is a folder; .*`paths: \[pkg/\*\*\]`"):
            fingerprint(repo, [link], today=TODAY)


def test_fingerprints_never_read_as_credentials(run: Invoke, repo: Path, store: Store) -> None:
    test_name = "TestRequests.test_digest_auth_incorrect_credentials"
    source = f"class TestRequests:\n    def {test_name.split('.')[1]}(self):\n        pass\n"
    write(repo, "tests/test_requests.py", source)
    for name in ("config/credentials", "deploy/api_token", "secret_key"):
        write(repo, name, f"{name} 7f3a9c\n")
    commit_all(repo, "code")
    links = [f"tests/test_requests.py::{test_name}", "config/credentials", "deploy/api_token"]
    remember(repo, store, [*links, "secret_key"], mid="auth-tests")
    write(repo, "config/credentials", "changed 9b2e77\n")
    commit_all(repo, "change")
    run("verify", "auth-tests")
    text = (store.dir / "auth-tests.md").read_text(encoding="utf-8")
    assert f"{test_name}: sig:" in text
    assert secret_findings(text, None) == []


def test_masking_keeps_hand_written_secrets_in_the_verified_block() -> None:
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    text = (
        "---\ntitle: x\nverified:\n  commit: 3e8271e2acb9c0f1d2e3a4b5c6d7e8f9a0b1c2d3\n"
        "  links:\n    a.py::test_bad_credentials: sig:b1628d3f body:af30ee27 doc:bd35ae48\n"
        f"    api_token: {token}\n---\nbody\n"
    )
    masked = machine_data_masked(text)
    assert "sig:" not in masked and "3e8271e2" not in masked and token in masked
    assert masked.count("\n") == text.count("\n")
    assert [line for line, _ in secret_findings(text, None)] == [7]


def test_recording_the_work_tree_loads_no_pygit2(repo: Path, store: Store) -> None:
    """HEAD's id comes from the git command; pygit2 is loaded only when a link needs
    the repository itself, and without commits (then the commit is None, as before)."""
    import subprocess
    import sys

    assert fingerprint(repo, []).commit is None
    write(repo, "pkg/mod.py", "def f():\n    return 1\n")
    commit_all(repo, "code")
    script = (
        "import sys\nfrom memkit.staleness import fingerprint\n"
        "v = fingerprint(sys.argv[1], ['pkg/mod.py::f'])\n"
        "print(v.commit, 'pygit2' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script, str(repo)], capture_output=True, text=True)
    head = git(repo, "rev-parse", "HEAD").strip()
    assert done.stdout.split() == [head, "False"], done.stderr
    whole = fingerprint(repo, ["pkg/mod.py::f"]).fingerprints["pkg/mod.py::f"]
    sub = fingerprint(repo / "pkg", ["mod.py::f"])  # a store in a folder of the repository
    assert (sub.commit, dict(sub.fingerprints)) == (head, {"mod.py::f": whole})
