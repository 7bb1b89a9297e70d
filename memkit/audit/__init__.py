"""`memkit audit`: check what hand-written instruction files say against the project.

Public API (needs no memkit set-up, no .memory/):

- audit(root, files=None) -> Report: every checkable reference in the instruction
  files (found under `root`, or the markdown files given), and those that do not
  resolve, each with its line, a message and a suggestion when something close exists.

sources.py finds the files and their references, checks.py decides what each
reference is, resolvers.py answers it against project.py's view of the project.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

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
        return {
            "file": self.file,
            "line": self.line,
            "kind": self.kind,
            "reference": self.reference,
            "message": self.message,
            "suggestion": self.suggestion,
        }


@dataclass(frozen=True)
class Report:
    files: tuple[str, ...]
    checked: int  # references checked
    flags: tuple[Flag, ...]

    @property
    def resolved(self) -> int:
        return self.checked - len(self.flags)

    def summary(self) -> str:
        return (
            f"{len(self.files)} instruction file(s), {self.checked} reference(s) checked, "
            f"{len(self.flags)} unresolved"
        )

    def to_record(self) -> dict[str, object]:
        return {
            "files": list(self.files),
            "checked": self.checked,
            "resolved": self.resolved,
            "unresolved": [f.to_record() for f in self.flags],
        }


def project_root(start: Path) -> Path:
    """The top of the git work tree holding `start`, else `start` itself."""
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
    out = []
    for path in given:
        full = path.absolute()
        inside = full.is_relative_to(root)
        out.append(full.relative_to(root).as_posix() if inside else str(full))
    return out


def audit(root: Path, files: Sequence[str] | None = None) -> Report:
    """Audit the instruction files under `root` (or `files`: relative to it, or absolute)."""
    from memkit.audit.checks import classify
    from memkit.audit.project import Project
    from memkit.audit.resolvers import resolve
    from memkit.audit.sources import instruction_files, references
    from memkit.git import find_repo
    from memkit.staleness.anchors.tree import project_files

    root = root.resolve()
    paths = project_files(root, find_repo(root))
    chosen = list(files) if files else instruction_files(paths)
    project = Project(root, paths, skip=frozenset(chosen))
    checked = 0
    flags: list[Flag] = []
    for name in chosen:
        text = _read(root, name)
        folder = name.rpartition("/")[0]
        seen: set[tuple[str, str]] = set()
        for ref in references(text):
            for kind, target in classify(ref):
                found = resolve(project, folder, kind, target)
                checked += 1
                if found is not None and (kind, target) not in seen:
                    seen.add((kind, target))
                    flags.append(Flag(name, ref.line, kind, target, *found))
    return Report(tuple(chosen), checked, tuple(flags))
