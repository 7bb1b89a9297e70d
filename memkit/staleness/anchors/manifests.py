"""Dependencies declared in a project's manifests and pinned in its lock files.

`declared(read)` returns {normalized name: version or ""} from the manifests at the
root: pyproject.toml (PEP 621, dependency groups, Poetry), requirements*.txt,
setup.cfg, package.json, go.mod, Cargo.toml and Gemfile; lock files (uv.lock,
poetry.lock, package-lock.json, yarn.lock, Cargo.lock, Gemfile.lock) add what they
pin and give exact versions. `read(path)` returns a file's bytes or None.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

Reader = Callable[[str], "bytes | None"]

_MANIFEST_WORDS = (
    "pyproject.toml requirements.txt requirements-dev.txt requirements-test.txt "
    "dev-requirements.txt requirements/base.txt requirements/dev.txt requirements/test.txt "
    "setup.cfg package.json go.mod Cargo.toml Gemfile"
)
MANIFESTS = tuple(_MANIFEST_WORDS.split())
_LOCK_WORDS = "uv.lock poetry.lock package-lock.json yarn.lock Cargo.lock Gemfile.lock"
LOCKS = tuple(_LOCK_WORDS.split())
FILES = MANIFESTS + LOCKS

_REQ = re.compile(r"\s*([A-Za-z0-9@][A-Za-z0-9._/@-]*)\s*(?:\[[^\]]*\])?\s*(.*)")
_VERSION = re.compile(r"(\d+(?:\.\d+)*)")


def normalize(name: str) -> str:
    """PEP 503 for Python-style names (case, `-_.` runs); others only lower-cased."""
    return re.sub(r"[-_.]+", "-", name).lower() if "/" not in name else name.lower()


def version_of(spec: str) -> str:
    """The first version number in a requirement spec (`>=2.1,<3` -> `2.1`), or ""."""
    spec = spec.split(";")[0]
    if spec.strip().startswith(("<", "!=")):
        return ""
    m = _VERSION.search(spec)
    return m.group(1) if m else ""


def major(version: str) -> str:
    """`3.2.1` -> `3`; `0.4.2` -> `0.4` (a 0.x minor is a breaking release)."""
    parts = version.lstrip("v").split(".")
    if not parts[0]:
        return ""
    return f"0.{parts[1]}" if parts[0] == "0" and len(parts) > 1 else parts[0]


def decoded(read: Reader, path: str) -> str | None:
    data = read(path)
    return None if data is None else data.decode("utf-8", "replace").removeprefix("\ufeff")


def _toml(read: Reader, path: str) -> dict[str, Any]:
    import tomllib

    text = decoded(read, path)
    try:
        return tomllib.loads(text) if text else {}
    except tomllib.TOMLDecodeError:
        return {}


def json_doc(read: Reader, path: str) -> Any:
    import json

    text = decoded(read, path)
    try:
        return json.loads(text) if text else {}
    except (ValueError, RecursionError):
        return {}


def _requirements(lines: Iterable[str]) -> dict[str, str]:
    out = {}
    for line in lines:
        line = line.split(" #")[0].strip()
        if not line or line.startswith(("#", "-", "git+", "http")):
            continue
        if m := _REQ.match(line):
            out[normalize(m.group(1))] = version_of(m.group(2))
    return out


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _pyproject(read: Reader) -> dict[str, str]:
    doc = _toml(read, "pyproject.toml")
    project = as_dict(doc.get("project"))
    reqs = [r for r in project.get("dependencies", []) if isinstance(r, str)]
    for group in as_dict(project.get("optional-dependencies")).values():
        reqs += [r for r in group if isinstance(r, str)]
    for group in as_dict(doc.get("dependency-groups")).values():
        reqs += [r for r in group if isinstance(r, str)]
    tool = as_dict(doc.get("tool"))
    reqs += [r for r in as_dict(tool.get("uv")).get("dev-dependencies", []) if isinstance(r, str)]
    out = _requirements(reqs)
    poetry = as_dict(tool.get("poetry"))
    tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
    tables += [as_dict(g).get("dependencies") for g in as_dict(poetry.get("group")).values()]
    for table in tables:
        for name, spec in as_dict(table).items():
            if name != "python":
                out[normalize(name)] = _spec(spec)
    return out


def _spec(spec: Any) -> str:
    if isinstance(spec, dict):
        spec = spec.get("version", "")
    return version_of(spec) if isinstance(spec, str) else ""


def _setup_cfg(read: Reader) -> dict[str, str]:
    import configparser

    text = decoded(read, "setup.cfg")
    if not text:
        return {}
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return {}
    lines = parser.get("options", "install_requires", fallback="").splitlines()
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            lines += value.splitlines()
    return _requirements(lines)


NPM_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def _package_json(read: Reader) -> dict[str, str]:
    doc = as_dict(json_doc(read, "package.json"))
    return {
        name.lower(): version_of(spec) if isinstance(spec, str) else ""
        for section in NPM_SECTIONS
        for name, spec in as_dict(doc.get(section)).items()
    }


def _go_mod(read: Reader) -> dict[str, str]:
    text = decoded(read, "go.mod") or ""
    pattern = r"^(?:require\s+)?\s*([\w.\-]+\.[\w./\-]+)\s+(v[\w.\-+]+)"
    return {m.group(1).lower(): m.group(2).lstrip("v") for m in re.finditer(pattern, text, re.M)}


def _cargo(read: Reader) -> dict[str, str]:
    doc = _toml(read, "Cargo.toml")
    tables = [doc, as_dict(doc.get("workspace"))]
    tables += [as_dict(t) for t in as_dict(doc.get("target")).values()]
    return {
        normalize(name): _spec(spec)
        for table in tables
        for section in ("dependencies", "dev-dependencies", "build-dependencies")
        for name, spec in as_dict(table.get(section)).items()
    }


def _gemfile(read: Reader) -> dict[str, str]:
    text = decoded(read, "Gemfile") or ""
    pattern = r"^\s*gem\s+['\"]([\w.\-]+)['\"](?:\s*,\s*['\"]([^'\"]*)['\"])?"
    return {
        m.group(1).lower(): version_of(m.group(2) or "") for m in re.finditer(pattern, text, re.M)
    }


# A TOML lock file's `[[package]]` tables (uv.lock, poetry.lock, Cargo.lock): the lines up
# to the next table header, where its own `name` and `version` keys are written first.
_PACKAGE = re.compile(r"^\[\[package\]\][ \t]*\r?\n((?:(?!\[).*(?:\n|\Z))*)", re.M)
_KEY = re.compile(r"^(name|version)[ \t]*=[ \t]*(?:\"([^\"\\\n]*)\"|'([^'\n]*)')", re.M)


def toml_packages(text: str) -> list[dict[str, str]]:
    """The `name` and `version` of each `[[package]]` of a lock file written by a tool
    (one key a line, as uv, Poetry and Cargo write them): read by lines, since a full
    TOML parse of a 1.5 MB uv.lock takes half a second. A package whose name is written
    another way (an escape, a multi-line string) is left out."""
    out = []
    for block in _PACKAGE.finditer(text):
        keys: dict[str, str] = {}
        for m in _KEY.finditer(block.group(1)):
            keys.setdefault(m.group(1), m.group(2) if m.group(2) is not None else m.group(3))
        if "name" in keys:
            out.append(keys)
    return out


def _locks(read: Reader) -> dict[str, str]:
    out: dict[str, str] = {}
    for lock in ("uv.lock", "poetry.lock", "Cargo.lock"):
        for pkg in toml_packages(decoded(read, lock) or ""):
            out[normalize(pkg["name"])] = pkg.get("version", "")
    packages = as_dict(as_dict(json_doc(read, "package-lock.json")).get("packages"))
    for key, pkg in packages.items():
        if key.startswith("node_modules/") and "/node_modules/" not in key:
            out[key[len("node_modules/") :].lower()] = str(as_dict(pkg).get("version", ""))
    yarn = decoded(read, "yarn.lock") or ""
    for m in re.finditer(r'^"?(@?[^@\s"]+)@[^\n]*:\n\s+version:? "?([\w.\-+]+)', yarn, re.M):
        out.setdefault(m.group(1).lower(), m.group(2))
    gems = decoded(read, "Gemfile.lock") or ""
    for m in re.finditer(r"^    ([\w.\-]+) \(([\w.\-]+)\)$", gems, re.M):
        out[m.group(1).lower()] = m.group(2)
    return out


def declared(read: Reader) -> dict[str, str]:
    """{normalized name: version} of every dependency the root manifests and locks name."""
    out: dict[str, str] = {}
    for path in MANIFESTS:
        if path.endswith(".txt"):
            text = decoded(read, path)
            if text:
                out.update(_requirements(text.splitlines()))
    for parse in (_pyproject, _setup_cfg, _package_json, _go_mod, _cargo, _gemfile):
        for name, version in parse(read).items():
            if version or name not in out:
                out[name] = version
    for name, version in _locks(read).items():
        if version:
            out[name] = version
        else:
            out.setdefault(name, "")
    return out
