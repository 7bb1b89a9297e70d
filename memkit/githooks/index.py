"""The pre-commit hook's derived index: which files memories link to, which files compile writes.

`read_index(root, stamps)` answers from `hooks-index` in memkit's private folder
(memkit.cachedir), rebuilt when a memory file's size or mtime changed
(`memory_stamps`), reading again only the memory files that changed; `relevant`
picks the staged names memkit must look at. Standard library only: the fast path
(memkit.githooks.fastpath) uses it on every commit.

The hook script (hook.sh, precheck.awk) reads the same file before Python starts. It
trusts it while no entry under .memory/ changed after the file's modification time
(`find -cnewer`), so that time is a promise: it is 1970 when the index is written,
and `vouch` moves it to two seconds before a listing of .memory/ the index was found
to match. A change time moves on every write, rename, chmod or link of an entry and
cannot be set back by hand; a folder's moves when an entry is added or removed.
"""

from __future__ import annotations

import os

from memkit.cachedir import cache_dir
from memkit.walk import MEMORY_DIR, Entry, memory_entries, tree_entries

TYPE_CHECKING = False  # typing costs the fast path an import
if TYPE_CHECKING:
    from typing import Any

    from memkit.store import Store

INDEX_NAME = "hooks-index"
INDEX_HEADER = "memkit hook index 4\n"  # 4: its modification time vouches (the script)
LEAN_MAX = 64  # more memory files changed than this: load the store (its parse cache) instead
_RACY_NS = 2_000_000_000  # a memory modified this close to the index write is not trusted

Stamps = dict[str, list[int]]
Index = tuple[list[str], list[str]]  # (linked files, compiled outputs)


class Opener:
    """Opens the hook run's store (read once: Store(once=True)) when first asked, then that one.

    The fast path holds one before it knows whether it needs the store at all: the
    derived index may have to be rebuilt from it, and the checks then use the same
    store, loaded once. Standard library only until called.
    """

    def __init__(self, root: str, store: Any = None) -> None:
        self.root = root
        self.store: Store | None = store  # or a plain Store a caller already has
        self.stamps: Stamps | None = None  # the stamps `index` was read for
        self.index: Index = ([], [])  # the index as this run read it
        self.inode = 0  # the index file's, as this run read or wrote it (vouch)
        self.tree: list[Entry] | None = None  # .memory/ as memory_walk listed it for this run
        self._day: str | None = None  # today, when the checks are given it
        self._key: str | None = None

    def today(self, day: str) -> None:
        """Use `day` (ISO) for key(): the checks' today, which a caller may pin."""
        if day != (self._day or today_text()):
            self._key = None  # (a key worked out for the same day is kept)
        self._day = day

    def key(self) -> str:
        """The key of memkit's code and today (memkit.compile.current.static_key) for the
        store's root, worked out once per hook run; "" when today is not known here."""
        if self._key is None:
            from memkit.compile.current import static_key

            day = self._day or today_text()
            self._key = static_key(os.path.realpath(self.root), day) if day else ""
        return self._key

    def __call__(self) -> Store:
        if self.store is None:
            from pathlib import Path

            from memkit.store import Store

            self.store = Store(Path(self.root).resolve(), once=True)
        return self.store


def today_text() -> str | None:
    """Today as memkit.clock.today() gives it, in ISO form, without importing datetime;
    None when MEMKIT_TODAY pins a date not written YYYY-MM-DD (the clock judges it)."""
    import time

    pinned = os.environ.get("MEMKIT_TODAY")
    if not pinned:
        return time.strftime("%Y-%m-%d")
    digits = pinned.replace("-", "")
    ok = (
        len(pinned) == 10
        and pinned[4] == pinned[7] == "-"
        and digits.isdigit()
        and digits.isascii()
    )
    return pinned if ok else None


def memory_stamps(root: str) -> Stamps:
    """{relative path: [size, mtime_ns]} of every memory file (the files Store.files() lists)."""
    return memory_walk(root)[0]


def memory_walk(root: str) -> tuple[Stamps, list[Entry] | None]:
    """memory_stamps, and the listing of everything under .memory/ they were taken from
    (memkit.walk.tree_entries, which the compiled files' current check digests); None
    for the listing when an entry could not be read or went away while listed: then
    the memory files are listed alone, and one deleted meanwhile is left out, as it
    would be had the listing come a moment later."""
    stamps: Stamps = {}
    entries = tree_entries(root, defer=False, stamps=stamps)
    if entries is None:
        return _listed_stamps(root), None
    return stamps, entries


