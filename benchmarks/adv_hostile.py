"""Section 4 of benchmarks/adversarial.py: hostile repositories, one per threat item.

Each repository is built next to an `outside/` folder of canaries: files whose content
is a random token (their access time is set before their modification time, so any read
moves it), a FIFO watched by a thread that notices any process opening it, and folders
that links in the repository point into. Every command is run over each repository; then:
a marker file that planted code would create, the tokens in any output or file of the
repository or memkit's private folder, the canaries' access times, the FIFO's watcher,
and a snapshot of `outside/` and of HOME tell what memkit ran, read or wrote outside.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets as rnd
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adv_common import (
    SID,
    Run,
    Section,
    commit_all,
    git,
    make_repo,
    memkit,
    memory_text,
    run,
    write,
)
from adv_mcp import Mcp
from adv_threats import THREATS, Ctx

APP = "def handler(event):\n    return event\n"
EDITOR = (
    "import pathlib, sys\np = pathlib.Path(sys.argv[1])\np.write_text(p.read_text() + 'More.\\n')\n"
)


# fmt: off
FULL = [
    ("init",), ("list",),
    ("list", "--json"),
    ("show", "retry"),
    ("validate",),
    ("check",),
    ("check", "--json"),
    ("compile", "--dry-run"),
    ("compile", "--check"),
    ("compile",),
    ("verify", "--all"),
    ("search", "retry"),
    ("context", "--file", "src/app.py", "--query", "retry"),
    ("index", "--rebuild"),
    ("log",),
    ("diff",),
    ("add", "Adversary note", "--body", "text"),
    ("edit", "retry"),
    ("approve",),
    ("approve", "draft"),
    ("revert", "retry"),
    ("import", "."),
    ("hooks", "install", "--mcp", "--claude", "--merge-driver"),
    ("git commit",),
    ("hook", "session-start"),
    ("hook", "post-tool-use"),
    ("hook", "stop"),
    ("hook", "session-end"),
    ("mcp",),
    ("rm", "adversary-note"),
    ("log", "retry"), ("show", "retry", "--at", "HEAD~1"), ("verify", "retry"),
]
# fmt: on
QUICK = [
    ("validate",),
    ("compile",),
    ("search", "retry"),
    ("import", "."),
    ("hooks", "install", "--mcp", "--claude"),
    ("git commit",),
    ("hook", "session-start"),
    ("mcp",),
]


@dataclass
class Result:
    name: str
    commands: int = 0
    code_ran: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)
    planted: list[str] = field(default_factory=list)
    slowest: dict[str, float] = field(default_factory=dict)  # command label -> seconds


def _noatime_read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOATIME", 0) | os.O_NONBLOCK)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def outside_state(outside: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under `outside/`: kind, size, mtime, content hash and access time."""
    out: dict[str, tuple[Any, ...]] = {}
    for dirpath, dirnames, filenames in os.walk(outside):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            if os.path.isfile(full) and not os.path.islink(full):
                digest = hashlib.sha1(_noatime_read(full)).hexdigest()
                out[full] = ("file", st.st_size, st.st_mtime_ns, digest, st.st_atime_ns)
            else:
                out[full] = ("other", st.st_mode, 0, "", 0)
    return out


def arm(outside: Path) -> dict[str, tuple[Any, ...]]:
    """Set every canary's access time before its modification time (relatime then moves it
    on the next read), and return the state of `outside/`."""
    for dirpath, _, filenames in os.walk(outside):
        for f in filenames:
            full = os.path.join(dirpath, f)
            if os.path.isfile(full) and not os.path.islink(full):
                mtime = os.stat(full).st_mtime_ns
                os.utime(full, ns=(mtime - 864_000 * 10**9, mtime))
    return outside_state(outside)


