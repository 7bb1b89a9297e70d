"""Atomic file replacement with the standard library's plainest modules.

`atomic_write(path, data)`: a temp file beside `path`, flushed, then renamed over it,
so readers see the old file or the new one, never a mix. memkit.fsutil (locks, safe
reads, batched writes) builds on it; the pre-commit hook's fast path and checks
write their derived files with it directly: no pathlib, contextlib or tempfile at
import, each costing that path more than the write itself.
"""

from __future__ import annotations

import errno
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _parent(path: str) -> str:
    return os.path.dirname(path) or "."


def _unlink_quietly(path: str) -> None:
    try:  # noqa: SIM105 - contextlib.suppress would cost the hook's fast path its import
        os.unlink(path)
    except OSError:
        pass


def temp_beside(path: str | PathLike[str], data: bytes, fsync: bool = True) -> str:
    """A new file `.NAME.RANDOM.tmp` beside `path` holding `data` (mode 0o600 until the
    caller sets it), created exclusively as tempfile.mkstemp does."""
    path = os.fspath(path)
    parent = _parent(path)
    os.makedirs(parent, exist_ok=True)
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = os.path.join(parent, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(tmp, flags, 0o600)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - a hundred 48-bit names taken
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if fsync:
                os.fsync(f.fileno())
    except BaseException:
        _unlink_quietly(tmp)
        raise
    return tmp


def mode_of(path: str | PathLike[str]) -> int:
    """The permission bits a file replacing `path` keeps: those of `path` (following a
    symbolic link), 0o644 if there is nothing there."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return 0o644  # what os.path.exists() answers False to
        raise


def fsync_dir(directory: str | PathLike[str]) -> None:
    """Flush a folder's entries (a rename in it) to disk; nothing if it cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(
    path: str | PathLike[str], data: bytes, *, mode: int | None = None, fsync: bool = True
) -> None:
    """Replace `path` with `data`: readers see the old file or the new one, never a mix.

    `fsync=False` skips flushing to disk, for derived files that can be regenerated
    (compiled outputs, caches): still atomic for readers, much cheaper for many files.
    """
    path = os.fspath(path)
    tmp = temp_beside(path, data, fsync)
    try:
        os.chmod(tmp, mode_of(path) if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    if fsync:
        fsync_dir(_parent(path))
