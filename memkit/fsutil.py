"""Files: atomic writes, locks, and the one safe way to read from a repository.

Writes are a temp file in the same directory, fsync, then rename or link (one file:
memkit.atomicwrite, re-exported here). Reads of anything a repository carries (memory
files, config, templates, instruction files, compiled outputs, linked source files) go
through `read_inside`, which refuses a path that leads out of the repository or into
`.git/` (through a symbolic link), a file that is not a regular file (a FIFO would hang
us, a device never ends), and a file over its size limit: checked on the open descriptor
(O_NOFOLLOW, O_NONBLOCK, fstat), not only by name. Compiled outputs are written through
`write_target`, which refuses the same and writes through a symbolic link only to another
output of the same run (`CLAUDE.md -> AGENTS.md`), never to any other file of the repository.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys

from memkit.atomicwrite import atomic_write as atomic_write  # re-exported: one writer
from memkit.atomicwrite import fsync_dir, mode_of
from memkit.atomicwrite import temp_beside as _temp
from memkit.errors import MemkitError, TooLargeError, UnsafePathError

TYPE_CHECKING = False  # read_regular is on the agent hooks' fast path: imports kept light
if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Sequence
    from pathlib import Path  # imported where a path is made: not on the hooks' fast path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def atomic_write_many(files: Sequence[tuple[str | Path, bytes]]) -> None:
    """atomic_write for many files with two flushes to disk in all instead of two each.

    Every temp file is written, the data flushed once (os.sync), then each is renamed
    over its target and the renames flushed once. A crash leaves each target old or new.
    Per file: one stat of the target (its mode), one exclusive create, one fchmod (the
    umask cannot narrow a kept mode), the write, and the rename. The temp files of one
    folder go into a new hidden folder inside it (`.memkit-*.tmp`, removed at the end):
    on ext4, creating a thousand names in a folder whose names were just replaced cost
    about ten times more kernel time than in a new one.
    """
    temps: list[tuple[str, str]] = []
    folders: dict[str, str] = {}
    token = os.urandom(4).hex()
    try:
        for path, data in files:  # plain strings: pathlib costs microseconds a file
            full = os.fspath(path)
            parent, name = os.path.split(full)
            parent = parent or "."
            folder = folders.get(parent)
            if folder is None:
                folder = folders[parent] = _batch_folder(parent, token)
            temps.append((_temp_in(folder, name, full, data, mode_of(full)), full))
        if temps:
            _sync([tmp for tmp, _ in temps])
        for tmp, full in temps:
            os.replace(tmp, full)
    except BaseException:
        for tmp, _ in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    finally:
        for parent, folder in folders.items():
            if folder != parent:
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
    if temps:
        _sync([])  # the renames (Windows: NTFS journals them; no folder can be flushed)


def _sync(paths: list[str]) -> None:
    """Flush to disk: everything at once where the system can (os.sync, POSIX), else
    each file of `paths` on its own (Windows has no sync)."""
    if sys.platform != "win32":
        os.sync()
        return
    for path in paths:
        try:
            fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
        except OSError:
            continue
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _batch_folder(parent: str, token: str) -> str:
    """A new private folder in `parent` for a batch's temp files (`parent` itself if not)."""
    os.makedirs(parent, exist_ok=True)
    folder = os.path.join(parent, f".memkit-{token}.tmp")
    try:
        os.mkdir(folder, 0o700)
    except OSError:
        return parent
    return folder


def _temp_in(folder: str, name: str, path: str, data: bytes, mode: int) -> str:
    """A new temp file in `folder` for `path` (whose file name is `name`) holding `data`
    with permissions `mode` (not flushed)."""
    tmp = os.path.join(folder, f".{name}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW
    try:
        fd = os.open(tmp, flags, 0o600)
    except FileExistsError:  # the same name twice in one batch, or no folder of our own
        tmp = _temp(path, b"", fsync=False)
        fd = os.open(tmp, os.O_WRONLY | _CLOEXEC | _NOFOLLOW)
    try:
        if sys.platform == "win32":  # no fchmod before Python 3.13; only read-only counts
            os.chmod(tmp, mode)
        else:
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def create_new(path: Path, data: bytes) -> bool:
    """Atomically create `path` with `data` unless it exists; False if it did."""
    tmp = _temp(path, data)
    try:
        os.chmod(tmp, 0o644)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:  # no hard links here: reserve the name, then fill it atomically
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                return False
            os.close(fd)
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_dir(path.parent)
    return True


@contextlib.contextmanager
def file_lock(path: Path, *, shared: bool = False) -> Iterator[None]:
    """An advisory lock on `path` held for the block; waits while another holds it.

    Exclusive by default; `shared=True` lets other shared holders in (readers) where the
    system has shared locks (flock on POSIX); on Windows every holder is exclusive. The
    operating system drops the lock when its holder dies, so a killed memkit never
    leaves a store locked. Not re-entrant: a second lock on the same file waits.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_RDWR | _NOFOLLOW | _CLOEXEC, 0o600)
    try:
        _acquire(fd, shared)
        try:
            yield
        finally:
            _release(fd)
    finally:
        os.close(fd)


if sys.platform == "win32":
    import errno
    import msvcrt
    import time

    def _acquire(fd: int, shared: bool) -> None:
        """Lock the first byte of `fd`'s file (msvcrt.locking, LockFile underneath).

        Windows releases it when the handle closes or the process ends. msvcrt has no
        shared lock, and its blocking mode gives up after ten seconds: a non-blocking
        try, repeated with a growing pause, waits as long as flock does.
        """
        pause = 0.001
        while True:
            os.lseek(fd, 0, os.SEEK_SET)
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                return
            except OSError as e:  # EACCES: another handle holds it
                if e.errno not in (errno.EACCES, errno.EDEADLOCK):
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def _release(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:

    def _acquire(fd: int, shared: bool) -> None:
        """flock: held by the open file, dropped by the kernel when its holder dies."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - a POSIX system without flock
            raise MemkitError(
                "this system has neither flock nor Windows file locks, and memkit does not "
                "write without a lock: run memkit on Linux, macOS, a BSD or Windows"
            ) from None
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)

    def _release(fd: int) -> None:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


