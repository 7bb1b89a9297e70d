"""The cyclic garbage collector paused while a command parses many files: the one place
memkit switches it off (a store load, the staleness checks, a review of history).

Parsing builds millions of small objects (ast nodes, YAML nodes, memories) and keeps the
parse trees of every linked file alive until the command ends. CPython's collector runs
every few hundred allocations and walks every live object each time it reaches the
oldest generation: on 1,000 links that cost as much as the parsing itself. Parse
trees and fingerprints hold no reference cycles, so reference counting frees them
without the collector; it is switched back on when the work is done.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cyclic collector off (nested uses are fine)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
