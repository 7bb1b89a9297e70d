"""The write paths section 1 of benchmarks/adversarial.py kills, and what it kills them with.

SITECUSTOMIZE goes on PYTHONPATH: in any Python process that inherits ADV_CRASH_PKG it
counts the calls memkit's own code makes into builtins and other libraries (the approach
of tests/test_crash.py) and, at call ADV_CRASH_AT, touches ADV_CRASH_HIT and kills its
own process with SIGKILL. A run with ADV_CRASH_LOG set writes the names of all calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from adv_common import SID, commit_all, git, hook, make_repo, memkit, memory_text, write

SITECUSTOMIZE = r"""
import os
if os.environ.get("ADV_CRASH_PKG"):
    import atexit, signal, sys, threading
    _at = int(os.environ.get("ADV_CRASH_AT", "0"))
    _pkg = os.environ["ADV_CRASH_PKG"]
    _log = os.environ.get("ADV_CRASH_LOG")
    _hit = os.environ.get("ADV_CRASH_HIT")
    _names = []

    def _prof(frame, event, arg):
        if event == "c_call":
            if not frame.f_code.co_filename.startswith(_pkg):
                return
            _names.append(getattr(arg, "__name__", "?"))
        elif event == "call":
            back = frame.f_back
            if back is None or not back.f_code.co_filename.startswith(_pkg):
                return
            if frame.f_code.co_filename.startswith(_pkg):
                return
            _names.append(frame.f_code.co_name)
        else:
            return
        if len(_names) == _at:
            if _hit:
                os.close(os.open(_hit, os.O_CREAT | os.O_WRONLY, 0o600))
            os.kill(os.getpid(), signal.SIGKILL)

    def _save():
        with open(_log, "w") as f:
            f.write("\n".join(_names))

    if _log:
        atexit.register(_save)
    sys.setprofile(_prof)
    threading.setprofile(_prof)
