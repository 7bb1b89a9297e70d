"""Finding memories: search, context, index."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import click

from memkit.commands._common import echo_json, get_store, printable, today
from memkit.errors import MemkitError
from memkit.fields import STATUSES as MEMORY_STATUSES
from memkit.fields import TYPES

if TYPE_CHECKING:
    from memkit.search import StatusSource
    from memkit.store import Store

STATUSES = (*MEMORY_STATUSES, "expired")  # search also filters on expiry


def status_source(store: Store, day: dt.date) -> StatusSource:
    """The staleness engine's verdict, asked only about the memories a command may show."""
    from memkit.search import staleness_checker

    return staleness_checker(store, today=day)


@click.command()
@click.argument("words", metavar="QUERY", nargs=-1, required=True)
@click.option("-n", "--limit", type=click.IntRange(min=1), default=10, show_default=True,
              help="At most this many hits.")  # fmt: skip
@click.option("--type", "-t", "types", multiple=True, type=click.Choice(TYPES),
              help="Only this type (repeatable).")  # fmt: skip
@click.option("--tag", "tags", multiple=True, help="Only memories with this tag (repeatable).")
@click.option("--status", "-s", "status", multiple=True, type=click.Choice(STATUSES),
              help="Only this status (repeatable; default: active and unexpired).")  # fmt: skip
@click.option("--all", "-a", "include_all", is_flag=True, help="Every memory, whatever its status.")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of hits (docs/search.md).")
@click.pass_context
def search(ctx: click.Context, words: tuple[str, ...], limit: int, types: tuple[str, ...],
           tags: tuple[str, ...], status: tuple[str, ...], include_all: bool,
           as_json: bool) -> None:  # fmt: skip
    """Find memories: words rank, "phrases" and field:value (tag:, type:, ...) must match."""
    store = get_store(ctx)
    day = today()
    hits = store.search(" ".join(words), today=day, limit=limit, types=types, tags=tags,
                        status=status, include_all=include_all,
                        statuses=status_source(store, day))  # fmt: skip
    if as_json:
        echo_json([h.to_record() for h in hits])
        return
    if not hits:
        click.echo("no memories match", err=True)
    for h in hits:
        mark = "" if h.state in ("active", "fresh") else f" [{h.state}]"
        click.echo(printable(f"{h.id}  {h.score:.2f}  {h.type}{mark}  {h.title}"))
        if h.stale is not None:
            click.echo(printable(f"    stale: {h.stale or 'the code it describes changed'}"))
        if h.snippet:
            click.echo(printable(f"    {h.snippet}"))


@click.command()
@click.option(
    "--file", "-f", "files", multiple=True, help="A file about to be worked on (repeatable)."
)
@click.option("--query", "-q", help="What the work is about (adds the best search hits).")
@click.option("--budget", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Token budget (~4 chars a token).")  # fmt: skip
@click.option("--format", "fmt", type=click.Choice(("markdown", "json")), default="markdown",
              show_default=True)  # fmt: skip
@click.option("--exclude-always-on", is_flag=True,
              help="Leave out memories without `paths` (in CLAUDE.md/AGENTS.md).")  # fmt: skip
@click.pass_context
def context(ctx: click.Context, files: tuple[str, ...], query: str | None, budget: int, fmt: str,
            exclude_always_on: bool) -> None:  # fmt: skip
    """The memories relevant to some files and a task, within a token budget."""
    if not files and not query:
        raise MemkitError("give at least one --file or a --query")
    store = get_store(ctx)
    day = today()
    got = store.context(files=files, query=query, budget_tokens=budget, today=day,
                        exclude_always_on=exclude_always_on,
                        statuses=status_source(store, day))  # fmt: skip
    if fmt == "json":
        echo_json(got.to_record())
    else:
        click.echo(printable(got.to_markdown()), nl=False)


@click.command()
@click.option("--rebuild", is_flag=True, help="Build the index from scratch.")
@click.pass_context
def index(ctx: click.Context, rebuild: bool) -> None:
    """Bring the search index up to date (derived data, kept where git cannot put files)."""
    from memkit.search import Index

    ix = Index(get_store(ctx))
    if rebuild:
        click.echo(f"indexed {ix.rebuild()} memories")
    else:
        click.echo(f"index {ix.refresh()}")
