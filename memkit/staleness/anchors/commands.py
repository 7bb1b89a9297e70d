"""Command links: `cmd:make lint`, `cmd:npm run test`, `cmd:just build`, `cmd:task ci`, `cmd:NAME`.

A command is what a person types; the runner says where it is defined: make ->
Makefile targets, npm/yarn/pnpm/bun -> package.json scripts, just -> justfile
recipes, task -> Taskfile.yml tasks, uv/poetry/pdm run or a bare name -> pyproject
scripts. The fingerprint digests the definition (a target's prerequisites and recipe
with whitespace and comments normalized, a script's command line, a task's canonical
JSON): a different one is `body` (the command's body changed), none `removed`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memkit.staleness.anchors.manifests import Reader, as_dict, decoded, json_doc
from memkit.staleness.fingerprints import digest

if TYPE_CHECKING:
    from memkit.staleness.snapshot import Snapshot

MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
JUSTFILES = ("justfile", "Justfile", ".justfile")
TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml")
NPM = ("npm", "yarn", "pnpm", "bun")
NPM_BUILTIN = ("test", "start", "stop", "restart")  # `npm test` runs scripts.test
PY_RUNNERS = ("uv", "poetry", "pdm", "hatch", "rye")
# Options of make, npm and the Python runners that take the next word as their value.
VALUE_OPTIONS = frozenset(
    {"-C", "-f", "--file", "--directory", "-j", "--jobs", "-w", "--workspace", "--prefix",
     "--filter", "-F", "--cwd", "-p", "--python", "--with", "--extra", "--group", "--package",
     "--project", "--env-file", "--index", "--from", "-e", "--env"}
)  # fmt: skip
# yarn/pnpm/bun subcommands that are the tool's own, not a package.json script
PM_OWN = frozenset({
    "add", "audit", "bin", "cache", "ci", "config", "create", "dedupe", "dlx", "env", "exec",
    "global", "help", "i", "import", "info", "init", "install", "link", "list", "login", "logout",
    "ls", "outdated", "pack", "patch", "prune", "publish", "rebuild", "remove", "rm", "set",
    "setup", "store", "unlink", "up", "update", "upgrade", "version", "view", "why", "workspace",
    "workspaces", "x",
})  # fmt: skip
_TARGET = re.compile(r"^([^\s:=#][^:=#]*?)\s*(::?)(?!=)(.*)$")
_RECIPE = re.compile(r"^@?([A-Za-z_][\w-]*)((?:\s+[^:]*)?)\s*:(?!=)(.*)$")


def _norm(line: str) -> str:
    return " ".join(line.split("#")[0].split()) if not line.lstrip().startswith("#") else ""


def make_targets(text: str) -> dict[str, str]:
    """{target: normalized prerequisites and recipe} of a Makefile's explicit targets."""
    out: dict[str, list[str]] = {}
    current: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("\t"):
            for body in current:
                body.append(_norm(line))
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _TARGET.match(line)
        if m is None or "$" in m.group(1) or "%" in m.group(1):
            current = []
            continue
        current = []
        for name in m.group(1).split():
            if name.startswith(".") and (name.isupper() or name == ".DEFAULT_GOAL"):
                continue
            body = out.setdefault(name, [])
            body.append(_norm(m.group(3).split(";")[0]))
            current.append(body)
    return {k: "\n".join(v) for k, v in out.items()}


_ALIAS = re.compile(r"^alias\s+([\w-]+)\s*:=\s*([\w-]+)")


def just_recipes(text: str) -> dict[str, str]:
    """{recipe: normalized parameters and body}; `alias f := fmt` names fmt's body too."""
    out: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    body: list[str] | None = None
    for line in text.splitlines():
        if (alias := _ALIAS.match(line)) is not None:
            aliases[alias.group(1)] = alias.group(2)
            body = None
            continue
        if line[:1] in (" ", "\t") and body is not None:
            body.append(_norm(line))
            continue
        m = _RECIPE.match(line)
        body = out.setdefault(m.group(1), [_norm(m.group(3))]) if m else None
    found = {k: "\n".join(v) for k, v in out.items()}
    found.update({a: found[r] for a, r in aliases.items() if r in found})
    return found


