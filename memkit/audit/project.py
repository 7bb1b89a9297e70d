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
from pathlib import Path
from typing import Any, NamedTuple

from memkit.staleness.anchors import commands as cmds
from memkit.staleness.anchors.manifests import FILES as DEP_FILES
from memkit.staleness.anchors.manifests import declared
from memkit.staleness.links import LANGUAGES

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
# Folders builds, package managers and tools write: a missing path under one is an output.
_OUTPUT_WORDS = (
    "dist build out target bin obj coverage htmlcov generated gen __generated__ .next .nuxt "
    ".svelte-kit .turbo .cache .output _build node_modules __pycache__ .venv venv .tox "
    "storybook-static .parcel-cache .angular"
)
OUTPUT_DIRS = frozenset(_OUTPUT_WORDS.split())
COMPILED = (".d.ts", ".js.map", ".js", ".mjs", ".cjs", ".pyc", ".class", ".o")
SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".py", ".java", ".kt", ".c", ".cc", ".cpp")
_BRANCH_WORDS = "feature feat fix bugfix hotfix release chore origin upstream dependabot renovate"
BRANCH_FAMILIES = frozenset(_BRANCH_WORDS.split())
TSCONFIGS = ("tsconfig.json", "tsconfig.base.json", "tsconfig.app.json", "jsconfig.json")
_ALIAS = re.compile(r'"([^"\s]*\*)"\s*:\s*\[')  # "@app/*": [...] in compilerOptions.paths
_REQ_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
PACKAGE_FILES = ("package.json", "pyproject.toml", "go.mod", "Cargo.toml", "setup.py")


class Ignore(NamedTuple):
    """A .gitignore line (negations left out): `how` is `part` (a name at any depth),
    `root` (from the .gitignore's folder) or `any` (a `**/a/b` path at any depth)."""

    folder: str
    pattern: str
    how: str


class Words(NamedTuple):
    """The identifier scan's words of source files and of any file, and pytest markers."""

    source: frozenset[bytes]
    text: frozenset[bytes]
    marks: frozenset[str]


