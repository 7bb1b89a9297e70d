"""Agent integration: `memkit mcp`, `memkit import`, and `memkit hook EVENT` for Claude Code."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from memkit.cli import get_store, today

HOOK_EVENTS = ("session-start", "post-tool-use", "stop", "session-end")


@click.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the memories to agents over MCP (stdio); logs go to stderr.

    Register it with `memkit hooks install --mcp` (writes .mcp.json and .cursor/mcp.json).
    """
    from memkit.mcp_server import serve

    serve(get_store(ctx), today)


@click.command("import")
@click.argument(
    "paths", metavar="PATH...", nargs=-1, required=True, type=click.Path(path_type=Path)
)
@click.option("--dry-run", "-n", is_flag=True, help="Show what would be created; write nothing.")
@click.option("--allow-secret", is_flag=True, help="Import even text that looks like a secret.")
@click.pass_context
def import_(ctx: click.Context, paths: tuple[Path, ...], dry_run: bool, allow_secret: bool) -> None:
    """Turn agent instruction files into memories, one per section (originals untouched).

    PATH is a file (CLAUDE.md, AGENTS.md, *.mdc, .cursorrules, copilot-instructions.md,
    *.instructions.md, .clinerules, any markdown) or a folder (`.` finds the known files).
    """
    from memkit.importer import import_files

    store = get_store(ctx)
    report = import_files(
        store, list(paths), today=today(), allow_secret=allow_secret, dry_run=dry_run
    )
    verb = "would create" if dry_run else "created"
    for item in report.created:
        click.echo(f"{verb} {item.id}  <- {item.source}")
    for item in report.skipped:
        click.echo(f"skipped {item.source}: {item.note}")
    done = "would be created" if dry_run else "created"
    click.echo(f"{len(report.created)} memories {done}, {len(report.skipped)} skipped")


@click.command()
@click.argument("event", type=click.Choice(HOOK_EVENTS))
def hook(event: str) -> None:
    """Handle a Claude Code hook: read its JSON on stdin, print what it expects.

    Never blocks the agent: any problem is reported on stderr and the exit code is 0.
    """
    from memkit.agent_hooks import handle

    out, err = handle(event, sys.stdin.read(), today)
    if out:
        click.echo(out)
    if err:
        click.echo(f"memkit hook {event}: {err}", err=True)
