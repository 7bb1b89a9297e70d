"""Many Python files fingerprinted at once: forked workers fill the print cache.

`verify --all` and `diff` fingerprint every linked file, and parsing them is most of
their work (ast.parse alone is a third of a cold `verify --all`). When that work is
big enough to pay for a process, `warm` shares the files out by size between this
process and forked workers (memkit.workers); each parses its files and sends back the
prints asked for, which go into the snapshot's PrintCache. What follows then reads
every print from the cache, as on a warm run, so the result is the same whether or not
workers ran: a worker that fails only means this process parses its files itself
afterwards. A file that does not parse is left out, and the normal path reports it
where it always has.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from memkit.staleness.links import Link, language_of
from memkit.staleness.parsed import Unparsable

if TYPE_CHECKING:
    from memkit.staleness.printcache import PrintCache
    from memkit.staleness.snapshot import Snapshot

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


def prefetch(snap: Snapshot, links: Callable[[], Iterable[str]]) -> None:
    """The files of the code links `links()` gives fingerprinted ahead into `snap`'s
    print cache, by workers when there are many (`links` is not even called when no
    worker can run)."""
    if possible():
        warm(snap, wanted(links()))


def possible() -> bool:
    """Whether workers could be forked at all (more than one CPU, fork is safe here and
    MEMKIT_JOBS allows it): when not, warm() does nothing."""
    from memkit import workers

    return workers.jobs(sys.maxsize, 1) > 1


def warm(snap: Snapshot, names: Mapping[str, Iterable[str]]) -> int:
    """Fill `snap`'s print cache with the prints of `names` ({path: symbol names, ""
    for the file's own print}, as wanted() gives) that it lacks, in parallel when that
    pays; returns the number of processes that worked (1: none was forked)."""
    from memkit import workers

    cache = snap.prints
    if cache is None or not possible():
        return 1
    todo = items(snap, names)
    count = workers.jobs(sum(len(data) for _, data, _, _ in todo), MIN_SHARE)
    if count < 2:
        return 1
    shares = workers.split(todo, count, lambda item: len(item[1]))
    for found in workers.run(lambda share: _prints(cache, share), shares):
        _merge(cache, found)
    return len(shares)


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


def _prints(cache: PrintCache, share: list[Item]) -> dict[str, dict[str, str]]:
    """fill() for `share`, and the cache's entries for its files."""
    fill(cache, share)
    return {key: cache.files[key] for _, _, key, _ in share if key in cache.files}


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


def _merge(cache: PrintCache, found: object) -> None:
    """Put a worker's prints into `cache` (anything malformed is left out)."""
    if not isinstance(found, dict):
        return
    for key, entry in found.items():
        if isinstance(key, str) and isinstance(entry, dict):
            for name, text in entry.items():
                if isinstance(name, str) and isinstance(text, str):
                    cache.put(key, name, text)
