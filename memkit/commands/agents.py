"""Agent integration: `memkit mcp`, `memkit import`, `memkit claude-hook EVENT` for Claude
Code (`memkit hook EVENT`, hidden, is the name earlier settings use), and `memkit
approve`, where a person accepts or rejects what agents wrote."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memkit.agents.claude import EVENTS
from memkit.capped import capped
from memkit.commands._common import State, commit_option, commit_written, get_store, table, today
from memkit.errors import MemkitError

if TYPE_CHECKING:
    from memkit.agents.adopt.importer import Adoption, Plan
    from memkit.agents.proposals import Approved
    from memkit.memory import Memory
    from memkit.store import Store


@click.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the memories to agents over MCP (stdio); logs go to stderr.

    The project: --root, else CLAUDE_PROJECT_DIR / WORKSPACE_FOLDER_PATHS, else the
    client's roots, else the working directory. Register it with `memkit hooks install
    --mcp` (writes .mcp.json and .cursor/mcp.json).
    """
    from memkit.agents.mcp.server import serve

    serve((ctx.find_object(State) or State()).root, today)


@click.command("import")
@click.argument("paths", metavar="[PATH]...", nargs=-1, type=click.Path(path_type=Path))
@click.option("--dry-run", "-n", is_flag=True, help="Show what would be done; write nothing.")
@click.option(
    "--adopt",
    is_flag=True,
    help="Then take the imported text out of the files, for `memkit compile` to write once.",
)
@click.option("--allow-secret", is_flag=True, help="Import even text that looks like a secret.")
@click.option(
    "--harvest",
    is_flag=True,
    help="Instead: turn what agents remembered on their own (Claude Code's auto memory, "
    "CLAUDE.local.md, Gemini CLI, memory-bank/) into drafts for review.",
)
@click.pass_context
def import_(
    ctx: click.Context,
    paths: tuple[Path, ...],
    dry_run: bool,
    adopt: bool,
    allow_secret: bool,
    harvest: bool,
) -> None:
    """Turn agent instruction files into memories, one per section.

    PATH is a file (CLAUDE.md, AGENTS.md, *.mdc, .cursorrules, copilot-instructions.md,
    *.instructions.md, .clinerules, any markdown) or a folder searched for every file an
    agent loads, nested ones too (default: `.`). Without --adopt the files are untouched;
    with it the imported text leaves them (a dry run shows the diff first).
    """
    from memkit.agents.adopt.importer import adopt_files, import_files

    store = get_store(ctx)
    if harvest:
        if paths or adopt or allow_secret:
            raise click.UsageError(
                "--harvest finds its files itself: give no PATH, --adopt or --allow-secret"
            )
        return _harvest(store, dry_run)
    given = list(paths) or [Path(".")]
    report, plan = import_files(
        store, given, today=today(), allow_secret=allow_secret, dry_run=dry_run
    )
    verb = "would create" if dry_run else "created"
    for item in report.created:
        click.echo(f"{verb} {item.id}  <- {item.source}")
    if not dry_run:
        from memkit.commands.links import hints

        hints(store, (store.get(item.id) for item in report.created))
    for item in report.skipped:
        click.echo(f"skipped {item.source}: {item.note}")
    done = "would be created" if dry_run else "created"
    click.echo(f"{len(report.created)} memories {done}, {len(report.skipped)} skipped")
    if adopt:
        _show_adoption(adopt_files(store, plan, dry_run=dry_run), dry_run)
    elif report.created:
        _suggest_adopt(store, plan)


def _suggest_adopt(store: Store, plan: Plan) -> None:
    """One line: the files now say twice what the memories say, and what --adopt does."""
    from memkit.agents.adopt.importer import adopt_files

    if files := [c.rel for c in adopt_files(store, plan, dry_run=True).changes]:
        click.echo(
            f"{capped(files)} keep their text, so after `memkit compile` agents read it twice; "
            "`memkit import --adopt` takes the imported text out of them for compile to write once"
        )


def _harvest(store: Store, dry_run: bool) -> None:
    import os

    from memkit.agents.adopt.harvest import harvest

    done = harvest(store, today=today(), env=os.environ, dry_run=dry_run)
    verb = "would draft" if dry_run else "drafted"
    for o in done.drafted:
        click.echo(f"{verb} {o.id}  <- {o.where}")
    for o in done.skipped:
        click.echo(f"skipped {o.where}: {o.note}")
    if not done.places:
        click.echo("found no memories agents kept for this project (see docs/agents.md, Harvest)")
        return
    what = "would be drafted" if dry_run else "drafted for review (`memkit approve`)"
    click.echo(f"{len(done.drafted)} memories {what}, {len(done.skipped)} skipped")


def _show_adoption(a: Adoption, dry_run: bool) -> None:
    for rel, why in a.kept:
        click.echo(f"kept {rel}: {why}")
    for c in a.changes:
        click.echo(
            c.diff()
            if dry_run
            else f"{'deleted' if c.new is None else 'adopted'} {c.rel}: {c.note}"
        )
    if a.backup_dir is not None:
        click.echo(
            f"copies of {capped(a.backups)} (not as git's HEAD has them) are in {a.backup_dir}"
        )
    if a.nested:
        click.echo(
            f"{'would set' if dry_run else 'set'} `nested_agents = true` in .memory/config.toml: "
            "memkit compile writes each folder's memories back into that folder's own file"
        )
    if a.changes and not dry_run:
        click.echo("now run `memkit compile`: the memories take the place of the text")


