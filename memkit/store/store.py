"""The Store: the memory files under `<root>/.memory/`, found, read, written and deleted.

Writes are atomic; new ids are claimed with an exclusive link so concurrent adds never
collide; read-modify-write cycles hold the store lock. load() parses every file through
the parse cache and reports the files it cannot load (invalid, symbolic links, two
files with one id). Rules about the whole store are memkit.validation's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit import cachedir
from memkit.errors import MemkitError, MemoryNotFoundError, StoreNotFoundError
from memkit.fsutil import atomic_write, create_new, file_lock, read_regular
from memkit.walk import MEMORY_DIR, find_up, memory_entries

if TYPE_CHECKING:  # memories are parsed, loaded and checked on first use: not by a search
    from memkit.config import Config
    from memkit.memory import Memory
    from memkit.store.batch import Refused
    from memkit.store.loading import Loaded


def find_root(start: Path | None = None) -> Path:
    """The project root: MEMKIT_ROOT, or the nearest directory above `start` with .memory/."""
    here = (start or Path.cwd()).resolve()
    found = find_up(str(here))
    if found is None:
        raise StoreNotFoundError(
            f"no {MEMORY_DIR}/ directory in {here} or any parent; run `memkit init` at the "
            "repository root, or pass --root"
        )
    return Path(found)


class Store:
    """The memories of the project at `root` (see the module docstring)."""

    def __init__(
        self, root: Path | str, config: Config | None = None, *, once: bool = False
    ) -> None:
        self.root = Path(root).resolve()
        self.dir = self.root / MEMORY_DIR
        # Derived data, locks and rescued text: where git can never put a file.
        self.cache_dir = Path(cachedir.cache_dir(str(self.root)))
        self._config = config
        self._hints: dict[str, str] = {}  # id -> relative path, from a search index
        self.once = once  # the first load() is this object's answer (memkit.store.loading)
        self.held: Loaded | None = None  # that first load, once made

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    @property
    def config(self) -> Config:
        if self._config is None:
            from memkit.config import load

            self.require()
            self._config = load(self.root)
        return self._config

    def require(self) -> None:
        if not self.dir.is_dir():
            raise StoreNotFoundError(
                f"{self.dir} does not exist; run `memkit init` in {self.root} first"
            )
        if self.dir.is_symlink() and not self.dir.resolve().is_relative_to(self.root):
            raise StoreNotFoundError(
                f"{self.dir} is a symbolic link to {self.dir.resolve()}, outside {self.root}; "
                f"memkit reads and writes only inside the repository: make {MEMORY_DIR}/ a "
                "real directory"
            )

    def private_dir(self) -> Path:
        """memkit's folder for this project's derived data (see memkit.cachedir), created."""
        self.require()
        try:
            self.cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as e:
            raise MemkitError(
                f"cannot create memkit's cache folder {self.cache_dir}: {e.strerror}; set "
                "MEMKIT_CACHE_DIR to a writable absolute path"
            ) from None
        return self.cache_dir

    # ---------------------------------------------------------------- reading

    def files(self) -> list[Path]:
        """Every memory file, sorted by relative path (independent of listing order)."""
        return [Path(full) for _, full in self._walk()]

    def _walk(self) -> list[tuple[str, str]]:
        """(path relative to the root, absolute path) of every memory file, sorted.

        Plain strings and os.scandir: pathlib costs ~30 us a file, which dominates at
        10,000 memories. Symlinks are never followed (a link could point outside).
        """
        self.require()
        self.links: list[str] = []  # symlinked memory files: reported by load(), never read
        self.bad_names: list[str] = []  # names that are not UTF-8: reported by load(), skipped
        out: list[tuple[str, str]] = []
        for rel, entry in memory_entries(str(self.root), self.bad_names):
            if entry.is_symlink():
                self.links.append(rel)
            else:
                out.append((rel, entry.path))
        out.sort()
        return out

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def display(self, path: Path) -> str:
        """`path` for messages: relative to the root when inside it, else absolute."""
        return self.rel(path) if path.is_relative_to(self.root) else str(path)

    def load(self) -> Loaded:
        """Parse every memory (through the parse cache); invalid files become problems.

        See memkit.store.loading (a second load of an unchanged store is reused); a
        store made with `once=True` answers every load() with its first.
        """
        from memkit.store import loading

        return loading.load(self)

    def memories(self) -> list[Memory]:
        """Every valid memory, sorted by id. Invalid files are skipped (see `validate`)."""
        return sorted(self.load().memories, key=lambda m: m.id)

    def path_of(self, mid: str) -> Path:
        """The file of memory `mid`; MemoryNotFoundError if there is none."""
        from memkit import memory as mm

        self.require()
        direct = self.dir / f"{mid}.md"
        if mm.is_valid_id(mid) and direct.is_symlink():
            raise MemkitError(
                f"{self.rel(direct)} is a symbolic link; memkit does not follow links in "
                f"{MEMORY_DIR}/ (one could point outside the repository): replace it with "
                "the file itself"
            )
        if mm.is_valid_id(mid) and direct.is_file():
            return direct
        for path in self.files():
            if path.stem == mid:
                return path
        raise MemoryNotFoundError(f"no memory with id {mid!r} (see `memkit list`)")

    def get_many(self, ids: Iterable[str]) -> list[Memory]:
        """The memories named by `ids`, sorted by id, with one walk of the store at most.

        MemoryNotFoundError names the first unknown id. Many ids go through the parse
        cache (a full load); a few (or many whose paths were hinted) are read directly.
        """
        from memkit import memory as mm

        wanted = sorted(set(ids))
        if self.held is not None:
            by_id = {m.id: m for m in self.held.memories}
            if all(mid in by_id for mid in wanted):
                return [by_id[mid] for mid in wanted]
        # Without a hint each id may need a walk; hinted paths are read from the cache
        # one by one, which stays cheaper than a full load up to a few thousand.
        hinted = all(mid in self._hints for mid in wanted)
        if len(wanted) > (2000 if hinted else 50):
            by_id = {m.id: m for m in self.load().memories}
            for mid in wanted:
                if mid not in by_id:
                    self.path_of(mid)  # the error, or the invalid file's problem
            return [by_id[mid] if mid in by_id else self.get(mid) for mid in wanted]
        root = str(self.root)
        found: dict[str, str] = {}  # id -> path relative to the root (strings: no pathlib)
        missing = []
        plain: dict[str, bool] = {}  # folder -> no link on the way to it
        for mid in wanted:
            rel = self._hints.get(mid)
            if rel:
                folder = os.path.dirname(f"{root}/{rel}")
                if folder not in plain:
                    plain[folder] = os.path.realpath(folder) == folder
                if not plain[folder]:  # a folder on the way is a link
                    rel = None
            rel = rel or f"{MEMORY_DIR}/{mid}.md"
            if mm.is_valid_id(mid) and _regular(f"{root}/{rel}"):  # a regular file, not a link
                found[mid] = rel
            else:
                missing.append(mid)
        if missing:
            stems = {rel.rsplit("/", 1)[-1][:-3]: rel for rel, _ in self._walk()}
            for mid in missing:
                if mid not in stems:
                    self.path_of(mid)  # raises, naming the id
                found[mid] = stems[mid]
        from memkit.store.loading import read_few

        return read_few(self, {mid: found[mid] for mid in wanted})

    def hint_paths(self, paths: Mapping[str, str]) -> None:
        """Where some memories are likely to be (id -> path relative to the root).

        get_many tries these before walking the store; a hint naming a file that is
        gone, a link, or a file of another name is ignored.
        """
        for mid, rel in paths.items():
            if rel.startswith(f"{MEMORY_DIR}/") and rel.endswith(f"/{mid}.md") and ".." not in rel:
                self._hints[mid] = rel

    def get(self, mid: str) -> Memory:
        return self._parse(self.path_of(mid), mid)

    def read(self, path: Path) -> bytes:
        """The bytes of a memory file (a regular file of at most 1 MB, never a link)."""
        from memkit import memory as mm

        rel = self.rel(path)
        try:
            mm.check_size(os.stat(path, follow_symlinks=False).st_size, rel)
            return read_regular(path, limit=mm.MAX_BYTES, what=rel)
        except FileNotFoundError:
            raise MemoryNotFoundError(f"{rel} no longer exists (see `memkit list`)") from None

    def _parse(self, path: Path, mid: str) -> Memory:
        from memkit import memory as mm

        return mm.parse(self.read(path), mid=mid, path=self.rel(path))

    def exists(self, mid: str) -> bool:
        try:
            self.path_of(mid)
        except MemoryNotFoundError:
            return False
        return True

    # ---------------------------------------------------------------- writing

    def add(
        self,
        mem: Memory,
        *,
        allow_secret: bool = False,
        exact_id: bool = False,
        taken: set[str] | None = None,
    ) -> Memory:
        """Write a new memory under a free id (mem.id, or mem.id-2, -3, ...).

        `taken`: the case-folded ids already in the store, kept up to date by a caller
        adding many memories (saves listing the store for each one); the new id is added.
        """
        from memkit import memory as mm
        from memkit.store.secrets_guard import check_secrets, record_allowance

        self.require()
        if allow_secret:  # the file records it, so later checks do not flag it again
            mem = record_allowance(mem, f"{MEMORY_DIR}/{mem.id}.md")
        text = mm.dumps(mem)
        parsed = mm.parse(text, mid=mem.id, path=f"{MEMORY_DIR}/{mem.id}.md")  # validate first
        check_secrets(text, f"{MEMORY_DIR}/{mem.id}.md", allow_secret, mem=parsed)
        # Case-folded: "foo" and "Foo.md" would be one file on macOS and Windows.
        existing = taken if taken is not None else {p.stem.casefold() for p in self.files()}
        for n in range(1, 10_000):
            mid = mem.id if n == 1 else f"{mem.id[: mm.MAX_ID - len(str(n)) - 1]}-{n}"
            if mid in existing:
                if exact_id:
                    break
                continue
            path = self.dir / f"{mid}.md"
            if create_new(path, text.encode("utf-8")):
                existing.add(mid.casefold())
                return mm.parse(text, mid=mid, path=self.rel(path))
            if exact_id:
                break
        raise MemkitError(f"a memory with id {mem.id!r} already exists; choose another --id")

    def put(self, mem: Memory, *, allow_secret: bool = False) -> Memory:
        """Validate and write an existing memory back in place (atomically)."""
        from memkit import memory as mm
        from memkit.store.secrets_guard import check_secrets, record_allowance

        path = self.root / mem.path if mem.path else self.path_of(mem.id)
        rel = self.rel(path)
        if allow_secret:
            mem = record_allowance(mem, rel)
        text = mm.dumps(mem)
        saved = mm.parse(text, mid=mem.id, path=rel)
        check_secrets(text, rel, allow_secret, mem=saved)
        atomic_write(path, text.encode("utf-8"))
        return saved

    def put_many(self, mems: list[Memory]) -> tuple[list[Memory], list[Refused]]:
        """put() for many memories (the caller holds the lock), flushed to disk once.

        Each is validated and checked for secrets first; one that fails is left
        untouched and returned with its error, the others are written.
        """
        from memkit.store.batch import put_many

        return put_many(self, mems)

    def update(
        self, mid: str, *, today: dt.date, allow_secret: bool = False, **changes: Any
    ) -> Memory:
        """Change some fields of a memory under the store lock; sets `updated` to today."""
        with self.lock():
            mem = self.get(mid)
            new = dataclasses.replace(mem, **changes)
            if new == mem:
                return mem
            return self.put(dataclasses.replace(new, updated=today), allow_secret=allow_secret)

    def delete(self, mid: str) -> str:
        path = self.path_of(mid)
        path.unlink()
        return self.rel(path)

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Serialize read-modify-write cycles between processes (not re-entrant)."""
        with file_lock(self.private_dir() / "store.lock"):
            yield


def _regular(path: str) -> bool:
    """Whether `path` is a regular file itself (not a link to one): one lstat."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
