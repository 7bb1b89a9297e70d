"""`memkit report`: the memory report as one self-contained HTML file."""

from __future__ import annotations

from pathlib import Path

import click

from memkit.commands._common import get_store, printable, today


@click.command()
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("memkit-report.html"),
    show_default=True,
    help="File to write; - writes the page to standard output.",
)
@click.option(
    "--base",
    metavar="REF",
    help="Also show what the changes since REF do to memory (`memkit diff REF`).",
)
@click.option(
    "--link-base",
    metavar="URL",
    help="Link files to URL + path: https://github.com/OWNER/REPO/blob/COMMIT/",
)
@click.pass_context
def report(ctx: click.Context, output: Path, base: str | None, link_base: str | None) -> None:
    """Write a static HTML page of the memories: freshness, code map, review queue, history.

    The page needs no network and no server: open it from disk or keep it as a CI
    artifact. The same store, commit and date give the same bytes.
    """
    from memkit.fsutil import atomic_write
    from memkit.report import build_page

    page = build_page(get_store(ctx), today=today(), base=base, link_base=link_base)
    if str(output) == "-":
        click.echo(page, nl=False)
        return
    atomic_write(output, page.encode("utf-8"))
    click.echo(printable(f"wrote {output}"))