def _claude_hook(event: str) -> None:
    """Handle a Claude Code hook: read its JSON on stdin, print what it expects.

    Never blocks the agent: any problem is reported on stderr and the exit code is 0.
    """
    from memkit.agents.claude.hook import handle

    out, err = handle(event, sys.stdin.buffer.read())
    if out:
        click.echo(out)
    if err:
        click.echo(err, err=True)


_EVENT = click.argument("event", type=click.Choice(EVENTS))
claude_hook = click.command("claude-hook")(_EVENT(_claude_hook))
hook = click.command("hook", hidden=True, help="Same as `memkit claude-hook`.")(
    _EVENT(_claude_hook)
)


@click.command()
@click.argument("mid", metavar="[ID]", required=False)
@click.option("--reject", is_flag=True, help="Delete the draft or proposed revision instead.")
@commit_option
@click.pass_context
def approve(ctx: click.Context, mid: str | None, reject: bool, do_commit: bool) -> None:
    """Accept what an agent wrote: draft ID becomes active, or proposed revision ID is
    applied to the memory it revises (and deleted). Without ID, list what awaits review.
    """
    from memkit.agents import proposals

    store = get_store(ctx)
    if mid is None and reject:
        raise MemkitError("name what to reject: memkit approve --reject ID")
    if mid is None:  # what awaits review
        rows: list[tuple[str, ...]] = [(m.id, _kind(m), m.title) for m in proposals.pending(store)]
        click.echo(table(rows, ("ID", "PROPOSES", "TITLE")) if rows else "nothing awaits review")
        return
    if reject:
        removed = proposals.reject(store, mid)
        click.echo(f"removed {removed}")
        written, message = [removed], f"memkit: reject {mid}"
    else:
        done = proposals.approve(store, mid, today=today())
        click.echo(_describe(done), nl=False)
        written, message = done.written, f"memkit: approve {mid}: {done.memory.title}"
    if do_commit:
        commit_written(store, written, message)


def _kind(mem: Memory) -> str:
    if mem.revises is None:
        return "a new memory"
    verb = {"draft": "changes to", "archived": "archiving", "superseded": "superseding"}
    return f"{verb.get(mem.status, mem.status)} {mem.revises}"


def _describe(done: Approved) -> str:
    mem = done.memory
    if done.revision is None:
        return f"approved {mem.id}: {mem.path} is active\n"
    what = ", ".join(done.changed) if done.changed else "nothing changed"
    return f"applied {done.revision} to {mem.path} ({what})\n{done.diff}removed {done.removed}\n"


@click.command()
@click.option("--memory", "mid", metavar="ID", help="Only the sessions memory ID reached.")
@click.option("--limit", "-n", default=20, show_default=True, help="How many sessions.")
@click.pass_context
def sessions(ctx: click.Context, mid: str | None, limit: int) -> None:
    """Recent agent sessions and how many memories reached each (receipts, kept locally).

    With --memory ID: every session that memory reached, when, why and at which version.
    """
    from memkit.agents.claude import receipts

    root = get_store(ctx).root
    if mid is not None:
        rows: list[tuple[str, ...]] = [
            (sid, r.at, r.event, r.route, r.why, r.blob[:12] or "-")
            for sid, r in receipts.influenced(root, mid)
        ]
        header = ("SESSION", "WHEN", "EVENT", "ROUTE", "WHY", "VERSION")
        click.echo(table(rows, header) if rows else f"no session received {mid}")
        return
    found = receipts.sessions(root, limit=limit)
    listed: list[tuple[str, ...]] = [
        (s.id, s.started, s.last, str(s.memories), str(s.chars)) for s in found
    ]
    columns = ("SESSION", "STARTED", "LAST", "MEMORIES", "CHARS")
    click.echo(table(listed, columns) if listed else "no session has received memories yet")


@click.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="The receipts as a JSON array.")
@click.pass_context
def why(ctx: click.Context, session: str, as_json: bool) -> None:
    """What agent session SESSION was told: each memory given, when, why, at which version.

    SESSION is an id as `memkit sessions` lists it, or any unique start of one.

    ROUTE is the compiled file the agent loaded the memory from (CLAUDE.md at the start,
    a .claude/rules/ file once a file it covers was read) or `hook` for memkit's hooks.
    VERSION is the git blob of the memory file, or of the compiled file as it was then
    (`git log --find-object=BLOB` finds its commit); COMMIT is HEAD at that moment.
    """
    from memkit.agents.claude import receipts
    from memkit.commands._common import echo_json

    root = get_store(ctx).root
    got = receipts.read(receipts.receipts_path(root, receipts.resolve(root, session)))
    if not got:
        raise MemkitError(f"no receipts for session {session!r} (see `memkit sessions`)")
    if as_json:
        return echo_json([r.to_record() for r in got])
    rows: list[tuple[str, ...]] = [
        (
            r.at,
            r.event,
            r.id or "-",
            r.route if r.id else "-",
            r.why,
            r.blob[:12] or "-",
            r.commit[:12] or "-",
        )
        for r in got
    ]
    header = ("WHEN", "EVENT", "MEMORY", "ROUTE", "WHY", "VERSION", "COMMIT")
    click.echo(table(rows, header))
    for r in got:
        if r.stale:
            click.echo(f"{r.id} was given marked possibly out of date: {r.stale}")
