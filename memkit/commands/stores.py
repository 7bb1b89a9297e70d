"""`memkit sync` and `memkit stores`: shared team stores named in .memory/config.toml."""

from __future__ import annotations

from collections import Counter
from typing import Any

import click

from memkit.commands._common import EXIT_FOUND, echo_json, get_store, table, warn


@click.command()
@click.argument("names", nargs=-1)
@click.option("--update", is_flag=True, help="Move each pin to what its ref names now.")
@click.pass_context
def sync(ctx: click.Context, names: tuple[str, ...], update: bool) -> None:
    """Fetch the shared stores at the commits pinned in .memory/stores.lock.

    A store not pinned yet is pinned at what its `ref` names now; --update moves
    every pin (or those NAMES) forward. Commit .memory/stores.lock: the pins are a
    reviewed change, like a lock file. A store whose history was rewritten is refused.
    """
    from memkit.sharing import pins, team

    store = get_store(ctx)
    store.require()
    if not pins.sources(store.config):
        click.echo(
            "no shared stores configured: add a [stores.NAME] table with url and ref "
            "to .memory/config.toml (see docs/stores.md)"
        )
        return
    with store.lock():
        results = team.sync(store, update=update, names=names)
    for r in results:
        if r.action == "error":
            click.echo(f"memkit: {r.message}", err=True)
            continue
        moved = f" (was {r.old[:12]})" if r.action == "updated" else ""
        click.echo(f"{r.name}: {r.action} at {r.commit[:12]}{moved}, {r.count} memories")
    shared = team.load(store)
    failed = tuple(f"store {r.name} " for r in results if r.action == "error")
    for p in shared.problems:
        if not p.startswith(failed):  # said once, above
            warn(p)
    for note in team.merge(store.load().memories, shared)[1]:
        warn(note)
    if failed:
        ctx.exit(EXIT_FOUND)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def stores(ctx: click.Context, as_json: bool) -> None:
    """List the shared stores: where they come from, their pin and what they add.

    Reads nothing from the network. Exit 1 when a store is not synced or one of its
    memories is left out.
    """
    from memkit.sharing import pins, team

    store = get_store(ctx)
    store.require()
    locked = pins.read_lock(store.root)
    shared = team.load(store)
    _, notes = team.merge(store.load().memories, shared)
    rows: list[dict[str, Any]] = []
    cells: list[tuple[str, ...]] = []  # the same, as the table's columns
    count = Counter(m.origin for m in shared.memories)
    for src in pins.sources(store.config):
        pin = locked.get(src.name)
        commit = pin.commit if pin else None
        row = {"name": src.name, "url": src.url, "ref": src.ref, "commit": commit}
        rows.append({**row, "memories": count[src.name]})
        cells.append((src.name, src.url, src.ref, (commit or "-")[:12], str(count[src.name])))
    if as_json:
        echo_json({"stores": rows, "problems": list(shared.problems), "notes": notes})
    else:
        if rows:
            click.echo(table(cells, ("NAME", "URL", "REF", "PINNED", "MEMORIES")))
        else:
            click.echo("no shared stores configured (see docs/stores.md)")
        for line in (*shared.problems, *notes):
            warn(line)
    if shared.problems:
        ctx.exit(EXIT_FOUND)
