"""A read refused by a limit is named as such: the file, the limit, what to do; never a
file that does not exist, a removed link or a missing key."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.staleness import snapshot
from tests.conftest import Invoke, commit_files, git

LIMIT = 1000  # MAX_SOURCE_BYTES, lowered in-process
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdef", "bcdefg", strict=False)
)


def _grow(path: Path, size: int) -> None:
    with path.open("r+b") as f:  # sparse: no bytes written
        f.truncate(size)


def _one_line_naming_the_limit(text: str, path: str, limit: int) -> None:
    lines = [x for x in text.splitlines() if path in x]
    assert lines, text
    for line in lines:
        assert f"{limit:,}" in line and "limit" in line, line
        assert "no file" not in line and "removed" not in line and "has no key" not in line


def test_add_names_a_linked_file_over_the_limit(repo: Path, store: object, run: Invoke) -> None:
    commit_files(repo, {"small.py": "def f():\n    return 1\n"})
    big = repo / "big.py"
    big.write_bytes(b"")
    _grow(big, 60 * 1024 * 1024)  # 60 MB, over the real limit
    for link in ("big.py", "big.py::f"):
        out = run("add", "Big", "-b", "x", "--link", link, code=2).stderr
        assert len(out.strip().splitlines()) == 1, out
        _one_line_naming_the_limit(out, "big.py", snapshot.MAX_SOURCE_BYTES)
        assert "link a smaller file" in out


@pytest.fixture
def low(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "MAX_SOURCE_BYTES", LIMIT)


def test_check_ci_and_verify_name_a_file_that_grew_over_it(
    repo: Path, store: object, run: Invoke, low: None
) -> None:
    commit_files(repo, {"a.py": "def g():\n    return 2\n", "cfg.toml": "[db]\npool = 5\n"})
    run("add", "M", "-b", "x", "--id", "m", "--link", "a.py::g", "--link", "cfg.toml::db.pool")
    commit_files(repo, {}, "memory")
    for name in ("a.py", "cfg.toml"):
        _grow(repo / name, LIMIT + 1)
    out = run("check", code=1).stdout
    for name in ("a.py", "cfg.toml"):
        _one_line_naming_the_limit(out, name, LIMIT)
    assert "unreadable" in out
    out = run("verify", "m", code=1).stderr
    _one_line_naming_the_limit(out, "a.py", LIMIT)
    _one_line_naming_the_limit(out, "cfg.toml", LIMIT)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "grow")  # read at a commit now, not in the work tree
    out = run("ci", "--base", "HEAD~1", code=1).stdout
    line = next(x for x in out.splitlines() if "m is stale" in x)
    _one_line_naming_the_limit(line, "a.py", LIMIT)


def test_a_yaml_alias_bomb_behind_a_config_key_is_named(
    repo: Path, store: object, run: Invoke
) -> None:
    commit_files(repo, {"c.yaml": "a: [1]\ng: 2\n"})
    run("add", "C", "-b", "x", "--id", "c", "--link", "c.yaml::g")
    commit_files(repo, {"bomb.yaml": BOMB}, "memory")
    out = run("add", "B", "-b", "x", "--link", "bomb.yaml::g", code=2).stderr
    assert "bomb.yaml:5:" in out and "alias" in out and "100,000" in out, out
    assert "has no key" not in out
    (repo / "c.yaml").write_text(BOMB, encoding="utf-8")
    out = run("check", code=1).stdout
    assert "c.yaml::g: unreadable" in out and "c.yaml:5:" in out and "alias" in out, out
    assert "removed" not in out


def test_validate_names_an_alias_in_front_matter(repo: Path, store: object, run: Invoke) -> None:
    (repo / ".memory" / "bomb.md").write_text(
        "---\ntitle: T\ntags: &a [x, x]\nb: [*a, *a]\n---\nText.\n", encoding="utf-8"
    )
    out = run("validate", code=1).stdout
    assert out.startswith(".memory/bomb.md:4: front matter: YAML anchors and aliases"), out
    assert "malformed" not in out and "write the value out" in out


def test_audit_names_a_config_file_over_its_limit(repo: Path, store: object, run: Invoke) -> None:
    commit_files(repo, {"AGENTS2.md": "See `big.toml::a.b` and `bomb.yaml::g`.\n"})
    (repo / "bomb.yaml").write_text(BOMB, encoding="utf-8")
    (repo / "big.toml").write_bytes(b"")
    _grow(repo / "big.toml", 2 * 1024 * 1024)
    out = run("audit", "AGENTS2.md", code=1).stdout
    _one_line_naming_the_limit(out, "big.toml", 1024 * 1024)
    assert "bomb.yaml:5:" in out and "alias" in out, out
