"""Many Python files fingerprinted at once: forked workers fill the print cache.

`verify --all` and `diff` fingerprint every linked file, and parsing them is most of
their work (ast.parse alone is a third of a cold `verify --all`). When that work is
big enough to pay for a process, `warm` splits the files by size between this process
and forked workers (one per usable CPU, at most MAX_JOBS); each parses its share and
sends back the prints asked for, which go into the snapshot's PrintCache. What
follows then reads every print from the cache, as on a warm run, so the result is the
same whether or not workers ran: a worker that fails or is never started only means
this process parses its files itself afterwards. A file that does not parse is left
out, and the normal path reports it where it always has.

Workers are forked only where fork is safe and cheap (a POSIX system other than macOS,
a single thread in this process); `MEMKIT_JOBS=1` turns them off (`MEMKIT_JOBS=N`
sets the number of processes).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from memkit.staleness.links import Link, language_of
from memkit.staleness.parsed import Unparsable

if TYPE_CHECKING:
    from memkit.staleness.printcache import PrintCache
    from memkit.staleness.snapshot import Snapshot

MAX_JOBS = 8
# Source bytes per process below which a fork costs more than it saves (a process
# parses and fingerprints about 3 MB of Python a second; a fork costs a few ms).
MIN_SHARE = 64 * 1024

Item = tuple[str, bytes, str, tuple[str, ...]]  # path, content, cache key, names wanted


def wanted(links: Iterable[str]) -> dict[str, set[str]]:
    """{path: symbol names ("" for the file itself)} of the code links among `links`."""
    from memkit.staleness import anchors

    out: dict[str, set[str]] = {}
    for text in links:
        if not anchors.is_anchor(text):
            link = Link.parse(text)
            out.setdefault(link.path, set()).add(link.symbol or "")
    return out


def warm(snap: Snapshot, names: Mapping[str, Iterable[str]]) -> int:
    """Fill `snap`'s print cache with the prints of `names` ({path: symbol names, ""
    for the file's own print}, as wanted() gives) that it lacks, in parallel when that
    pays; returns the number of processes that worked (1: none was forked)."""
    cache = snap.prints
    if cache is None or _jobs(sys.maxsize) < 2:  # one CPU, MEMKIT_JOBS=1 or no fork
        return 1
    todo = items(snap, names)
    jobs = _jobs(sum(len(data) for _, data, _, _ in todo))
    if jobs < 2:
        return 1
    shares = _split(todo, jobs)
    workers: list[tuple[int, int]] = []
    try:
        for share in shares[1:]:
            started = _fork(cache, share)
            if started is not None:
                workers.append(started)
        count = 1 + len(workers)
        fill(cache, shares[0])
        while workers:
            found = _collect(*workers[0])  # reaps the worker and closes its pipe
            workers.pop(0)
            _merge(cache, found)
    finally:
        for pid, fd in workers:  # this process was interrupted: stop the others
            _stop(pid, fd)
    return count


def items(snap: Snapshot, names: Mapping[str, Iterable[str]]) -> list[Item]:
    """The Python files of `names` with prints the snapshot's cache lacks, read."""
    cache = snap.prints
    todo: list[Item] = []
    if cache is None:
        return todo
    for path, wanted_here in sorted(names.items()):
        if language_of(path) != "python":
            continue
        data = snap.read(path)
        if data is None:
            continue
        key = cache.key(data)
        missing = tuple(sorted({n for n in wanted_here if cache.get(key, n) is None}))
        if missing:
            todo.append((path, data, key, missing))
    return todo


def fill(cache: PrintCache, items: Iterable[Item]) -> None:
    """Parse each file and put the prints asked for into `cache`."""
    from functools import partial

    from memkit.staleness.snapshot import parse_source

    for path, data, _, names in items:
        try:
            parsed = cache.parsed(data, partial(parse_source, path, data))
            for name in names:
                if name:
                    parsed.symbols.get(name)  # looked up: now kept in the cache
                else:
                    _ = parsed.file  # computed: now kept in the cache
        except Unparsable:
            continue


def _jobs(size: int) -> int:
    """How many processes should share `size` bytes of source."""
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
    return max(1, min(wanted, MAX_JOBS, size // MIN_SHARE))


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _can_fork() -> bool:
    """fork without exec is safe here: POSIX, not macOS (its system libraries may not
    survive it), and no other thread that could hold a lock the child would need."""
    return (
        hasattr(os, "fork")
        and sys.platform != "darwin"
        and threading.active_count() == 1
        and not sys.is_finalizing()
    )


def _split(items: list[Item], jobs: int) -> list[list[Item]]:
    """`items` in `jobs` shares of about equal size (largest first, to the lightest)."""
    shares: list[list[Item]] = [[] for _ in range(jobs)]
    sizes = [0] * jobs
    for item in sorted(items, key=lambda x: (-len(x[1]), x[0])):
        i = sizes.index(min(sizes))
        shares[i].append(item)
        sizes[i] += len(item[1])
    return [share for share in shares if share]


def _fork(cache: PrintCache, share: list[Item]) -> tuple[int, int] | None:
    """A worker filling the prints of `share`: (pid, read end of its pipe), or None."""
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
    if pid == 0:  # the worker: never returns, never runs this process's exit handlers
        code = 1
        try:
            os.close(rfd)
            fill(cache, share)
            found = {key: cache.files[key] for _, _, key, _ in share if key in cache.files}
            data = json.dumps(found).encode("utf-8")
            view = memoryview(data)
            while view:
                view = view[os.write(wfd, view) :]
            code = 0
        except BaseException:  # the parent parses what is missing
            code = 1
        finally:
            os._exit(code)
    os.close(wfd)
    return pid, rfd


def _collect(pid: int, fd: int) -> object:
    """What the worker `pid` sent (None if it failed), once it has exited."""
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


def _merge(cache: PrintCache, found: object) -> None:
    """Put a worker's prints into `cache` (anything malformed is left out)."""
    if not isinstance(found, dict):
        return
    for key, entry in found.items():
        if isinstance(key, str) and isinstance(entry, dict):
            for name, text in entry.items():
                if isinstance(name, str) and isinstance(text, str):
                    cache.put(key, name, text)


def _stop(pid: int, fd: int) -> None:
    import contextlib
    import signal

    with contextlib.suppress(OSError):  # gone already
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)
    with contextlib.suppress(OSError):  # closed by _collect
        os.close(fd)
