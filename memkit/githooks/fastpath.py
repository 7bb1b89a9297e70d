"""The git pre-commit hook's fast path: does this commit give memkit anything to do?

The installed hook calls `memkit.githooks.fastpath.main(["pre-commit", "--root", DIR])`. Most
commits touch neither a memory nor code a memory links to, and for those it answers
"nothing to do" with the standard library alone: the staged names come from
`git diff --cached --name-only -z`, and the linked files from a small derived index,
`hooks-index` in memkit's private folder (memkit.cachedir), rebuilt only when a memory
file's size or mtime changed.
Only when a staged file matters does it load memkit's CLI (and with it the heavy
libraries) to run the full checks: `memkit hooks run pre-commit`.
"""

from __future__ import annotations

import os
import sys

from memkit.cachedir import cache_dir
from memkit.errors import report
from memkit.walk import MEMORY_DIR, memory_entries

INDEX_NAME = "hooks-index"
INDEX_HEADER = "memkit hook index 1\n"
_RACY_NS = 2_000_000_000  # a memory modified this close to the index write is not trusted
_DIFF = ("diff", "--cached", "--name-only", "-z", "--no-renames", "--relative")

Stamps = dict[str, list[int]]


class HookError(Exception):
    """git could not answer; the message says what failed."""


def staged_names(root: str) -> list[str]:
    """Paths (relative to `root`) that the commit being made changes: HEAD -> index.

    Renames are listed as their two sides; paths outside `root` are left out. Runs in
    the environment git gave the hook, so `git commit -a` and `git commit FILE` (which
    use a temporary index) are seen as git sees them.
    """
    code, out = _spawn(["git", "-C", root, *_DIFF])
    if code != 0:  # run it again the slow way, for git's message
        import subprocess

        done = subprocess.run(["git", *_DIFF], cwd=root, capture_output=True)
        err = done.stderr.decode("utf-8", "replace").strip() or f"exit code {code}"
        raise HookError(f"`git diff --cached` failed in {root}: {err}")
    return sorted(n for n in out.decode("utf-8", "surrogateescape").split("\0") if n)


def _spawn(argv: list[str]) -> tuple[int, bytes]:
    """Run a command, return (exit code, stdout); stderr discarded.

    posix_spawn and a pipe: importing subprocess (threading, selectors, signal) costs
    more than the `git diff` it would run.
    """
    if not hasattr(os, "posix_spawnp"):  # pragma: no cover - Windows
        import subprocess

        done = subprocess.run(argv, capture_output=True)
        return done.returncode, done.stdout
    r, w = os.pipe()
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            actions = [
                (os.POSIX_SPAWN_DUP2, w, 1),
                (os.POSIX_SPAWN_DUP2, null, 2),
                (os.POSIX_SPAWN_CLOSE, r),
            ]
            pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
        finally:
            os.close(null)
            os.close(w)
        chunks = []
        while chunk := os.read(r, 65536):
            chunks.append(chunk)
    finally:
        os.close(r)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks)


def memory_stamps(root: str) -> Stamps:
    """{relative path: [size, mtime_ns]} of every memory file (the files Store.files() lists)."""
    stamps: Stamps = {}
    for rel, entry in memory_entries(root):  # plain strings and scandir: runs every commit
        if not entry.is_symlink():
            st = entry.stat(follow_symlinks=False)
            stamps[rel] = [st.st_size, st.st_mtime_ns]
    return stamps


def linked_files(root: str, stamps: Stamps) -> list[str]:
    """The files memories link to (from the derived index)."""
    return read_index(root, stamps)[0]


