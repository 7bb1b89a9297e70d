"""Budget fits remembered between compile runs, so an unchanged file is not rendered again.

Fitting a file to its budget renders it many times (memkit.compile.render.Renderer.fit
gallops over how many memories stay in full), and the pre-commit hook compiles at
every commit that touches a memory or linked code. Most files come out as they are
on disk. `compile-fits` in memkit's private folder (memkit.cachedir: git never puts
a file there) keeps, for each file, what its last fit decided: how many memories in
full (k) and shortened (j), and the SHA-256 of the text it gave.

A fit is reused only when its key matches. The key covers everything the fitted text
depends on:
- the run's salt: memkit's version and the source files of the compile modules,
  Python's and jinja2's, every built-in template and every override in
  .memory/templates/ (their bytes);
- the output: path, target, template, whether memkit owns it whole, whether it is
  scoped, its budget, its context, and the hand-written text around memkit's
  section in a shared file;
- the memories it holds, in order, as far as the fit looked: each one's whole
  content (every field) and its staleness warning up to the deepest memory any probe
  rendered, then the ids of the next NAMED_IN_FILE (a file names what it leaves out),
  and how many there are. Memories further down never reached the text, whatever
  they say.

Given equal keys, every probe of the fit renders the same text, so the fit decides
the same (k, j) (the fit is deterministic). The text itself is not stored: when the
file on disk has the recorded SHA-256, it is the text; otherwise the file is
rendered once, at the recorded (k, j). A missing, unreadable, foreign or mangled
cache is ignored and rewritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memkit.compile.budgets import NAMED_IN_FILE

if TYPE_CHECKING:
    from memkit.compile.targets import Output
    from memkit.memory import Memory

NAME = "compile-fits"
VERSION = 1
KEPT_PER_FILE = 4  # fits kept for one path (a run may fit a file under several budgets)
MAX_CACHE_BYTES = 8 * 1024 * 1024
MAX_OVERRIDE_BYTES = 256 * 1024  # as memkit.compile.render.MAX_TEMPLATE_BYTES
OVERRIDES = ".memory/templates"  # as memkit.compile.render.OVERRIDES (render imports this module)
# The modules whose code decides a compiled text; their source files go into the salt.
CODE = ("budgets", "fitcache", "markers", "mdtext", "render", "scopes", "targets", "yamltext")


@dataclass(frozen=True)
class Fit:
    """What a fit decided: k memories in full, j shortened, `over` budget, the text's digest."""

    mode: str  # "fit" (a section fitted to the budget) or "import" (CLAUDE.md's @AGENTS.md)
    k: int
    j: int
    over: bool
    digest: str


class FitCache:
    """The fits of one project (see the module docstring); `salt` is this run's."""

    def __init__(self, path: Path, salt: str, data: Any) -> None:
        self.path = path
        self.salt = salt
        self.kept: dict[str, list[list[Any]]] = {}
        if isinstance(data, dict) and data.get("version") == VERSION:
            files = data.get("files")
            if isinstance(files, dict):
                self.kept = {p: e for p, e in files.items() if isinstance(e, list)}
        self.used: dict[str, list[list[Any]]] = {}
        self._digests: dict[int, bytes] = {}

    @classmethod
    def open(cls, cache_dir: Path, root: Path) -> FitCache | None:
        """The cache of the project at `root`; None when the salt cannot be computed."""
        salt = run_salt(root)
        if salt is None:
            return None
        path = cache_dir / NAME
        data = None
        with contextlib.suppress(OSError, ValueError, RecursionError):
            with open(path, "rb") as f:
                raw = f.read(MAX_CACHE_BYTES + 1)
            if len(raw) <= MAX_CACHE_BYTES:
                data = json.loads(raw)
        return cls(path, salt, data)

    def base(self, out: Output, frame_key: Sequence[str]) -> bytes:
        """The part of a fit's key that does not depend on the memories."""
        parts = [
            str(VERSION), self.salt, out.path, out.target, out.template, repr(out.whole),
            repr(out.scoped), repr(out.budget), repr(sorted(out.context.items())), *frame_key,
        ]  # fmt: skip
        h = hashlib.sha256()
        for part in parts:
            data = part.encode("utf-8", "surrogateescape")
            h.update(b"%d:" % len(data) + data)
        return h.digest()

    def key(
        self, base: bytes, ms: Sequence[Memory], depth: int, stale: Callable[[Memory], str]
    ) -> str:
        """The key of a fit of `ms` that looked at its first `depth` memories."""
        h = hashlib.sha256(base)
        h.update(b"%d %d:" % (len(ms), depth))
        for m in ms[:depth]:
            h.update(self._digest(m, stale))
        for m in ms[depth : depth + NAMED_IN_FILE]:
            data = m.id.encode("utf-8", "surrogateescape")
            h.update(b"%d:" % len(data) + data)
        return h.hexdigest()

    def _digest(self, m: Memory, stale: Callable[[Memory], str]) -> bytes:
        found = self._digests.get(id(m))
        if found is None:
            text = f"{m!r}\0{stale(m)}".encode("utf-8", "surrogateescape")
            found = self._digests[id(m)] = hashlib.sha256(text).digest()
        return found

    def get(
        self,
        path: str,
        base: bytes,
        ms: Sequence[Memory],
        stale: Callable[[Memory], str],
    ) -> Fit | None:
        """The fit recorded for `path` whose key matches; None when there is none."""
        for entry in self.kept.get(path, ()):
            fit = _entry(entry, len(ms))
            if fit is not None and entry[1] == self.key(base, ms, entry[0], stale):
                self.used.setdefault(path, []).append(entry)
                return fit
        return None

    def put(self, path: str, key_depth: tuple[str, int], fit: Fit) -> None:
        key, depth = key_depth
        entry = [depth, key, fit.mode, fit.k, fit.j, fit.over, fit.digest]
        kept = [e for e in self.used.get(path, []) if e[1] != key]
        self.used[path] = [entry, *kept][:KEPT_PER_FILE]

    def save(self) -> None:
        """Write the fits this run used or made (others are dropped); a failure is ignored."""
        from memkit.fsutil import atomic_write

        files = {p: self.used[p] for p in sorted(self.used)}
        if files == self.kept:
            return
        data = json.dumps({"version": VERSION, "files": files}, separators=(",", ":"))
        with contextlib.suppress(OSError):
            atomic_write(self.path, data.encode("utf-8"), fsync=False)


