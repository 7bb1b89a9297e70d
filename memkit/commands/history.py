"""Provenance, review and rollback: log, revert, diff."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memkit.commands._common import commit_option, commit_written, echo_json, get_store, printable

if TYPE_CHECKING:
    from memkit.history.provenance import Log


@click.command()
@click.argument("mid", metavar="[ID]", required=False)
@click.option(
    "--limit",
    "-n",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Without ID: how many commits that touched memories to show.",
)
@click.option("--json", "as_json", is_flag=True, help="JSON array of changes (docs/review.md).")
@click.pass_context
def log(ctx: click.Context, mid: str | None, limit: int, as_json: bool) -> None:
    """The history of memory ID, following renames; without ID, the latest memory changes."""
    from memkit.history.provenance import memory_log, store_log

    store = get_store(ctx)
    store.require()
    result = memory_log(store, mid) if mid else store_log(store, limit)
    if as_json:
        echo_json([e.to_record() for e in result.entries])
    else:
        click.echo(printable(format_log(result, with_id=mid is None)), nl=False)


def format_log(result: Log, *, with_id: bool) -> str:
    lines = []
    for e in result.entries:
        who = f"{e.commit[:12]}  {e.day}  {e.author}"
        what = f"{e.id}: {e.what()}" if with_id else e.what()
        lines.append(f"{who}  {what}\n    {e.summary}")
    if result.boundary:
        lines.append(
            f"(shallow clone: history starts at {result.boundary[:12]}; "
            "`git fetch --unshallow` fetches the rest)"
        )
    elif result.shallow:
        lines.append("(shallow clone: older commits are not available)")
    return "".join(f"{line}\n" for line in lines)


@click.command()
@click.argument("mid", metavar="ID")
@click.option(
    "--to",
    "rev",
    metavar="REV",
    help="Commit, tag or branch to take the memory from (default: the version "
    "before its latest change).",
)
@commit_option
@click.pass_context
def revert(ctx: click.Context, mid: str, rev: str | None, do_commit: bool) -> None:
    """Put back memory ID as it was at REV (also a deleted one); touches no other file."""
    from memkit.history.rollback import revert as do_revert

    store = get_store(ctx)
    store.require()
    done = do_revert(store, mid, rev)
    state = "restored" if done.changed else "already as at"
    click.echo(printable(f"{state} {done.path} from {done.rev[:12]}"))
    if done.kept:
        click.echo(printable(f"its uncommitted text is kept in {done.kept}"))
    if do_commit:
        commit_written(store, [done.path], f"memkit: revert {mid} to {done.rev[:12]}")


@click.command()
@click.argument("base", required=False)
@click.argument("head", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("text", "markdown", "json")),
    default="text",
    show_default=True,
    help="markdown suits a pull-request comment.",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.pass_context
def diff(ctx: click.Context, base: str | None, head: str | None, fmt: str, as_json: bool) -> None:
    """Review the memory changes from BASE to HEAD.

    BASE defaults to the merge base with the default branch, HEAD to the working tree.
    """
    from memkit.history.diff import diff_range
    from memkit.history.diff_format import markdown, text

    review = diff_range(get_store(ctx), base, head)
    if as_json or fmt == "json":
        echo_json(review.to_record())
    else:
        click.echo(printable((markdown if fmt == "markdown" else text)(review)), nl=False)
