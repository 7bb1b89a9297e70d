"""The basic loop: init, add, list, show, edit, rm, validate; and schema (the JSON Schema)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import click

from memkit.commands._common import (
    EXIT_FOUND,
    commit_option,
    commit_written,
    echo_json,
    get_store,
    printable,
    table,
    today,
    warn,
)
from memkit.commands.bodytext import edit_new, read_body
from memkit.errors import MemkitError, MemoryNotFoundError
from memkit.fields import CONFIDENCES, REGISTRY, STATUSES, TYPES


class DateType(click.ParamType):  # type: ignore[type-arg]
    name = "YYYY-MM-DD"

    def convert(self, value: Any, param: Any, ctx: Any) -> dt.date:
        if isinstance(value, dt.date):
            return value
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            self.fail(f"{value!r} is not a date like 2026-01-31", param, ctx)


@click.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Create .memory/ (config and .gitignore) at the repository root. Idempotent."""
    from memkit.store import default_root
    from memkit.store import init as do_init
    from memkit.walk import MEMORY_DIR

    root = ctx.obj.root.resolve() if ctx.obj.root else default_root()
    made = do_init(root)
    for item in made:
        click.echo(f"created {item}")
    if not made:
        click.echo(f"{MEMORY_DIR}/ already set up in {root}")


@click.command()
@click.argument("title")
@click.option("--body", "-b", help="The memory's markdown text.")
@click.option("--body-file", "-F", help="Read the text from a file ('-' for stdin).")
@click.option("--edit", "-e", "use_editor", is_flag=True, help="Write the text in $VISUAL/$EDITOR.")
@click.option("--type", "-t", "type_", type=click.Choice(TYPES), default="note", show_default=True)
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--path", "paths", multiple=True, help="Glob of files it applies to (repeatable).")
@click.option(
    "--link",
    "links",
    multiple=True,
    help="FILE[::Symbol], FILE.toml::key, dep:, cmd:, env: (repeatable).",
)
@click.option("--source", help="Where it comes from: a PR, an incident, a session.")
@click.option("--confidence", type=click.Choice(CONFIDENCES))
@click.option("--status", type=click.Choice(STATUSES), default="active", show_default=True)
@click.option("--review-after", type=DateType(), help="Due for review after this date.")
@click.option("--expires", type=DateType(), help="No longer used after this date.")
@click.option("--priority", type=int, help="Higher ranks first in compiled files.")
@click.option("--pin", is_flag=True, default=None, help="Always include it first.")
@click.option("--id", "mid", help="The id (default: from the title).")
@click.option("--allow-secret", is_flag=True, help="Write even if the text looks like a secret.")
@commit_option
@click.pass_context
def add(
    ctx: click.Context,
    /,
    title: str,
    body: str | None,
    body_file: str | None,
    use_editor: bool,
    type_: str,
    mid: str | None,
    allow_secret: bool,
    do_commit: bool,
    **fields: Any,
) -> None:
    """Add a memory titled TITLE and print its id."""
    from memkit import memory as mm

    store = get_store(ctx)
    store.require()
    text = read_body(body, body_file, use_editor)
    why = None if mid is None else mm.id_problem(mid)
    if why is not None:
        raise MemkitError(f"--id {why}")
    values = {k: v for k, v in fields.items() if v not in (None, ())}
    mem = mm.new(
        title, text or "", mid=mid or mm.slugify(title), today=today(), type=type_, **values
    )
    if use_editor:
        mem = edit_new(mem)
    elif not (text or "").strip():
        raise MemkitError(
            "the memory's text is empty: give it with --body TEXT, --body-file FILE "
            "(--body-file - reads standard input) or --edit"
        )
    if mem.links:
        import dataclasses

        from memkit.staleness import fingerprint

        verified = fingerprint(store.root, mem.links, today=today())
        mem = dataclasses.replace(mem, verified=verified)
    saved = store.add(mem, allow_secret=allow_secret, exact_id=mid is not None)
    click.echo(saved.id)
    from memkit.commands.links import hints

    hints(store, [saved])
    if do_commit:
        commit_written(store, [saved.path], f"memkit: add {saved.id}: {saved.title}")


@click.command("list")
@click.option("--type", "-t", "type_", type=click.Choice(TYPES), help="Only this type.")
@click.option("--tag", help="Only memories with this tag.")
@click.option("--status", "-s", type=click.Choice(STATUSES), help="Only this status.")
@click.option(
    "--scope",
    metavar="PATH",
    help="Only memories that apply to PATH (a file or folder): those without `paths` "
    "and those whose paths cover it.",
)
@click.option("--json", "as_json", is_flag=True, help="JSON array (schema: docs/format.md).")
@click.pass_context
def list_(
    ctx: click.Context,
    type_: str | None,
    tag: str | None,
    status: str | None,
    scope: str | None,
    as_json: bool,
) -> None:
    """List memories (id, type, status, title), shared stores' included (FROM column)."""
    from memkit.sharing import in_scope, load_all, scope_path

    store = get_store(ctx)
    own = store.load()
    if own.problems:  # left out, counted by file and named
        from memkit.capped import capped

        bad = sorted({p.path for p in own.problems})
        warn(f"skipped {len(bad)} invalid memory file(s): {capped(bad)}; run `memkit validate`")
    loaded = load_all(store, own)
    where = scope_path(store.root, scope) if scope is not None else None
    mems = [
        m
        for m in sorted(loaded.memories, key=lambda m: m.id)
        if (type_ is None or m.type == type_)
        and (tag is None or tag in m.tags)
        and (status is None or m.status == status)
        and (where is None or in_scope(m, where))
    ]
    if as_json:
        echo_json([_listed(m) for m in mems])
    elif mems:
        shared = any(m.origin for m in mems)
        rows: list[tuple[str, ...]] = [
            (m.id, m.type, m.status, *((m.origin or "-",) if shared else ()), printable(m.title))
            for m in mems
        ]
        head = ("ID", "TYPE", "STATUS", *(("FROM",) if shared else ()), "TITLE")
        click.echo(table(rows, head))


