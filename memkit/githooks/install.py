"""Install and remove memkit's git hooks (the merge driver: githooks.mergedriver).

`install(root)` writes the pre-commit and pre-merge-commit hooks into the repository's
hooks directory (as git finds it: core.hooksPath, linked worktrees). pre-merge-commit
runs on a merge git completes by itself, so a clean merge of two branches that each
changed memories regenerates the compiled files too. A hook that is not memkit's is
never overwritten: it is renamed to `<hook>.before-memkit` and memkit's hook runs it
first. memkit's hooks carry a marker line, so `uninstall(root)` removes only its own
and puts the chained hooks back. Both are idempotent. Each returns one line per change.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from memkit.errors import MemkitError
from memkit.fsutil import atomic_write

HOOK = "pre-commit"
# The hooks memkit installs; each chains a hook of the user's named `<hook>.before-memkit`.
INSTALLED = ("pre-commit", "pre-merge-commit")
MARKER = "# memkit-managed hook"

# The hook's text (hook.sh, with the awk program precheck.awk spliced in): files of their
# own, so that `sh -n`, shellcheck and `awk -f` can read them as they are.
_HERE = os.path.dirname(os.path.abspath(__file__))
_SLOT = re.compile(r"@(HOOK|PYTHON|ROOT|AWK|CODE)@")

# `python -c` rather than `-m`: runpy is not needed, and a missing memkit is a warning.
# `-P` (safe path): without it `-c` puts the work tree (git runs hooks at its top) first
# on the import path, and a `memkit/` folder or `memkit.py` a branch carries would run
# in the hook's place at the next commit: git never versions hooks so that checking
# out code cannot run it. (`-I` would also drop the user site memkit may live in.)
_CODE = """import sys
try:
    from memkit.githooks.fastpath import main
except ImportError:
    print("memkit: hook skipped: memkit is not installed for", sys.executable,
          file=sys.stderr)
    sys.exit(0)
sys.exit(main(sys.argv[1:]))"""


def run_git(cwd: Path, *args: str) -> str:
    """`git ARGS` in `cwd`: its stdout, stripped (a path not UTF-8 kept, surrogate-escaped);
    MemkitError naming the command if it fails."""
    try:
        out = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, errors="surrogateescape"
        )
    except FileNotFoundError:
        raise MemkitError("git is not installed or not on PATH; install git first") from None
    if out.returncode != 0:
        raise MemkitError(f"`git {' '.join(args)}` failed in {cwd}: {out.stderr.strip()}")
    return out.stdout.strip()


def toplevel(root: Path) -> Path:
    """The top of the work tree containing `root`; MemkitError outside one."""
    try:
        top = run_git(root, "rev-parse", "--show-toplevel")
    except MemkitError:
        raise MemkitError(
            f"{root} is not inside a git work tree; run `git init` there first"
        ) from None
    if not top:
        raise MemkitError(f"{root} is in a bare repository; memkit hooks need a work tree")
    return Path(top).resolve()


def hooks_dir(root: Path) -> Path:
    """Where git looks for hooks: core.hooksPath if set, else the common .git/hooks."""
    top = toplevel(root)
    found = Path(run_git(top, "rev-parse", "--git-path", "hooks"))
    return (top / found).resolve() if not found.is_absolute() else found


def is_memkit_hook(path: Path) -> bool:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as f:
            return MARKER in f.read(4096)
    except OSError:
        return False


def hook_script(root: Path, python: str | None = None, hook: str = HOOK) -> str:
    """The text of `hook` for a store at `root` (its path kept relative to the top)."""
    rel = os.path.relpath(root.resolve(), toplevel(root))
    values = {
        "HOOK": hook,
        "PYTHON": shlex.quote(python or sys.executable),
        "ROOT": shlex.quote(rel.replace(os.sep, "/")),
        "AWK": _read("precheck.awk"),
        "CODE": _CODE,
    }
    return _SLOT.sub(lambda m: values[m[1]], _read("hook.sh"))


def _read(name: str) -> str:
    with open(os.path.join(_HERE, name), encoding="utf-8") as f:
        return f.read()


def install(root: Path, *, python: str | None = None) -> list[str]:
    """Install memkit's hooks (INSTALLED), chaining any hook already there. Idempotent."""
    hdir = hooks_dir(root)
    for name in INSTALLED:  # refuse before changing anything
        hook, chained = hdir / name, hdir / f"{name}.before-memkit"
        if hook.exists() and not is_memkit_hook(hook) and chained.exists():
            raise MemkitError(
                f"{hook} is not memkit's and {chained} already exists; move one of them "
                "aside, then run `memkit hooks install` again"
            )
    changes: list[str] = []
    for name in INSTALLED:
        changes += _install_one(root, hdir, name, python)
    return changes


def _install_one(root: Path, hdir: Path, name: str, python: str | None) -> list[str]:
    hook, chained = hdir / name, hdir / f"{name}.before-memkit"
    text = hook_script(root, python, name)
    changes: list[str] = []
    if hook.exists() and not is_memkit_hook(hook):
        os.replace(hook, chained)
        changes.append(f"kept your hook: {hook} -> {chained} (runs first)")
    try:
        current = hook.read_text("utf-8")
    except FileNotFoundError:
        current = None
    if current != text or not os.access(hook, os.X_OK):
        atomic_write(hook, text.encode("utf-8"), mode=0o755)
        changes.append(f"{'updated' if current else 'installed'} {hook}")
    return changes


def uninstall(root: Path) -> list[str]:
    """Remove memkit's hooks and restore the chained ones; leave other hooks alone."""
    hdir = hooks_dir(root)
    changes: list[str] = []
    for name in INSTALLED:
        hook, chained = hdir / name, hdir / f"{name}.before-memkit"
        if hook.exists() and is_memkit_hook(hook):
            hook.unlink()
            changes.append(f"removed {hook}")
            if chained.exists():
                os.replace(chained, hook)
                changes.append(f"restored your hook: {chained} -> {hook}")
        elif hook.exists() and name == HOOK:
            changes.append(f"left {hook} alone: it is not memkit's")
    return changes