class Hostile:
    def __init__(self, base: Path, env: dict[str, str], *, quick: bool, timeout: float) -> None:
        self.base = base / "hostile"
        self.quick = quick
        self.timeout = timeout
        home = self.base / "home"
        self.env = {
            **env,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        }
        (home / ".config").mkdir(parents=True, exist_ok=True)
        (home / ".ssh").mkdir(exist_ok=True)
        self.home = home

    def build(self, n: int, name: str, threat: Callable[[Ctx], None]) -> Ctx:
        where = self.base / f"r{n:02d}"
        token = f"CANARY-{rnd.token_hex(12)}"
        editor = write(where / "editor.py", EDITOR)
        env = {**self.env, "ADV_CANARY": token, "EDITOR": f"{sys.executable} {editor}"}
        repo = make_repo(where / "repo", env)
        c = Ctx(
            repo,
            where / "outside",
            where / "code-ran",
            token,
            env,
            planted=f"PLANTED-{rnd.token_hex(12)}",
        )
        c.outside.mkdir()
        write(repo / "src" / "app.py", APP)
        write(
            repo / ".memory" / "retry.md",
            memory_text(
                "Retry policy", "Retry twice.", type="gotcha", links=["src/app.py::handler"]
            ),
        )
        write(repo / ".memory" / "draft.md", memory_text("Draft idea", "Maybe.", status="draft"))
        commit_all(repo, env, "base")
        write(
            repo / ".memory" / "retry.md",
            memory_text(
                "Retry policy", "Retry three times.", type="gotcha", links=["src/app.py::handler"]
            ),
        )
        commit_all(repo, env, "second")
        threat(c)
        try:
            commit_all(repo, env, "hostile")
        except RuntimeError as e:  # a FIFO or a huge file git will not take: keep going
            c.notes.append(str(e)[:200])
        return c

    def watch(self, c: Ctx) -> list[threading.Thread]:
        """A thread per outside FIFO that blocks until some process opens it to read."""
        c.stop = threading.Event()  # type: ignore[attr-defined]
        threads = []
        for fifo in c.fifos:

            def wait(path: Path = fifo) -> None:
                fd = os.open(path, os.O_WRONLY)  # returns once a reader opened it
                if not c.stop.is_set():  # type: ignore[attr-defined]
                    c.fifo_opened.append(path.name)
                    with contextlib.suppress(OSError):
                        os.write(fd, f"{c.token}\n".encode())
                os.close(fd)

            t = threading.Thread(target=wait, daemon=True)
            t.start()
            threads.append(t)
        return threads

    def unwatch(self, c: Ctx, threads: list[threading.Thread]) -> None:
        c.stop.set()  # type: ignore[attr-defined]
        for fifo, t in zip(c.fifos, threads, strict=True):
            if t.is_alive():
                fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
                t.join(5)
                os.close(fd)

    def command(self, c: Ctx, cmd: tuple[str, ...]) -> Run:
        t = self.timeout * (3 if c.render_launcher and not self.quick else 1)
        if cmd == ("git commit",):
            git(c.repo, "add", "-A", env=c.env, check=False)
            return run(
                ["git", "commit", "-q", "-m", "hostile run"],
                cwd=c.repo,
                env=c.env,
                timeout=t,
                capped=True,
            )
        if cmd[0] == "hook":
            event = cmd[1]
            payload: dict[str, Any] = {
                "session_id": SID,
                "cwd": str(c.repo),
                "hook_event_name": event,
            }
            if event == "post-tool-use":
                payload.update(
                    tool_name="Edit",
                    tool_input={
                        "file_path": str(c.repo / "src" / "app.py"),
                        "new_string": "return 1",
                    },
                )
            return run(
                [sys.executable, "-P", "-m", "memkit", "hook", event],
                cwd=c.repo,
                env=c.env,
                stdin=json.dumps(payload),
                timeout=t,
                capped=True,
            )
        if cmd == ("mcp",):
            return self._mcp(c, t)
        if c.render_launcher and cmd[0] == "compile" and (self.quick or len(cmd) > 1):
            # The 60 s limit is shown by `compile` (and the hook) in a full run; the other
            # compiles, and all in a quick run, stop after 5 s.
            code = (
                "import sys\nfrom memkit.compile import render\nrender.RENDER_SECONDS = 5\n"
                "from memkit.cli import main\nmain(sys.argv[1:])\n"
            )
            return run(
                [sys.executable, "-c", code, *cmd], cwd=c.repo, env=c.env, timeout=t, capped=True
            )
        return memkit(c.repo, c.env, *cmd, timeout=t, capped=True)

    def _mcp(self, c: Ctx, timeout: float) -> Run:
        client = Mcp(c.repo, c.env, capped=True)
        texts = []
        started = time.monotonic()
        if client.initialize(timeout):
            for tool, args in (
                ("search_memories", {"query": "retry"}),
                ("memories_for_files", {"files": ["src/app.py", "CLAUDE.md"]}),
                ("list_stale", {}),
                ("get_memory", {"id": "leak"}),
                ("save_memory", {"title": "Agent note", "body": "text"}),
            ):
                status, text = client.call(tool, args, timeout)
                texts.append(f"{tool}:{status}:{text}")
                if status in ("dead", "timeout"):
                    break
        code, err = client.close(timeout)
        hung = any(":timeout:" in x for x in texts)
        return Run(
            ["memkit", "mcp"],
            None if hung else code,
            "\n".join(texts),
            err,
            time.monotonic() - started,
        )

    def go(self, n: int, name: str, threat: Callable[[Ctx], None]) -> Result:
        res = Result(name)
        c = self.build(n, name, threat)
        state = arm(c.outside)
        threads = self.watch(c)
        for cmd in QUICK if self.quick else FULL:
            r = self.command(c, cmd)
            res.commands += 1
            what = "git commit` (the pre-commit hook)" if cmd == ("git commit",) else None
            label = f"{name}: `{what or 'memkit ' + ' '.join(cmd) + '`'}"
            res.slowest[label] = r.seconds
            if r.hung:
                res.hangs.append(f"{label} took over {r.seconds:.0f} s")
            if r.traceback:
                res.tracebacks.append(f"{label}: {r.show(300)}")
            if c.token in r.out + r.err:
                res.reads.append(f"{label} printed the canary of a file outside")
            if c.planted in r.out + r.err:
                res.planted.append(f"{label} used a planted parse cache")
            state = self._outside(c, label, state, res)
        self.unwatch(c, threads)
        if c.marker.exists():
            res.code_ran.append(f"{name}: planted code ran (the marker file exists)")
        res.reads += self._tokens_inside(c, c.token, "a canary from outside")
        planted = self._tokens_inside(c, c.planted, "planted data")
        res.planted += [x for x in planted if "/.memory/.cache/" not in x and "a commit" not in x]
        return res

    def _outside(self, c: Ctx, label: str, before: dict[str, tuple[Any, ...]],
                 res: Result) -> dict[str, tuple[Any, ...]]:  # fmt: skip
        """What the last command did to `outside/`: FIFOs opened, files read, written, made."""
        opened, c.fifo_opened[:] = list(c.fifo_opened), []
        res.reads += [f"{label} opened the FIFO outside/{f}" for f in opened]
        after = outside_state(c.outside)
        for path, stamp in before.items():
            rel = Path(path).relative_to(c.outside.parent)
            now = after.get(path)
            if now is None:
                res.writes.append(f"{label} deleted {rel}")
            elif stamp[:4] != now[:4]:
                res.writes.append(f"{label} changed {rel}")
            elif stamp[0] == "file" and stamp[4] != now[4]:
                res.reads.append(f"{label} read {rel} (its access time moved)")
        res.writes += [f"{label} created {Path(p).relative_to(c.outside.parent)}"
                       for p in after if p not in before]  # fmt: skip
        return arm(c.outside)

    def _tokens_inside(self, c: Ctx, token: str, what: str) -> list[str]:
        """Files of the repository (links not followed) or of git's objects holding `token`."""
        found = []
        for dirpath, _, filenames in os.walk(c.repo):
            for name in filenames:
                full = os.path.join(dirpath, name)
                if os.path.islink(full) or not os.path.isfile(full):
                    continue
                try:
                    data = _noatime_read(full)
                except OSError:
                    continue
                if token.encode() in data:
                    found.append(
                        f"{c.repo.parent.name}/{os.path.relpath(full, c.repo)} holds {what}"
                    )
        revs = git(c.repo, "rev-list", "--all", env=c.env, check=False).split()
        grep = run(["git", "grep", "-l", token, *revs], cwd=c.repo, env=c.env)
        if grep.code == 0 and grep.out.strip():
            found.append(f"{c.repo.parent.name}: a commit holds {what}")
        return found


