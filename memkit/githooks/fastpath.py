"""The git hooks' Python side: `main`, which answers what the hook script could not.

The installed hook (memkit/githooks/hook.sh) calls `memkit.githooks.fastpath.main(
["pre-commit", "--root", DIR])` when its own check (precheck.awk) could not tell that
the commit has nothing to do. With the standard library alone, `main` answers
"nothing to do" when no staged name is a memory, memkit's config, a linked file or a
compiled file (the staged names from `git diff --cached --name-only -z`, the rest
from the derived index, memkit.githooks.index), and, for a commit of memories, when
the checks are known to find nothing (`nothing_to_do`: memories the hook validated
with these bytes, compiled files current). Otherwise it loads the store (and with it
the heavy libraries) and runs the checks, memkit.githooks.checks.run_hook, with the
staged names and memory stamps it already has. memkit.errors.report turns any
failure into the message and exit code. When the script asks (MEMKIT_HOOK_FAST=stale),
a run that found the index current dates it for the script (index.vouch).
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
        if hook == "pre-commit" and nothing_to_do(root, *work, opener):
            return EXIT_OK
    except Exception:  # the full checks run, and say what is wrong
        pass
    try:
        return _check(opener, *work, strict="--strict" in args, hook=hook)
    except (Exception, KeyboardInterrupt) as e:
        return report(e, hook=hook)


class _NeedsStaleness(Exception):
    pass


def _no_warnings() -> None:
    raise _NeedsStaleness  # is_current then answers False


def nothing_to_do(root: str, names: list[str], stamps: Stamps, opener: Opener) -> bool:
    """Whether the pre-commit checks (checks.run_hook) would find nothing to say about the
    staged `names`, a commit of memories the hook already knows: False whenever that is
    not known. Editing a memory by hand and committing it makes the hook validate it,
    regenerate the compiled files and stop the commit for their review; the next `git
    commit` brings the same memory and the regenerated files. Known when:

    - `.memory/` is a folder, not a link (the store judges where a link leads);
    - every staged memory file is one the hook validated with these very bytes
      (memkit.hookvalid), and no other memory file has its name (ids are file names);
      nothing else under .memory/ is staged (no config, template or deletion);
    - the compiled files are current (memkit.compile.current.is_current), with no
      staleness warning recorded (those need the staleness engine);
    - no staged file is one a memory links to (the derived index).
    """
    if os.path.islink(os.path.join(root, MEMORY_DIR)):
        return False  # the store says whether it may be read (Store.require)
    touched = [n for n in names if n.startswith(MEMORY_DIR + "/")]
    if any(n not in stamps for n in touched):
        return False
    links, _ = read_index(root, stamps, opener)
    if any(not n.startswith(MEMORY_DIR + "/") for n in relevant(names, links)):
        return False
    if touched:
        mine = {n.rsplit("/", 1)[-1] for n in touched}
        if sum(rel.rsplit("/", 1)[-1] in mine for rel in stamps) != len(mine):
            return False  # a file name two memory files share: the store's load decides
        from memkit import hookvalid

        sizes = {rel: stamps[rel][0] for rel in touched}
        if len(hookvalid.known(root, touched, sizes, opener.key)) != len(touched):
            return False  # (the key is worked out only when the bytes matched)
    key = opener.key()
    if not key:
        return False
    from memkit.compile.current import is_current

    real = os.path.realpath(root)
    # today is in the key already: is_current needs no date of its own
    said = is_current(real, cache_dir(real), "", _no_warnings, key=key, tree=opener.tree)
    return said is not None


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
