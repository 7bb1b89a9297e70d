"""`memkit check` and `memkit verify`: is the code memories describe still as it was?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memkit.commands._common import (
    EXIT_FOUND,
    commit_option,
    commit_written,
    get_store,
    today,
)
from memkit.errors import MemkitError

if TYPE_CHECKING:
    from memkit.memory import Memory


@click.command()
@click.argument("ids", metavar="[ID]...", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="JSON array (schema: docs/staleness.md).")
@click.pass_context
def check(ctx: click.Context, ids: tuple[str, ...], as_json: bool) -> None:
    """Tell which memories the code changed under (exit 1 if an active one is stale or unverified).

    Each link is unchanged, docs, body, signature, moved or removed (files:
    unchanged, changed, moved or removed); each memory fresh, stale, expired,
    review-due or unverified. Expired and review-due memories, drafts and
    proposed revisions are reported without failing (`[check] fail_on` makes
    it stricter). For a pull request, `memkit ci --base REF` fails only for
    what the change caused.
    """
    from memkit.commands.fast import run_check

    if run_check({"ids": list(ids), "as_json": as_json}, click.echo, get_store(ctx)):
        ctx.exit(EXIT_FOUND)


@click.command()
@click.argument("ids", metavar="ID...", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Every memory that has links.")
@click.option("--follow", is_flag=True, help="First rewrite links to where moved code went.")
@commit_option
@click.pass_context
def verify(
    ctx: click.Context, ids: tuple[str, ...], all_: bool, follow: bool, do_commit: bool
) -> None:
    """Record fresh fingerprints of memories' links after checking that they still hold.

    Every memory that can be verified is; each one that cannot is reported as
    FILE:LINE: problem and fix (exit 1 if any).
    """
    from memkit.commands.fast import run_verify

    if bool(ids) == all_:
        raise MemkitError("name the memories to verify (memkit verify ID...) or pass --all")
    store = get_store(ctx)

    def commit(saved: list[Memory]) -> None:
        if do_commit:
            names = " ".join(m.id for m in saved)
            commit_written(store, [m.path for m in saved], f"memkit: verify {names}")

    opts = {"ids": list(ids), "all": all_, "follow": follow}
    if run_verify(opts, click.echo, store, commit):
        ctx.exit(EXIT_FOUND)


@click.command()
@click.option(
    "--base",
    required=True,
    metavar="REF",
    help="The branch the change goes into (e.g. origin/main); compared from its merge base.",
)
@click.pass_context
def ci(ctx: click.Context, base: str) -> None:
    """The pull-request gate: fail (exit 1) only for what this change caused; summarise the rest.

    Fails for memory files the change made invalid (secrets included), memories
    whose linked code it changed without re-verifying them, memories it touched that
    need a person, and compiled files it left out of date. Expired, review-due and
    draft memories, and problems already on the base branch, are notes. See
    docs/github-actions.md.
    """
    from memkit.githooks.gate import format_verdict, gate

    verdict = gate(get_store(ctx), base, today=today())
    for line in format_verdict(verdict, base):
        click.echo(line)
    if not verdict.ok:
        ctx.exit(EXIT_FOUND)
