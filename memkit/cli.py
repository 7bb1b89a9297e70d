"""memkit's command line: a thin click layer over the core API.

Commands live in memkit/commands/ and load lazily, so `memkit --help` imports none of
the heavy libraries. This module is the one place that maps errors to exit codes:
0 ok, 1 a check found something, 2 user error (any MemkitError), 3 a bug.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memkit import __version__
from memkit.controls import CONTROL, escape
from memkit.errors import MemkitError

if TYPE_CHECKING:
    from memkit.store import Store

# name -> "module:attribute"; each module is imported only when its command runs.
COMMANDS: dict[str, str] = {
    "init": "memkit.commands.memories:init",
    "add": "memkit.commands.memories:add",
    "list": "memkit.commands.memories:list_",
    "show": "memkit.commands.memories:show",
    "edit": "memkit.commands.memories:edit",
    "rm": "memkit.commands.memories:rm",
    "validate": "memkit.commands.memories:validate",
    "compile": "memkit.commands.compile:compile_",
    "check": "memkit.commands.staleness:check",
    "verify": "memkit.commands.staleness:verify",
    "search": "memkit.commands.search:search",
    "context": "memkit.commands.search:context",
    "index": "memkit.commands.search:index",
    "log": "memkit.commands.history:log",
    "revert": "memkit.commands.history:revert",
    "diff": "memkit.commands.history:diff",
    "hooks": "memkit.commands.githooks:hooks",
    "mcp": "memkit.commands.agents:mcp",
    "import": "memkit.commands.agents:import_",
    "hook": "memkit.commands.agents:hook",
    "approve": "memkit.commands.agents:approve",
}

EXIT_FOUND, EXIT_USER, EXIT_BUG = 1, 2, 3
_LINE_END_CR = re.compile(r"\r+(?=\n|\Z)")


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
        except MemkitError as e:
            click.echo(printable(f"memkit: {e}"), err=True)
            ctx.exit(EXIT_USER)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            sys.stderr.close()  # the reader went away (e.g. `| head`): not an error
            ctx.exit(0)
        except KeyboardInterrupt:
            click.echo("memkit: interrupted", err=True)
            ctx.exit(130)
        except Exception:
            import traceback

            traceback.print_exc()
            click.echo(
                f"memkit {__version__} crashed: this is a bug in memkit, not in your input. "
                "Please report it with the traceback above.",
                err=True,
            )
            ctx.exit(EXIT_BUG)


@dataclass
class State:
    root: Path | None = None

    def store(self) -> Store:
        from memkit.store import Store, find_root

        return Store(self.root.resolve() if self.root else find_root())


@click.group(cls=MemkitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memkit")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="MEMKIT_ROOT",
    help="Project root holding .memory/ (default: nearest parent that has one).",
)
@click.pass_context
def cli(ctx: click.Context, root: Path | None) -> None:
    """memkit: markdown-in-git memory for coding agents.

    Memories are markdown files with YAML front matter under .memory/, reviewed
    in git like code. memkit validates them, tells when the code they describe
    changed, and compiles them into each agent's instruction files.
    """
    ctx.obj = State(root=root)


def main(args: list[str] | None = None, prog_name: str | None = None) -> None:
    cli.main(args=args, prog_name=prog_name or "memkit")


# --------------------------------------------------------------- for commands


def get_store(ctx: click.Context) -> Store:
    state: State = ctx.find_object(State) or State()
    return state.store()


def today() -> dt.date:
    """The date used for `created`/`updated` and expiry (MEMKIT_TODAY=YYYY-MM-DD pins it)."""
    pinned = os.environ.get("MEMKIT_TODAY")
    if pinned:
        try:
            return dt.date.fromisoformat(pinned)
        except ValueError:
            raise MemkitError(f"MEMKIT_TODAY={pinned!r} is not a date like 2026-01-31") from None
    return dt.date.today()


def printable(text: str) -> str:
    """Text from memories or git, safe to print to a terminal: control characters escaped.

    Every command prints memory-derived text (titles, bodies, snippets, commit
    messages, author names) through this. ESC (so CSI and OSC sequences), BEL,
    backspace, a carriage return not ending a line, C1 controls and bidi overrides
    show as `\\x1b`, `\\u202e` and the like; tab and newline stay, and a carriage
    return that ends a line (CRLF text) is dropped.
    """
    return escape(_LINE_END_CR.sub("", text))


def echo_json(data: Any) -> None:
    """Exact JSON; the controls json.dumps leaves raw (C1, DEL, bidi) written as \\u escapes."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    click.echo(CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    """Left-aligned columns separated by two spaces; the last column is not padded."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for r in [header, *rows]:
        cells = [c.ljust(w) for c, w in zip(r, widths, strict=False)] + [r[-1]]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def warn(message: str) -> None:
    click.echo(printable(f"memkit: warning: {message}"), err=True)


def commit_option(f: Any) -> Any:
    """`--commit`: commit exactly the files the command wrote, nothing the user staged.

    Whether a commit can be made (a repository, an identity) is checked as the option
    is parsed, before the command writes anything: a retry then never duplicates work.
    """
    return click.option(
        "--commit",
        "do_commit",
        is_flag=True,
        callback=_can_commit,
        help="Commit exactly the files this command wrote (other staged changes stay staged).",
    )(f)


def _can_commit(ctx: click.Context, param: Any, value: bool) -> bool:
    if value and not ctx.resilient_parsing:
        from memkit.git import check_identity

        check_identity(get_store(ctx).root)  # a MemkitError: one line, exit 2
    return value


def commit_written(store: Store, paths: list[str], message: str) -> None:
    from memkit.git import commit_paths

    sha = commit_paths(store.root, paths, message)
    click.echo(printable(f"committed {sha[:12]} {message.splitlines()[0]}"))
