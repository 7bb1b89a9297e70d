"""The commands that find memories: `memkit search`, `memkit context`, `memkit index`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from memkit.choices import SEARCH_STATUSES as STATUSES
from memkit.choices import TYPES
from memkit.commands._common import echo_json, get_store, printable, today

if TYPE_CHECKING:
    from memkit.search.rank import Hit


@click.command("search")
@click.argument("words", metavar="QUERY", nargs=-1, required=True)
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="At most this many hits.",
)
@click.option(
    "--type",
    "-t",
    "types",
    multiple=True,
    type=click.Choice(TYPES),
    help="Only this type (repeatable).",
)
@click.option("--tag", "tags", multiple=True, help="Only memories with this tag (repeatable).")
@click.option(
    "--status",
    "-s",
    "status",
    multiple=True,
    type=click.Choice(STATUSES),
    help="Only this status (repeatable; default: active and unexpired).",
)
@click.option("--all", "-a", "include_all", is_flag=True, help="Every memory, whatever its status.")
@click.option(
    "--semantic",
    is_flag=True,
    help="Also find memories by meaning, not only words (needs agent-memkit[semantic]).",
)
@click.option("--json", "as_json", is_flag=True, help="A JSON array of hits (docs/search.md).")
@click.pass_context
def search_command(
    ctx: click.Context,
    words: tuple[str, ...],
    limit: int,
    types: tuple[str, ...],
    tags: tuple[str, ...],
    status: tuple[str, ...],
    include_all: bool,
    semantic: bool,
    as_json: bool,
) -> None:
    """Find memories: words rank, "phrases" and field:value (tag:, type:, ...) must match."""
    from memkit.search import search, staleness_checker

    store = get_store(ctx)
    embedder = None
    if semantic:
        from memkit.search.embed import default_embedder

        embedder = default_embedder()
    day = today()
    hits = search(
        store,
        " ".join(words),
        today=day,
        limit=limit,
        types=types,
        tags=tags,
        status=status,
        include_all=include_all,
        semantic=embedder,
        statuses=staleness_checker(store, today=day),
    )
    show(hits, as_json)
    notes()


@click.command()
@click.option(
    "--file", "-f", "files", multiple=True, help="A file about to be worked on (repeatable)."
)
@click.option("--query", "-q", help="What the work is about (adds the best search hits).")
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Token budget (~4 chars a token).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("markdown", "json")),
    default="markdown",
    show_default=True,
)
@click.option(
    "--exclude-always-on",
    is_flag=True,
    help="Leave out memories without `paths` (in CLAUDE.md/AGENTS.md).",
)
@click.pass_context
def context(
    ctx: click.Context,
    files: tuple[str, ...],
    query: str | None,
    budget: int,
    fmt: str,
    exclude_always_on: bool,
) -> None:
    """The memories relevant to some files and a task, within a token budget."""
    from memkit.agents.claude.filecontext import file_context
    from memkit.errors import MemkitError
    from memkit.search import staleness_checker

    store = get_store(ctx)
    if not files and not query:
        raise MemkitError("give at least one --file or a --query")
    day = today()
    statuses = staleness_checker(store, today=day)
    got = file_context(
        store,
        files,
        query,
        budget_tokens=budget,
        today=day,
        statuses=statuses,
        exclude_always_on=exclude_always_on,
    )
    notes()
    if fmt == "json":
        echo_json(got.to_record())
    else:
        click.echo(printable(got.to_markdown()), nl=False)


@click.command()
@click.option("--rebuild", is_flag=True, help="Build the index from scratch.")
@click.option("--semantic", is_flag=True, help="Also embed the memories for `search --semantic`.")
@click.pass_context
def index(ctx: click.Context, rebuild: bool, semantic: bool) -> None:
    """Bring the search index up to date (derived data, kept where git cannot put files)."""
    from memkit.search import Index

    ix = Index(get_store(ctx))
    if rebuild:
        click.echo(f"indexed {ix.rebuild()} memories")
        ix.refresh()  # records what the build saw, for the vectors
    else:
        click.echo(f"index {ix.refresh(full=True)}")
    notes()
    if semantic:
        from memkit.search.embed import default_embedder
        from memkit.search.vectors import Vectors

        vectors = Vectors(ix, default_embedder()).refresh(ix.files)
        click.echo(f"vectors: {len(vectors.paths)} memories ({vectors.embedder.name})")


def notes() -> None:
    """Print what the search index had to say (a damaged index rebuilt), once."""
    index = sys.modules.get("memkit.search.index")
    if index is not None:
        for message in index.NOTES:
            click.echo(printable(f"memkit: note: {message}"), err=True)
        index.NOTES.clear()


def show(hits: list[Hit], as_json: bool) -> None:
    """What `memkit search` prints: a JSON array, or the hits' lines (docs/search.md)."""
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
