"""CODEOWNERS: who reviews a memory, by the code it is about.

GitHub's rules: the file is `.github/CODEOWNERS`, `CODEOWNERS` or `docs/CODEOWNERS`
(first found); each line is a gitignore-style pattern and owners; the last pattern that
matches a path decides its owners. A memory's reviewers are the owners of the files it
links to and of the folders its `paths` globs name, else the owners of its own file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memkit.errors import MemkitError
from memkit.globs import fixed_prefix, match

LOCATIONS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")


@dataclass(frozen=True)
class Rules:
    rules: tuple[tuple[str, tuple[str, ...]], ...]  # (glob, owners), in file order

    def owners(self, path: str) -> tuple[str, ...]:
        """The owners of one file or folder path (the last matching rule wins)."""
        found: tuple[str, ...] = ()
        for glob, owners in self.rules:
            last = glob.rsplit("/", 1)[-1]
            tree = not any(c in last for c in "*?[{")  # names a folder: all below it too
            if match(glob, path) or (tree and match(f"{glob}/**", path)):
                found = owners
        return found

    def for_memory(self, path: str, links: Iterable[str], globs: Iterable[str]) -> tuple[str, ...]:
        targets = [link.partition("::")[0] for link in links]
        targets += [fixed_prefix(g) for g in globs]
        out: dict[str, None] = {}
        for t in (t for t in targets if t):
            out.update(dict.fromkeys(self.owners(t)))
        if not out:
            out.update(dict.fromkeys(self.owners(path)))
        return tuple(out)


def _glob(pattern: str) -> str:
    """A gitignore-style CODEOWNERS pattern as a memkit glob over repository paths."""
    anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")
    pattern = pattern.strip("/")
    return pattern if anchored else f"**/{pattern}"


def load(root: Path) -> Rules:
    """The project's CODEOWNERS (no rules when there is none or it cannot be read)."""
    from memkit.fsutil import read_inside

    for rel in LOCATIONS:
        try:
            text = read_inside(root, rel, limit=3 << 20).decode("utf-8", "replace")
        except (OSError, MemkitError):  # absent, or a link out, a device: not to trust
            continue
        return parse(text)
    return Rules(())


def parse(text: str) -> Rules:
    rules = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        pattern, *owners = line.split()
        rules.append((_glob(pattern), tuple(owners)))
    return Rules(tuple(rules))
