"""Where memkit keeps what it derives: a folder git can never fill.

Caches (the parse cache, the search index, compiled templates, the hook's index),
locks, session journals and rescued edits live in `<git dir>/memkit/`: git never
checks files out into its own directory and refuses to track paths under `.git`,
so nothing a pull request carries can land there. Outside a git repository they live
in the user's cache folder, in a subfolder named after the project's path.

Anything under `.memory/.cache/` (where earlier versions kept these) is never read:
a pull request can force-add files there. Standard library only (the pre-commit fast
path calls it on every commit).

FILES lists every file memkit keeps there, its owner and what losing it costs:
"derived" files are rebuilt on next use (delete them freely); "record" files hold a
person's text or what agents were given (keep them); "lock" files are made again by
the next write. docs/reliability.md shows the same table (a test holds them equal).
"""

from __future__ import annotations

import os
import sys

NAME = "memkit"

# (path in the private folder, owner module, what it holds, kind: what losing it costs).
# Plain tuples: this module is imported by the pre-commit hook's fast path.
FILES = (
    ("parsed.db", "memkit.store.parse_cache",
     "every memory parsed, keyed by path, size and mtime", "derived"),
    ("store.lock", "memkit.store.store", "the store's write lock", "lock"),
    ("links.json", "memkit.staleness.linkcache",
     "link verdicts of the last check, by commit and file stamps", "derived"),
    ("prints.json", "memkit.staleness.printcache",
     "fingerprints of linked files' symbols, by blob", "derived"),
    ("compile-current", "memkit.compile.current",
     "what the last compile read, so that a compile with nothing to do is known", "derived"),
    ("templates/__jinja2_*.cache", "memkit.compile.render",
     "compiled templates (jinja2 bytecode)", "derived"),
    ("hooks-index", "memkit.githooks.index",
     "the pre-commit hook's index; its mtime vouches for .memory/", "derived"),
    ("hook-valid", "memkit.hookvalid",
     "memory files the hook found valid, by their bytes", "derived"),
    ("search/index.db", "memkit.search.index", "the keyword index (SQLite FTS5)", "derived"),
    ("search/state.json", "memkit.search.index",
     "what the keyword index holds, by file stamps", "derived"),
    ("search/lock", "memkit.search.index", "the search index's write lock", "lock"),
    ("search/vectors.*", "memkit.search.vectors",
     "the embeddings of `search --semantic`", "derived"),
    ("agents-poa.idx", "memkit.agents.claude.recall",
     "the index the Claude Code hooks read", "derived"),
    ("agents-verdicts.json", "memkit.agents.claude.pointofaction",
     "staleness verdicts the hooks gave", "derived"),
    ("sessions/*.jsonl", "memkit.agents.claude.journal",
     "what an agent session touched; the Stop hook's draft is made from it", "record"),
    ("receipts/*.jsonl", "memkit.agents.claude.receipts",
     "which memories each session was given (`memkit sessions`, `why`)", "record"),
    ("harvested.json", "memkit.agents.adopt.harvest",
     "agent memories harvested or rejected (rejected ones stay out)", "record"),
    ("edit/*", "memkit.editing",
     "an edit in progress or refused: its text, its base and what it saw, for its author",
     "record"),
    ("revert/*.md", "memkit.history.rollback", "a memory's text before a revert", "record"),
    ("import-backups/*", "memkit.agents.adopt.importer",
     "instruction files as they were before `import --adopt`", "record"),
    ("stores/*.git", "memkit.sharing.team",
     "a shared store's mirror (`memkit sync` fetches it again)", "derived"),
    ("stores/*.json", "memkit.sharing.team",
     "a shared store parsed at its pinned commit", "derived"),
)  # fmt: skip


def git_dir(root: str) -> str | None:
    """The git directory of the work tree at `root` (a worktree's own one), or None.

    `.git` is a directory, or in a worktree or submodule a file `gitdir: PATH`.
    A `.git` that is a symbolic link is not trusted.
    """
    dot_git = os.path.join(root, ".git")
    if os.path.islink(dot_git):
        return None
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as f:
            line = f.read(4096).strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not line.startswith("gitdir:"):
        return None
    target = os.path.join(root, line[len("gitdir:") :].strip())
    return os.path.realpath(target) if os.path.isdir(target) else None


def user_cache_home() -> str:
    """$XDG_CACHE_HOME, else ~/.cache (Library/Caches on macOS, %LOCALAPPDATA% on
    Windows)."""
    env = os.environ.get("XDG_CACHE_HOME")
    if env and os.path.isabs(env):
        return env
    local = os.environ.get("LOCALAPPDATA")
    if sys.platform == "win32" and local and os.path.isabs(local):
        return local
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches")
    return os.path.join(home, ".cache")


def cache_dir(root: str) -> str:
    """memkit's private folder for the project at `root` (not created here).

    MEMKIT_CACHE_DIR overrides it (for read-only checkouts, say); it must be an
    absolute path, and each project then gets a subfolder of its own.
    """
    override = os.environ.get("MEMKIT_CACHE_DIR")
    if override and os.path.isabs(override):
        return os.path.join(override, _project_key(root))
    found = git_dir(root)
    if found is not None:
        return os.path.join(found, NAME)
    return os.path.join(user_cache_home(), NAME, _project_key(root))


def _project_key(root: str) -> str:
    from hashlib import sha256

    real = os.path.realpath(root)
    digest = sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    base = "".join(c if c.isalnum() or c in "-_" else "-" for c in os.path.basename(real))
    return f"{base[:40] or 'root'}-{digest}"


def write_private(root: str, name: str, data: bytes) -> bool:
    """Replace file `name` in the private folder (made if missing, owner-only) with `data`,
    atomically and without flushing to disk: a derived file, rebuilt if lost. False when
    it could not be written (a read-only checkout goes without it)."""
    from memkit.atomicwrite import atomic_write

    folder = cache_dir(root)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        atomic_write(os.path.join(folder, name), data, fsync=False)
    except OSError:
        return False
    return True
