"""What the command modules share: the store the command line names, printing, `--commit`.

Commands are thin: they parse options, call one core function and print its result
through these helpers. Errors become exit codes in one place (memkit.errors.report,
called by memkit.cli); commands only ask for EXIT_FOUND when a check found something.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memkit.clock import today as today
from memkit.controls import CONTROL
from memkit.controls import printable as printable
from memkit.errors import EXIT_FOUND as EXIT_FOUND

if TYPE_CHECKING:
    from memkit.store import Store

# The git hook a command runs (ctx.meta key): memkit.errors.report words a crash for it.
GIT_HOOK = "memkit.git_hook"


class State:
    """The group's options, for its command (click's ctx.obj). A plain class: creating a
    dataclass costs every command's start-up about 0.4 ms."""

    __slots__ = ("root", "user")

    def __init__(self, root: Path | None = None, user: bool = False) -> None:
        self.root = root
        self.user = user  # the personal store (memkit --user)


def get_store(ctx: click.Context) -> Store:
    from memkit.store import Store, find_root

    root = (ctx.find_object(State) or State()).root
    return Store(root.resolve() if root else find_root())


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


def commit_written(store: Store, paths: list[str], message: str, *, compiled: bool = True) -> None:
    """Commit `paths` as the git hook would have let them through: the compiled files
    regenerated first (memkit.githooks.checks.recompile) and committed with them.
    `compiled=False` when the command was `memkit compile` itself."""
    from memkit.git import commit_paths
    from memkit.githooks.checks import recompile

    regenerated = recompile(store, today=today()) if compiled else []
    compiled_paths = [p for p in regenerated if p not in paths]
    sha = commit_paths(store.root, [*paths, *compiled_paths], message)
    click.echo(printable(f"committed {sha[:12]} {message.splitlines()[0]}"))
