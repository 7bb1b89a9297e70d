"""`memkit check` and `memkit verify`: is the code memories describe still as it was?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memkit.commands._common import (
    EXIT_FOUND,
    commit_option,
    commit_written,
    echo_json,
    get_store,
    printable,
    today,
)
from memkit.errors import MemkitError

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.staleness.record import Problem
    from memkit.staleness.verdict import LinkStatus, MemoryStatus


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
    from memkit.memory import unknown_fields
    from memkit.staleness import check_store
    from memkit.staleness.verdict import fail_on, fails

    store = get_store(ctx)
    if ids:
        mems = store.get_many(list(ids))
        problems = []
    else:  # one load of the store for the check and for the invalid files
        loaded = store.load()
        mems = sorted(loaded.memories, key=lambda m: m.id)
        problems = list(loaded.problems)
    statuses = check_store(store, today=today(), memories=mems)
    problems += [p for m in mems for p in unknown_fields(m)]  # a misspelt `tpye`
    failing = fail_on(store.config.section("check"), str(store.config.path or "config.toml"))
    if as_json:
        echo_json([s.to_record() for s in statuses])
    else:
        click.echo(check_report(statuses))
    for p in sorted(problems, key=lambda p: (p.path, p.line, p.field)):
        click.echo(printable(f"memkit: {p}"), err=True)
    if problems:  # each invalid file, one line a problem, then their count
        files = len({p.path for p in problems})
        warning = f"memkit: {files} invalid memory file(s) (fix them, then `memkit validate`)"
        click.echo(warning, err=True)
    if problems or any(fails(s, failing) for s in statuses):
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
    from memkit.staleness import verify_store

    if bool(ids) == all_:
        raise MemkitError("name the memories to verify (memkit verify ID...) or pass --all")
    store = get_store(ctx)
    done = verify_store(store, None if all_ else list(ids), today=today(), follow=follow)
    lines = [f"verified {m.id}{_at(m)}" for m in done.saved]
    lines += [
        f"{m.id}: fingerprints unchanged, file left as it is"
        for m in (() if all_ else done.unchanged)
    ]
    if lines:
        click.echo("\n".join(lines))
    if do_commit and done.saved:
        names = " ".join(m.id for m in done.saved)
        commit_written(store, [m.path for m in done.saved], f"memkit: verify {names}")
    if report_unverified(done.problems):
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
    from memkit.cigate import format_verdict, gate

    verdict = gate(get_store(ctx), base, today=today())
    for line in format_verdict(verdict, base):
        click.echo(line)
    if not verdict.ok:
        ctx.exit(EXIT_FOUND)


def _at(mem: Memory) -> str:
    """ " at COMMIT" (its first 12 digits) for a memory verified at a commit, else ""."""
    commit = mem.verified.commit if mem.verified and mem.verified.commit else None
    return f" at {commit[:12]}" if commit else ""


def report_unverified(problems: tuple[Problem, ...]) -> bool:
    """Print each problem `memkit verify` met, then their count; True when there was one."""
    for problem in problems:
        click.echo(printable(f"memkit: {problem}"), err=True)
    links = sum(1 for p in problems if not p.unreadable)
    counts = [f"{links} link(s) could not be verified"] if links else []
    if unread := len({p.id for p in problems if p.unreadable}):
        counts.append(f"{unread} invalid memory file(s) (see `memkit validate`)")
    if counts:
        click.echo(f"memkit: {'; '.join(counts)}", err=True)
    return bool(counts)


def check_report(statuses: list[MemoryStatus]) -> str:
    """Each memory that needs attention with its links, then a summary line.

    A draft (or proposed revision, or archived memory) is marked as such: it never fails.
    """
    from memkit.staleness.verdict import MEMORY_STATES

    lines: list[str] = []
    for status in statuses:
        if status.state == "fresh":
            continue
        note = "" if status.active else " (draft: does not fail the check)"
        lines.append(f"{status.id}: {status.state}{note}")
        lines.extend(
            f"  {_link_line(status.id, link)}" for link in status.links if link.state != "unchanged"
        )
    counts = {s: sum(1 for x in statuses if x.state == s) for s in MEMORY_STATES}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    lines.append(f"{len(statuses)} memories checked: {summary or 'none'}")
    return "\n".join(lines)


def _link_line(mid: str, link: LinkStatus) -> str:
    from memkit.staleness.verdict import advice

    since = f" since {link.since[:12]}" if link.since else ""
    if link.state == "unverified" and link.reason:  # its history is not in this clone
        return f"{link.link}: unverified{since}: {link.reason}"
    if link.state == "unverified":
        return f"{link.link}: never fingerprinted (run `memkit verify {mid}`)"
    why = f": {link.reason}" if link.reason else ""
    fix = f" (`{advice(mid, [link])}`)" if link.state in ("removed", "unreadable") else ""
    return f"{link.link}: {link.how()}{since}{why}{fix}"
