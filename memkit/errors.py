"""The exceptions memkit raises. Messages are full sentences a user can act on."""

from __future__ import annotations


class MemkitError(Exception):
    """Any error caused by the user's input or environment (exit code 2)."""


class StoreNotFoundError(MemkitError):
    """No .memory/ directory could be found."""


class MemoryNotFoundError(MemkitError):
    """No memory with the given id."""


class InvalidMemoryError(MemkitError):
    """A memory file or value is invalid; names the file, line and field."""

    def __init__(self, path: str, line: int, field: str, message: str) -> None:
        self.path = path
        self.line = line
        self.field = field
        self.message = message
        shown = path if path.isprintable() else path.encode("unicode_escape").decode()
        super().__init__(f"{shown}:{line}: {field}: {message}")  # always one line


class SecretError(MemkitError):
    """Text that looks like a secret was about to be written."""


class ConfigError(MemkitError):
    """The configuration file or an environment override is invalid."""


class UnsafePathError(MemkitError):
    """A path from the repository leads outside it, into .git/, or to a special file."""


class GitError(MemkitError):
    """A git operation failed or needs history that is not there."""
