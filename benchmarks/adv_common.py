"""Shared pieces of benchmarks/adversarial.py: processes, repositories, snapshots, figures.

Every memkit run is a real process (`sys.executable -m memkit ...`) in an isolated
environment: HOME, XDG folders and git's global config point into the run's temp dir,
so nothing here reads or writes the machine's own settings.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TODAY = "2026-11-22"
SID = "5f1c2d3e-aaaa-bbbb-cccc-0123456789ab"
CLEAN_LINE = re.compile(r"^memkit: \S")


# ------------------------------------------------------------------ figures


@dataclass
class Figure:
    """One number a section reports; `zero` marks the ones that must be 0."""

    name: str
    value: int = 0
    zero: bool = True
    examples: list[str] = field(default_factory=list)

    def add(self, example: str, keep: int = 8) -> None:
        self.value += 1
        if len(self.examples) < keep:
            self.examples.append(example)


@dataclass
class Section:
    number: int
    title: str
    figures: dict[str, Figure] = field(default_factory=dict)
    details: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def fig(self, name: str, *, zero: bool = True) -> Figure:
        if name not in self.figures:
            self.figures[name] = Figure(name, zero=zero)
        return self.figures[name]

    def count(self, name: str, n: int = 1) -> None:
        self.fig(name, zero=False).value += n

    def failed(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.zero and f.value]

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.number,
            "title": self.title,
            "seconds": round(self.seconds, 1),
            "figures": {
                f.name: {"value": f.value, "must_be_zero": f.zero, "examples": f.examples}
                for f in self.figures.values()
            },
            "details": self.details,
        }


# ------------------------------------------------------------------ environment


def isolated_env(base: Path) -> dict[str, str]:
    """os.environ without memkit, git identity or editor settings; HOME inside `base`."""
    home = base / "home"
    (home / ".config").mkdir(parents=True, exist_ok=True)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MEMKIT_", "GIT_", "ADV_CRASH_"))
        and k not in ("EDITOR", "VISUAL", "PYTHONSTARTUP")
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
        MEMKIT_TODAY=TODAY,
        PYTHONDONTWRITEBYTECODE="1",
        LC_ALL="C.UTF-8",
    )
    return env


@dataclass
class Run:
    """What one process did."""

    argv: list[str]
    code: int | None  # None: it did not finish in time (killed)
    out: str
    err: str
    seconds: float
    peak_mb: float = 0.0  # the process's own largest resident size (not its children's)

    @property
    def hung(self) -> bool:
        return self.code is None

    @property
    def traceback(self) -> bool:
        return self.code == 3 or "Traceback" in self.out or "Traceback" in self.err

    def clean_error(self) -> bool:
        """Exit 1 or 2 with the error as memkit's one line, or click's usage error."""
        if self.code not in (1, 2) or self.traceback:
            return False
        lines = [x for x in self.err.splitlines() if x.strip()]
        if not lines:
            return False
        if lines[0].startswith("Usage: "):  # click's usage error, or a group's help
            return self.code == 2
        if lines[0].startswith("Error: "):  # click's own one-line errors (exit 1 or 2)
            return len(lines) == 1
        errors = [x for x in lines if CLEAN_LINE.match(x) and not x.startswith("memkit: warning")]
        return len(errors) == 1 and lines[-1] == errors[0]

    def show(self, limit: int = 300) -> str:
        args = " ".join(shorten(a, 60) for a in self.argv)
        what = "timed out" if self.hung else f"exit {self.code}"
        text = self.err.strip() or self.out.strip()
        if "Traceback" in text:  # where it failed and why, not the start of the stack
            lines = [x for x in text.splitlines() if "crashed: this is a bug" not in x]
            frames = [i for i, x in enumerate(lines) if x.startswith("  File ")]
            text = (
                "Traceback ... " + " | ".join(x.strip() for x in lines[frames[-1] :])
                if frames
                else text
            )
        text = text.replace("\n", "\\n")
        return f"`{args}` -> {what}: {shorten(text, limit)}"


def shorten(text: str | bytes, limit: int) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "backslashreplace")
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return text if len(text) <= limit else text[: limit - 20] + f"...({len(text)} chars)"


AS_LIMIT = 4 << 30  # address space of a process that is fed something hostile


def cap_memory() -> None:
    """preexec_fn: at most AS_LIMIT bytes of address space (a runaway read fails, not the host)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def run(
    argv: list[Any],
    *,
    cwd: Path,
    env: dict[str, str],
    stdin: bytes | str | None = None,
    timeout: float = 60,
    capped: bool = False,
) -> Run:
    """Run a process to completion or `timeout` (then kill its whole group)."""
    data = stdin.encode("utf-8", "surrogateescape") if isinstance(stdin, str) else stdin
    started = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=cap_memory if capped else None,
    )
    out, err, code, peak = _finish(proc, data, timeout)
    return Run(
        [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in argv],
        code,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        time.monotonic() - started,
        peak,
    )