def _listed(m: Any) -> dict[str, Any]:
    rec = {k: v for k, v in m.to_record().items() if k != "body"}
    if m.origin:
        rec["origin"] = m.origin
    return rec


# `show`'s field lines: the title is its heading; fields memkit writes are left out
# (`verified` gets a line of its own).
SHOWN = ("id", "path", *(f.name for f in REGISTRY if f.name != "title" and not f.machine))


@click.command()
@click.argument("mid", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="JSON object (schema: docs/format.md).")
@click.option("--at", "rev", metavar="REV", help="As it was at a commit, tag or branch.")
@click.pass_context
def show(ctx: click.Context, mid: str, as_json: bool, rev: str | None) -> None:
    """Show one memory: its fields, where it comes from in git history, and its text."""
    from memkit import sharing
    from memkit.history.provenance import memory_at, provenance

    store = get_store(ctx)
    try:
        mem = memory_at(store, mid, rev) if rev else store.get(mid)
    except MemoryNotFoundError:
        shared = sharing.shared_memory(store, mid)
        if shared is None or rev:
            raise
        mem = shared
    if as_json:
        echo_json(mem.to_record())
        return
    rec = mem.to_record()
    click.echo(printable(f"# {mem.title}\n"))
    for key in SHOWN:
        value = rec[key]
        if value in (None, [], False) or (key == "priority" and value == 0):
            continue
        shown = ", ".join(value) if isinstance(value, list) else str(value)
        shown = shown.lower() if isinstance(value, bool) else shown  # true, false
        click.echo(printable(f"{key + ':':<14}{shown}"))
    if mem.verified:
        v = mem.verified
        click.echo(f"{'verified:':<14}{v.date or '?'} at {(v.commit or 'no commit')[:12]}")
    if mem.origin:
        click.echo(printable(f"{'from:':<14}shared store {mem.origin} (see `memkit stores`)"))
    prov = None if mem.origin else provenance(store, mem, rev)
    for label, text in prov.lines() if prov else ():
        click.echo(printable(f"{label + ':':<14}{text}"))
    if mem.text:
        click.echo(printable(f"\n{mem.text}"))


@click.command()
@click.argument("mid", metavar="ID")
@click.option("--discard", is_flag=True, help="Drop a kept, rejected edit of ID and exit.")
@click.option("--allow-secret", is_flag=True, help="Write even if the text looks like a secret.")
@commit_option
@click.pass_context
def edit(ctx: click.Context, mid: str, discard: bool, allow_secret: bool, do_commit: bool) -> None:
    """Edit a memory in $VISUAL/$EDITOR; the result is validated before it is saved.

    An edit that does not validate is kept in memkit's cache folder (edit/ID.md) and
    reopened by the next `memkit edit ID`, so nothing you typed is lost.
    """
    from memkit import sharing
    from memkit.editing import discard_edit, edit_memory, naming_kept_edit

    store = get_store(ctx)
    if discard:
        click.echo(printable(discard_edit(store, mid)))
        return
    with naming_kept_edit(store, mid):
        sharing.own(store, mid)  # a shared memory is changed in its own store
    result = edit_memory(store, mid, editor=_run_editor, today=today(), allow_secret=allow_secret)
    click.echo(printable(result))
    if do_commit and result.startswith("saved"):
        mem = store.get(mid)
        commit_written(store, [mem.path], f"memkit: edit {mid}: {mem.title}")


def _run_editor(path: Path) -> None:
    try:
        click.edit(filename=str(path))
    except click.ClickException as e:  # no editor, or it exited non-zero: a user error
        raise MemkitError(
            f"the editor failed ({e.message}); set $VISUAL or $EDITOR to an editor that "
            "works here, or give the text with --body"
        ) from None


@click.command()
@click.argument("mids", metavar="ID...", nargs=-1, required=True)
@commit_option
@click.pass_context
def rm(ctx: click.Context, mids: tuple[str, ...], do_commit: bool) -> None:
    """Delete memories (git history keeps them; see `memkit log`)."""
    from memkit import sharing

    store = get_store(ctx)
    mids = tuple(dict.fromkeys(mids))  # `rm a a` removes a once
    with store.lock():  # an MCP update racing `rm` must not bring the memory back
        for mid in mids:
            sharing.own(store, mid)  # all must exist before any is removed
        removed = [store.delete(mid) for mid in mids]
    for rel in removed:
        click.echo(printable(f"removed {rel}"))
    if do_commit:
        commit_written(store, removed, f"memkit: rm {', '.join(mids)}")


@click.command()
@click.pass_context
def validate(ctx: click.Context) -> None:
    """Check every memory; print each problem as path:line: field: message (exit 1 if any)."""
    from memkit.validation import validate as validate_store

    store = get_store(ctx)
    problems = validate_store(store)
    for p in problems:
        click.echo(printable(str(p)))
    if problems:
        files = len({p.path for p in problems})
        click.echo(f"{len(problems)} problem(s) in {files} file(s)", err=True)
        ctx.exit(EXIT_FOUND)
    click.echo(f"{len(store.files())} memories, all valid")


@click.command()
def schema() -> None:
    """Print the JSON Schema of a memory's front matter (for editors; see docs/format.md)."""
    from memkit.memory.schema import render

    click.echo(render(), nl=False)
