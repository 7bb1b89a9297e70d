"""Whether the compiled files are what `memkit compile` would write, told without compiling.

A commit that changes only code a memory links to makes the pre-commit hook ask "do
the compiled files need regenerating?", and the answer is almost always no: the code
changed, not the memories, and the compiled text changes only when a memory's
staleness warning does. `compile-current` in memkit's private folder (memkit.cachedir)
records the inputs of the last full compile (memkit.compile.plan.plan, then apply)
and the files it left, and `is_current` compares today's inputs with it:

- memkit's own code (every module's size and mtime), its built-in templates, jinja2's
  and PyYAML's, Python's version, today's date and every MEMKIT_* variable;
- every file and folder under .memory/ (memories, config, override templates), by
  size, mtime, ctime, inode and mode; a file less than two seconds old also by its
  bytes (SHA-256): a second change within the clock's tick could keep its stamp, so
  such a file counts as unchanged only while its bytes are too;
- the bytes (SHA-256) or absence of every file compile reads or writes: each
  target's shared files, the memkit* files of each rule folder and the listing of the
  folder, nested AGENTS.md files, the files memories' `source` names, and whether
  each is a link or lies under one;
- the staleness warnings the compile used (when a memory was verified against its
  links, `statuses` gives them again; they are compared, not trusted);
- the files the readers of memkit.compile.readers look at besides the outputs (their
  notes tell of memories an agent reads twice).

The record also keeps what that compile said (`Outcome`: its notes and how many files
it considered), so that `memkit compile` with nothing to do says it again without
planning.

The inputs are taken before the compile reads them (`Before`) and recorded once it
has written its files (`memkit compile` and the hook both record): the outputs'
states are taken again then, and a file compile did not write must be as it was, one
it wrote must hold the bytes it wrote, or nothing is recorded. An input that changes
while compile runs, or after, differs from the record (in its stamp or, within the
tick, its bytes). Any difference, or a missing, mangled or foreign record, means "not
known to be current": the caller compiles as before. The record is plain lines
(`encode`). Standard library only at import, and neither json nor re: the pre-commit
hook asks on commits that need nothing else (memkit.githooks.checks.recompile).
"""

from __future__ import annotations

import os
import stat
import sys
import time
from hashlib import sha256

from memkit.compile.record import VERSION, decode, encode
from memkit.compile.tree import file_digest, same_tree, stamp_line, tree_key
from memkit.compile.watched import again, as_left, watched
from memkit.walk import MEMORY_DIR, Entry, tree_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

NAME = "compile-current"
RACY_NS = 2_000_000_000  # a file changed this recently may change again with the same stamp
MAX_RECORD_BYTES = 16 * 1024 * 1024
Stale = dict[str, str]  # memory id -> its staleness warning, for the stale ones


class Outcome:
    """What a recorded compile said: its notes (warnings) and how many files it considered
    (any iterable of notes: they are kept as a tuple)."""

    __slots__ = ("files", "notes")

    def __init__(self, notes: Iterable[str], files: int) -> None:
        self.notes = tuple(notes)
        self.files = files

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and (self.notes, self.files) == (other.notes, other.files)

    def __repr__(self) -> str:
        return f"Outcome(notes={self.notes!r}, files={self.files})"


def static_key(root: str, today: dt.date | str) -> str:
    """memkit's code and templates, jinja2's and PyYAML's, Python, today (a date or its
    ISO text), MEMKIT_* variables."""
    import memkit
    from memkit.resources import library_init, templates_folder

    h = sha256()
    package = os.path.dirname(os.path.abspath(memkit.__file__))
    day = today if isinstance(today, str) else today.isoformat()
    parts = [str(VERSION), memkit.__version__, sys.version, day, root]
    parts += [f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("MEMKIT_")]
    for top in (package, templates_folder()):
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".j2", ".toml", ".css", ".js", ".json")):
                    parts.append(_stat(os.path.join(folder, name)))
    for lib in ("jinja2", "yaml"):
        parts.append(_stat(library_init(lib) or ""))
    for part in parts:
        data = part.encode("utf-8", "surrogateescape")
        h.update(b"%d:" % len(data) + data)
    return h.hexdigest()


def _stat(path: str) -> str:
    try:
        st = os.lstat(path)
    except OSError:
        return f"{path} -"
    return f"{path} {st.st_mode} {st.st_size} {st.st_mtime_ns} {st.st_ino}"


