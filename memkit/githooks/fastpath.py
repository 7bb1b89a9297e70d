"""The git pre-commit hook's entry point: `main`, and its fast path for commits with nothing to do.

The installed hook calls `memkit.githooks.fastpath.main(["pre-commit", "--root", DIR])`.
Most commits touch neither a memory nor code a memory links to, and for those it
answers "nothing to do" with the standard library alone: the staged names come from
`git diff --cached --name-only -z`, the linked files from the derived index
(memkit.githooks.index). When a staged file matters, the lean route
(memkit.githooks.lean) may still know that the checks would find nothing (memories the
hook validated with these bytes, compiled files current); otherwise it loads the store
(and with it the heavy libraries) and runs the checks, memkit.githooks.checks.run_hook,
with the staged names and memory stamps it already has. memkit.errors.report turns
any failure into the message and exit code.
"""

from __future__ import annotations

import os
import sys

from memkit.errors import EXIT_FOUND, EXIT_OK, EXIT_USER, report
from memkit.githooks.index import Opener, Stamps, memory_walk, read_index, relevant
from memkit.spawn import start as _start
from memkit.walk import MEMORY_DIR

TYPE_CHECKING = False  # typing costs the fast path an import
if TYPE_CHECKING:
    from collections.abc import Callable

USAGE = (
    "usage: python -P -m memkit.githooks.fastpath pre-commit|pre-merge-commit"
    " [--root DIR] [--strict]"
)
ENTRIES = ("pre-commit", "pre-merge-commit")
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


def staged_names(root: str) -> list[str]:
    """Paths (relative to `root`) that the commit being made changes: HEAD -> index.

    Renames are listed as their two sides; paths outside `root` are left out. Runs in
    the environment git gave the hook, so `git commit -a` and `git commit FILE` (which
    use a temporary index) are seen as git sees them.
    """
    return _staged_names(root, _start_diff(root))


def _start_diff(root: str) -> Callable[[], tuple[int, bytes]]:
    """`git diff --cached` of the commit being made, started: call the result to wait."""
    return _start(["git", "-C", root, *_DIFF])


def _staged_names(root: str, wait: Callable[[], tuple[int, bytes]]) -> list[str]:
    """staged_names, from the `git diff` that `wait` (_start_diff) waits for."""
    code, out = wait()
    if code != 0:  # run it again the slow way, for git's message
        import subprocess

        done = subprocess.run(["git", *_DIFF], cwd=root, capture_output=True)
        err = done.stderr.decode("utf-8", "replace").strip() or f"exit code {code}"
        raise HookError(f"`git diff --cached` failed in {root}: {err}")
    return sorted(n for n in out.decode("utf-8", "surrogateescape").split("\0") if n)


def staged_work(
    root: str, opener: Opener | None = None, *, record: bool = False
) -> tuple[list[str], Stamps] | None:
    """(staged names, memory stamps) when the commit touches a memory, memkit's config,
    a linked file or a compiled file; None when memkit has nothing to do.

    `opener` opens the store should the derived index need rebuilding; the checks
    that follow reuse it (the store is loaded once per hook run). `record`: also
    write the hook script's record of what the index says (memkit.githooks.precheck)."""
    if not os.path.isdir(os.path.join(root, MEMORY_DIR)):
        return None
    started = None
    if record:
        from memkit.githooks import precheck

        started = precheck.begin(root)  # before the walk: see precheck.record
    wait = _start_diff(root)
    try:  # .memory/ is listed while git works out the staged names
        stamps, tree = memory_walk(root)
    finally:
        names = _staged_names(root, wait)
    if not names and started is None:
        return None
    if opener is not None:
        opener.tree = tree
    index = read_index(root, stamps, opener)
    if started is not None:
        precheck.record(root, started, tree, *index)  # never raises: it only saves time
    if not names or not relevant(names, *index):
        return None
    return names, stamps


def has_work(root: str) -> bool:
    """True when the staged changes touch a memory, memkit's config or a linked file."""
    return staged_work(root) is not None


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
    record = False
    if "MEMKIT_HOOK_FAST" in os.environ:  # precheck.ENV: imported only when the script asks
        from memkit.githooks.precheck import asked

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
    if hook == "pre-commit" and _lean(root, *work, opener):
        return EXIT_OK
    try:
        return _check(opener, *work, strict="--strict" in args, hook=hook)
    except (Exception, KeyboardInterrupt) as e:
        return report(e, hook=hook)


def _lean(root: str, names: list[str], stamps: Stamps, opener: Opener) -> bool:
    """Whether the lean route knows the checks would find nothing (memkit.githooks.lean);
    False on any error, which the checks then meet and report."""
    from memkit.githooks.lean import nothing_to_do

    try:
        return nothing_to_do(root, names, stamps, opener)
    except Exception:  # the full checks run, and say what is wrong
        return False


def _check(
    opener: Opener, names: list[str], stamps: Stamps, *, strict: bool, hook: str = "pre-commit"
) -> int:
    """Run the hook's checks on the store `opener` opens (loaded once); print what they found."""
    from memkit.clock import today
    from memkit.githooks.checks import run_hook

    outcome = run_hook(
        opener(), hook, names, stamps=stamps, today=today(), strict=strict, opener=opener
    )
    for line in outcome.out:
        print(line, flush=True)
    for line in outcome.err:
        print(line, file=sys.stderr, flush=True)
    return EXIT_FOUND if outcome.stop else EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
