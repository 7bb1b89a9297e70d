"""The `memkit` merge driver: conflicts in compiled files are settled by regenerating them.

`install_merge_driver(store)` registers the driver in the repository's git config and
marks the compiled files with it in a marked block of .gitattributes;
`uninstall_merge_driver(store)` removes both. `merge_file` is the driver itself.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.errors import MemkitError
from memkit.fsutil import atomic_write
from memkit.githooks.install import run_git, toplevel

if TYPE_CHECKING:
    from memkit.store import Store

DRIVER = "memkit"
ATTR_BEGIN = "# >>> memkit merge driver (memkit hooks install --merge-driver)"
ATTR_END = "# <<< memkit merge driver"
OLD_DRIVER = (
    "memkit: this merge driver was registered by an older memkit, which lets a `memkit` "
    "folder in the work tree run in its place; run `memkit hooks install --merge-driver`"
)


def install_merge_driver(store: Store) -> list[str]:
    """Register the `memkit` merge driver in git's config and mark compiled files with it."""
    top = toplevel(store.root)
    # -P: git runs the driver at the work tree's top, which `-m` would put first on the
    # import path (a `memkit/` folder in the merged branch would run: see install._CODE)
    driver = f"{shlex.quote(sys.executable)} -P -m memkit hooks merge-file %O %A %B %P"
    changes = []
    for key, value in (("name", "memkit: regenerate compiled files"), ("driver", driver)):
        current = subprocess.run(
            ["git", "config", "--local", f"merge.{DRIVER}.{key}"], cwd=top, capture_output=True
        ).stdout.decode("utf-8", "replace")
        if current.strip() != value:
            run_git(top, "config", "--local", f"merge.{DRIVER}.{key}", value)
            changes.append(f"set git config merge.{DRIVER}.{key}")
    lines = [f"{pattern} merge={DRIVER}" for pattern in generated_patterns()]
    if _write_attributes(store.root / ".gitattributes", lines):
        changes.append(f"updated {store.rel(store.root / '.gitattributes')}")
    return changes


def uninstall_merge_driver(store: Store) -> list[str]:
    """Remove the merge driver's git config and its .gitattributes lines."""
    top = toplevel(store.root)
    changes = []
    probe = subprocess.run(
        ["git", "config", "--local", "--get-regexp", rf"^merge\.{DRIVER}\."],
        cwd=top,
        capture_output=True,
    )
    if probe.returncode == 0 and probe.stdout.strip():
        run_git(top, "config", "--local", "--remove-section", f"merge.{DRIVER}")
        changes.append(f"removed git config merge.{DRIVER}")
    if _write_attributes(store.root / ".gitattributes", []):
        changes.append(f"updated {store.rel(store.root / '.gitattributes')}")
    return changes


def _write_attributes(path: Path, lines: list[str]) -> bool:
    """Put `lines` between memkit's markers in `path` (none: remove the block); keep the rest.

    A `.gitattributes` that is a symbolic link is refused, never read or written through.
    """
    from memkit.fsutil import read_inside, write_target

    write_target(path.parent, path.name)
    try:
        text = read_inside(path.parent, path.name, limit=16 * 1024 * 1024).decode("utf-8")
    except FileNotFoundError:
        text = ""
    kept, inside = [], False
    for line in text.splitlines():
        if line == ATTR_BEGIN:
            inside = True
        elif line == ATTR_END and inside:
            inside = False
        elif not inside:
            kept.append(line)
    block = [ATTR_BEGIN, *lines, ATTR_END] if lines else []
    while kept and not kept[-1].strip():
        kept.pop()
    new = "\n".join([*kept, *([""] if kept and block else []), *block])
    new = new + "\n" if new else ""
    if new == text or not (new or text.strip()):  # unchanged, or blank either way
        return False
    atomic_write(path, new.encode("utf-8"))
    return True


def generated_patterns() -> list[str]:
    """.gitattributes patterns of the files `memkit compile` writes, for the merge driver."""
    from memkit.compile.targets import RULE_PREFIX, TARGETS

    out: list[str] = []
    for target in TARGETS.values():
        out += [name if "/" not in name else f"/{name}" for name in target.shared]
        out += [f"/{d}/{RULE_PREFIX}*{suffix}" for d, suffix in target.rule_dirs]
    return sorted(set(out))


def merge_file(base: Path, ours: Path, theirs: Path, path: str) -> tuple[bool, str]:
    """The merge driver: merge three versions of a compiled file into `ours`.

    memkit's part is never merged line by line: a file memkit owns whole keeps our
    version when the sides conflict, and in a shared file our marked section stands in
    for all three sides, so only text people wrote can conflict. Either way, `memkit
    compile` (which the pre-commit hook runs) regenerates memkit's part from the merged
    memories. Returns (merged cleanly, a line for the user).
    """
    from memkit.compile import markers as sections

    texts = [_read(p) for p in (ours, base, theirs)]
    spans = [_span(t, path) for t in texts]
    sides = [(t, s) for t, s in ((texts[0], spans[0]), (texts[2], spans[2])) if s is not None]
    section = next((t[s[0] : s[1]] for t, s in sides), None)
    if section is not None:  # ours, else theirs, stands in on all three sides
        texts = [
            t[: s[0]] + section + t[s[1] :] if s else t for t, s in zip(texts, spans, strict=True)
        ]
    done = merge3(*(t.encode("utf-8", "surrogateescape") for t in texts))
    conflicts = done.returncode
    if conflicts < 0 or conflicts > 127:
        raise MemkitError(f"`git merge-file` failed: {done.stderr.decode('utf-8', 'replace')}")
    redo = f"run `memkit compile` to regenerate memkit's part of {path}"
    if conflicts and sections.owns(texts[0]):
        return True, f"memkit: {path} is compiled: kept our side of it; {redo}"
    atomic_write(ours, done.stdout)
    if conflicts:
        return False, f"memkit: {path}: {conflicts} conflict(s) in text outside memkit's markers"
    return True, f"memkit: merged {path}; {redo}" if section is not None else ""


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", "surrogateescape")
    except OSError as e:
        raise MemkitError(
            f"the merge driver cannot read {path}: {e.strerror}; git passes it three files "
            "(%O %A %B): check the driver line in .git/config (`memkit hooks install "
            "--merge-driver` writes it)"
        ) from None


def _span(text: str, path: str) -> tuple[int, int] | None:
    """The offsets of memkit's marked section in `text`; None when none or its markers
    are broken."""
    from memkit.compile import markers as sections

    try:
        return sections.locate(text, path)
    except MemkitError:
        return None


def merge3(ours: bytes, base: bytes, theirs: bytes) -> subprocess.CompletedProcess[bytes]:
    """`git merge-file -p` on three versions: stdout the result (with conflict markers),
    the exit code the number of conflicts (negative or over 127: git failed)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="memkit-merge-") as tmp:
        files = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            Path(tmp, name).write_bytes(data)
            files.append(str(Path(tmp, name)))
        labels = ["-L", "ours", "-L", "base", "-L", "theirs"]
        return subprocess.run(["git", "merge-file", "-p", *labels, *files], capture_output=True)