def _entry(entry: Any, count: int) -> Fit | None:
    """A recorded entry checked for shape; None when it is not one memkit wrote."""
    if not isinstance(entry, list) or len(entry) != 7:
        return None
    depth, key, mode, k, j, over, digest = entry
    ints = all(type(n) is int for n in (depth, k, j))
    if not ints or not isinstance(key, str) or not isinstance(digest, str):
        return None
    if mode not in ("fit", "import") or type(over) is not bool or len(digest) != 64:
        return None
    if min(k, j, depth) < 0 or k + j > count or depth > count:
        return None
    return Fit(mode, k, j, over, digest)


def digest(text: str) -> str:
    """The SHA-256 of a compiled text as memkit writes it."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def frame_key(existing: str | None, path: str, whole: bool) -> tuple[str, ...] | None:
    """What a fit's frame takes from the file on disk (see memkit.compile.markers.framer).

    A file memkit owns whole is rendered from its template alone. A shared file keeps
    the text before and after memkit's section (markers.around): the same for a file
    as it was before memkit wrote its section and as it is after, so the fit that
    wrote it is found again. None: the markers are broken (the fit raises the error).
    """
    from memkit.compile import markers
    from memkit.errors import MemkitError

    if whole:
        return ("whole",)
    try:
        return ("shared", *markers.around(existing, path))
    except MemkitError:
        return None


def run_salt(root: Path) -> str | None:
    """What every compiled text of this run depends on besides its memories (module doc)."""
    import memkit
    from memkit.resources import library_init, templates_dir

    h = hashlib.sha256()

    def add(*parts: str | bytes) -> None:
        for part in parts:
            data = part if isinstance(part, bytes) else part.encode("utf-8", "surrogateescape")
            h.update(b"%d:" % len(data) + data)

    add(memkit.__version__, sys.version)
    here = Path(__file__).resolve().parent
    try:
        for name in CODE:
            add(name, _stamp(here / f"{name}.py"))
        jinja2 = library_init("jinja2")
        add("jinja2", _stamp(Path(jinja2) if jinja2 else None))
        builtin = templates_dir()
        for name in sorted(os.listdir(builtin)):
            add(name, (builtin / name).read_bytes())
        for rel, data in _overrides(root / OVERRIDES):
            add(rel, data)
    except (OSError, ValueError):
        return None
    return h.hexdigest()


def _stamp(path: Path | None) -> str:
    if path is None:
        return "-"
    st = os.stat(path)
    return f"{path} {st.st_size} {st.st_mtime_ns}"


def _overrides(directory: Path) -> list[tuple[str, bytes]]:
    """(relative name, bytes) of every file under .memory/templates/.

    ValueError (no caching in this run) for anything but plain folders and files of
    at most MAX_OVERRIDE_BYTES: a link or a special file is left to the render, which
    reads overrides through memkit.fsutil and refuses or reports them.
    """
    import stat

    out: list[tuple[str, bytes]] = []
    try:
        top_mode = os.lstat(directory).st_mode
    except FileNotFoundError:
        return out
    if not stat.S_ISDIR(top_mode):  # a link (os.walk would list where it leads): first
        raise ValueError(f"{directory}: not a plain folder")
    for top, dirs, files in os.walk(directory):
        dirs.sort()
        for name in [*sorted(files), *dirs, ""]:
            full = os.path.join(top, name) if name else top
            st = os.lstat(full)
            if stat.S_ISDIR(st.st_mode):
                continue
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_OVERRIDE_BYTES:
                raise ValueError(f"{full}: not a plain template file")
            with open(full, "rb") as f:
                out.append((os.path.relpath(full, directory), f.read(MAX_OVERRIDE_BYTES + 1)))
    return out
