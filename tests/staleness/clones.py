"""A project served from a local bare repository, and real partial and shallow clones of it.

The history: code, then memories verified against it, then a few commits, then
pkg/auth.py renamed to pkg/login.py with `login` changed on the way, then one more
commit. A blobless clone (`--filter=blob:none`, over a file:// URL so the filter
applies) lacks the blobs of every commit but the last; a depth-1 clone lacks every
commit but the last, the one the memories were verified at included.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
from pathlib import Path

from tests.conftest import git, write_files

TODAY = dt.date(2026, 11, 22)
AUTH = '''def login(user, password):
    """Log in."""
    return check(user, password) and True


def check(user, password):
    return user == password


class Session:
    def open(self):
        return 1
'''
LINKS = {
    "login-flow": ["pkg/auth.py::login", "pkg/auth.py"],
    "session": ["pkg/auth.py::Session.open"],
    "helper": ["pkg/other.py::helper"],
}


def build(root: Path, template_git: Path) -> tuple[Path, Path, str]:
    """(the project, its bare repository, the commit its memories were verified at)."""
    from memkit import memory as mm
    from memkit.staleness import fingerprint
    from memkit.store import Store, init

    src = root / "src"
    src.mkdir()
    shutil.copytree(template_git, src / ".git", symlinks=True)
    write_files(src, {"pkg/auth.py": AUTH, "pkg/other.py": "def helper(x):\n    return x\n"})
    commit(src, "code")
    verified = git(src, "rev-parse", "HEAD").strip()  # what fingerprints record
    init(src)
    store = Store(src)
    for mid, links in LINKS.items():
        mem = mm.new(f"About {mid}", "text", mid=mid, today=TODAY, links=links)
        store.add(dataclasses.replace(mem, verified=fingerprint(src, links, today=TODAY)))
    commit(src, "memories")
    for i in range(3):
        write_files(src, {f"pkg/more{i}.py": f"n = {i}\n"})
        commit(src, f"more {i}")
    git(src, "mv", "pkg/auth.py", "pkg/login.py")
    write_files(src, {"pkg/login.py": AUTH.replace(" and True", "")})
    commit(src, "move auth")
    write_files(src, {"pkg/other.py": "def helper(x):\n    return x + 1\n"})
    commit(src, "change helper")
    bare = root / "bare.git"
    git(root, "clone", "-q", "--bare", str(src), str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    return src, bare, verified


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def clone(bare: Path, to: Path, *how: str) -> Path:
    """A clone of `bare` over file:// (so --filter and --depth apply) at `to`."""
    git(to.parent, "clone", "-q", *how, bare.as_uri(), str(to))
    git(to, "config", "user.name", "Ada Lovelace")
    git(to, "config", "user.email", "ada@example.com")
    return to


def missing(repo: Path) -> set[str]:
    """The objects the history of HEAD names that `repo` does not have (git does not
    fetch them to answer this)."""
    out = git(repo, "rev-list", "--objects", "--all", "--missing=print")
    return {line[1:] for line in out.split() if line.startswith("?")}