class Before:
    """The inputs as they were before a compile; `record` writes them once it is done.

    Made before the store is loaded: it lists .memory/ and stats everything but the
    memory files, whose stamps (and the digests of the recent ones) `watch` takes from
    the load itself (memkit.store.loading.Loaded), which stats each file before
    reading it: .memory/ is walked once, not twice.
    """

    def __init__(self, root: str, today: dt.date) -> None:
        self.root = root
        self.today = today
        self.now = time.time_ns()
        self.entries = tree_entries(root, defer=True)
        self.known = self.entries is not None  # an unreadable entry: nothing recorded
        self.fresh: dict[str, str] = {}  # path under .memory/ -> SHA-256, for recent files
        for rel, st in self.entries or ():
            if st is not None and self._recent(st):
                full = os.path.join(root, MEMORY_DIR, rel)
                digest = file_digest(full) if stat.S_ISREG(st.st_mode) else None
                self.known = self.known and digest is not None  # new links, fifos: unknown
                self.fresh[rel] = digest or ""
        self.key = static_key(root, today) if self.known else ""
        self.tree = ""
        self.seen: dict[str, Any] | None = None

    def _recent(self, st: os.stat_result) -> bool:
        """Modified too recently for its stamp to tell a second change (folders: their
        entries are listed, that is their content)."""
        return (
            not stat.S_ISDIR(st.st_mode)
            and self.now - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS
        )

    def watch(self, loaded: Any) -> None:
        """Complete the tree from the load (memkit.store.loading.Loaded) and take the
        states of the files compile reads or writes (the memories name some of them)."""
        from memkit.compile.targets import TARGETS

        if not self.known or self.entries is None:
            return
        stats, digests, now, lines = loaded.stats, loaded.digests, self.now, []
        for rel, st in self.entries:
            if st is None:
                st = stats.get(f"{MEMORY_DIR}/{rel}")
                if st is None:  # came or went while the store was read
                    self.known = False
                    return
                mtime, ctime = st.st_mtime_ns, st.st_ctime_ns
                if now - (mtime if mtime > ctime else ctime) < RACY_NS:
                    digest = digests.get(f"{MEMORY_DIR}/{rel}")
                    if digest is None:  # served from the parse cache though just changed
                        self.known = False
                        return
                    self.fresh[rel] = digest
            lines.append(stamp_line(rel, st))
        self.tree = tree_key(lines)
        shared = [p for t in TARGETS.values() for p in t.shared]
        folders = [d for t in TARGETS.values() for d, _ in t.rule_dirs]
        self.seen = watched(self.root, loaded.memories, shared, folders)

    def record(
        self,
        path: str,
        stale: Stale | None,
        said: Outcome,
        written: Mapping[str, bytes | None] | None = None,
    ) -> None:
        """Write the record when every file compile reads or writes is as it left them:
        those in `written` (path -> the bytes compile wrote, None: deleted) holding those
        bytes, the others as `watch` found them. `said`: what the compile told its user."""
        if not self.known or self.seen is None:
            return
        after = again(self.root, self.seen)
        if not as_left(self.seen, after, written or {}):
            return
        if static_key(self.root, self.today) != self.key:
            return
        data = {"key": self.key, "tree": self.tree, "fresh": self.fresh, "seen": after,
                "stale": stale, "files": said.files, "notes": said.notes}  # fmt: skip
        from memkit.atomicwrite import atomic_write

        text = encode(data)
        if text is None:  # a name the lines cannot hold: no record, compile runs next time
            return
        import contextlib  # here: the hook's checks import this module, not this

        with contextlib.suppress(OSError):
            atomic_write(path, text.encode("utf-8", "surrogateescape"), fsync=False)


def is_current(
    root: str,
    cache: str,
    today: dt.date | str,
    stale: Callable[[], Stale | None],
    *,
    key: str | None = None,
    tree: list[Entry] | None = None,
) -> Outcome | None:
    """What the recorded compile said, when a compile now would write the files it left
    (module docstring); None when that is not known.

    `stale` gives today's staleness warnings; it is called only when the record has
    some to compare (a memory verified against its links), and may raise (then the
    answer is None). `key`: static_key(root, today), and `tree`: .memory/ as
    memkit.walk.tree_entries(root, defer=False) just listed it, when the caller has them.
    """
    try:
        with open(os.path.join(cache, NAME), "rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError:
        return None
    data = decode(raw) if len(raw) <= MAX_RECORD_BYTES else None  # None unless well-formed
    if data is None or not same_tree(root, data["tree"], data["fresh"], tree):
        return None
    if data["key"] != (key or static_key(root, today)):
        return None
    if again(root, data["seen"]) != data["seen"]:
        return None
    said = Outcome(data["notes"], data["files"])
    recorded = data["stale"]
    if recorded is None:
        return said
    try:
        return said if stale() == recorded else None
    except Exception:  # a staleness check that fails: compile tells why
        return None