"""
# Calls that write or could leave something half done; reads are sampled too.
WRITES = {
    "mkstemp",
    "fdopen",
    "write",
    "flush",
    "fsync",
    "chmod",
    "link",
    "unlink",
    "replace",
    "mkdir",
    "copyfile",
    "flock",
    "edit",
    "create_blob_fromdisk",
    "write_tree",
    "create_commit",
    "rename",
    "rmtree",
    "atomic_write",
    "create_new",
    "write_bytes",
    "write_text",
    "run",
    "posix_spawnp",
    "add",
    "remove",
    "set_head",
}
READS = {"open", "close", "read", "read_tree", "scandir", "read_bytes", "read_text", "stat"}
STRIDE = 300
HANDLER_V1 = "def handler(event):\n    return event\n"
HANDLER_V2 = "def handler(event):\n    return dict(event)\n\n\nclass Service:\n    def run(self):\n        return 1\n"  # noqa: E501
GUIDE = (
    "# Team guide\n\n## Tests\n\nRun pytest with -q before every push.\n\n"
    "## Releases\n\nTag from main only; the changelog is generated.\n\n"
    "## Logging\n\nUse structured logging, never print.\n"
)
EDITOR = (
    "import pathlib, sys\np = pathlib.Path(sys.argv[1])\n"
    "p.write_bytes(p.read_bytes().replace(b'three times', b'five times'))\n"
)


@dataclass
class Path_:
    """One write path: how to prepare its repository and how to run it."""

    name: str
    args: list[str] = field(default_factory=list)
    stdin: str | None = None
    prepare: Callable[[Path, dict[str, str]], None] | None = None
    driver: str = "cli"  # cli, mcp, git-commit, stop
    converges: bool = True  # running it again leaves exactly the clean run's files
    commits: bool = False
    codes: tuple[int, ...] = (0,)  # what a clean run exits with


def _prepare_commit_hook(repo: Path, env: dict[str, str]) -> None:
    write(
        repo / ".memory" / "staged.md",
        memory_text("Staged rule", "Staged text.", type="convention"),
    )
    git(repo, "add", ".memory/staged.md", env=env)


def _prepare_verify_all(repo: Path, env: dict[str, str]) -> None:
    write(repo / "src" / "app.py", HANDLER_V2)


PATHS = [
    Path_(
        "add",
        [
            "add",
            "Blue green deploys",
            "--body",
            "Switch blue and green.\n" * 30,
            "--tag",
            "deploy",
            "--link",
            "src/app.py::handler",
        ],
        converges=False,
    ),
    Path_(
        "add --commit",
        ["add", "Committed note", "--body", "text", "--commit"],
        converges=False,
        commits=True,
    ),
    Path_("edit", ["edit", "retry"]),
    Path_("rm", ["rm", "gone", "team-nested"]),
    Path_("revert", ["revert", "retry", "--to", "FIRST"]),
    Path_("verify", ["verify", "retry"]),
    Path_("verify --all", ["verify", "--all"], prepare=_prepare_verify_all),
    Path_("compile", ["compile"]),
    Path_("compile --commit", ["compile", "--commit"], commits=True),
    Path_("approve (draft)", ["approve", "agent-draft"]),
    Path_("approve (revision)", ["approve", "retry-revision"]),
    Path_("import", ["import", "docs/guide.md"], converges=False),
    Path_("MCP save/update", driver="mcp", converges=False),
    # The hook regenerates the compiled files and stops the commit (exit 1) so that they
    # are reviewed: that is a clean run of it.
    Path_(
        "pre-commit hook (git commit)",
        driver="git-commit",
        prepare=_prepare_commit_hook,
        commits=True,
        codes=(0, 1),
    ),
    Path_("Stop hook", driver="stop"),
]


def template(base: Path, env: dict[str, str]) -> tuple[Path, str]:
    """The repository every write path starts from (committed twice, hooks installed, a
    session journal); returns it and the first commit."""
    repo = make_repo(base / "template" / "repo", env)
    write(repo / "src" / "app.py", HANDLER_V1)
    write(repo / "docs" / "guide.md", GUIDE)
    write(repo / "AGENTS.md", "# Team notes\n\nKeep this paragraph.\n")
    mem = repo / ".memory"
    write(
        mem / "retry.md",
        memory_text("Retry policy", "Retry twice.", type="gotcha", links=["src/app.py::handler"]),
    )
    write(mem / "gone.md", memory_text("Gone soon", "bye"))
    write(
        mem / "keep.md",
        memory_text("Keep me", "Never touched.", type="convention", links=["src/app.py"]),
    )
    write(mem / "team" / "team-nested.md", memory_text("Nested", "In a subfolder."))
    commit_all(repo, env, "first")
    first = git(repo, "rev-parse", "HEAD", env=env).strip()
    write(
        mem / "retry.md",
        memory_text(
            "Retry policy", "Retry three times.", type="gotcha", links=["src/app.py::handler"]
        ),
    )
    write(
        mem / "agent-draft.md",
        memory_text("Agent idea", "Cache the parsed config.", status="draft"),
    )
    write(
        mem / "retry-revision.md",
        memory_text(
            "Retry policy",
            "Retry three times, with jitter.",
            type="gotcha",
            status="draft",
            revises="retry",
            links=["src/app.py::handler"],
        ),
    )
    commit_all(repo, env, "second")
    done = memkit(repo, env, "hooks", "install")
    assert done.code == 0, done.show()
    edits = [("Edit", {"file_path": str(repo / "src" / "app.py"), "new_string": "dict(e)"})]
    edits += [("Bash", {"command": f"pytest -q -k case{i}"}) for i in range(3)]
    for tool, tool_input in edits:
        payload = {
            "session_id": SID,
            "cwd": str(repo),
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
        }
        done = hook(repo, env, "post-tool-use", payload)
        assert done.code == 0 and not done.err, done.show()
    return repo, first
