"""The exceptions memkit raises, the exit codes, and `report`: the one place that turns an
exception into an exit code and a message. Messages are full sentences a user can act on.

Exit codes: 0 ok, 1 a check found something, 2 user error (any MemkitError), 3 a bug
(or a git hook that could not run), 130 interrupted. The command line (memkit.cli) and
the git hook's fast path (memkit.githooks.fastpath) both call `report`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the git hook's fast path imports this module: not even `typing`

EXIT_OK, EXIT_FOUND, EXIT_USER, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


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


class TooLargeError(UnsafePathError):
    """A file memkit refused to read because it is over a size limit: `size` bytes (or
    more), over `limit`. The message names the file and the limit; never report it as
    a file that does not exist."""

    def __init__(self, message: str, *, size: int, limit: int) -> None:
        super().__init__(message)
        self.size = size
        self.limit = limit


class GitError(MemkitError):
    """A git operation failed or needs history that is not there."""


COULD_NOT_RUN = (
    "memkit: the {hook} hook could not run: {exc}\n"
    "memkit: nothing was changed; fix the cause, or commit with `git commit --no-verify`"
)
HOOK_CRASHED = (
    "memkit: the {hook} hook crashed ({kind}: {exc}); this is a bug in memkit. Nothing was "
    "changed or staged. Commit with `git commit --no-verify` to skip the hook, and report it "
    "(MEMKIT_DEBUG=1 shows the traceback)."
)
CRASHED = (
    "memkit {version} crashed: this is a bug in memkit, not in your input. "
    "Please report it with the traceback above."
)


def verdict(
    exc: BaseException, *, hook: str | None = None, started: bool = True
) -> tuple[int, str, bool]:
    """(exit code, message for stderr or "", whether the traceback goes first): see `report`."""
    import os

    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED, "memkit: interrupted", False
    if isinstance(exc, BrokenPipeError):
        return EXIT_OK, "", False  # the reader went away (e.g. `| head`): not an error
    if hook is not None and not started:
        return EXIT_BUG, COULD_NOT_RUN.format(hook=hook, exc=exc), False
    if isinstance(exc, MemkitError):
        return EXIT_USER, f"memkit: {exc}", False
    if hook is not None and not os.environ.get("MEMKIT_DEBUG"):
        return EXIT_BUG, HOOK_CRASHED.format(hook=hook, kind=type(exc).__name__, exc=exc), False
    from memkit import __version__

    return EXIT_BUG, CRASHED.format(version=__version__), True


def report(exc: BaseException, *, hook: str | None = None, started: bool = True) -> int:
    """Say on stderr why memkit stopped; return the exit code. Call it in an `except`.

    A MemkitError is the user's to fix: its message, exit 2. Anything else is a bug:
    the traceback and a request to report it, exit 3. `hook` names the git hook being
    run: a bug then gets one paragraph saying how to commit anyway, no traceback
    (MEMKIT_DEBUG=1 shows it); `started=False` says the hook failed before it looked
    at anything (git could not list the staged files): exit 3, whatever the error.
    Ctrl-C exits 130; a closed pipe (`memkit list | head`) exits 0 quietly.
    """
    import sys

    code, text, with_traceback = verdict(exc, hook=hook, started=started)
    if isinstance(exc, BrokenPipeError):
        stdout_closed()
        return code
    if with_traceback:
        import traceback

        traceback.print_exception(exc)
    from memkit.controls import printable

    print(printable(text), file=sys.stderr, flush=True)
    return code


def stdout_closed() -> None:
    """The reader of stdout went away (`memkit list | head -1`): send what is still buffered,
    and anything printed later, to the null device, so that the interpreter's last flush
    raises nothing. The exit code stays the caller's: memkit exits 0 (a closed stdout is
    the reader's choice, not a failure), as its hooks must."""
    import os
    import sys

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no real stdout (a test's capture): drop it
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
