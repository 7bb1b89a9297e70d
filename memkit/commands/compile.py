"""`memkit compile`: write each agent's instruction files from the store."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memkit.commands._common import (
    EXIT_FOUND,
    State,
    commit_option,
    commit_written,
    get_store,
    printable,
    today,
    warn,
)
from memkit.compile.readers import AGENTS
from memkit.compile.targets import TARGETS

if TYPE_CHECKING:
    from memkit.compile.current import Outcome
    from memkit.compile.plan import Plan
    from memkit.store import Store

_DONE = {"create": "created", "update": "updated", "delete": "deleted"}


@click.command()
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if any file is out of date.")
@click.option("--dry-run", is_flag=True, help="Write nothing; print the files that would change.")
@click.option(
    "--target",
    "-t",
    "targets",
    multiple=True,
    type=click.Choice(tuple(TARGETS)),
    help="Compile only this target (repeatable; default: the configured targets).",
)
@click.option(
    "--explain",
    metavar="AGENT",
    type=click.Choice(tuple(AGENTS)),
    help="Write nothing; show which memories AGENT will see, in which file, and what was cut.",
)
@commit_option
@click.pass_context
def compile_(
    ctx: click.Context,
    check: bool,
    dry_run: bool,
    targets: tuple[str, ...],
    explain: str | None,
    do_commit: bool,
) -> None:
    """Compile active memories into every configured agent's instruction files.

    Text outside memkit's markers is kept byte for byte; only files whose bytes
    change are written. Exit 1 with --check when anything would change.
    """
    from memkit.compile.plan import apply
    from memkit.compile.plan import plan as make_plan

    store = get_store(ctx)
    state = ctx.find_object(State)
    if state is not None and state.user:
        ctx.exit(_compile_user(store, check=check, dry_run=dry_run))
    with store.lock():
        # a compile that writes records what it left, for the pre-commit hook
        record = not (check or dry_run or explain)
        if record and not targets and (said := _recorded(store)) is not None:
            for note in said.notes:  # what the recorded compile said, said again
                warn(note)
            click.echo(f"up to date ({said.files} file(s))")
            return
        plan = make_plan(store, today=today(), targets=targets or None, record=record)
        for note in plan.notes:
            warn(note)
        for refused in plan.refused:  # the other outputs are still written
            click.echo(printable(f"memkit: {refused}"), err=True)
        if check or dry_run:
            if not explain:
                ctx.exit(_preview(plan, check=check))
        elif not explain:
            done = apply(plan)
    if explain:  # after the lock: the hook's index reads the store itself
        from memkit.compile.explain import explain as lines

        click.echo("\n".join(lines(plan, explain, _start_hook(store, explain))))
        return
    for f in plan.changes:
        click.echo(f"{_DONE[f.action]} {f.path}")
    if done:
        for fact in plan.facts:
            click.echo(f"note: {fact}")
    if not done and not plan.refused:
        click.echo(f"up to date ({len(plan.files)} file(s))")
    elif do_commit:
        commit_written(store, done, "memkit: compile", compiled=False)
    if plan.refused:
        ctx.exit(EXIT_FOUND)


def _recorded(store: Store) -> Outcome | None:
    """What the last compile said, when a compile now would change nothing and say the
    same (memkit.compile.current): then nothing needs planning."""
    from memkit.compile.current import is_current
    from memkit.compile.plan import statuses_now

    day = today()
    return is_current(
        str(store.root), str(store.cache_dir), day, lambda: statuses_now(store, today=day)
    )


def _start_hook(store: Store, agent: str) -> tuple[list[str], list[str]] | None:
    """What memkit's SessionStart hook gives a new Claude Code session, when installed."""
    from memkit.agents.install.register import claude_start_hook

    if agent != "claude" or not claude_start_hook(store.root):
        return None
    from memkit.agents.claude.startup import start_picks

    return start_picks(str(store.root), today().isoformat())


def _preview(plan: Plan, *, check: bool) -> int:
    """`--dry-run` (the new files) or `--check` (a diff, exit 1 when anything would change)."""
    import difflib

    for f in plan.changes:
        click.echo(f"would {f.action} {f.path}")
        old = (f.old or b"").decode("utf-8", "replace").splitlines(keepends=True)
        new = (f.new or b"").decode("utf-8", "replace").splitlines(keepends=True)
        if check:
            lines = difflib.unified_diff(old, new, f"a/{f.path}", f"b/{f.path}")
            click.echo("".join(x if x.endswith("\n") else x + "\n" for x in lines), nl=False)
        elif f.new is not None:
            click.echo("".join(new), nl=False)
    if not plan.changes:
        click.echo(f"up to date ({len(plan.files)} file(s))")
    if check and (plan.changes or plan.refused):
        click.echo(
            "memkit: compiled files are out of date; run `memkit compile` and commit "
            "them (it also settles a merge conflict in them)",
            err=True,
        )
        return EXIT_FOUND
    if check and plan.invalid:
        click.echo(
            f"memkit: {len(plan.invalid)} invalid memory file(s) left out: "
            f"{', '.join(plan.invalid)}; `memkit validate` says how to fix them",
            err=True,
        )
        return EXIT_FOUND
    return 0


def _compile_user(store: Store, *, check: bool, dry_run: bool) -> int:
    """`memkit --user compile`: the personal store into the agents' user-level files."""
    from pathlib import Path

    from memkit.sharing import personal

    with store.lock():
        section = personal.section(store, today())
    files = personal.plan_user_files(section, Path.home())
    if not files:
        warn(
            "no agent's user folder found (~/.claude, ~/.codex, ~/.gemini, "
            "~/.config/opencode); nothing to write"
        )
    changed = [f for f in files if f.changed]
    if check or dry_run:
        for f in changed:
            click.echo(f"would update {f.path}")
    else:
        for path in personal.apply(files):
            click.echo(f"updated {path}")
    if not changed:
        click.echo(f"up to date ({len(files)} file(s))")
    return EXIT_FOUND if check and changed else 0
