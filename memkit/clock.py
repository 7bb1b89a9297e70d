"""Today's date, the one clock memkit reads: MEMKIT_TODAY=YYYY-MM-DD pins it.

Core functions take `today` as an argument; only entry points (the command line, the
agent hooks, the MCP server) call this.
"""

from __future__ import annotations

import datetime as dt
import os

from memkit.errors import MemkitError


def today() -> dt.date:
    """The date used for `created`/`updated`, expiry and review dates."""
    pinned = os.environ.get("MEMKIT_TODAY")
    if pinned:
        try:
            return dt.date.fromisoformat(pinned)
        except ValueError:
            raise MemkitError(f"MEMKIT_TODAY={pinned!r} is not a date like 2026-01-31") from None
    return dt.date.today()
