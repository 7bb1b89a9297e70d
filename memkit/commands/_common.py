"""What the command modules share: the store the command line names, printing, `--commit`.

Commands are thin: they parse options, call one core function and print its result
through these helpers. Exit codes are the command line's (memkit.cli maps errors to
them); commands only ask for EXIT_FOUND when a check found something.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memkit.clock import today as today
from memkit.controls import CONTROL, escape

if TYPE_CHECKING:
    from memkit.store import Store

EXIT_FOUND = 1  # a check found something (memkit.cli maps everything else)
_LINE_END_CR = re.compile(r"\r+(?=\n|\Z)")


@dataclass
class State:
    root: Path | None = None

    def store(self) -> Store:
        from memkit.store import Store, find_root

        return Store(self.root.resolve() if self.root else find_root())


def get_store(ctx: click.Context) -> Store:
    state: State = ctx.find_object(State) or State()
    return state.store()


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
