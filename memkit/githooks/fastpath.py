"""The git hooks' Python side: `main`, which answers what the hook script could not.

The installed hook (memkit/githooks/hook.sh) calls `memkit.githooks.fastpath.main(
["pre-commit", "--root", DIR])` when its own check (precheck.awk) could not tell that
the commit has nothing to do. With the standard library alone, `main` answers
"nothing to do" when no staged name is a memory, memkit's config, a linked file or a
compiled file (the staged names from `git diff --cached --name-only -z`, the rest
from the derived index, memkit.githooks.index). Otherwise it runs the checks,
memkit.githooks.checks.run_hook, with the staged names and memory stamps it already
has; they load the store (and with it the heavy libraries) only when their records
do not answer. memkit.errors.report turns any failure into the message and exit
code. When the script asks (MEMKIT_HOOK_FAST=stale), a run that found the index
current dates it for the script (index.vouch).
"""

from __future__ import annotations

import os
import sys

from memkit.cachedir import cache_dir
from memkit.errors import EXIT_FOUND, EXIT_OK, EXIT_USER, report
from memkit.githooks.index import Opener, Stamps, memory_walk, read_index, relevant, vouch
from memkit.walk import MEMORY_DIR

TYPE_CHECKING = False  # typing costs the fast path an import
if TYPE_CHECKING:
    from collections.abc import Callable

USAGE = (
    "usage: python -P -m memkit.githooks.fastpath pre-commit|pre-merge-commit"
    " [--root DIR] [--strict]"
)
ENTRIES = ("pre-commit", "pre-merge-commit")
FAST_ENV = "MEMKIT_HOOK_FAST"  # the script sets it to "stale" when the index was not dated
_DIFF = ("diff", "--cached", "--name-only", "-z", "--no-renames", "--relative")


OLD_HOOK = (
    "memkit: this git hook was installed by an older memkit, which lets a `memkit` folder "
    "in the work tree run in its place; run `memkit hooks install` to update it"
)


def work_tree_first() -> bool:
    """Whether this Python was started with the current folder first on its import path
    (`python -c` or `-m` without `-P`): how hooks and merge drivers from memkit before
    `-P` start it, where a `memkit` folder in the work tree would be imported."""
    if sys.flags.safe_path or not sys.path:
        return False
    try:
        return sys.path[0] in ("", os.getcwd())
    except OSError:  # the current folder is gone: nothing can be imported from it
        return False


class HookError(Exception):
    """git could not answer; the message says what failed."""


def staged_names(root: str, wait: Callable[[], tuple[int, bytes]] | None = None) -> list[str]:
    """Paths (relative to `root`) that the commit being made changes: HEAD -> index.

    Renames are listed as their two sides; paths outside `root` are left out. Runs in
    the environment git gave the hook, so `git commit -a` and `git commit FILE` (which
    use a temporary index) are seen as git sees them. `wait`: the `git diff` already
    started (_start_diff), else it is started here.
    """
    code, out = (wait or _start_diff(root))()
    if code != 0:  # run it again, for git's message
        import subprocess

        done = subprocess.run(["git", *_DIFF], cwd=root, capture_output=True)
        err = done.stderr.decode("utf-8", "replace").strip() or f"exit code {code}"
        raise HookError(f"`git diff --cached` failed in {root}: {err}")
    return sorted(n for n in out.decode("utf-8", "surrogateescape").split("\0") if n)


def _start_diff(root: str) -> Callable[[], tuple[int, bytes]]:
    """`git diff --cached` of the commit being made, started: call the result to wait
    ((exit code, stdout)). OSError if git cannot start."""
    import subprocess

    proc = subprocess.Popen(
        ["git", "-C", root, *_DIFF], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )

    def wait() -> tuple[int, bytes]:
        out, _ = proc.communicate()
        return proc.returncode, out

    return wait


def staged_work(
    root: str, opener: Opener | None = None, *, record: bool = False
) -> tuple[list[str], Stamps] | None:
    """(staged names, memory stamps) when the commit touches a memory, memkit's config,
    a linked file or a compiled file; None when memkit has nothing to do.

    `opener` opens the store should the derived index need rebuilding; the checks
    that follow reuse it (the store is loaded once per hook run). `record`: also
    date the index for the hook script (index.vouch)."""
    if not os.path.isdir(os.path.join(root, MEMORY_DIR)):
        return None
    started = _begin(root) if record else None  # before the walk: see index.vouch
    wait = _start_diff(root)
    try:  # .memory/ is listed while git works out the staged names
        stamps, tree = memory_walk(root)
    finally:
        names = staged_names(root, wait)
    if not names and started is None:
        return None
    opener = opener or Opener(root)
    opener.tree = tree
    index = read_index(root, stamps, opener)
    if started is not None:
        vouch(root, started, tree, opener.inode)  # never raises: it only saves time
    if not names or not relevant(names, *index):
        return None
    return names, stamps


def _begin(root: str) -> int | None:
    """The moment before the hook lists `.memory/`, when the index is where the script
    reads it (`.git/memkit/` of the store's root: no MEMKIT_CACHE_DIR, a `.git` folder,
    `.memory/` not a link); None where it is not."""
    import time

    memory = os.path.join(root, MEMORY_DIR)
    if cache_dir(root) != os.path.join(root, ".git", "memkit") or os.path.islink(memory):
        return None
    return time.time_ns()


def asked() -> bool:
    """Whether the hook script asked for the index to be dated (MEMKIT_HOOK_FAST=stale);
    takes the word out of the environment, so that nothing the hook runs sees it
    (compile's key counts MEMKIT_* variables)."""
    return os.environ.pop(FAST_ENV, None) == "stale"


def main(argv: list[str]) -> int:
    """`pre-commit|pre-merge-commit [--root DIR] [--strict]`: what the installed hooks run."""
    args = list(argv)
    root = "."
    if "--root" in args:
        i = args.index("--root")
        root = args[i + 1] if i + 1 < len(args) else "."
        del args[i : i + 2]
    if not args or args[0] not in ENTRIES or any(a != "--strict" for a in args[1:]):
        print(USAGE, file=sys.stderr)
        return EXIT_USER
    hook = args[0]
    record = asked()
    if work_tree_first():
        print(OLD_HOOK, file=sys.stderr, flush=True)
    opener = Opener(root)
    try:
        work = staged_work(root, opener, record=record)
    except (Exception, KeyboardInterrupt) as e:  # never a traceback in someone's commit
        return report(e, hook=hook, started=False)
    if work is None:
        return EXIT_OK
    try:
        return _check(opener, *work, strict="--strict" in args, hook=hook)
    except (Exception, KeyboardInterrupt) as e:
        return report(e, hook=hook)


def _check(
    opener: Opener, names: list[str], stamps: Stamps, *, strict: bool, hook: str = "pre-commit"
) -> int:
    """Run the hook's checks, `opener` opening the store if one needs it (once); print
    what they found."""
    from memkit.clock import today
    from memkit.githooks.checks import run_hook

    outcome = run_hook(
        None, hook, names, stamps=stamps, today=today(), strict=strict, opener=opener
    )
    for line in outcome.out:
        print(line, flush=True)
    for line in outcome.err:
        print(line, file=sys.stderr, flush=True)
    return EXIT_FOUND if outcome.stop else EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
