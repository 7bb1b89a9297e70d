"""One state of the code (work tree, index or a commit), read and parsed on demand."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from memkit.staleness.fingerprints import file_print
from memkit.staleness.links import language_of
from memkit.staleness.parsed import Parsed, Unparsable

if TYPE_CHECKING:
    from memkit.staleness.printcache import PrintCache

WORKTREE: str | None = None
INDEX = ""
T = TypeVar("T")


def parse_source(path: str, data: bytes) -> Parsed:
    """Parse one file by its suffix; unknown languages get a file fingerprint only."""
    language = language_of(path)
    if language == "python":
        from memkit.staleness import python

        return python.parse(data, path)
    if language is not None:
        from memkit.staleness import treesitter

        return treesitter.parse(data, language, path)
    return Parsed(file_print(data))


MAX_SOURCE_BYTES = 32 * 1024 * 1024  # a linked source file, in the work tree or at a commit


class Snapshot:
    """Files relative to the store root at revision `rev` (None: the work tree, "": index)."""

    def __init__(
        self,
        root: Path,
        repo: Any | None,
        rev: str | None = WORKTREE,
        prints: PrintCache | None = None,
    ) -> None:
        self.root = root
        self._repo = repo
        self._open: Callable[[], Any | None] | None = None
        self.rev = rev
        self.prints = prints  # Python prints kept by content between runs
        self.prefix = ""
        if repo is not None and repo.workdir is not None:
            from memkit.git import prefix

            self.prefix = prefix(repo, root)
        self._parsed: dict[str, Parsed | None] = {}
        # path -> why a limit kept memkit from reading it (the file is there: never
        # report it as missing)
        self.refused: dict[str, str] = {}
        # path -> why its blob is not in this clone (a partial clone that could not fetch it)
        self.missing: dict[str, str] = {}
        self._derived: dict[tuple[str, ...], Any] = {}

    def derived(self, key: tuple[str, ...], compute: Callable[[], T]) -> T:
        """What `compute` works out from this snapshot's files, worked out once per snapshot
        (a command's run): the dependencies of the root manifests and lock files, a config
        file's document, the commands a Makefile defines. A thousand `dep:` links parse a
        1.5 MB uv.lock once, not a thousand times."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]  # type: ignore[no-any-return]

    @classmethod
    def of_worktree(
        cls,
        root: Path,
        prefix: str,
        open_repo: Callable[[], Any | None],
        prints: PrintCache | None = None,
    ) -> Snapshot:
        """The work tree at `root` (`prefix` from the repository's top), its repository
        opened by `open_repo` only if something asks for it: reading the work tree and
        parsing it need no pygit2."""
        snap = cls(root, None, WORKTREE, prints)
        snap.prefix = prefix
        snap._open = open_repo
        return snap

    @property
    def repo(self) -> Any | None:
        if self._open is not None:
            self._repo, self._open = self._open(), None
        return self._repo

    def git_path(self, path: str) -> str:
        return self.prefix + path

    def local_path(self, git_path: str) -> str:
        if git_path.startswith(self.prefix):
            return git_path[len(self.prefix) :]
        return git_path

    def read(self, path: str) -> bytes | None:
        """The file's bytes; None when it is missing, or refused (`refusal` says why)."""
        from memkit.errors import MemkitError, TooLargeError
        from memkit.git.objects import MissingObjectError

        try:
            if self.rev is None or self.repo is None:
                from memkit.fsutil import read_inside

                return read_inside(self.root, path, limit=MAX_SOURCE_BYTES)
            from memkit.git import read_at

            return read_at(self.repo, self.rev, self.git_path(path), limit=MAX_SOURCE_BYTES)
        except TooLargeError as e:
            self.refuse(
                path,
                f"{path} is {e.size:,} bytes, over memkit's limit of {e.limit:,} bytes for a "
                "file a link reads, so memkit did not read it; link a smaller file, or remove "
                "the link",
            )
            return None
        except MissingObjectError as e:
            self.missing.setdefault(path, str(e))
            return None
        except (OSError, MemkitError):  # a link out, a FIFO or a device reads as no file
            return None

    def refuse(self, path: str, why: str) -> None:
        """Note that a limit kept `path` from being read or parsed, and why."""
        self.refused.setdefault(path, why)

    def refusal(self, paths: Iterable[str]) -> str | None:
        """Why a limit kept one of `paths` from being read, if one did (None: it did not)."""
        return next((self.refused[p] for p in paths if p in self.refused), None)

    def outside(self, path: str) -> bool:
        """Whether `path` in the work tree is a symlink (or under one) leading out of the root."""
        return not (self.root / path).resolve().is_relative_to(self.root)

    def parsed(self, path: str) -> Parsed | None:
        """The parsed file, None if missing; Unparsable if it does not parse."""
        if path not in self._parsed:
            data = self.read(path)
            if data is None:
                self._parsed[path] = None
            elif self.prints is not None and language_of(path) == "python":
                self._parsed[path] = self.prints.parsed(data, lambda: parse_source(path, data))
            else:
                self._parsed[path] = parse_source(path, data)
        return self._parsed[path]

    def try_parsed(self, path: str) -> Parsed | None:
        """Like parsed(), but a file that does not parse counts as missing."""
        try:
            return self.parsed(path)
        except Unparsable:
            return None
