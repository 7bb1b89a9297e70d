"""Install and remove memkit's git hooks, and the merge driver for compiled files.

`install(root)` writes a pre-commit hook into the repository's hooks directory (as
git finds it: core.hooksPath, linked worktrees). A hook that is not memkit's is never
overwritten: it is renamed to `pre-commit.before-memkit` and memkit's hook runs it
first. memkit's hook carries a marker line, so `uninstall(root)` removes only its own
and puts the chained hook back. Both are idempotent. Each returns one line per change.
"""

from __future__ import annotations

import datetime as dt
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.errors import MemkitError
from memkit.fsutil import atomic_write
from memkit.githooks.fastpath import is_output, linked_files, memory_stamps, read_index, relevant
from memkit.staleness.verdict import LinkStatus
from memkit.walk import MEMORY_DIR

if TYPE_CHECKING:
    from memkit.errors import InvalidMemoryError
    from memkit.store import Store

HOOK = "pre-commit"
CHAINED = "pre-commit.before-memkit"
MARKER = "# memkit-managed hook"

_SCRIPT = """\
#!/bin/sh
{marker}: installed by `memkit hooks install`, removed by `memkit hooks uninstall`.
# It is rewritten on reinstall: put your own checks in {chained}, which runs first.
chained="$(dirname "$0")/{chained}"
if [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi
python={python}
if [ -x "$python" ]; then
    exec "$python" -c '{code}' pre-commit --root {root}
elif command -v memkit >/dev/null 2>&1; then
    exec memkit --root {root} hooks run pre-commit
fi
echo "memkit: pre-commit hook skipped: memkit is not installed ($python is gone);" \\
    "reinstall it and run \\`memkit hooks install\\`, or \\`memkit hooks uninstall\\`" >&2
exit 0
"""


# `python -c` rather than `-m`: runpy is not needed, and a missing memkit is a warning.
_CODE = """import sys
try:
    from memkit.githooks.fastpath import main
except ImportError:
    print("memkit: pre-commit hook skipped: memkit is not installed for", sys.executable,
          file=sys.stderr)
    sys.exit(0)
sys.exit(main(sys.argv[1:]))"""