def definitions(read: Reader, runner: str) -> tuple[str | None, dict[str, str]]:
    """(the file that defines `runner`'s commands, {name: definition}); (None, {}) if none."""
    from memkit.staleness.anchors.config import canonical

    if runner == "make":
        return _first(read, MAKEFILES, make_targets)
    if runner == "just":
        return _first(read, JUSTFILES, just_recipes)
    if runner in NPM:
        if read("package.json") is None:
            return None, {}
        scripts = as_dict(as_dict(json_doc(read, "package.json")).get("scripts"))
        return "package.json", {k: str(v) for k, v in scripts.items()}
    if runner == "task":
        from memkit.memory.yaml import YAMLLoadError, load_config

        for path in TASKFILES:
            text = decoded(read, path)
            if text is not None:
                try:
                    tasks = as_dict(as_dict(load_config(text)).get("tasks"))
                except YAMLLoadError:
                    tasks = {}
                return path, {str(k): canonical(v) for k, v in tasks.items()}
        return None, {}
    return _pyproject_scripts(read)


def _defined(snap: Snapshot, runner: str) -> tuple[str | None, dict[str, str]]:
    """definitions() of a snapshot, read once per snapshot and runner."""
    return snap.derived(("commands", runner), lambda: definitions(snap.read, runner))


def _pyproject_scripts(read: Reader) -> tuple[str | None, dict[str, str]]:
    import tomllib

    text = decoded(read, "pyproject.toml")
    if text is None:
        return None, {}
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "pyproject.toml", {}
    project, tool = as_dict(doc.get("project")), as_dict(doc.get("tool"))
    out: dict[str, str] = {}
    for table in (
        project.get("scripts"),
        project.get("gui-scripts"),
        as_dict(tool.get("poetry")).get("scripts"),
        as_dict(tool.get("pdm")).get("scripts"),
    ):
        out.update({str(k): str(v) for k, v in as_dict(table).items()})
    return "pyproject.toml", out


def _first(
    read: Reader, names: tuple[str, ...], parse: Callable[[str], dict[str, str]]
) -> tuple[str | None, dict[str, str]]:
    for path in names:
        text = decoded(read, path)
        if text is not None:
            return path, parse(text)
    return None, {}


def split_command(command: str) -> tuple[str, str] | None:
    """(runner, name) of a command line: `npm run test` -> (npm, test); None if not one."""
    words: list[str] = []
    value = False  # the previous word was an option that takes a value
    for w in command.split():
        if w.startswith("-"):
            value = w in VALUE_OPTIONS
        elif not value and "=" not in w:
            words.append(w)
        else:
            value = False
    if not words:
        return None
    runner, rest = words[0], words[1:]
    if runner in NPM:
        if rest[:1] == ["run"]:
            rest = rest[1:]
        elif rest[:1] and (rest[0] in PM_OWN or (runner == "npm" and rest[0] not in NPM_BUILTIN)):
            return None  # `npm install`, `yarn add`: the tool's own commands
    elif runner in PY_RUNNERS:
        if rest[:1] != ["run"]:
            return None
        runner, rest = "script", rest[1:]
    elif runner not in ("make", "just", "task"):
        return ("script", runner) if not rest else None
    return (runner, rest[0]) if rest else None


@dataclass(frozen=True)
class Command:
    text: str
    runner: str
    name: str
    any_source = False

    @classmethod
    def parse(cls, text: str) -> Command:
        split = split_command(text[len("cmd:") :])
        runner, name = split if split else ("", "")
        return cls(text, runner, name)

    def files(self, recorded: str | None) -> tuple[str, ...]:
        table = {"make": MAKEFILES, "just": JUSTFILES, "task": TASKFILES}
        if self.runner in NPM:
            return ("package.json",)
        return table.get(self.runner, ("pyproject.toml",))

    def current(self, snap: Snapshot, recorded: str | None) -> str | None:
        if not self.runner:
            return None
        found = _defined(snap, self.runner)[1].get(self.name)
        return None if found is None else f"cmd:{digest(found, 6)}"

    def compare(self, recorded: str, now: str | None) -> str:
        if now is None:
            return "removed"
        return "unchanged" if now == recorded else "body"

    def secret(self, snap: Snapshot) -> str | None:
        """Why this command's body must not be fingerprinted (it holds a credential)."""
        from memkit.secrets import scan

        found = definitions(snap.read, self.runner)[1].get(self.name) if self.runner else None
        hits = scan(found, honour_pragma=False) if found else []
        if not hits:
            return None
        return (
            f"the body of {self.name!r} holds what looks like a {hits[0].kind}, and a "
            "recorded digest of it can be guessed back; move the secret out of it"
        )

    def missing(self, snap: Snapshot) -> str:
        from memkit.staleness.anchors.hints import near

        if not self.runner:
            return "write the command as typed: `cmd:make lint`, `cmd:npm run test`, `cmd:NAME`"
        path, names = _defined(snap, self.runner)
        if path is None:
            return f"no {' or '.join(self.files(None))} at the repository root defines it"
        return f"{path} defines no {self.name!r}{near(self.name, names)}"