def run_section(
    base: Path, env: dict[str, str], *, quick: bool, jobs: int, timeout: float
) -> Section:
    section = Section(4, "hostile repositories")
    h = Hostile(base, env, quick=quick, timeout=timeout)
    home_before = outside_state(h.home)
    with ThreadPoolExecutor(jobs) as pool:
        results = list(
            pool.map(lambda a: h.go(*a), [(n, k, v) for n, (k, v) in enumerate(THREATS.items())])
        )
    home_after = outside_state(h.home)
    home_changes = [
        p
        for p in set(home_before) | set(home_after)
        if home_before.get(p, ())[:4] != home_after.get(p, ())[:4]
    ]
    figs = {
        "code executions": section.fig("code executions"),
        "reads outside the repository": section.fig("reads outside the repository"),
        "writes outside the repository": section.fig("writes outside the repository"),
        "hangs": section.fig("hangs"),
        "tracebacks": section.fig("tracebacks"),
        "planted data used": section.fig("planted data used"),
    }
    for r in results:
        for key, items in (
            ("code executions", r.code_ran),
            ("reads outside the repository", r.reads),
            ("writes outside the repository", r.writes),
            ("hangs", r.hangs),
            ("tracebacks", r.tracebacks),
            ("planted data used", r.planted),
        ):
            for x in items:
                figs[key].add(x, keep=30)
        bad = len(r.code_ran + r.reads + r.writes + r.hangs + r.tracebacks + r.planted)
        section.details.append(f"{r.name}: {r.commands} commands, {bad} problem(s)")
    for p in sorted(home_changes)[:10]:
        figs["writes outside the repository"].add(f"HOME changed: {p}")
    section.count("repositories", len(results))
    section.count("commands run", sum(r.commands for r in results))
    section.details.append(
        "the looping template: `compile --check` and `--dry-run` (in a quick run `compile` "
        "too) run with a 5 s render limit (memkit.compile.render.RENDER_SECONDS set by "
        "a launcher); "
        "`compile` and the pre-commit hook show memkit's own 60 s limit"
    )
    slow = sorted(((s, c) for r in results for c, s in r.slowest.items()), reverse=True)[:4]
    section.details.append("slowest: " + ", ".join(f"{c} {s:.0f} s" for s, c in slow))
    return section


def summary(section: Section) -> str:
    f = section.figures
    return (
        f"{f['repositories'].value} repos, {f['commands run'].value} commands: code "
        f"executions {f['code executions'].value}, reads outside "
        f"{f['reads outside the repository'].value}, writes outside "
        f"{f['writes outside the repository'].value}, hangs {f['hangs'].value}, tracebacks "
        f"{f['tracebacks'].value}, planted data used {f['planted data used'].value}"
    )
