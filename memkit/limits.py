"""Bounds on work that repository content drives: time and memory.

`bounded()` runs a block with a deadline and a cap on how much address space it may
add. Jinja templates from `.memory/templates/` are the main user: a template is code
from the repository, and though the sandbox keeps it from reaching Python, a loop or
a doubling string can still hang memkit or eat the machine's memory.

The deadline uses SIGALRM where it can (POSIX, main thread); the memory cap lowers
RLIMIT_AS for the block (Linux; elsewhere it is not enforced) and puts it back after.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator

from memkit.errors import MemkitError


class LimitExceeded(MemkitError):
    """Work driven by repository content went past its time or memory bound."""


@contextlib.contextmanager
def bounded(*, seconds: float, memory: int, what: str) -> Iterator[None]:
    """Run the block within `seconds` and `memory` more bytes of address space.

    Raises LimitExceeded naming `what`. Nested use keeps the outer bounds.
    """
    with _deadline(seconds, what), _memory_cap(memory, what):
        yield


_state = threading.local()


@contextlib.contextmanager
def _deadline(seconds: float, what: str) -> Iterator[None]:
    if sys.platform == "win32":  # no SIGALRM: the memory cap alone bounds the work
        yield
        return
    import signal

    usable = threading.current_thread() is threading.main_thread() and not getattr(
        _state, "deadline", False
    )
    if not usable:
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise LimitExceeded(
            f"{what} took longer than {seconds:g} s; memkit stopped it. Simplify it, or "
            "delete it if you did not write it"
        )

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _state.deadline = True
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _state.deadline = False


def _address_space() -> int | None:
    if sys.platform == "win32":
        return None
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def _memory_cap(extra: int, what: str) -> Iterator[None]:
    used = _address_space()
    if sys.platform == "win32" or used is None:  # no RLIMIT_AS to lower
        yield
        return
    import resource

    if getattr(_state, "capped", False):
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = used + extra
    if soft != resource.RLIM_INFINITY and soft <= cap:
        yield  # already tighter
        return
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        yield
        return
    _state.capped = True
    try:
        yield
    except MemoryError:
        raise LimitExceeded(
            f"{what} needed more than {extra // (1024 * 1024):,} MiB of memory; memkit "
            "stopped it. Simplify it, or delete it if you did not write it"
        ) from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        _state.capped = False