def _git(cwd: Path, *args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise MemkitError("git is not installed or not on PATH; install git first") from None
    if out.returncode != 0:
        raise MemkitError(f"`git {' '.join(args)}` failed in {cwd}: {out.stderr.strip()}")
    return out.stdout.strip()


def toplevel(root: Path) -> Path:
    """The top of the work tree containing `root`; MemkitError outside one."""
    try:
        top = _git(root, "rev-parse", "--show-toplevel")
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
    found = Path(_git(top, "rev-parse", "--git-path", "hooks"))
    return (top / found).resolve() if not found.is_absolute() else found


def is_memkit_hook(path: Path) -> bool:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as f:
            return MARKER in f.read(4096)
    except OSError:
        return False


def hook_script(root: Path, python: str | None = None) -> str:
    """The pre-commit hook text for a store at `root` (its path kept relative to the top)."""
    rel = os.path.relpath(root.resolve(), toplevel(root))
    return _SCRIPT.format(
        marker=MARKER,
        chained=CHAINED,
        code=_CODE,
        python=shlex.quote(python or sys.executable),
        root=shlex.quote(rel.replace(os.sep, "/")),
    )


def install(root: Path, *, python: str | None = None) -> list[str]:
    """Install the pre-commit hook, chaining any hook already there. Idempotent."""
    hdir = hooks_dir(root)
    hook, chained = hdir / HOOK, hdir / CHAINED
    text = hook_script(root, python)
    changes: list[str] = []
    if hook.exists() and not is_memkit_hook(hook):
        if chained.exists():
            raise MemkitError(
                f"{hook} is not memkit's and {chained} already exists; move one of them "
                "aside, then run `memkit hooks install` again"
            )
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
    """Remove memkit's hook and restore the chained one; leave other hooks alone."""
    hdir = hooks_dir(root)
    hook, chained = hdir / HOOK, hdir / CHAINED
    changes: list[str] = []
    if hook.exists() and is_memkit_hook(hook):
        hook.unlink()
        changes.append(f"removed {hook}")
        if chained.exists():
            os.replace(chained, hook)
            changes.append(f"restored your hook: {chained} -> {hook}")
    elif hook.exists():
        changes.append(f"left {hook} alone: it is not memkit's")
    return changes


# ------------------------------------------------------------------ full checks


@dataclass(frozen=True)
class Affected:
    """A memory whose linked code the commit changes, and how each link changed."""

    id: str
    title: str
    path: str
    links: tuple[LinkStatus, ...]

    @property
    def stale(self) -> bool:
        return any(link.stale for link in self.links)


def invalid_memories(store: Store, names: list[str]) -> list[InvalidMemoryError]:
    """The problems the commit brings into the store, proportional to what it stages.

    Only the staged memory files are checked (through the parse cache), plus the
    store-wide rules they can break: duplicate ids and `supersedes` references. A
    staged config or template is loaded; a staged deletion checks the whole store.
    """
    from memkit.validation import validate

    touched = [n for n in names if n.startswith(MEMORY_DIR + "/")]
    if not touched:
        return []
    stamps = memory_stamps(str(store.root))
    if any(n.endswith(".md") and not (store.root / n).exists() for n in touched):
        return validate(store)  # a memory was deleted: references to it may dangle
    if any(n not in stamps for n in touched):
        store.config.section("compile")  # a ConfigError names the file and the fix
    staged = {n for n in touched if n in stamps}
    if not staged:
        return []
    return validate(store, only=staged)


def compile_needed(store: Store, names: list[str]) -> bool:
    """Whether the commit changes memories, memkit's config or templates, or a compiled file."""
    if any(n.startswith(MEMORY_DIR + "/") for n in names):
        return True
    outputs = read_index(str(store.root), memory_stamps(str(store.root)))[1]
    return any(is_output(n, outputs) for n in names)


def recompile(store: Store, *, today: dt.date) -> list[str]:
    """Regenerate the compiled files as `memkit compile` does; the paths it rewrote."""
    from memkit.compile.plan import apply, plan

    with store.lock():
        return apply(plan(store, today=today))


def _staged_statuses(store: Store, touched: set[str]) -> list[tuple[str, LinkStatus]]:
    """check_staged, or its equivalent when git committed from a temporary index.

    `git commit -a` and `git commit FILE` stage into a temporary index file (named by
    GIT_INDEX_FILE in the hook's environment) that libgit2 does not read. Both commit
    the work tree's version of the staged files, so then the work tree is compared with
    HEAD, keeping only the links in files this commit stages.
    """
    from memkit.staleness import check_range, check_staged

    index = os.environ.get("GIT_INDEX_FILE")
    if not index or os.path.basename(index) == "index":
        return check_staged(store)
    return [
        (status.id, link)
        for status in check_range(store, "HEAD", None)
        for link in status.links
        if relevant(sorted(touched), [link.link.partition("::")[0]])
    ]


def affected_memories(store: Store, names: list[str]) -> list[Affected]:
    """Memories whose linked files or symbols the staged changes touch (HEAD -> index).

    `names` are the staged paths: when none is a linked file (the derived index says
    so), the staleness engine is not even loaded.
    """
    root = str(store.root)
    touched = relevant(names, linked_files(root, memory_stamps(root)))
    if not [n for n in touched if not n.startswith(MEMORY_DIR + "/")]:
        return []
    by_id: dict[str, list[LinkStatus]] = {}
    for mid, status in _staged_statuses(store, set(touched)):
        if status.state != "unchanged":
            by_id.setdefault(mid, []).append(status)
    out = []
    for mid in sorted(by_id):
        mem = store.get(mid)
        links = tuple(sorted(by_id[mid], key=lambda s: s.link))
        out.append(Affected(mid, mem.title, mem.path, links))
    return out
