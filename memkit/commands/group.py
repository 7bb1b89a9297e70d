"""The click group of memkit's command line: options, the lazy commands, the error handler.

memkit.commands.COMMANDS names each command's module; it is imported only when its command
runs. The group's invoke hands any exception a command raises to memkit.errors.report.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import click

from memkit import __version__
from memkit.commands import COMMANDS
from memkit.errors import report


class MemkitGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        cmd: click.Command = getattr(importlib.import_module(module), attr)
        return cmd

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except (Exception, KeyboardInterrupt) as e:
            from memkit.commands._common import GIT_HOOK

            ctx.exit(report(e, hook=ctx.meta.get(GIT_HOOK)))


@click.group(cls=MemkitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memkit")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="MEMKIT_ROOT",
    help="Project root holding .memory/ (default: nearest parent that has one).",
)
@click.option(
    "--user",
    is_flag=True,
    help="Work on your personal store (created on first use) instead of the project's; "
    "`memkit --user compile` writes your agents' user-level files.",
)
@click.pass_context
def cli(ctx: click.Context, root: Path | None, user: bool) -> None:
    """memkit: markdown-in-git memory for coding agents.

    Memories are markdown files with YAML front matter under .memory/, reviewed
    in git like code. memkit validates them, tells when the code they describe
    changed, and compiles them into each agent's instruction files.
    """
    from memkit.commands._common import State

    if user:
        if (
            root is not None
            and ctx.get_parameter_source("root") == click.core.ParameterSource.COMMANDLINE
        ):
            raise click.UsageError("--user and --root name two different stores; give one")
        from memkit.sharing import personal

        root = personal.root()
        personal.ensure(root)
    ctx.obj = State(root=root, user=user)
