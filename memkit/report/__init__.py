"""The memory report: one self-contained HTML page of what the project remembers.

model gathers memories, verdicts, history, compiled-file reach and the pull-request
review from the core, and places memories on the code's folders; codediff shows the
code change behind each stale link; page renders it all through the compile templates.
`build_page` is what `memkit report` runs.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memkit.store import Store


def build_page(
    store: Store, *, today: dt.date, base: str | None = None, link_base: str | None = None
) -> str:
    """The report page's HTML for `store` as it is on disk."""
    from memkit.report.model import collect
    from memkit.report.page import render

    return render(store, collect(store, today=today, base=base), link_base=link_base)