def inside(root: Path, path: Path, what: str) -> Path:
    """The real path of `path`, which must lie in `root` and outside its `.git/`.

    Symbolic links that stay inside the repository are followed (`CLAUDE.md ->
    AGENTS.md`); one leading elsewhere raises UnsafePathError naming `what`.
    """
    from pathlib import Path

    real = Path(os.path.realpath(path))
    top = Path(os.path.realpath(root))
    if real != top and not real.is_relative_to(top):
        raise UnsafePathError(
            f"{what} leads to {real}, outside the repository {top}, through a symbolic "
            "link; memkit reads and writes only inside the repository: replace the link "
            "with the file itself"
        )
    if real.is_relative_to(top / ".git"):
        raise UnsafePathError(
            f"{what} leads into .git/ through a symbolic link; memkit never reads or "
            "writes git's own files: replace the link with the file itself"
        )
    return real


def read_regular(path: str | Path, *, limit: int, what: str) -> bytes:
    """The bytes of `path`, a regular file (not a link) of at most `limit` bytes.

    FileNotFoundError when it does not exist; UnsafePathError when it is a link, a
    FIFO, a device or a directory; TooLargeError (an UnsafePathError) when it is
    bigger than `limit`. The checks are made on
    the open descriptor, so a file swapped after it was listed is still caught.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError as e:
        if isinstance(e, FileNotFoundError | NotADirectoryError):
            raise FileNotFoundError(e.errno, e.strerror, str(path)) from None
        if os.path.islink(path):
            raise UnsafePathError(
                f"{what} is a symbolic link; memkit does not follow it here: replace it "
                "with the file itself"
            ) from None
        raise UnsafePathError(f"{what} cannot be read: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise UnsafePathError(f"{what} is {kind}; memkit reads only regular files there")
        if st.st_size > limit:
            raise TooLargeError(
                f"{what} is {st.st_size:,} bytes, over memkit's limit of {limit:,} for it; "
                "make it smaller",
                size=st.st_size,
                limit=limit,
            )
        chunks = []
        size = 0
        while chunk := os.read(fd, min(limit + 1 - size, 1 << 20) or 1):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while we read
                raise TooLargeError(
                    f"{what} grew past memkit's limit of {limit:,} bytes while it was read",
                    size=size,
                    limit=limit,
                )
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_inside(root: Path, rel: str | Path, *, limit: int, what: str | None = None) -> bytes:
    """Read `root/rel` (a path the repository decides) safely; see the module docstring.

    FileNotFoundError when it does not exist; UnsafePathError for everything refused.
    """
    from pathlib import Path

    path = Path(root) / rel
    label = what or str(rel)
    if not os.path.lexists(path):
        raise FileNotFoundError(2, "No such file or directory", str(path))
    real = inside(root, path, label)
    return read_regular(real, limit=limit, what=label)


def write_target(
    root: Path,
    rel: str,
    *,
    forbidden: tuple[str, ...] = (".git",),
    links_to: Collection[str] | None = (),
) -> Path:
    """The real file to write for output `rel`: the path itself, or a link's target.

    A symbolic link (the file's or one of its folders') is written through only when
    it leads to one of `links_to`, the other outputs of the same run, so a tracked
    `CLAUDE.md -> AGENTS.md` stays a link; a link to any other file (a pull request
    turning AGENTS.md into a link to `.github/CODEOWNERS`) is refused. `links_to=None`
    lets any link inside the repository through (a read of what is there, not a write).
    UnsafePathError when the file or its folder leads outside the repository, or into
    one of the `forbidden` top folders (git's own files; memkit's store), to a file that
    is not another output, or when it is not a regular file.
    """
    from pathlib import Path

    top = Path(os.path.realpath(root))
    path = Path(root) / rel
    real = inside(root, path, rel)
    for name in forbidden:
        if real == top / name or real.is_relative_to(top / name):
            raise UnsafePathError(
                f"{rel} would be written into {name}/, which memkit never writes compiled "
                "files into: choose another output path"
            )
    if links_to is not None and real != top / os.path.normpath(rel):
        to = real.relative_to(top).as_posix()
        if to not in {os.path.normpath(p) for p in links_to}:
            raise UnsafePathError(
                f"{rel} is a symbolic link to {to}, which is not a file memkit writes here; "
                f"memkit writes through a link only to another of its outputs: replace "
                f"{rel} with the file itself"
            )
    if os.path.lexists(real) and not os.path.isfile(real):
        raise UnsafePathError(f"{rel} is not a regular file; memkit needs to write a file there")
    return real
