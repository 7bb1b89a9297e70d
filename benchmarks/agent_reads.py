"""What each coding agent loads from a work tree, working on one file: an independent model.

Written from the agents' documented behaviour (the "what each agent reads" notes the
compile targets follow), not from memkit's own code, so that a benchmark grading
memkit's outputs does not grade them with memkit's model of the same thing. Only the
agents memkit's default compile targets write for are modelled:

- claude: CLAUDE.md and .claude/CLAUDE.md at the root and in every folder from the root
  down to the file; `.claude/rules/**/*.md` without `paths` always, with `paths` when
  one matches; `@path` lines outside code import a file (relative to the importing
  file, at most 5 hops).
- codex: AGENTS.md at the root and in every folder down to the file (the chain).
- cursor: the AGENTS.md chain, `.cursorrules`, and `.cursor/rules/**/*.mdc` in the
  root or a folder above the file: `alwaysApply: true` always, else `globs` (split at
  every comma, as Cursor does, relative to the rules' folder) when one matches; a
  rule with only a description, or nothing, is on demand (not loaded).
- copilot (the coding agent): `.github/copilot-instructions.md`, the AGENTS.md chain,
  `.github/instructions/**/*.instructions.md` whose `applyTo` (split at commas) matches
  and whose `excludeAgent` is not "coding-agent".
- copilot-review (code review): the same without AGENTS.md, `excludeAgent` not
  "code-review".

Cline (every `.clinerules/*.md` but workflows and hooks, and the AGENTS.md chain),
Windsurf (`.windsurf/rules/*.md` with `trigger: always_on` or none) and Roo Code
(`.roo/rules/*.md`) are modelled too, only to tell what a project's own files already
made an agent read twice (`BASELINE`): memkit writes no files for them by default.

A file reached twice (a link and its target) is read once. `Tree` snapshots a work
tree's text files so the same questions can be asked before and after memkit ran.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

AGENTS = ("claude", "codex", "cursor", "copilot", "copilot-review")
BASELINE = (*AGENTS, "cline", "windsurf", "roo")
FM = re.compile(
    r"\A\ufeff?---[ \t]*\n((?:(?:[A-Za-z_][\w.-]*\s*:.*|\s+\S.*|\s*-.*|\s*#.*|\s*)\n)*?)(?:---|\.\.\.)[ \t]*\n"  # noqa: E501
)
IMPORT = re.compile(r"^@([\w./~-]*[\w~])\s*$")
MAX_HOPS = 5


@dataclass
class Tree:
    """Text of every file under a root (links by their own names) and the file each is."""

    text: dict[str, str]
    real: dict[str, str]
    _meta: dict[str, dict[str, str | list[str]]] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Path) -> Tree:
        text, real = {}, {}
        for dirpath, dirnames, names in os.walk(root, followlinks=True):
            dirnames[:] = [d for d in dirnames if d not in (".git", ".memory")]
            for n in names:
                p = Path(dirpath) / n
                if p.is_file():
                    rel = p.relative_to(root).as_posix()
                    text[rel] = p.read_text("utf-8", "replace")
                    real[rel] = os.path.realpath(p)
        return cls(text, real)

    def meta(self, rel: str) -> dict[str, str | list[str]]:
        if rel not in self._meta:
            self._meta[rel] = front_matter(self.text[rel])
        return self._meta[rel]


def front_matter(text: str) -> dict[str, str | list[str]]:
    """`key: value` pairs and `key:` followed by `- item` lists of a leading front matter."""
    m = FM.match(text.replace("\r\n", "\n"))
    out: dict[str, str | list[str]] = {}
    if not m:
        return out
    key = ""
    for line in m.group(1).splitlines():
        item = re.match(r"^\s*-\s*(.*)$", line)
        kv = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", line)
        if item and key:
            prev = out.get(key)
            out[key] = [*(prev if isinstance(prev, list) else []), _unquote(item.group(1))]
        elif kv:
            key = kv.group(1)
            out[key] = _unquote(kv.group(2))
    return out


def _unquote(v: str) -> str:
    v = v.strip()
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"" else v


def folders(probe: str) -> list[str]:
    """The folders from the root down to the one holding `probe` ("" is the root)."""
    parts = probe.split("/")[:-1]
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


@lru_cache(maxsize=100_000)
def matches(glob: str, path: str) -> bool:
    from wcmatch import glob as wc

    glob = glob.strip().strip("'\"").removeprefix("./").lstrip("/")
    if not glob:
        return False
    return bool(wc.globmatch(path, glob, flags=wc.GLOBSTAR | wc.BRACE | wc.DOTGLOB))


def _globs(value: str | list[str] | None, *, braces_split: bool) -> list[str]:
    if not value:
        return []
    if isinstance(value, list):
        return value
    value = value.strip().strip("[]")
    if braces_split:  # the agent splits at every comma
        return [g for g in value.split(",") if g.strip()]
    return [g for g in re.split(r",(?![^{]*\})", value) if g.strip()]


def _under(tree: Tree, folder: str, sub: str) -> list[str]:
    prefix = _join(folder, sub) + "/"
    return sorted(rel for rel in tree.text if rel.startswith(prefix))


def _claude(tree: Tree, probe: str) -> list[str]:
    out = []
    for d in folders(probe):
        out += [p for p in (_join(d, "CLAUDE.md"), _join(d, ".claude/CLAUDE.md")) if p in tree.text]
        for rel in _under(tree, d, ".claude/rules"):
            if not rel.endswith(".md"):
                continue
            paths = _globs(tree.meta(rel).get("paths"), braces_split=False)
            local = probe[len(d) + 1 :] if d else probe
            if not paths or any(matches(g, local) for g in paths):
                out.append(rel)
    return _with_imports(tree, out)


def _with_imports(tree: Tree, files: list[str]) -> list[str]:
    out = list(files)
    todo = [(rel, 0) for rel in files]
    while todo:
        rel, hops = todo.pop(0)
        if hops >= MAX_HOPS:
            continue
        for line in _outside_code(tree.text[rel]):
            m = IMPORT.match(line.strip())
            if m:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), m.group(1)))
                if target in tree.text and target not in out:
                    out.append(target)
                    todo.append((target, hops + 1))
    return out


def _outside_code(text: str) -> list[str]:
    out, fence = [], ""
    for line in text.splitlines():
        s = line.strip()
        f = re.match(r"^(```+|~~~+)", s)
        if f:
            fence = "" if fence and s.startswith(fence) else fence or f.group(1)
            continue
        if not fence:
            out.append(line)
    return out


def _agents_chain(tree: Tree, probe: str) -> list[str]:
    return [p for p in (_join(d, "AGENTS.md") for d in folders(probe)) if p in tree.text]


def _cursor(tree: Tree, probe: str) -> list[str]:
    out = _agents_chain(tree, probe) + [p for p in (".cursorrules",) if p in tree.text]
    for d in folders(probe):
        local = probe[len(d) + 1 :] if d else probe
        for rel in _under(tree, d, ".cursor/rules"):
            if not rel.endswith(".mdc"):
                continue
            meta = tree.meta(rel)
            if str(meta.get("alwaysApply", "")).lower() == "true" or any(
                matches(g, local) for g in _globs(meta.get("globs"), braces_split=True)
            ):
                out.append(rel)
    return out


def _copilot(agent: str) -> object:
    def loads(tree: Tree, probe: str) -> list[str]:
        out = [p for p in (".github/copilot-instructions.md",) if p in tree.text]
        if agent == "coding-agent":
            out += _agents_chain(tree, probe)
        for rel in _under(tree, "", ".github/instructions"):
            if not rel.endswith(".instructions.md"):
                continue
            meta = tree.meta(rel)
            if str(meta.get("excludeAgent", "")).strip() == agent:
                continue
            if any(matches(g, probe) for g in _globs(meta.get("applyTo"), braces_split=True)):
                out.append(rel)
        return out

    return loads


def _folder_rules(folder: str, test: object = None) -> object:
    def loads(tree: Tree, probe: str) -> list[str]:
        out = []
        for rel in _under(tree, "", folder):
            on_demand = rel.startswith((".clinerules/workflows/", ".clinerules/hooks/"))
            wanted = test is None or test(tree.meta(rel))  # type: ignore[operator]
            if rel.endswith(".md") and not on_demand and wanted:
                out.append(rel)
        return out + (_agents_chain(tree, probe) if folder == ".clinerules" else [])

    return loads


LOADS = {
    "cline": _folder_rules(".clinerules"),
    "windsurf": _folder_rules(
        ".windsurf/rules", lambda m: str(m.get("trigger", "always_on")) == "always_on"
    ),
    "roo": _folder_rules(".roo/rules"),
    "claude": _claude,
    "codex": _agents_chain,
    "cursor": _cursor,
    "copilot": _copilot("coding-agent"),
    "copilot-review": _copilot("code-review"),
}


def loaded(tree: Tree, agent: str, probe: str) -> list[str]:
    """The files `agent` reads working on `probe`, each real file once, in order."""
    seen: set[str] = set()
    out = []
    for rel in LOADS[agent](tree, probe):  # type: ignore[operator]
        if tree.real[rel] not in seen:
            seen.add(tree.real[rel])
            out.append(rel)
    return out


def example(glob: str) -> list[str]:
    """Paths a glob matches, one per brace alternative: `src/**/*.{ts,tsx}` -> src/x.ts, ..."""
    import bracex

    out = []
    for g in bracex.expand(glob.strip().strip("'\"").removeprefix("./").lstrip("/"), limit=64):
        p = g.replace("**/", "").replace("**", "x").replace("*", "x").replace("?", "x")
        p = re.sub(r"\[!?([^\]])[^\]]*\]", r"\1", p)
        p = p.rstrip("/") if p.rstrip("/") else "x"
        out.append(p + "/x" if g.endswith("/") else p)
    return [p for p in out if p]


def probes(trees: list[Tree], scopes: list[tuple[str, ...]]) -> list[str]:
    """Files to stand in for where an agent works: the root, every folder holding an
    instruction file, and a path each glob of the trees' rules and of `scopes` matches."""
    out = {"x"}
    for tree in trees:
        for rel in tree.text:
            d = rel.rpartition("/")[0]
            name = rel.rpartition("/")[2]
            if name in ("AGENTS.md", "CLAUDE.md") and d:
                out.add(_join(d.removesuffix("/.claude").removesuffix(".claude"), "x"))
            base = ""
            if "/.cursor/rules/" in "/" + rel:
                base = ("/" + rel).split("/.cursor/rules/")[0].strip("/")
            elif "/.claude/rules/" in "/" + rel:
                base = ("/" + rel).split("/.claude/rules/")[0].strip("/")
            meta = tree.meta(rel) if rel.endswith((".md", ".mdc")) else {}
            for key in ("globs", "applyTo", "paths"):
                for g in _globs(meta.get(key), braces_split=False):
                    out.update(_join(base, p) for p in example(g))
    for scope in scopes:
        for g in scope:
            out.update(example(g))
    return sorted(out)