def _finish(
    proc: subprocess.Popen[bytes], data: bytes | None, timeout: float
) -> tuple[bytes, bytes, int | None, float]:
    """Feed and drain `proc`, then reap it with wait4 for its own peak resident size
    (RUSAGE_CHILDREN would give the largest of every process run so far)."""
    import threading

    chunks: dict[str, bytes] = {}

    def pump(name: str, stream: Any) -> None:
        chunks[name] = stream.read()

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            proc.stdin.write(data)  # type: ignore[union-attr]
            proc.stdin.close()  # type: ignore[union-attr]

    threads = [threading.Thread(target=pump, args=(n, s)) for n, s in
               (("out", proc.stdout), ("err", proc.stderr))]  # fmt: skip
    if data is not None:
        threads.append(threading.Thread(target=feed))
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    code: int | None = None
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, 9)
            _, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    proc.returncode = code if code is not None else -9
    for t in threads:
        t.join()
    return chunks.get("out", b""), chunks.get("err", b""), code, usage.ru_maxrss / 1024


def kill_group(proc: subprocess.Popen[Any]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, 9)
    proc.wait()


def memkit(
    root: Path,
    env: dict[str, str],
    *args: str,
    stdin: bytes | str | None = None,
    timeout: float = 60,
    capped: bool = False,
) -> Run:
    return run(
        [sys.executable, "-P", "-m", "memkit", *args],
        cwd=root,
        env=env,
        stdin=stdin,
        timeout=timeout,
        capped=capped,
    )


def hook(root: Path, env: dict[str, str], event: str, payload: Any, timeout: float = 60) -> Run:
    raw = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
    return memkit(root, env, "hook", event, stdin=raw, timeout=timeout)


def git(root: Path, *args: str, env: dict[str, str] | None = None, check: bool = True) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, env=env)
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {root}: {done.stderr.strip()}")
    return done.stdout


def make_repo(root: Path, env: dict[str, str], *, memkit_init: bool = True) -> Path:
    """A git repository with a local identity and, by default, `memkit init`."""
    root.mkdir(parents=True, exist_ok=True)
    for args in (
        ["init", "-q", "-b", "main"],
        ["config", "user.name", "Adversary"],
        ["config", "user.email", "adversary@example.com"],
        ["config", "commit.gpgsign", "false"],
    ):
        git(root, *args, env=env)
    if memkit_init:
        done = memkit(root, env, "init")
        if done.code != 0:
            raise RuntimeError(f"memkit init failed: {done.show()}")
    return root


def commit_all(root: Path, env: dict[str, str], message: str) -> None:
    git(root, "add", "-A", env=env)
    git(root, "commit", "-q", "--no-verify", "--allow-empty", "-m", message, env=env)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def memory_text(title: str, body: str, **fields: Any) -> str:
    lines = [f"title: {title}"]
    for key, value in fields.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"- {v}" for v in value]
        else:
            lines.append(f"{key}: {value}")
    return "---\n" + "\n".join(lines) + "\n---\n\n" + body + "\n"


# ------------------------------------------------------------------ snapshots


def work_tree(root: Path) -> dict[str, bytes]:
    """Every file of the work tree but .git/, by relative path (links as `-> target`)."""
    out: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if dirpath == str(root):
            dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if os.path.islink(full):
                out[rel] = b"-> " + os.readlink(full).encode()
            elif os.path.isfile(full):
                with open(full, "rb") as f:
                    out[rel] = f.read()
    return out


def tree_stamps(*roots: Path, skip: tuple[str, ...] = ()) -> dict[str, tuple[int, int, str]]:
    """(size, mtime_ns, sha1 of content) of every file under `roots`, folders as (0,0,'d')."""
    out: dict[str, tuple[int, int, str]] = {}
    for root in roots:
        if not root.exists():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not os.path.join(dirpath, d).startswith(skip)]
            out[dirpath] = (0, 0, "d")
            for name in filenames:
                full = os.path.join(dirpath, name)
                if full.startswith(skip):
                    continue
                st = os.lstat(full)
                digest = ""
                if os.path.isfile(full) and not os.path.islink(full):
                    with open(full, "rb") as f:
                        digest = hashlib.sha1(f.read()).hexdigest()
                out[full] = (st.st_size, st.st_mtime_ns, digest)
    return out


def diff_stamps(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    changed = [f"new {p}" for p in after if p not in before]
    changed += [f"gone {p}" for p in before if p not in after]
    changed += [f"changed {p}" for p in before if p in after and before[p] != after[p]]
    return sorted(changed)


def rmtree(path: Path) -> None:
    if path.is_symlink():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def run_alone(run_section: Any, summary: Any) -> None:
    """Run one section on its own (`python adv_NAME.py`): figures, details, exit 1 on a failure."""
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        e = isolated_env(Path(tmp))
        e["PYTHONPATH"] = os.environ.get("PYTHONPATH") or str(Path(__file__).resolve().parents[1])
        sec = run_section(Path(tmp) / "section", e)
        print(summary(sec))
        print("\n".join(sec.details))
        for fig in sec.figures.values():
            if fig.value:
                print(f"  {fig.name}: {fig.value}", *fig.examples, sep="\n    ")
    sys.exit(1 if sec.failed() else 0)
