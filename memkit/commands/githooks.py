"""`memkit hooks`: install, remove and run memkit's git hooks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from memkit.commands._common import EXIT_FOUND, GIT_HOOK, get_store, today

if TYPE_CHECKING:
    from memkit.githooks.install import Affected
    from memkit.store import Store

HOOKS = ("pre-commit", "validate", "compile", "stale")
HOW = {
    "docs": "docstring or comments changed",
    "body": "body changed",
    "signature": "signature changed",
    "changed": "file changed",
    "removed": "removed",
    "unverified": "changed (the memory was never verified)",
}


@click.group()
def hooks() -> None:
    """Git hooks: keep memories valid and compiled files current, flag memories a commit affects.

    See docs/hooks.md, which also shows the pre-commit framework set-up.
    """


@hooks.command()
@click.option("--merge-driver", is_flag=True, help="Also resolve conflicts in compiled files.")
@click.option("--mcp", is_flag=True, help="Also register memkit's MCP server for agents.")
@click.option("--claude", is_flag=True, help="Also install Claude Code session hooks.")
@click.pass_context
def install(ctx: click.Context, merge_driver: bool, mcp: bool, claude: bool) -> None:
    """Install the pre-commit hook (keeping and chaining any hook already there). Idempotent."""
    from memkit.githooks import install as core
    from memkit.githooks.mergedriver import install_merge_driver

    store = get_store(ctx)
    store.require()
    lines = core.install(store.root)
    if merge_driver:
        lines += install_merge_driver(store)
    if mcp:
        from memkit.agents.claude import install_mcp

        lines += install_mcp(store.root)
    if claude:
        from memkit.agents.claude import install_claude

        lines += install_claude(store.root)
    _report(lines, "memkit hooks already installed")


@hooks.command()
@click.option("--mcp", is_flag=True, help="Also unregister memkit's MCP server.")
@click.option("--claude", is_flag=True, help="Also remove memkit's Claude Code session hooks.")
@click.pass_context
def uninstall(ctx: click.Context, mcp: bool, claude: bool) -> None:
    """Remove memkit's hook and merge driver; a chained hook of yours is put back."""
    from memkit.githooks import install as core
    from memkit.githooks.mergedriver import uninstall_merge_driver

    store = get_store(ctx)
    lines = core.uninstall(store.root) + uninstall_merge_driver(store)
    if mcp:
        from memkit.agents.claude import uninstall_mcp

        lines += uninstall_mcp(store.root)
    if claude:
        from memkit.agents.claude import uninstall_claude

        lines += uninstall_claude(store.root)
    _report(lines, "no memkit hooks installed")


@hooks.command("merge-file", hidden=True)
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("ours", type=click.Path(path_type=Path))
@click.argument("theirs", type=click.Path(path_type=Path))
@click.argument("path")
@click.pass_context
def merge_file(ctx: click.Context, base: Path, ours: Path, theirs: Path, path: str) -> None:
    """git's merge driver for compiled files (%O %A %B %P); the result is left in OURS."""
    from memkit.githooks.mergedriver import merge_file as merge

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
    ctx.meta[GIT_HOOK] = hook  # a crash is reported as the hook's (memkit.errors.report)
    if _run(get_store(ctx), hook, strict):
        ctx.exit(EXIT_FOUND)


def _run(store: Store, hook: str, strict: bool) -> bool:
    """Run the checks; print what they find; True when the commit must stop."""
    from memkit.githooks import install as core
    from memkit.githooks.fastpath import staged_names

    store.require()
    names = staged_names(str(store.root))
    if hook in ("pre-commit", "validate"):
        problems = store.validate() if hook == "validate" else core.invalid_memories(store, names)
        for p in problems:
            click.echo(str(p))
        if problems:
            files = len({p.path for p in problems})
            click.echo(f"memkit: {len(problems)} problem(s) in {files} file(s)", err=True)
            return True
    if hook == "compile" or (hook == "pre-commit" and core.compile_needed(store, names)):
        changed = _recompile(store)
        if changed:
            shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" * (len(changed) > 5))
            click.echo(
                f"memkit: regenerated {shown} from .memory/; review the changes, "
                "`git add` them and commit again",
                err=True,
            )
            return True
    if hook in ("pre-commit", "stale"):
        affected = core.affected_memories(store, names)
        _print_affected(affected)
        if any(a.stale for a in affected) and (strict or _strict_config(store)):
            click.echo("memkit: commit stopped (--strict): verify or edit these memories", err=True)
            return True
    return False


def _recompile(store: Store) -> list[str]:
    from memkit.githooks import install as core

    return core.recompile(store, today=today())


def _strict_config(store: Store) -> bool:
    """`[hooks] strict = true` in .memory/config.toml (or MEMKIT_HOOKS_STRICT=true)."""
    from memkit.errors import ConfigError

    value = store.config.section("hooks").get("strict", False)
    if not isinstance(value, bool):
        raise ConfigError(
            f"{store.config.path or '.memory/config.toml'}: [hooks] strict must be true or "
            f"false, not {value!r}"
        )
    return value


def _print_affected(affected: list[Affected]) -> None:
    if not affected:
        return
    n = len(affected)
    what = "1 memory describes" if n == 1 else f"{n} memories describe"
    click.echo(f"memkit: this commit changes code that {what}:")
    for a in affected:
        click.echo(f"  {a.id}: {a.title} ({a.path})")
        for link in a.links:
            how = f"moved to {link.moved_to}" if link.moved_to else HOW.get(link.state, link.state)
            click.echo(f"    {link.link}: {how}")
        click.echo(f"    -> still true? `memkit verify {a.id}`; if not, `memkit edit {a.id}`")
