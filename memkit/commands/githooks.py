"""`memkit hooks`: install, remove and run memkit's git hooks."""

from __future__ import annotations

from pathlib import Path

import click

from memkit.commands._common import EXIT_FOUND, GIT_HOOK, get_store, today
from memkit.githooks import HOOKS


@click.group()
def hooks() -> None:
    """Git hooks: keep memories valid and compiled files current, flag memories a commit affects.

    See docs/hooks.md, which also shows the pre-commit framework set-up.
    """


_AGENT_NAMES = ("vscode", "gemini", "codex", "kiro", "amazonq", "roo", "zed", "opencode")
_AGENT = click.option(
    "--agent",
    "agents",
    multiple=True,
    type=click.Choice((*_AGENT_NAMES, "all")),
    help="Also register memkit's MCP server in this agent's project file (repeatable).",
)


def _agent_files(
    root: Path, mcp: bool, claude: bool, agents: tuple[str, ...], install: bool, dry_run: bool
) -> list[str]:
    """Lines for the agent files `--mcp`, `--claude` and `--agent` change (or would)."""
    from memkit.agents.install import more_agents, register

    names = list(more_agents.NAMES) if "all" in agents else list(agents)
    if dry_run and not (mcp or claude or names):
        raise click.UsageError("--dry-run shows agent files: add --mcp, --claude or --agent")
    job = more_agents.install if install else more_agents.uninstall
    lines = job(root, more_agents.MCP_FILES, dry_run=dry_run) if mcp else []
    if claude:
        job_claude = register.install_claude if install else register.uninstall_claude
        lines += job_claude(root, dry_run=dry_run)
    return lines + (job(root, names, dry_run=dry_run) if names else [])


_DRY_RUN = click.option(
    "--dry-run",
    "-n",
    is_flag=True,
    help="With --mcp, --claude or --agent: show which agent files would change, write "
    "nothing (git hooks left out).",
)


@hooks.command()
@click.option("--merge-driver", is_flag=True, help="Also resolve conflicts in compiled files.")
@click.option("--mcp", is_flag=True, help="Also register memkit's MCP server for agents.")
@click.option("--claude", is_flag=True, help="Also install Claude Code session hooks.")
@_AGENT
@_DRY_RUN
@click.pass_context
def install(
    ctx: click.Context,
    merge_driver: bool,
    mcp: bool,
    claude: bool,
    agents: tuple[str, ...],
    dry_run: bool,
) -> None:
    """Install the pre-commit hook (keeping and chaining any hook already there). Idempotent."""
    from memkit.githooks import install as core
    from memkit.githooks.mergedriver import install_merge_driver

    store = get_store(ctx)
    store.require()
    lines = [] if dry_run else core.install(store.root)
    if merge_driver and not dry_run:
        lines += install_merge_driver(store)
    lines += _agent_files(store.root, mcp, claude, agents, True, dry_run)
    _report(lines, "no change" if dry_run else "memkit hooks already installed")


@hooks.command()
@click.option("--mcp", is_flag=True, help="Also unregister memkit's MCP server.")
@click.option("--claude", is_flag=True, help="Also remove memkit's Claude Code session hooks.")
@_AGENT
@_DRY_RUN
@click.pass_context
def uninstall(
    ctx: click.Context, mcp: bool, claude: bool, agents: tuple[str, ...], dry_run: bool
) -> None:
    """Remove memkit's hook and merge driver; a chained hook of yours is put back."""
    from memkit.githooks import install as core
    from memkit.githooks.mergedriver import uninstall_merge_driver

    store = get_store(ctx)
    lines = [] if dry_run else core.uninstall(store.root) + uninstall_merge_driver(store)
    lines += _agent_files(store.root, mcp, claude, agents, False, dry_run)
    _report(lines, "no change" if dry_run else "no memkit hooks installed")


@hooks.command("merge-file", hidden=True)
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("ours", type=click.Path(path_type=Path))
@click.argument("theirs", type=click.Path(path_type=Path))
@click.argument("path")
@click.pass_context
def merge_file(ctx: click.Context, base: Path, ours: Path, theirs: Path, path: str) -> None:
    """git's merge driver for compiled files (%O %A %B %P); the result is left in OURS."""
    from memkit.githooks.fastpath import work_tree_first
    from memkit.githooks.mergedriver import OLD_DRIVER
    from memkit.githooks.mergedriver import merge_file as merge

    if work_tree_first():
        click.echo(OLD_DRIVER, err=True)
    clean, message = merge(base, ours, theirs, path)
    if message:
        click.echo(message, err=True)
    if not clean:
        ctx.exit(EXIT_FOUND)


def _report(lines: list[str], nothing: str) -> None:
    for line in lines:
        click.echo(line)
    if not lines:
        click.echo(nothing)


@hooks.command()
@click.argument("hook", type=click.Choice(HOOKS))
@click.option("--strict", is_flag=True, help="Fail (exit 1) when a memory is affected.")
@click.pass_context
def run(ctx: click.Context, hook: str, strict: bool) -> None:
    """Run one hook's checks on the staged changes (what the installed hook calls).

    pre-commit: validate, compile and stale, each only when the commit needs it.
    """
    from memkit.githooks.checks import run_hook
    from memkit.githooks.fastpath import staged_names

    ctx.meta[GIT_HOOK] = hook  # a crash is reported as the hook's (memkit.errors.report)
    store = get_store(ctx)
    store.require()
    staged = staged_names(str(store.root))
    outcome = run_hook(store, hook, staged, today=today(), strict=strict)
    for line in outcome.out:
        click.echo(line)
    for line in outcome.err:
        click.echo(line, err=True)
    if outcome.stop:
        ctx.exit(EXIT_FOUND)
