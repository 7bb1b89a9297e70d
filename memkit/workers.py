"""CPU-bound work shared between this process and forked workers.

`verify --all` and `diff` parse and fingerprint many files, then check and write many
memories: work that a second CPU halves. `run(work, shares)` calls `work(share)` on
the first share here and on each other share in a forked worker, which sends its
result back as JSON over a pipe and leaves with os._exit (it never runs this
process's exit handlers nor flushes its buffers). The caller only ever gets results
to use, never side effects: a worker's result is None when it failed or could not be
started, and the caller then does that share's work itself, so what a command does
can never depend on whether workers ran.

Workers are forked only where fork without exec is safe (a POSIX system other than
macOS, whose system libraries may not survive it, and a single thread in this
process, so no lock can be held by a thread the worker would not have). `MEMKIT_JOBS`
sets how many processes may work (1: none is forked); by default one per usable CPU,
at most MAX_JOBS. Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
MAX_JOBS = 8


def jobs(size: int, min_share: int) -> int:
    """How many processes should share work of `size` (no share under `min_share`)."""
    raw = os.environ.get("MEMKIT_JOBS", "")
    if raw.strip():
        try:
            wanted = max(1, int(raw))
        except ValueError:
            wanted = 1
    else:
        wanted = _cpus()
    if wanted < 2 or not _can_fork():
        return 1
    return max(1, min(wanted, MAX_JOBS, size // max(1, min_share)))


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _can_fork() -> bool:
    return (
        hasattr(os, "fork")
        and sys.platform != "darwin"
        and threading.active_count() == 1
        and not sys.is_finalizing()
    )


def split(items: Sequence[T], count: int, weight: Callable[[T], int]) -> list[list[T]]:
    """`items` in up to `count` shares of about equal weight (heaviest first, each to
    the lightest share so far); no share is empty."""
    shares: list[list[T]] = [[] for _ in range(max(1, count))]
    sizes = [0] * len(shares)
    for item in sorted(items, key=lambda x: -weight(x)):  # stable: ties keep their order
        i = sizes.index(min(sizes))
        shares[i].append(item)
        sizes[i] += weight(item)
    return [share for share in shares if share]


def run(work: Callable[[list[T]], object], shares: list[list[T]]) -> list[object]:
    """work(share) for every share: the first here, the others in forked workers.

    Results come back in order; a worker's went through JSON (so tuples are lists)
    and is None when the worker failed. An exception in this process's own share
    stops the workers and propagates.
    """
    started: list[tuple[int, int] | None] = []
    try:
        for share in shares[1:]:
            started.append(_fork(work, share))
        results: list[object] = [work(shares[0])] if shares else []
        while started:
            worker = started[0]
            results.append(None if worker is None else _collect(*worker))
            started.pop(0)
    finally:
        for worker in started:  # interrupted: stop the others
            if worker is not None:
                _stop(*worker)
    return results


def _fork(work: Callable[[list[T]], object], share: list[T]) -> tuple[int, int] | None:
    """A worker running work(share): (pid, read end of its pipe), None if none started."""
    try:
        rfd, wfd = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(rfd)
        os.close(wfd)
        return None
    if pid == 0:  # the worker: never returns
        code = 1
        try:
            os.close(rfd)
            view = memoryview(json.dumps(work(share)).encode("utf-8"))
            while view:
                view = view[os.write(wfd, view) :]
            code = 0
        except BaseException:  # the caller does this share's work itself
            code = 1
        finally:
            os._exit(code)
    os.close(wfd)
    return pid, rfd


def _collect(pid: int, fd: int) -> object:
    """What worker `pid` sent (None if it failed), once it has exited."""
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return None


def _stop(pid: int, fd: int) -> None:
    import contextlib
    import signal

    with contextlib.suppress(OSError):  # gone already
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)
    with contextlib.suppress(OSError):  # closed by _collect
        os.close(fd)