def _listed_stamps(root: str) -> Stamps:
    stamps: Stamps = {}
    for rel, entry in memory_entries(root):  # plain strings and scandir: runs every commit
        if not entry.is_symlink():
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            stamps[rel] = [st.st_size, st.st_mtime_ns]
    return stamps


def read_index(root: str, stamps: Stamps, opener: Opener | None = None) -> Index:
    """(linked files, compiled outputs) from the derived index; rebuilt if a memory changed.

    `opener` gives the store to rebuild it from, and keeps what this hook run read.

    The index is plain lines (no json: its import alone costs a few ms): a header,
    `m SIZE MTIME_NS PATH` for every memory file, then `l PATH` for every linked file,
    `o PATH` for every file `memkit compile` may write (`o DIR/PREFIX*`: any file
    whose path starts with DIR/PREFIX), and `w N PATH` for each file the Nth memory
    (in `m` order) links to, from which a rebuild takes the unchanged memories' links.
    """
    opener = opener or Opener(root)
    if opener.stamps != stamps:  # once per hook run
        opener.stamps, opener.index = dict(stamps), _read_index(root, stamps, opener)
    return opener.index


def _read_index(root: str, stamps: Stamps, opener: Opener) -> Index:
    try:
        with open(os.path.join(cache_dir(root), INDEX_NAME), encoding="utf-8") as f:
            text = f.read()
            opener.inode = os.fstat(f.fileno()).st_ino
    except (OSError, ValueError):
        text = ""
    head = _index_head(stamps)
    if text.startswith(head):
        rest = text[len(head) :].split("\n")
        if rest[-1] == "" and all(x[:2] in ("l ", "o ", "w ") for x in rest[:-1]):
            links = [x[2:] for x in rest[:-1] if x[0] == "l"]
            return links, [x[2:] for x in rest[:-1] if x[0] == "o"]
    return rebuild_index(root, stamps, opener, text)


def _index_head(stamps: Stamps, recent: set[str] | frozenset[str] = frozenset()) -> str:
    lines = [
        f"m - - {rel}\n" if rel in recent else f"m {size} {mtime} {rel}\n"
        for rel, (size, mtime) in sorted(stamps.items())
    ]
    return INDEX_HEADER + "".join(lines)


def rebuild_index(root: str, stamps: Stamps, opener: Opener, old: str = "") -> Index:
    """Each memory's linked files, then the index written.

    A memory whose stamp is as the old index (`old`, its text) recorded keeps the files
    it recorded; the others are read one by one as the store's load reads them (or
    known valid, memkit.hookvalid), or, when more than LEAN_MAX changed, the store is
    loaded (through its parse cache)."""
    import time

    old_stamps, per, outputs = _old_index(old)
    changed = [rel for rel, stamp in stamps.items() if old_stamps.get(rel) != stamp]
    if len(changed) > LEAN_MAX:
        from memkit.staleness.anchors import watched_by

        per = {m.path: watched_by(m) for m in opener().load().memories if m.path in stamps}
    elif changed:
        from memkit import hookvalid

        sizes = {rel: stamps[rel][0] for rel in changed}
        known = hookvalid.known(root, changed, sizes, opener.key)
        for rel in changed:
            per[rel] = list(known[rel]) if rel in known else _links_of(root, rel, sizes[rel])
    links = sorted({link for rel in stamps for link in per.get(rel, ())})
    outputs = outputs or compiled_outputs()  # memkit's code: the fast read trusts it too
    now = time.time_ns()
    # a memory modified too recently to trust its stamp is written `m - - PATH`: the fast
    # read never matches it, and the next rebuild reads that file again (and only it)
    recent = {rel for rel, (_, mtime) in stamps.items() if now - mtime < _RACY_NS}
    opener.inode = 0  # the file there is not this run's unless written below
    if not any("\n" in name for name in [*stamps, *links]):
        lines = [_index_head(stamps, recent)]
        lines += [f"l {link}\n" for link in links] + [f"o {out}\n" for out in outputs]
        lines += [f"w {i} {x}\n" for i, rel in enumerate(sorted(stamps)) for x in per.get(rel, ())]
        opener.inode = _write(root, "".join(lines).encode("utf-8"))  # 0 in a read-only checkout
    return links, outputs


