"""`memkit link`: add links to a memory, or list the links its text suggests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from memkit.commands._common import commit_option, commit_written, get_store, printable, today
from memkit.errors import MemkitError

if TYPE_CHECKING:
    from memkit.audit.suggest import Suggestion
    from memkit.memory import Memory
    from memkit.store import Store


@click.command()
@click.argument("mid", metavar="ID")
@click.argument("links", nargs=-1)
@click.option("--suggest", is_flag=True, help="List links for what the memory's text mentions.")
@click.option("--remove", is_flag=True, help="Remove LINKS (and their fingerprints) instead.")
@commit_option
@click.pass_context
def link(
    ctx: click.Context,
    mid: str,
    links: tuple[str, ...],
    suggest: bool,
    remove: bool,
    do_commit: bool,
) -> None:
    """Add LINKS to memory ID and fingerprint them, remove them with --remove, or list
    suggestions with --suggest.

    A link is a file, `file::Symbol`, `file.toml::config.key`, `dep:NAME`,
    `cmd:make target` or `env:NAME` (docs/staleness.md). Suggestions are never
    added by themselves: pass the ones you accept as LINKS. --remove drops links
    to what is gone; the other links keep their fingerprints.
    """
    from memkit.audit.suggest import add_links, remove_links, suggest_links

    store = get_store(ctx)
    if remove:
        if suggest or not links:
            raise MemkitError("name the links to remove: memkit link ID --remove LINK...")
        saved = remove_links(store, mid, links)
        click.echo(printable(f"unlinked {saved.id}: {', '.join(links)}"))
        if do_commit:
            commit_written(store, [saved.path], f"memkit: unlink {saved.id}")
        return
    if suggest:
        mem = store.get(mid)
        found = suggest_links(store.root, mem.body.lstrip("\n"), mem.links)
        for s in found:
            click.echo(printable(f"{s.link}\t(line {s.line}: {s.mention})"))
        if found:
            click.echo(printable(f"accept with: memkit link {mid} {_accept(found)}"), err=True)
        return
    if not links:
        raise MemkitError("name the links to add (memkit link ID LINK...), or use --suggest")
    saved = add_links(store, mid, links, today=today())
    click.echo(printable(f"linked {saved.id}: {', '.join(saved.links)}"))
    if do_commit:
        commit_written(store, [saved.path], f"memkit: link {saved.id}")


def _accept(found: Iterable[Suggestion]) -> str:
    """The suggested links as words of a shell command line."""
    import shlex

    return " ".join(shlex.quote(s.link) for s in found)


def hints(store: Store, mems: Iterable[Memory]) -> None:
    """After `add` or `import`: one line on stderr for each memory, naming the links its
    text suggests. The work tree is read once: a manifest, a lock file or a config file
    many memories mention is parsed once for all of them."""
    from memkit.audit.suggest import suggest_links
    from memkit.staleness.record import Fingerprinter

    try:  # a suggestion is never worth failing the write for
        printer = Fingerprinter(store.root)
    except (OSError, MemkitError):
        return
    for mem in mems:
        try:
            found = suggest_links(store.root, mem.body.lstrip("\n"), mem.links, printer=printer)
        except (OSError, MemkitError):
            continue
        if found:
            accept = f"accept with `memkit link {mem.id} {_accept(found)}`"
            click.echo(printable(f"suggested links for {mem.id}: {accept}"), err=True)
