"""The report as one self-contained HTML page, rendered from memkit's own templates.

templates/report.html.j2 (with report.css and report.js, inlined) renders in the
same sandboxed jinja2 environment as the compiled files, but never from the
project's overrides in .memory/templates/: the report is how a pull request is
reviewed, and one that brought its own report.js would run script in the reviewer's
browser (the page's policy allows by hash whatever script it carries). Autoescape is on for
`.html.j2` templates: every piece of memory text is escaped, and bodies are
rendered by mdtext.to_html (raw HTML escaped, unsafe link schemes dropped, no
images). The page carries a Content-Security-Policy that lets only its own inline
script and style run (by hash) and loads nothing, so it works from disk, offline.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from memkit.errors import MemkitError
from memkit.report.model import REACH, Entry, Report
from memkit.store import Store

TEMPLATE = "report.html.j2"
# What keeps a page of 10,000 memories under 10 MB: the rest is one filter away.
QUEUE_SHOWN = 500  # rows of the review queue
HISTORY_SHOWN = 5  # commits per memory (`memkit log ID` has them all)
CHIPS_SHOWN = 12  # memory links per file of the code map
SAFE_BASE = re.compile(r"https?://[^\s\"'<>\\]+\Z")


@dataclass(frozen=True)
class View:
    """One memory as the template shows it: the entry plus its pre-rendered parts."""

    entry: Entry
    body_html: str  # already safe (mdtext.to_html)

    @property
    def reach_by_target(self) -> list[tuple[str, str]]:
        """(target, best of full | shortened | cut) per agent: the files are in the overview."""
        best: dict[str, str] = {}
        for r in self.entry.reach:
            if r.target not in best or REACH.index(r.how) < REACH.index(best[r.target]):
                best[r.target] = r.how
        return sorted(best.items())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.entry, name)


def render(store: Store, report: Report, *, link_base: str | None = None) -> str:
    """The whole page for `report`: deterministic for the same store, commit and date."""
    from memkit.compile.mdtext import to_html
    from memkit.compile.render import Renderer

    if link_base is not None and not SAFE_BASE.match(link_base):
        raise MemkitError(
            f"--link-base {link_base!r} is not an http(s) URL; give one like "
            "https://github.com/OWNER/REPO/blob/COMMIT/"
        )
    renderer = Renderer(store.root, {}, store.private_dir() / "templates", overrides=False)
    views = [View(e, to_html(e.memory.text)) for e in report.entries]
    with renderer.bounds():
        css = renderer.render("report.css")
        js = renderer.render("report.js")
        page = renderer.render(
            TEMPLATE,
            report=report,
            memories=views,
            css=css,
            js=js,
            csp=_policy(css, js),
            href=lambda path: None if link_base is None else link_base + quote(path, safe="/"),
            short=lambda commit: (commit or "")[:12],
            stale_kinds=report.stale_by_kind(),
            queue=report.queue(),
            compiled=_compiled(report),
            queue_shown=QUEUE_SHOWN,
            history_shown=HISTORY_SHOWN,
            chips_shown=CHIPS_SHOWN,
        )
    return page


def _policy(css: str, js: str) -> str:
    """Nothing loads; only the page's own inline style and script run."""
    return (
        "default-src 'none'; "
        f"style-src '{_hash(css)}'; script-src '{_hash(js)}'; "
        "img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'"
    )


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def _compiled(report: Report) -> list[tuple[str, str, dict[str, int]]]:
    """Each compiled file with how many memories it holds in full, shortened and cut."""
    files: dict[tuple[str, str], dict[str, int]] = {}
    for e in report.entries:
        for r in e.reach:
            counts = files.setdefault((r.path, r.target), dict.fromkeys(REACH, 0))
            counts[r.how] += 1
    return [(path, target, counts) for (path, target), counts in sorted(files.items())]