def read_index(root: str, stamps: Stamps) -> tuple[list[str], list[str]]:
    """(linked files, compiled outputs) from the derived index; rebuilt if a memory changed.

    The index is plain lines (no json: its import alone costs a few ms): a header,
    `m SIZE MTIME_NS PATH` for every memory file, then `l PATH` for every linked file
    and `o PATH` for every file `memkit compile` may write (`o DIR/PREFIX*`: any file
    whose path starts with DIR/PREFIX).
    """
    try:
        with open(os.path.join(cache_dir(root), INDEX_NAME), encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError):
        text = ""
    head = _index_head(stamps)
    if text.startswith(head):
        rest = text[len(head) :].split("\n")
        if rest[-1] == "" and all(x[:2] in ("l ", "o ") for x in rest[:-1]):
            links = [x[2:] for x in rest[:-1] if x[0] == "l"]
            return links, [x[2:] for x in rest[:-1] if x[0] == "o"]
    return rebuild_index(root, stamps)


def _index_head(stamps: Stamps) -> str:
    lines = [f"m {size} {mtime} {rel}\n" for rel, (size, mtime) in sorted(stamps.items())]
    return INDEX_HEADER + "".join(lines)


def rebuild_index(root: str, stamps: Stamps) -> tuple[list[str], list[str]]:
    """Load the store (through its parse cache) and write the index."""
    import contextlib
    import time
    from pathlib import Path

    from memkit.fsutil import atomic_write
    from memkit.store import Store

    loaded = Store(root).load()
    links = sorted({link.partition("::")[0] for m in loaded.memories for link in m.links})
    outputs = compiled_outputs()
    now = time.time_ns()
    settled = all(now - mtime >= _RACY_NS for _, mtime in stamps.values())
    names_ok = not any("\n" in name for name in [*stamps, *links])
    if settled and names_ok:
        text = _index_head(stamps) + "".join(f"l {link}\n" for link in links)
        text += "".join(f"o {out}\n" for out in outputs)
        with contextlib.suppress(OSError):  # a read-only checkout goes without the index
            atomic_write(Path(cache_dir(root), INDEX_NAME), text.encode("utf-8"))
    return links, outputs


def compiled_outputs() -> list[str]:
    """Every file any compile target may write: shared files, and rule-file prefixes + '*'."""
    from memkit.compile.targets import RULE_PREFIX, TARGETS

    out = {name for t in TARGETS.values() for name in t.shared}
    out |= {f"{d}/{RULE_PREFIX}*" for t in TARGETS.values() for d, _ in t.rule_dirs}
    return sorted(out)


def relevant(
    names: list[str], links: list[str], outputs: list[str] | tuple[str, ...] = ()
) -> list[str]:
    """The staged names memkit must look at: memory files, config, linked files, outputs."""
    exact = set(links) | {o for o in outputs if not o.endswith("*")}
    dirs = tuple(link.rstrip("/") + "/" for link in links)
    prefixes = (MEMORY_DIR + "/", *dirs, *(o[:-1] for o in outputs if o.endswith("*")))
    return [n for n in names if n in exact or n.startswith(prefixes)]


def is_output(name: str, outputs: list[str]) -> bool:
    """Whether `name` is a file `memkit compile` may write (see compiled_outputs)."""
    return name in outputs or any(o.endswith("*") and name.startswith(o[:-1]) for o in outputs)


def has_work(root: str) -> bool:
    """True when the staged changes touch a memory, memkit's config or a linked file."""
    if not os.path.isdir(os.path.join(root, MEMORY_DIR)):
        return False
    names = staged_names(root)
    if not names:
        return False
    return bool(relevant(names, *read_index(root, memory_stamps(root))))


def main(argv: list[str]) -> int:
    """`pre-commit [--root DIR] [--strict]`: what the installed hook runs."""
    args = list(argv)
    root = "."
    if "--root" in args:
        i = args.index("--root")
        root = args[i + 1] if i + 1 < len(args) else "."
        del args[i : i + 2]
    if not args or args[0] != "pre-commit":
        print(
            "usage: python -m memkit.githooks.fastpath pre-commit [--root DIR] [--strict]",
            file=sys.stderr,
        )
        return 2
    try:
        if not has_work(root):
            return 0
    except (Exception, KeyboardInterrupt) as e:  # never a traceback in someone's commit
        return report(e, hook="pre-commit", started=False)
    from memkit.cli import main as cli_main

    try:
        cli_main(["--root", root, "hooks", "run", *args], prog_name="memkit")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