def _write(root: str, data: bytes) -> int:
    """Replace the index with `data`, dated 1970 so that the hook script does not trust
    it before a hook run vouches for it (vouch); its inode, 0 when it was not written."""
    from memkit.atomicwrite import temp_beside

    path = os.path.join(cache_dir(root), INDEX_NAME)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        tmp = temp_beside(path, data, fsync=False)
        try:
            os.utime(tmp, ns=(0, 0))
            inode = os.stat(tmp).st_ino
            os.replace(tmp, path)
        except OSError:
            os.unlink(tmp)
            raise
    except OSError:
        return 0
    return inode


def vouch(root: str, started: int, tree: list[Entry] | None, inode: int) -> bool:
    """Date the index (the file with `inode`, as this hook run read or wrote it) two
    seconds before `started`, when the listing `tree` of .memory/ it was checked
    against was taken: the hook script then trusts it while no entry under .memory/
    has changed since (`find -cnewer`). False, and nothing done, when an entry changed
    within those two seconds (a change in the listing's clock tick could go unseen),
    when the listing failed or the index is not this run's."""
    limit = started - _RACY_NS
    memory = os.path.join(root, MEMORY_DIR)
    if not inode or os.utime not in os.supports_fd:
        return False
    try:
        if tree is None or os.stat(memory).st_ctime_ns >= limit:
            return False
        if any(st is not None and st.st_ctime_ns >= limit for _, st in tree):
            return False
        fd = os.open(os.path.join(cache_dir(root), INDEX_NAME), os.O_RDONLY)
    except OSError:
        return False
    try:  # through the open file: one renamed over it meanwhile is left alone
        if os.fstat(fd).st_ino != inode:
            return False
        os.utime(fd, ns=(limit, limit))
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def _old_index(text: str) -> tuple[Stamps, dict[str, list[str]], list[str]]:
    """From an index's text: each memory's stamp, the files each memory links to, and
    the compiled outputs; nothing when it is not an index as this version writes them."""
    if not text.startswith(INDEX_HEADER) or not text.endswith("\n"):
        return {}, {}, []
    order: list[str] = []
    stamps: Stamps = {}
    files: dict[int, list[str]] = {}
    linked: list[str] = []
    outputs: list[str] = []
    for line in text[len(INDEX_HEADER) : -1].split("\n"):
        kind, _, rest = line.partition(" ")
        size, mtime, rel = [*rest.split(" ", 2), "", ""][:3]
        n, _, link = rest.partition(" ")
        if kind == "l":
            linked.append(rest)
        elif kind == "o":
            outputs.append(rest)
        elif kind == "m" and rel and (size == mtime == "-" or (size.isdigit() and mtime.isdigit())):
            order.append(rel)  # `m - - PATH`: to be read again
            stamps[rel] = [-1, -1] if size == "-" else [int(size), int(mtime)]
        elif kind == "w" and n.isdigit() and link:
            files.setdefault(int(n), []).append(link)
        else:
            return {}, {}, []
    if any(n >= len(order) for n in files):
        return {}, {}, []
    if sorted({link for links in files.values() for link in links}) != linked:
        return {}, {}, []  # not as memkit writes it
    return stamps, {rel: files.get(i, []) for i, rel in enumerate(order)}, outputs


def _links_of(root: str, rel: str, size: int) -> list[str]:
    """The files one memory file links to, read as the store's load reads it (none if it
    is invalid or gone: the load leaves such a file out)."""
    from memkit.store.loading import load_one

    mem, _ = load_one(root, rel, size)
    if mem is None or not mem.links:
        return []
    from memkit.staleness.anchors import watched_by

    return watched_by(mem)


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
    return [n for n in names if n in exact or n.startswith(prefixes) or n.endswith(NESTED)]


NESTED = "/AGENTS.md"  # a nested AGENTS.md (`nested_agents`): compile may write any of them


def is_output(name: str, outputs: list[str]) -> bool:
    """Whether `name` is a file `memkit compile` may write (see compiled_outputs): one of
    them, under a rule-file prefix, or a nested AGENTS.md."""
    return (
        name in outputs
        or name.endswith(NESTED)
        or any(o.endswith("*") and name.startswith(o[:-1]) for o in outputs)
    )
