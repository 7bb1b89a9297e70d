"""Whether the project has what a reference names, and the closest thing when it has not.

One function per kind of reference (path, command, marker, module, package, symbol,
env, config); each returns None when the reference resolves, else (message,
suggestion or None). `resolve(project, folder, kind, text)` dispatches; `folder` is
the instruction file's own folder, for paths written relative to it.
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections.abc import Callable
from fnmatch import fnmatch

from memkit.audit.checks import PLACEHOLDER
from memkit.audit.project import Project
from memkit.audit.sources import PATTERNS, SINGLE
from memkit.staleness.anchors.commands import NPM, split_command
from memkit.staleness.anchors.hints import close, close_sorted
from memkit.staleness.anchors.manifests import normalize

SUGGEST_POOL = 40  # names compared by difflib for one suggestion (about 50 µs each)
Finding = tuple[str, str | None]  # (message, suggestion); a bare str: why it is not checked

PY_ALIASES = {
    "yaml": "pyyaml", "PIL": "pillow", "cv2": "opencv-python", "sklearn": "scikit-learn",
    "bs4": "beautifulsoup4", "dateutil": "python-dateutil", "jwt": "pyjwt", "dotenv":
    "python-dotenv", "attr": "attrs", "git": "gitpython", "OpenSSL": "pyopenssl", "Crypto":
    "pycryptodome", "zmq": "pyzmq", "docx": "python-docx", "magic": "python-magic", "serial":
    "pyserial", "google": "protobuf", "pkg_resources": "setuptools", "multipart":
    "python-multipart", "jose": "python-jose", "slugify": "python-slugify", "vcr": "vcrpy",
}  # fmt: skip

_EXTERNAL_ENV_WORDS = (
    "NODE_ENV NODE_OPTIONS GITHUB_TOKEN GH_TOKEN ANTHROPIC_API_KEY OPENAI_API_KEY "
    "LD_LIBRARY_PATH XDG_CONFIG_HOME XDG_CACHE_HOME VIRTUAL_ENV PYTHONPATH RUST_LOG "
    "RUST_BACKTRACE GOPATH CARGO_HOME DOCKER_HOST AWS_REGION AWS_PROFILE AWS_ACCESS_KEY_ID "
    "AWS_SECRET_ACCESS_KEY"
)
EXTERNAL_ENV = frozenset(_EXTERNAL_ENV_WORDS.split())
# Variables of CI systems, runtimes, package managers, shells and clouds: another program's.
_EXTERNAL_PREFIX_WORDS = (
    "CI_ GITHUB_ GITLAB_ RUNNER_ BUILDKITE_ CIRCLE_ TRAVIS_ JENKINS_ NODE_ NPM_ YARN_ PNPM_ "
    "BUN_ DENO_ ELECTRON_ VSCODE_ PYTHON PIP_ UV_ POETRY_ CONDA_ GIT_ GH_ DOCKER_ COMPOSE_ "
    "KUBE AWS_ AZURE_ GOOGLE_ GCP_ GCLOUD_ CLOUDSDK_ RUST CARGO_ GO JAVA_ MAVEN_ GRADLE_ XDG_ "
    "LC_ LD_ DYLD_ SSL_ HTTP_ HTTPS_ NO_PROXY HOMEBREW_ CLAUDE_ ANTHROPIC_ OPENAI_ "
    "DEBIAN_ TERM_ WSL_ MSYS"
)
EXTERNAL_ENV_PREFIXES = tuple(_EXTERNAL_PREFIX_WORDS.split())
_ENV_PLACEHOLDER = re.compile(r"(?:^|_)(?:MY|YOUR|EXAMPLE|FOO|BAR|XXX)(?:_|$)")

_NODE_BUILTINS_WORDS = (
    "assert buffer child_process cluster crypto dns events fs http http2 https module net os "
    "path perf_hooks process querystring readline stream string_decoder timers tls url util "
    "v8 vm worker_threads zlib"
)
NODE_BUILTINS = frozenset(_NODE_BUILTINS_WORDS.split())

_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
_NPM_NAME = re.compile(r"^(@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*$")


def _suggest(found: list[str]) -> str | None:
    return ", ".join(found[:3]) if found else None


# Where agents and editors keep their own files: a missing one describes a convention, or
# a user's machine, not this project (memkit's sources.PATTERNS are the instruction folders).
_TOOL_FILE_WORDS = (
    ".claude/settings.json .claude/settings.local.json .claude/commands .mcp.json .claude/agents "
    ".claude/skills .cursor/mcp.json .vscode/settings.json .vscode/mcp.json .github/prompts "
    ".github/chatmodes .gemini/settings.json"
)
TOOL_LOCATIONS = frozenset(
    {p.rpartition("/")[0] for p in PATTERNS} | set(SINGLE) | set(_TOOL_FILE_WORDS.split())
)
# File names that say nothing about which file they mean (`index.d.ts`, `main.py`).
GENERIC_STEMS = frozenset({"index", "main", "mod", "lib", "__init__", "__main__", "app", "types"})
_LOCATION_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)?|#L\d+(?:-L?\d+)?|::?[A-Za-z_][\w.]*)$")


def check_path(project: Project, folder: str, text: str) -> Finding | str | None:
    rel = _LOCATION_SUFFIX.sub("", text.strip()).removeprefix("./").rstrip("/")
    if not rel or rel.startswith("/") or rel.startswith(".."):
        return None
    if rel in TOOL_LOCATIONS or ".local." in rel.rsplit("/", 1)[-1]:
        return "tool"
    if any(c in rel for c in "*?["):
        return _glob(project, folder, rel)
    for candidate in (rel, posixpath.normpath(posixpath.join(folder, rel)) if folder else rel):
        if project.exists(candidate):
            return None
    name = rel.rsplit("/", 1)[-1]
    code = name.rsplit(".", 1)[-1].lower() in CODE_EXTENSIONS
    if "/" not in rel and (name in project.by_name or not code):
        return None  # a bare config or data file name is often a user's or a runtime file
    if project.ends_with(rel) or ("." not in name and _module_file(project, folder, rel)):
        return None
    if project.generated(rel, folder):
        return "generated"
    top = rel.split("/")[0]
    if "/" in rel and top not in project.dirs and _elsewhere(project, folder, text, rel):
        return "unknown folder"  # `owner/repo`, `feat/x`, `.claude/settings.json`, ...
    if "/" not in rel and name.split(".")[0] in GENERIC_STEMS:
        return "generic"
    same = project.by_name.get(name, [])
    if not same:  # a file of a close name, in the same folder first
        names = [n for n in close_sorted(name, project.names, SUGGEST_POOL) if n != name]
        same = sorted((p for n in names for p in project.by_name[n]), key=_near_folder(rel))
    return f"no file or folder {rel}", _suggest(same)


CODE_EXTENSIONS = frozenset(
    {"py", "ts", "tsx", "js", "jsx", "mjs", "go", "rs", "java", "kt", "rb", "php", "swift", "cs"}
)


def _elsewhere(project: Project, folder: str, text: str, rel: str) -> bool:
    """Whether `rel`, whose first folder is not at the root, is written from elsewhere: a
    hidden folder, a folder no package has, or, for a name without extension that does
    not end with `/` (`sampling/createMessage`), one only a package folder has."""
    top = rel.split("/")[0]
    if top.startswith(".") or not project.has_folder(top, folder):
        return True
    bare = "." not in rel.rsplit("/", 1)[-1] and not text.rstrip().endswith("/")
    return bare and not (folder and f"{folder}/{top}" in project.dirs)


def _module_file(project: Project, folder: str, rel: str) -> bool:
    """Whether `src/utils/path` names a module file (`src/utils/path.ts`)."""
    for ext in MODULE_SUFFIXES:
        for candidate in (rel + ext, f"{folder}/{rel}{ext}" if folder else rel + ext):
            if candidate in project.pathset or project.ends_with(candidate):
                return True
    return False


MODULE_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".py", ".go", ".rs", ".vue", ".svelte")


def _glob(project: Project, folder: str, pattern: str) -> Finding | str | None:
    patterns = {pattern, pattern.replace("**/", "")}
    if folder:
        patterns |= {f"{folder}/{p}" for p in patterns}
    if "/" in pattern:  # like a path, the pattern may be written from a package's folder
        patterns |= {f"*/{p}" for p in patterns}
    names = project.paths if "/" in pattern else project.by_name
    if "node_modules" in pattern or any(
        fnmatch(p, pat) for pat in patterns for p in (*names, *project.dirs)
    ):
        return None
    if project.generated(pattern, folder):
        return "generated"
    return f"no file matches {pattern}", None


def _near_folder(rel: str) -> Callable[[str], tuple[int, str]]:
    folder = rel.rpartition("/")[0]
    return lambda p: (0 if p.rpartition("/")[0] == folder else 1, p)


def check_command(project: Project, folder: str, text: str) -> Finding | None:
    split = split_command(text)
    if split is None or any(c in text for c in "<>{}[]$*") or "..." in text:
        return None  # no command, or a placeholder (`make <target>`)
    runner, name = split
    words = text.split()
    if "/" in name or (len(name) == 1 and name.isupper()):
        return None  # `make format/lint`: a list; `npm run X`: a placeholder
    if runner in NPM and words[1:2] != ["run"] and runner != "npm":
        return None  # `pnpm tsx ...`, `bun file.ts`: runs a package's binary or a file
    if runner == "script" and any(w.startswith("-") for w in words[:3]):
        return None  # `uv run --group dev x`: options whose values cannot be told apart
    if runner == "script":
        if name in ("python", "python3", "pip") or normalize(name) in project.deps:
            return None
        files, defined = project.commands("script")
        if name in defined or project.exists(name):
            return None
        return f"`{text}`: no script or dependency named {name}", _suggest(close(name, defined))
    files, defined = project.commands(runner)
    kind = {"make": "Makefile", "just": "justfile", "task": "Taskfile"}.get(runner, "package.json")
    if not files:
        return f"`{text}`: the project has no {kind}", None
    if name in defined:
        return None
    what = {"make": "target", "just": "recipe", "task": "task"}.get(runner, "script")
    return f"`{text}`: no {kind} defines the {what} {name}", _suggest(close(name, defined))


_BUILTIN_MARKERS_WORDS = (
    "skip skipif xfail parametrize usefixtures filterwarnings asyncio anyio django_db slow "
    "timeout flaky benchmark"
)
BUILTIN_MARKERS = frozenset(_BUILTIN_MARKERS_WORDS.split())


def check_marker(project: Project, folder: str, text: str) -> Finding | None:
    if text in BUILTIN_MARKERS or text in project.markers:
        return None
    return f"pytest marker {text} is neither declared nor used", _suggest(
        close(text, project.markers)
    )


def check_module(project: Project, folder: str, text: str) -> Finding | None:
    top = text.split(".")[0]
    if not _MODULE.match(text) or PLACEHOLDER.search(text):
        return None  # `etc.`, `x, y`: prose in an import line, not a module name
    if top in sys.stdlib_module_names or top == "__future__" or not project.has_python:
        return None
    if normalize(PY_ALIASES.get(top, top)) in project.deps or normalize(top) in project.deps:
        return None
    if top in project.by_name or f"{top}.py" in project.by_name:
        return None  # a package or module folder anywhere (src/ layouts included)
    if any(p.endswith((f"/{top}", f"/{top}/__init__.py")) or p == top for p in project.dirs):
        return None
    return f"module {text}: not in the project, the standard library or its dependencies", None


def _npm_name(spec: str) -> str | None:
    """The package a JavaScript import names (`@scope/pkg/sub` -> `@scope/pkg`), or None."""
    if spec.startswith((".", "/", "node:", "~", "@/", "#", "$", "virtual:")):
        return None
    name = "/".join(spec.split("/")[:2]) if spec.startswith("@") else spec.split("/")[0]
    return name if _NPM_NAME.match(name) else None


def check_package(project: Project, folder: str, text: str) -> Finding | None:
    name = _npm_name(text)
    if name is None or name in NODE_BUILTINS or name.lower() in project.deps:
        return None
    own, aliases = project.js_names
    if name in own or text.startswith(aliases):
        return None  # a package of the workspace, or a tsconfig `paths` alias (`@tests/x`)
    if not project.named(("package.json",)):
        return None
    return f"package {name} is in no package.json", _suggest(close(name, project.deps))


# Names whose first part is no object of the project: an instance (`self.x`), or an agent's
# tool namespace (`functions.search_web`).
FOREIGN_OBJECTS = frozenset({"self", "this", "cls", "super", "functions", "tools", "mcp"})


def check_symbol(project: Project, folder: str, text: str) -> Finding | None:
    parts = re.split(r"\.|::|#", text.removesuffix("()"))
    first = parts[0]
    if first in FOREIGN_OBJECTS:
        return None
    if len(parts) > 1 and (first in sys.stdlib_module_names or normalize(first) in project.deps):
        return None
    if len(parts) > 1 and project.source_words and not project.in_source(first):
        return None  # `vi.useFakeTimers()`: an object the project never names is not its own
    if not project.source_words or all(project.in_any_file(p) for p in parts[-2:]):
        return None
    missing = next(p for p in reversed(parts[-2:]) if not project.in_any_file(p))
    near = close_sorted(missing, project.source_words, SUGGEST_POOL)
    return f"{text}: no code in the project mentions {missing}", _suggest(near)


def check_env(project: Project, folder: str, text: str) -> Finding | str | None:
    if (
        text in EXTERNAL_ENV
        or text.startswith(EXTERNAL_ENV_PREFIXES)
        or _ENV_PLACEHOLDER.search(text)
    ):
        return "external"
    if project.in_any_file(text) or not project.source_words:
        return None
    return f"environment variable {text} appears in no file of the project", None


def check_config(project: Project, folder: str, text: str) -> Finding | None:
    from memkit.staleness.anchors.config import ConfigError, keys_of, lookup, split_key

    path, _, key = text.partition("::")
    doc = project.config(path)
    if doc is None:
        return f"no file {path}", None
    if isinstance(doc, ConfigError):
        return str(doc), None
    try:
        parts = split_key(key)
    except ConfigError as e:
        return str(e), None
    if lookup(doc, parts)[0]:
        return None
    return f"{path} has no key {key}", _suggest(close(key, keys_of(doc, len(parts))))


CHECKS: dict[str, Callable[[Project, str, str], Finding | str | None]] = {
    "path": check_path,
    "command": check_command,
    "marker": check_marker,
    "module": check_module,
    "package": check_package,
    "symbol": check_symbol,
    "env": check_env,
    "config": check_config,
}


def resolve(project: Project, folder: str, kind: str, text: str) -> Finding | str | None:
    """None when `text` resolves in the project, (message, suggestion or None) when it does
    not, or a word saying why it is not checked (`generated`, `tool`, `external`, ...)."""
    return CHECKS[kind](project, folder, text)
