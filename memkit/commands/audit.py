"""`memkit audit`: check the references hand-written instruction files make."""

from __future__ import annotations

from pathlib import Path

import click

from memkit.commands._common import EXIT_FOUND, State, echo_json, printable


@click.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="JSON object (schema: docs/audit.md).")
@click.pass_context
def audit(ctx: click.Context, files: tuple[Path, ...], as_json: bool) -> None:
    """Check instruction files (CLAUDE.md, AGENTS.md, Cursor and Copilot rules, or FILES).

    Reports each file path, command, symbol, dependency, environment variable or
    config key they mention that the project does not have, as `file:line: message`.
    Needs no memkit set-up. Exit 1 when anything does not resolve.
    """
    from memkit.audit import audit as run
    from memkit.audit import named, project_root

    state = ctx.find_object(State)
    root = project_root(state.root if state and state.root else Path.cwd())
    report = run(root, named(root, files) if files else None)
    if as_json:
        echo_json(report.to_record())
    else:
        for flag in report.flags:
            click.echo(printable(str(flag)))
        click.echo(report.summary())
    if report.flags:
        ctx.exit(EXIT_FOUND)
