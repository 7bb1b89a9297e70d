"""memkit's command line: the click group, the table of commands, and its error handler.

Commands live in memkit/commands/ and load lazily, so `memkit --help` imports none of
the heavy libraries. The group's invoke hands any exception a command raises to
memkit.errors.report, the one mapping of errors to exit codes and messages: 0 ok,
1 a check found something, 2 user error (any MemkitError), 3 a bug.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import click

from memkit import __version__
from memkit.errors import report

# name -> "module:attribute"; each module is imported only when its command runs.
COMMANDS: dict[str, str] = {
    "init": "memkit.commands.memories:init",
    "add": "memkit.commands.memories:add",
    "list": "memkit.commands.memories:list_",
    "show": "memkit.commands.memories:show",
    "edit": "memkit.commands.memories:edit",
    "rm": "memkit.commands.memories:rm",
    "validate": "memkit.commands.memories:validate",
    "schema": "memkit.commands.memories:schema",
    "compile": "memkit.commands.compile:compile_",
    "check": "memkit.commands.staleness:check",
    "verify": "memkit.commands.staleness:verify",
    "ci": "memkit.commands.staleness:ci",
    "search": "memkit.commands.search:search_command",
    "context": "memkit.commands.search:context",
    "index": "memkit.commands.search:index",
    "log": "memkit.commands.history:log",
    "revert": "memkit.commands.history:revert",
    "diff": "memkit.commands.history:diff",
    "report": "memkit.commands.report:report",
    "hooks": "memkit.commands.githooks:hooks",
    "mcp": "memkit.commands.agents:mcp",
    "import": "memkit.commands.agents:import_",
    "claude-hook": "memkit.commands.agents:claude_hook",
    "hook": "memkit.commands.agents:hook",  # hidden: what settings written by 0.1 may run
    "approve": "memkit.commands.agents:approve",
    "sync": "memkit.commands.stores:sync",
    "stores": "memkit.commands.stores:stores",
}


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
        from memkit.stores import personal

        root = personal.root()
        personal.ensure(root)
    ctx.obj = State(root=root, user=user)


def main(args: list[str] | None = None, prog_name: str | None = None) -> None:
    cli.main(args=args, prog_name=prog_name or "memkit")