class Project:
    """A project at `root`, with `paths` relative to it; `skip` are files not scanned."""

    def __init__(
        self,
        root: Path,
        paths: list[str],
        skip: frozenset[str] = frozenset(),
        branches: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        self.root = root
        self._prefix = f"{root}/"
        self._branches = functools.cache(branches)  # asked at most once
        self.paths = paths
        self.pathset = frozenset(paths)
        self.skip = skip
        self.refused: dict[str, str] = {}  # path -> why a limit kept it from being read
        by_name: dict[str, list[str]] = {}
        dirs: set[str] = set()
        for p in paths:
            folder, _, name = p.rpartition("/")
            by_name.setdefault(name, []).append(p)
            while folder and folder not in dirs:  # each folder once, and its parents
                dirs.add(folder)
                folder = folder.rpartition("/")[0]
        self.by_name = by_name
        self.names = sorted(by_name)
        self.dirs = frozenset(dirs)

    def read(self, rel: str, limit: int = MAX_FILE) -> bytes | None:
        """The file's bytes; None when it is missing or refused (a file over `limit`:
        `refused` holds why)."""
        from memkit.errors import MemkitError, TooLargeError
        from memkit.fsutil import read_inside

        try:
            return read_inside(self.root, rel, limit=limit)
        except TooLargeError as e:
            self.refused[rel] = str(e)
            return None
        except (OSError, MemkitError):
            return None

    def _scan_read(self, rel: str) -> bytes | None:
        """A listed file's bytes for the identifier scan, never through a symbolic link:
        listed paths (git's index, or a walk) have no linked folder in them, so refusing
        a link as the last part (O_NOFOLLOW) keeps the read inside the root at a fifth
        of read_inside's cost."""
        from memkit.errors import MemkitError
        from memkit.fsutil import read_regular

        try:
            return read_regular(f"{self._prefix}{rel}", limit=MAX_SCAN, what=rel)
        except (OSError, MemkitError):
            return None

    def exists(self, rel: str) -> bool:
        """A tracked file or folder, or anything on disk inside the root (untracked too)."""
        if rel in self.pathset or rel in self.dirs:
            return True
        full = (self.root / rel).resolve()
        return full.is_relative_to(self.root.resolve()) and full.exists()

    @functools.cached_property
    def _ignores(self) -> list[Ignore]:
        """Every line of every .gitignore."""
        out = []
        found = self.named((".gitignore",))
        for path in [*found, *([".gitignore"] if ".gitignore" not in found else [])]:
            folder = path.rpartition("/")[0]
            data = self.read(path) or b""
            for line in data.decode("utf-8", "replace").splitlines():
                line = line.strip().rstrip("/")
                if not line or line.startswith(("#", "!")):
                    continue
                deep = line.startswith("**/")
                while line.startswith("**/"):
                    line = line[3:]
                anchored = "/" in line  # a leading or middle slash anchors it
                line = line.lstrip("/")
                how = "any" if deep and "/" in line else "root" if anchored else "part"
                out.append(Ignore(folder, line, how))
        return out

    def ignored(self, rel: str) -> bool:
        """Whether a .gitignore names `rel` or a folder above it (generated, local files)."""
        for folder, pattern, how in self._ignores:
            if folder and not rel.startswith(folder + "/"):
                continue
            parts = rel[len(folder) + 1 :].split("/") if folder else rel.split("/")
            if how == "part":
                if any(fnmatch(part, pattern) for part in parts):
                    return True
                continue
            starts = range(len(parts)) if how == "any" else (0,)
            for i in starts:  # the path or a folder above it
                heads = ("/".join(parts[i : k + 1]) for k in range(i, len(parts)))
                if any(fnmatch(head, pattern) for head in heads):
                    return True
        return False

    def generated(self, rel: str, folder: str = "") -> bool:
        """Whether `rel` (from the root, the instruction file's folder or a package root) is
        what a build writes: ignored by a .gitignore, under a well-known output folder, or a
        compiled file whose source the project has (`extension.js` next to `extension.ts`)."""
        if any(part in OUTPUT_DIRS for part in rel.split("/")) or self.compiled(rel):
            return True
        bases = {"", folder, *self.package_roots}
        return any(self.ignored(f"{base}/{rel}" if base else rel) for base in bases)

    def compiled(self, rel: str) -> bool:
        name = rel.rsplit("/", 1)[-1]
        for suffix in COMPILED:
            if name.endswith(suffix) and len(name) > len(suffix):
                stem = name[: -len(suffix)]
                return any(stem + s in self.by_name for s in SOURCE_SUFFIXES)
        return False

    def has_folder(self, name: str, folder: str = "") -> bool:
        """Whether `name` is a folder at the root, in `folder` or in a package root."""
        bases = ("", folder, *self.package_roots)
        return any((f"{base}/{name}" if base else name) in self.dirs for base in bases)

    @functools.cached_property
    def package_roots(self) -> list[str]:
        """Folders below the root holding a package manifest (monorepo packages)."""
        return sorted({p.rpartition("/")[0] for p in self.named(PACKAGE_FILES) if "/" in p})

    def ends_with(self, rel: str) -> bool:
        """Whether some tracked file or folder's path ends with `/rel`."""
        suffix = "/" + rel
        name = rel.rpartition("/")[2]
        files = self.by_name.get(name, ())
        return any(p.endswith(suffix) for p in files) or any(
            d.endswith(suffix) for d in self._dirs_by_name.get(name, ())
        )

    @functools.cached_property
    def _dirs_by_name(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for d in self.dirs:
            out.setdefault(d.rpartition("/")[2], []).append(d)
        return out

    @functools.cache  # noqa: B019 - one Project per audit
    def config(self, rel: str) -> Any:
        """A parsed TOML/JSON/YAML file (None: no such file; a ConfigError: unreadable)."""
        from memkit.staleness.anchors.config import ConfigError, load

        data = self.read(rel)
        if data is None:
            return ConfigError(self.refused[rel]) if rel in self.refused else None
        try:
            return load(rel, data)
        except ConfigError as e:
            return e

    def is_branch(self, name: str) -> bool:
        """A branch of the repository, or a name in a common branch family (`feature/x`)."""
        name = name.strip("/")
        return name.split("/")[0] in BRANCH_FAMILIES or name in self._branches()

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
        from memkit.staleness.anchors.manifests import normalize

        for path in self.named(("pyproject.toml",)):  # names uv constrains or overrides
            uv = self._tool(path, "uv")
            for key in ("constraint-dependencies", "override-dependencies", "dev-dependencies"):
                for spec in uv.get(key, []):
                    if isinstance(spec, str) and (m := _REQ_NAME.match(spec)):
                        out[normalize(m.group(0))] = ""
        return out

    def _tool(self, path: str, name: str) -> dict[str, Any]:
        """The [tool.NAME] table of a pyproject.toml ({} if it has none or does not parse)."""
        doc = self.config(path)
        tool = doc.get("tool") if isinstance(doc, dict) else None
        table = tool.get(name) if isinstance(tool, dict) else None
        return table if isinstance(table, dict) else {}

    @functools.cached_property
    def js_names(self) -> tuple[frozenset[str], tuple[str, ...]]:
        """(the project's own package names, import aliases from tsconfig/jsconfig paths)."""
        import json

        names: set[str] = set()
        for path in self.named(("package.json",)):
            try:
                doc = json.loads(self.read(path) or b"{}")
            except ValueError:
                continue
            if isinstance(doc, dict) and isinstance(doc.get("name"), str):
                names.add(doc["name"])
        aliases: set[str] = set()
        for path in self.named(TSCONFIGS):
            text = (self.read(path) or b"").decode("utf-8", "replace")
            aliases.update(m.rstrip("*") for m in _ALIAS.findall(text))
        return frozenset(names), tuple(sorted(a for a in aliases if a))

    @functools.cached_property
    def has_python(self) -> bool:
        return bool(self.named(("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt")))

    @functools.cache  # noqa: B019 - one Project per audit
    def commands(self, runner: str) -> tuple[list[str], dict[str, str]]:
        """(files defining `runner`'s commands, {name: definition} over all of them)."""
        files = cmds.Command(f"cmd:{runner}", runner, "").files(None)  # as a cmd: link reads
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
    def _scan(self) -> Words:
        """The identifiers of every file scanned, and the pytest markers used."""
        source: set[bytes] = set()
        text: set[bytes] = set()
        marks: set[str] = set()
        for path in self.paths:
            name = path.rpartition("/")[2]
            suffix = name[name.rfind(".") :].lower() if "." in name[1:] else ""
            if path in self.skip or suffix in BINARY or "node_modules/" in path:
                continue
            data = self._scan_read(path)
            if data is None or b"\0" in data[:1024]:
                continue
            words = set(data.translate(_NOT_WORD).split())
            if suffix in LANGUAGES:
                source |= words
                if suffix == ".py" and b"mark." in data:
                    marks.update(m.decode() for m in _MARK.findall(data))
            else:
                text |= words
        return Words(frozenset(source), frozenset(text | source), frozenset(marks))

    def in_source(self, word: str) -> bool:
        return word.encode() in self._scan.source

    def in_any_file(self, word: str) -> bool:
        return word.encode() in self._scan.text

    @functools.cached_property
    def source_words(self) -> list[str]:
        return sorted(w.decode() for w in self._scan.source)

    @functools.cached_property
    def markers(self) -> frozenset[str]:
        """pytest markers declared in configuration or used as `mark.NAME` in Python files."""
        out = set(self._scan.marks)
        for path in self.named(("pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini")):
            text = (self.read(path) or b"").decode("utf-8", "replace")
            if path.endswith("pyproject.toml"):
                ini = self._tool(path, "pytest").get("ini_options")
                found = ini.get("markers", []) if isinstance(ini, dict) else []
                out.update(m.split(":")[0].strip() for m in found if isinstance(m, str))
            for m in _MARKERS_INI.finditer(text):
                out.update(line.split(":")[0].strip() for line in m.group(1).splitlines())
        return frozenset(out)
