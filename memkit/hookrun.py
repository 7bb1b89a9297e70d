"""The git pre-commit hook's fast path: does this commit give memkit anything to do?

The installed hook runs `python -m memkit.hookrun pre-commit --root DIR`. Most commits
touch neither a memory nor code a memory links to, and for those this module answers
"nothing to do" with the standard library alone: the staged names come from
`git diff --cached --name-only -z`, and the linked files from a small derived index in
.memory/.cache/hooks.json, rebuilt only when a memory file's size or mtime changed.
Only when a staged file matters does it load memkit's CLI (and with it the heavy
libraries) to run the full checks: `memkit hooks run pre-commit`.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time

MEMORY_DIR = ".memory"
INDEX_PATH = (MEMORY_DIR, ".cache", "hooks.json")
INDEX_VERSION = 1
_SKIP_DIRS = {"templates"}  # as Store.files(): .memory/templates/ holds no memories
_RACY_NS = 2_000_000_000  # a memory modified this close to the index write is not trusted

Stamps = dict[str, list[int]]


class HookError(Exception):
    """git could not answer; the message says what failed."""


def staged_names(root: str) -> list[str]:
    """Paths (relative to `root`) that the commit being made changes: HEAD -> index.

    Renames are listed as their two sides; paths outside `root` are left out. Runs in
    the environment git gave the hook, so `git commit -a` and `git commit FILE` (which
    use a temporary index) are seen as git sees them.
    """
    out = subprocess.run(
        ["git", "diff", "--cached", "--name-only", "-z", "--no-renames", "--relative"],
        cwd=root,
        capture_output=True,
    )
    if out.returncode != 0:
        err = out.stderr.decode("utf-8", "replace").strip()
        raise HookError(f"`git diff --cached` failed in {root}: {err}")
    return sorted(n for n in out.stdout.decode("utf-8", "surrogateescape").split("\0") if n)


def memory_stamps(root: str) -> Stamps:
    """{relative path: [size, mtime_ns]} of every memory file (the files Store.files() lists)."""
    stamps: Stamps = {}
    stack = [(os.path.join(root, MEMORY_DIR), MEMORY_DIR)]
    while stack:  # plain strings and scandir: this runs for every commit
        full_dir, rel_dir = stack.pop()
        try:
            entries = list(os.scandir(full_dir))
        except OSError:
            continue
        for e in entries:
            name = e.name
            if name.startswith("."):
                continue
            if e.is_dir(follow_symlinks=False):
                if not (rel_dir == MEMORY_DIR and name in _SKIP_DIRS):
                    stack.append((e.path, f"{rel_dir}/{name}"))
            elif name.endswith(".md") and e.is_file(follow_symlinks=False):
                st = e.stat(follow_symlinks=False)
                stamps[f"{rel_dir}/{name}"] = [st.st_size, st.st_mtime_ns]
    return stamps


def linked_files(root: str, stamps: Stamps) -> list[str]:
    """The files memories link to, from the derived index (rebuilt if any memory changed)."""
    path = os.path.join(root, *INDEX_PATH)
    try:
        with open(path, "rb") as f:
            data = json.load(f)
        if data["version"] == INDEX_VERSION and data["memories"] == stamps:
            return list(data["links"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return rebuild_index(root, stamps)


def rebuild_index(root: str, stamps: Stamps) -> list[str]:
    """Load the store (through its parse cache) and write the index of linked files."""
    from pathlib import Path

    from memkit.fsutil import atomic_write
    from memkit.store import Store

    loaded = Store(root).load()
    links = sorted({link.partition("::")[0] for m in loaded.memories for link in m.links})
    now = time.time_ns()
    if all(now - mtime >= _RACY_NS for _, mtime in stamps.values()):
        data = {"version": INDEX_VERSION, "memories": stamps, "links": links}
        with contextlib.suppress(OSError):  # a read-only checkout goes without the index
            atomic_write(Path(root, *INDEX_PATH), json.dumps(data, sort_keys=True).encode())
    return links


def relevant(names: list[str], links: list[str]) -> list[str]:
    """The staged names memkit must look at: memory files, config, linked files."""
    exact = set(links)
    dirs = tuple(link.rstrip("/") + "/" for link in links)
    prefix = MEMORY_DIR + "/"
    return [n for n in names if n.startswith(prefix) or n in exact or n.startswith(dirs)]


def has_work(root: str) -> bool:
    """True when the staged changes touch a memory, memkit's config or a linked file."""
    if not os.path.isdir(os.path.join(root, MEMORY_DIR)):
        return False
    names = staged_names(root)
    if not names:
        return False
    return bool(relevant(names, linked_files(root, memory_stamps(root))))


def main(argv: list[str]) -> int:
    """`python -m memkit.hookrun pre-commit [--root DIR] [--strict]`, for the installed hook."""
    args = list(argv)
    root = "."
    if "--root" in args:
        i = args.index("--root")
        root = args[i + 1] if i + 1 < len(args) else "."
        del args[i : i + 2]
    if not args or args[0] != "pre-commit":
        print("usage: python -m memkit.hookrun pre-commit [--root DIR] [--strict]", file=sys.stderr)
        return 2
    try:
        if not has_work(root):
            return 0
    except Exception as e:  # never a traceback in someone's commit
        print(f"memkit: the pre-commit hook could not run: {e}", file=sys.stderr)
        print(
            "memkit: nothing was changed; fix the cause, or commit with `git commit --no-verify`",
            file=sys.stderr,
        )
        return 3
    from memkit.cli import main as cli_main

    try:
        cli_main(["--root", root, "hooks", "run", *args], prog_name="memkit")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
