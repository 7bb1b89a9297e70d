"""Section of benchmarks/adversarial.py: team stores and served repositories built to hurt.

Each case is a store (a bare repository on a local path, written object by object with
pygit2) or a branch of the project itself, and a project that reads it; every command
that loads stores is then run as a real process with a time limit and an address-space
cap:

- tree bomb: 8 levels of 10 folders over 10 files, one tree object per level reused
  (10^9 paths from about 10 objects); sync, then pinned in stores.lock as a teammate's
  commit would, list, compile, search, stores and compile --check;
- deep: a memory 9 folders down; wide: 20,000 files;
- big blob: one 64 MB blob under 40 memory names;
- transports: `fd::17`, `ext::`, a `NAME::` helper, http://, git:// as the store url;
- pins: a store's `pin: true, priority: 100` memory against the project's own under a
  small budget;
- served branch: a tree bomb and a big blob committed under the project's own .memory/
  on a branch, then `diff`, `log` and `show --at` over it.

Figures that must be 0: commands that hung, tracebacks, errors that are not one clean
line, project memories missing from what a command printed or wrote, refused transports
that were fetched anyway, project memories shortened by a store's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adv_common import Run, Section, git, make_repo, memkit, write

OWN_ID = "own-rule"
OWN = "---\ntitle: Our own rule stands\ntype: convention\n---\n\n" + "Own words. " * 150 + "\n"
MEMORY = b"---\ntitle: Team rule %d\ntype: convention\n---\n\nBody %d.\n"
LOUD = b"---\ntitle: Team rule above all\ntype: convention\npin: true\npriority: 100\n---\n\n"
TRANSPORTS = [
    "fd::17",
    "ext::sh -c sleep% 600",
    "persistent-https::example.invalid/acme/memory.git",
    "http://127.0.0.1:9/acme/memory.git",
    "git://127.0.0.1:9/acme/memory.git",
]


def _pygit2() -> Any:
    import pygit2

    return pygit2


def _tree(repo: Any, entries: dict[str, tuple[Any, int]]) -> Any:
    tb = repo.TreeBuilder()
    for name, (oid, mode) in sorted(entries.items()):
        tb.insert(name, oid, mode)
    return tb.write()


def _modes() -> tuple[int, int]:
    mode = _pygit2().enums.FileMode
    return int(mode.TREE), int(mode.BLOB)


def _bomb(repo: Any, levels: int, fan: int, files: int, blob: Any) -> Any:
    tree_mode, blob_mode = _modes()
    oid = _tree(repo, {f"f{i}.md": (blob, blob_mode) for i in range(files)})
    for _ in range(levels):
        oid = _tree(repo, {f"d{i}": (oid, tree_mode) for i in range(fan)})
    return oid


def _store(path: Path, folder: Callable[[Any], Any]) -> str:
    """A bare store at `path` whose .memory is folder(repo); returns its commit."""
    pygit2 = _pygit2()
    repo = pygit2.init_repository(str(path), bare=True, initial_head="main")
    tree_mode, blob_mode = _modes()
    good = repo.create_blob(MEMORY % (0, 0))
    inner = folder(repo)
    memories = _tree(repo, {"bad": (inner, tree_mode), "good.md": (good, blob_mode)})
    root = _tree(repo, {".memory": (memories, tree_mode)})
    sig = pygit2.Signature("Team", "team@example.com", 1_700_000_000, 0)
    return str(repo.create_commit("refs/heads/main", sig, sig, "store", root, []))


def _project(base: Path, env: dict[str, str], name: str, url: str, extra: str = "") -> Path:
    root = make_repo(base / name, env)
    write(root / ".memory" / f"{OWN_ID}.md", OWN)
    write(root / ".memory" / "config.toml", f'{extra}[stores.team]\nurl = "{url}"\nref = "main"\n')
    return root


def _pin(root: Path, url: str, commit: str) -> None:
    """The pin a teammate committed before the store went bad."""
    write(
        root / ".memory" / "stores.lock",
        f'[stores.team]\nurl = "{url}"\ncommit = "{commit}"\n',
    )


class Cases:
    def __init__(self, base: Path, env: dict[str, str], section: Section, timeout: float) -> None:
        self.base, self.env, self.s, self.timeout = base, env, section, timeout
        self.peak_mb = 0.0

    def run(self, root: Path, *args: str, ok: tuple[int, ...] = (0,), own: bool = False) -> Run:
        """One memkit command: hung, traceback, unclean error and the project's memory
        missing (when `own`) are counted. `stores` exits 1 for what it found, said in
        one warning line per problem."""
        r = memkit(root, self.env, *args, timeout=self.timeout, capped=True)
        self.peak_mb = max(self.peak_mb, r.peak_mb)
        self.s.count("commands run")
        self.s.details.append(f"{root.name}: memkit {' '.join(args)}: {r.seconds:.1f} s, "
                              f"exit {r.code}")  # fmt: skip
        if r.hung:
            self.s.fig("hung").add(r.show())
        elif r.traceback:
            self.s.fig("tracebacks").add(r.show())
        elif r.code not in ok or (r.code != 0 and not (r.clean_error() or _found(r))):
            self.s.fig("not one clean line").add(r.show())
        if own and not r.hung and OWN_ID not in r.out + _agents(root):
            self.s.fig("project memories missing").add(r.show())
        return r

    def loads(self, root: Path, url: str, commit: str, name: str) -> None:
        """sync, then the same store pinned, then every command that loads stores."""
        sync = self.run(root, "sync", ok=(1,))
        if "store team" not in sync.err:
            self.s.fig("store over a limit not named").add(f"{name}: {sync.show()}")
        _pin(root, url, commit)
        self.run(root, "sync", ok=(1,))
        self.run(root, "list", own=True)
        self.run(root, "compile", own=True)
        self.run(root, "search", "own rule", own=True)
        self.run(root, "stores", ok=(1,))
        self.run(root, "compile", "--check", own=True)

    def bomb(self) -> None:
        bare = self.base / "bomb.git"
        commit = _store(bare, lambda r: _bomb(r, 8, 10, 10, r.create_blob(MEMORY % (1, 1))))
        self.loads(_project(self.base, self.env, "bomb", str(bare)), str(bare), commit, "bomb")

    def deep_and_wide(self) -> None:
        tree_mode, blob_mode = _modes()

        def deep(repo: Any) -> Any:
            oid = _tree(repo, {"deep.md": (repo.create_blob(MEMORY % (2, 2)), blob_mode)})
            for i in range(9):
                oid = _tree(repo, {f"level{i}": (oid, tree_mode)})
            return oid

        def wide(repo: Any) -> Any:
            return _bomb(repo, 2, 100, 2, repo.create_blob(b"x"))

        for name, build in (("deep", deep), ("wide", wide)):
            bare = self.base / f"{name}.git"
            commit = _store(bare, build)
            root = _project(self.base, self.env, name, str(bare))
            self.loads(root, str(bare), commit, name)

    def big_blob(self) -> None:
        _, blob_mode = _modes()

        def big(repo: Any) -> Any:
            blob = repo.create_blob(MEMORY % (3, 3) + os.urandom(32 << 20).hex().encode())
            return _tree(repo, {f"big{i}.md": (blob, blob_mode) for i in range(40)})

        bare = self.base / "big.git"
        _store(bare, big)
        root = _project(self.base, self.env, "big", str(bare))
        sync = self.run(root, "sync")
        self.s.count("big blob: files reported too large", sync.err.count("larger than"))
        for args in (("list",), ("compile",), ("search", "own rule")):
            self.run(root, *args, own=True)

    def transports(self) -> None:
        for n, url in enumerate(TRANSPORTS):
            root = _project(self.base, self.env, f"transport{n}", url)
            r = self.run(root, "sync", ok=(2,))
            if r.code != 2 or "config.toml:" not in r.err:
                self.s.fig("transports not refused at the config line").add(r.show())
            if (root / ".memory" / "stores.lock").exists():
                self.s.fig("refused transports pinned").add(url)

    def pins(self) -> None:
        _, blob_mode = _modes()

        def loud(repo: Any) -> Any:
            blob = repo.create_blob(LOUD + b"Team words. " * 150 + b"\n")
            return _tree(repo, {"team-loud.md": (blob, blob_mode)})

        bare = self.base / "pins.git"
        _store(bare, loud)
        extra = '[compile]\nbudgets.agents = "2500 bytes"\n\n'
        root = _project(self.base, self.env, "pins", str(bare), extra)
        self.run(root, "sync")
        self.run(root, "compile", "-t", "agents", own=True)
        if OWN.split("\n\n", 1)[1].strip() not in _agents(root):
            self.s.fig("project memories shortened by a store's").add("pins: AGENTS.md")

    def served_branch(self) -> None:
        """The project's own history holds the bomb: a pull request's branch."""
        root = make_repo(self.base / "served", self.env)
        write(root / ".memory" / f"{OWN_ID}.md", OWN)
        git(root, "add", "-A", env=self.env)
        git(root, "commit", "-qm", "own", env=self.env)
        repo = _pygit2().Repository(str(root))
        tree_mode, blob_mode = _modes()
        bomb = _bomb(repo, 8, 10, 10, repo.create_blob(MEMORY % (4, 4)))
        big = repo.create_blob(MEMORY % (5, 5) + os.urandom(32 << 20).hex().encode())
        head = repo.head.peel(_pygit2().Commit)
        tb = repo.TreeBuilder(head.tree)
        memories = repo.TreeBuilder(head.tree[".memory"])
        memories.insert("bomb", bomb, tree_mode)
        for i in range(40):
            memories.insert(f"big{i}.md", big, blob_mode)
        tb.insert(".memory", memories.write(), tree_mode)
        sig = _pygit2().Signature("Outsider", "out@example.com", 1_700_000_100, 0)
        repo.create_commit("refs/heads/pr", sig, sig, "pr", tb.write(), [head.id])
        self.run(root, "diff", "main", "pr", ok=(0, 1, 2))
        self.run(root, "show", OWN_ID, "--at", "pr", ok=(0, 2))
        git(root, "symbolic-ref", "HEAD", "refs/heads/pr", env=self.env)  # no checkout
        self.run(root, "log", ok=(0, 2))
        self.run(root, "log", OWN_ID, ok=(0, 2))


def _found(r: Run) -> bool:
    """`memkit stores` exiting 1 with one warning line for the one bad store."""
    lines = [x for x in r.err.splitlines() if x.strip()]
    return r.argv[-1] == "stores" and r.code == 1 and len(lines) == 1 and "store team" in lines[0]


def _agents(root: Path) -> str:
    try:
        return (root / "AGENTS.md").read_text("utf-8")
    except OSError:
        return ""


def run_section(base: Path, env: dict[str, str], *, timeout: float, number: int = 6) -> Section:
    section = Section(number, "team stores and served repositories")
    for name in (
        "hung",
        "tracebacks",
        "not one clean line",
        "project memories missing",
        "store over a limit not named",
        "transports not refused at the config line",
        "refused transports pinned",
        "project memories shortened by a store's",
    ):
        section.fig(name)  # fmt: skip
    work = base / "stores"
    work.mkdir(parents=True, exist_ok=True)
    cases = Cases(work, env, section, timeout)
    for case in (cases.bomb, cases.deep_and_wide, cases.big_blob, cases.transports, cases.pins,
                 cases.served_branch):  # fmt: skip
        t0 = time.monotonic()
        case()
        section.details.append(f"case {case.__name__}: {time.monotonic() - t0:.1f} s")
    section.details.append(f"largest memkit process: {cases.peak_mb:.0f} MB resident")
    return section


def summary(section: Section) -> str:
    f = section.figures
    must = ("hung", "tracebacks", "not one clean line", "project memories missing",
            "store over a limit not named", "transports not refused at the config line",
            "refused transports pinned", "project memories shortened by a store's")  # fmt: skip
    return f"{f['commands run'].value} commands; " + ", ".join(
        f"{name} {f[name].value}" for name in must
    )
