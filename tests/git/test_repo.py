"""The repository: opening it, revisions, commits required, the default branch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git

from memkit.errors import GitError
from memkit.git import (
    default_branch,
    find_repo,
    head_commit,
    merge_base_with_default,
    open_repo,
    require_commits,
    resolve,
    workdir,
)


def test_open_and_find(repo: Path, tmp_path: Path) -> None:
    (repo / "sub").mkdir()
    assert workdir(open_repo(repo / "sub")) == repo.resolve()
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(GitError, match="is not inside a git repository; run `git init` first"):
        open_repo(outside)
    assert find_repo(outside) is None


def test_revisions_need_commits(repo: Path) -> None:
    r = open_repo(repo)
    assert head_commit(r) is None
    with pytest.raises(GitError, match="log needs git history, but the repository at"):
        require_commits(r, "log")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "one")
    head = git(repo, "rev-parse", "HEAD").strip()
    assert require_commits(r, "log") == head == head_commit(r)
    assert str(resolve(r, "main").id) == head
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        resolve(r, "nope")


def test_default_branch_and_merge_base(repo: Path) -> None:
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "one")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-qb", "topic")
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    git(repo, "commit", "-qm", "two")
    r = open_repo(repo)
    assert default_branch(r) == "refs/heads/main"
    assert merge_base_with_default(r, "HEAD") == base
    git(repo, "branch", "-m", "main", "trunk")
    assert default_branch(r) is None
    assert merge_base_with_default(r, "HEAD") is None


def _python(code: str, env: dict[str, str] | None = None) -> str:
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_pygit2_loads_without_ssl_and_tarfile(repo: Path, tmp_path: Path) -> None:
    """pygit2 is imported with stand-ins for ssl and tarfile: none is left behind, libgit2
    gets the certificate paths ssl would give, and write_archive gets the real tarfile."""
    git(repo, "commit", "-q", "--allow-empty", "-m", "one")
    (repo / "a.txt").write_text("hello\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "two")
    import ssl

    bundle = ssl.get_default_verify_paths().cafile
    if bundle is None:
        pytest.skip("no certificate bundle on this machine")
    cert = tmp_path / "cert.pem"
    cert.write_bytes(Path(bundle).read_bytes())
    code = f"""
import sys
from memkit.git.repo import load_pygit2
pygit2 = load_pygit2()
print("ssl" in sys.modules, "tarfile" in sys.modules)
import ssl, tarfile
print(tuple(pygit2.settings._default_tls_verify_paths) == tuple(ssl.get_default_verify_paths()))
repo = pygit2.Repository({str(repo)!r})
with tarfile.open({str(tmp_path / "out.tar")!r}, "w") as archive:
    repo.write_archive(repo.head.target, archive)
with tarfile.open({str(tmp_path / "out.tar")!r}) as archive:
    print(archive.extractfile("a.txt").read().decode().strip())
"""
    assert _python(code) == "False False\nTrue\nhello\n"
    assert _python(code, {"SSL_CERT_FILE": str(cert)}) == "False False\nTrue\nhello\n"


def test_pygit2_needing_more_of_ssl_is_imported_plainly() -> None:
    code = """
import sys, types
import memkit.git.repo as r
r._stand_ins = lambda: {"ssl": types.ModuleType("ssl")}  # lacks what pygit2 imports
pygit2 = r.load_pygit2()
import ssl
print(isinstance(ssl.SSLContext, type), pygit2.settings._default_tls_verify_paths is not None)
print(sys.modules["pygit2.settings"].get_default_verify_paths is ssl.get_default_verify_paths)
"""
    assert _python(code) == "True True\nTrue\n"


def test_modules_already_loaded_are_not_stood_in_for() -> None:
    code = """
import ssl, sys, tarfile
from memkit.git.repo import load_pygit2
load_pygit2()
settings = sys.modules["pygit2.settings"]
print(sys.modules["pygit2.repository"].tarfile is tarfile)
print(settings.get_default_verify_paths is ssl.get_default_verify_paths)
"""
    assert _python(code) == "True\nTrue\n"


def test_a_certificate_file_libgit2_refuses_is_named(repo: Path, tmp_path: Path) -> None:
    """libgit2 loads SSL_CERT_FILE as pygit2 is imported and refuses an unusable one: every
    command that reads git then stops with this one-line error (exit 2), not a traceback."""
    import os
    import subprocess
    import sys

    empty = tmp_path / "empty.pem"
    empty.write_text("")
    (repo / "a.py").write_text("def f():\n    return 1\n")
    env = {**os.environ, "SSL_CERT_FILE": str(empty)}
    cmd = [sys.executable, "-m", "memkit"]
    subprocess.run([*cmd, "init"], cwd=repo, env=env, check=True, capture_output=True)
    subprocess.run([*cmd, "add", "T", "--body", "b"], cwd=repo, env=env, check=True)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "code")
    done = subprocess.run([*cmd, "log", "t"], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "memkit: pygit2, the library memkit reads git with, could not start: OpenSSL error: "
        f"failed to load certificates: {done.stderr.split('certificates: ', 1)[1].split(';')[0]}"
        f"; SSL_CERT_FILE={empty} names no certificates OpenSSL can load: point it at a "
        "certificate bundle or unset SSL_CERT_FILE\n"
    )


def test_head_from_the_git_command_agrees_with_pygit2(repo: Path, tmp_path: Path) -> None:
    from memkit.git.plain import head

    assert head(repo) is None  # no commits yet: the caller asks pygit2, which says so
    (repo / "sub" / "deeper").mkdir(parents=True)
    (repo / "sub" / "a.txt").write_text("a\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    commit = head_commit(open_repo(repo))
    assert head(repo) == (commit, "")
    assert head(repo / "sub" / "deeper") == (commit, "sub/deeper/")
    git(repo, "checkout", "-q", "--detach")
    assert head(repo) == (commit, "")
    outside = tmp_path / "plain"
    outside.mkdir()
    assert head(outside) is None


def test_every_name_the_git_package_offers_is_its_module_s() -> None:
    import importlib

    from memkit import git

    for name in git.__all__:
        home = importlib.import_module(git._HOME[name])
        assert getattr(git, name) is getattr(home, name)
    assert sorted(git._HOME) == sorted(git.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        git.nothing_here  # noqa: B018
