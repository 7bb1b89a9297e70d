"""`memkit audit`: check what hand-written instruction files say against the project.

Public API (needs no memkit set-up, no .memory/):

- audit(root, files=None) -> Report: every checkable reference in the instruction
  files (found under `root`, or the markdown files given), and those that do not
  resolve, each with its line, a message and a suggestion when something close exists.

sources.py finds the files and their references, checks.py decides what each
reference is, resolvers.py answers it against project.py's view of the project.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["Flag", "Report", "audit"]

MAX_INSTRUCTIONS = 4 * 1024 * 1024  # an instruction file larger than this is refused


@dataclass(frozen=True)
class Flag:
    """A reference that does not resolve."""

    file: str
    line: int
    kind: str  # path | command | marker | module | package | symbol | env | config
    reference: str
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return f"{self.file}:{self.line}: {self.message}{hint}"

    def to_record(self) -> dict[str, object]:
        return dataclasses.asdict(self)


class Unchecked(NamedTuple):
    """A reference seen but not checked, and why (a reason of Report.skipped)."""

    file: str
    line: int
    kind: str
    reference: str
    reason: str


@dataclass(frozen=True)
class Report:
    files: tuple[str, ...]
    checked: int  # references checked
    flags: tuple[Flag, ...]
    # References seen but not checked, by reason: generated (build outputs), negated or
    # example (the sentence makes no claim), branch, tool (an agent's own files), external
    # (another program's variable), no claim, other repository, generic (`index.ts`).
    skipped: tuple[tuple[str, int], ...] = ()
    checked_by_kind: tuple[tuple[str, int], ...] = ()
    unchecked: tuple[Unchecked, ...] = ()

    @property
    def resolved(self) -> int:
        return self.checked - len(self.flags)

    def summary(self) -> str:
        text = (
            f"{len(self.files)} instruction file(s), {self.checked} reference(s) checked, "
            f"{len(self.flags)} unresolved"
        )
        if self.skipped:
            reasons = ", ".join(f"{reason} {n}" for reason, n in self.skipped)
            text += f"; {sum(n for _, n in self.skipped)} not checked ({reasons})"
        return text

    def to_record(self) -> dict[str, object]:
        return {
            "files": list(self.files),
            "checked": self.checked,
            "resolved": self.resolved,
            "unresolved": [f.to_record() for f in self.flags],
            "not_checked": dict(self.skipped),
        }


def project_root(start: Path) -> Path:
    """The top of the git work tree holding `start`, else `start` itself."""
    from memkit.git.plain import toplevel

    top = toplevel(start)
    if top is not None:
        return top
    from memkit.git import find_repo, workdir

    repo = find_repo(start)
    return workdir(repo).resolve() if repo is not None and repo.workdir else start.resolve()


def _read(root: Path, name: str) -> str:
    from memkit.errors import MemkitError
    from memkit.fsutil import read_inside, read_regular

    try:
        if Path(name).is_absolute():
            data = read_regular(name, limit=MAX_INSTRUCTIONS, what=name)
        else:
            data = read_inside(root, name, limit=MAX_INSTRUCTIONS, what=name)
    except FileNotFoundError:
        raise MemkitError(f"no file {name}; name an instruction file that exists") from None
    except OSError as e:
        raise MemkitError(f"{name}: cannot read it ({e.strerror or e})") from None
    return data.decode("utf-8", "replace")


def named(root: Path, given: Sequence[Path]) -> list[str]:
    """Files given on the command line, relative to `root` when inside it."""
    full = [path.absolute() for path in given]
    return [p.relative_to(root).as_posix() if p.is_relative_to(root) else str(p) for p in full]


def audit(root: Path, files: Sequence[str] | None = None) -> Report:
    """Audit the instruction files under `root` (or `files`: relative to it, or absolute)."""
    from memkit.audit.project import Project
    from memkit.audit.sources import instruction_files
    from memkit.git import plain

    root = root.resolve()
    paths = plain.tracked(root)
    if paths is None:  # no git command, or not a repository
        from memkit.git import find_repo
        from memkit.staleness.anchors.tree import project_files

        paths = project_files(root, find_repo(root))
    chosen = list(files) if files else instruction_files(paths)
    project = Project(root, paths, skip=frozenset(chosen), branches=lambda: plain.branches(root))
    flags: list[Flag] = []
    kinds: Counter[str] = Counter()  # references checked, by kind
    unchecked: list[Unchecked] = []
    for name in chosen:
        for (line, kind, target), found in _audit_file(project, name, _read(root, name)):
            if isinstance(found, str):
                unchecked.append(Unchecked(name, line, kind, target, found))
                continue
            kinds[kind] += 1
            if found is not None:
                flags.append(found)
    skipped = Counter(u.reason for u in unchecked)
    reasons = tuple(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])))
    by_kind = tuple(sorted(kinds.items()))
    return Report(tuple(chosen), kinds.total(), tuple(flags), reasons, by_kind, tuple(unchecked))


Outcome = tuple[tuple[int, str, str], Flag | str | None]


def _audit_file(project: Any, name: str, text: str) -> Iterator[Outcome]:
    """For each reference in one file: (line, kind, text), and a Flag, None (resolved) or
    why it was not checked."""
    from memkit.audit.checks import classify
    from memkit.audit.context import foreign_lines, home_paths, unclaimed
    from memkit.audit.resolvers import resolve
    from memkit.audit.sources import references

    folder = name.rpartition("/")[0]
    refs = list(references(text))
    outcomes = [
        (ref, (ref.line, kind, target), resolve(project, folder, kind, target))
        for ref in refs
        for kind, target in classify(ref)
    ]
    # A bare file name that another reference of the file gives as a build output's
    # (`MainActivity.kt` after `src-tauri/gen/.../MainActivity.kt`) is that output.
    outputs = {
        where[2].rstrip("/").rpartition("/")[2]
        for _, where, found in outcomes
        if found == "generated"
    }
    seen: set[tuple[str, str]] = set()
    home, foreign = home_paths(refs), foreign_lines(refs, project.dirs)
    for ref, where, found in outcomes:
        if found is None or isinstance(found, str):
            yield where, found
            continue
        _, kind, target = where
        why = unclaimed(ref, kind, target)  # only what would be flagged is read closer
        if why is None and kind == "path":
            if ref.line in foreign:
                why = "other repository"
            elif target.strip("/") in home:
                why = "tool"
            elif "." not in target.rsplit("/", 1)[-1] and project.is_branch(target):
                why = "branch"
            elif "/" not in target and target in outputs:
                why = "generated"
        if why is not None:
            yield where, why
        elif (kind, target) in seen:
            yield where, None  # reported once per file
        else:
            seen.add((kind, target))
            yield where, Flag(name, ref.line, kind, target, *found)
