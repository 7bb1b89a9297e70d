"""What a project defines, gathered once for an audit: files, identifiers, commands, deps.

Everything is derived from the project's file list (git's tracked paths, or a walk)
and the files' bytes, read through memkit.fsutil and only when an audit needs that
kind of answer (identifiers are collected only when a symbol or variable is checked).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from memkit.staleness.anchors import commands as cmds
from memkit.staleness.anchors.manifests import FILES as DEP_FILES
from memkit.staleness.anchors.manifests import declared
from memkit.staleness.links import language_of

MAX_FILE = 1024 * 1024  # larger files are not read
MAX_SCAN = 2 * 1024 * 1024  # larger files (generated, data) are not scanned
MAX_MANIFESTS = 300
# Every byte that cannot be part of an identifier becomes a space: translate + split
# finds a file's words about ten times faster than a regular expression.
_NOT_WORD = bytes(
    c if (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95) else 32 for c in range(256)
)
_MARK = re.compile(rb"mark\.([A-Za-z_]\w*)")
_MARKERS_INI = re.compile(r"^\s*markers\s*=\s*\n((?:[ \t]+\S.*\n?)*)", re.M)
_BINARY_WORDS = (
    ".png .jpg .jpeg .gif .ico .pdf .zip .gz .tgz .woff .woff2 .ttf .eot .mp4 .mp3 .wasm .so "
    ".dylib .dll .exe .jar .class .pyc .bin .lock .svg .webp .otf"
)
BINARY = frozenset(_BINARY_WORDS.split())


class Project:
    """A project at `root`, with `paths` relative to it; `skip` are files not scanned."""

    def __init__(self, root: Path, paths: list[str], skip: frozenset[str] = frozenset()) -> None:
        self.root = root
        self.paths = paths
        self.pathset = frozenset(paths)
        self.skip = skip
        by_name: dict[str, list[str]] = {}
        dirs: set[str] = set()
        for p in paths:
            by_name.setdefault(p.rsplit("/", 1)[-1], []).append(p)
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        self.by_name = by_name
        self.names = sorted(by_name)
        self.dirs = frozenset(dirs)
        self.suffixes = frozenset(PurePosixPath(p).suffix.lower() for p in paths)

    def read(self, rel: str, limit: int = MAX_FILE) -> bytes | None:
        from memkit.errors import MemkitError
        from memkit.fsutil import read_inside

        try:
            return read_inside(self.root, rel, limit=limit)
        except (OSError, MemkitError):
            return None

    def _scan_read(self, rel: str) -> bytes | None:
        """A listed file's bytes for the identifier scan, never through a symbolic link.

        Listed paths (git's index, or a walk that does not enter linked folders) have
        no linked folder in them, so refusing a link as the last part (O_NOFOLLOW, in
        read_regular) keeps the read inside the root at a fifth of read_inside's cost.
        """
        from memkit.errors import MemkitError
        from memkit.fsutil import read_regular

        try:
            return read_regular(self.root / rel, limit=MAX_SCAN, what=rel)
        except (OSError, MemkitError):
            return None

    def exists(self, rel: str) -> bool:
        """A tracked file or folder, or anything on disk inside the root (untracked too)."""
        if rel in self.pathset or rel in self.dirs:
            return True
        full = (self.root / rel).resolve()
        return full.is_relative_to(self.root.resolve()) and full.exists()

    @functools.cached_property
    def _ignores(self) -> list[tuple[str, str]]:
        """(folder, pattern) of every .gitignore line in the project (negations left out)."""
        out = []
        found = self.named((".gitignore",))
        for path in [*found, *([".gitignore"] if ".gitignore" not in found else [])]:
            folder = path.rpartition("/")[0]
            data = self.read(path) or b""
            for line in data.decode("utf-8", "replace").splitlines():
                line = line.strip()
                if line and not line.startswith(("#", "!")):
                    out.append((folder, line.strip("/")))
        return out

    def ignored(self, rel: str) -> bool:
        """Whether a .gitignore names `rel` or a folder above it (generated, local files)."""
        for folder, pattern in self._ignores:
            if folder and not rel.startswith(folder + "/"):
                continue
            parts = rel[len(folder) + 1 :].split("/") if folder else rel.split("/")
            if "/" in pattern:  # anchored to its folder: the path or a folder above it
                heads = ("/".join(parts[: i + 1]) for i in range(len(parts)))
                if any(fnmatch(head, pattern) for head in heads):
                    return True
            elif any(fnmatch(part, pattern) for part in parts):
                return True
        return False

    def named(self, names: tuple[str, ...]) -> list[str]:
        """Paths whose file name is one of `names`, outside vendored folders, root first."""
        found = [p for n in names for p in self.by_name.get(n, ())]
        found = [p for p in found if "node_modules/" not in p and "vendor/" not in p]
        return sorted(found, key=lambda p: (p.count("/"), p))[:MAX_MANIFESTS]

    def _reader(self, folder: str) -> Callable[[str], bytes | None]:
        prefix = f"{folder}/" if folder else ""
        return lambda rel: self.read(prefix + rel) if prefix + rel in self.pathset else None

    @functools.cached_property
    def deps(self) -> dict[str, str]:
        """Dependencies declared by any manifest or lock file in the project."""
        out: dict[str, str] = {}
        for folder in sorted({p.rpartition("/")[0] for p in self.named(DEP_FILES)}):
            out.update(declared(self._reader(folder)))
        return out

    @functools.cached_property
    def has_python(self) -> bool:
        return bool(self.named(("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt")))

    def commands(self, runner: str) -> tuple[list[str], dict[str, str]]:
        """(files defining `runner`'s commands, {name: definition} over all of them)."""
        return self._commands(runner)

    @functools.cache  # noqa: B019 - one Project per audit
    def _commands(self, runner: str) -> tuple[list[str], dict[str, str]]:
        names = {"make": cmds.MAKEFILES, "just": cmds.JUSTFILES, "task": cmds.TASKFILES}
        files = names.get(runner, ("package.json",) if runner in cmds.NPM else ("pyproject.toml",))
        found: list[str] = []
        defined: dict[str, str] = {}
        for path in self.named(files):
            folder, _, name = path.rpartition("/")
            where, table = cmds.definitions(self._reader(folder), runner)
            if where is not None and name in files:
                found.append(path)
                defined.update(table)
        return found, defined

    @functools.cached_property
    def _scan(self) -> tuple[frozenset[bytes], frozenset[bytes], frozenset[str]]:
        """(identifiers in source files, identifiers in any text file, pytest markers used)."""
        source: set[bytes] = set()
        text: set[bytes] = set()
        marks: set[str] = set()
        for path in self.paths:
            suffix = PurePosixPath(path).suffix.lower()
            if path in self.skip or suffix in BINARY or "node_modules/" in path:
                continue
            data = self._scan_read(path)
            if data is None or b"\0" in data[:1024]:
                continue
            words = set(data.translate(_NOT_WORD).split())
            if language_of(path) is not None:
                source |= words
                if suffix == ".py" and b"mark." in data:
                    marks.update(m.decode() for m in _MARK.findall(data))
            else:
                text |= words
        return frozenset(source), frozenset(text | source), frozenset(marks)

    def in_source(self, word: str) -> bool:
        return word.encode() in self._scan[0]

    def in_any_file(self, word: str) -> bool:
        return word.encode() in self._scan[1]

    @functools.cached_property
    def source_words(self) -> list[str]:
        return sorted(w.decode() for w in self._scan[0])

    @functools.cached_property
    def markers(self) -> frozenset[str]:
        """pytest markers declared in configuration or used as `mark.NAME` in Python files."""
        out = set(self._scan[2])
        for path in self.named(("pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini")):
            data = self.read(path)
            text = "" if data is None else data.decode("utf-8", "replace")
            if path.endswith("pyproject.toml"):
                out.update(_toml_markers(text))
            for m in _MARKERS_INI.finditer(text):
                out.update(line.split(":")[0].strip() for line in m.group(1).splitlines())
        return frozenset(out)


def _toml_markers(text: str) -> list[str]:
    import tomllib

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    options = doc.get("tool", {}).get("pytest", {}).get("ini_options", {})
    markers = options.get("markers", []) if isinstance(options, dict) else []
    return [m.split(":")[0].strip() for m in markers if isinstance(m, str)]
