"""`memkit search` without click: the warm search's fast path.

Importing click and building the command group costs more CPU than a search on a
warm index. memkit.cli.main hands `memkit search ...` here first: when every option
is one this parser knows, written plainly (`-n 5`, `--limit=5`, `--type gotcha`,
`--tag x`, `--status s`, `--all`, `--json`, `--semantic`, `--`), with valid values,
at least one word and no MEMKIT_ROOT, it runs the search and prints exactly what
`memkit.commands.search.search_command` prints. Anything else (help, a bad value,
an unknown option, `-word`) returns None and click handles it, error messages included.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memkit.errors import report

if TYPE_CHECKING:
    from memkit.search.rank import Hit
    from memkit.store import Store

_VALUED = {"-n": "limit", "--limit": "limit", "-t": "types", "--type": "types",
           "--tag": "tags", "-s": "status", "--status": "status"}  # fmt: skip
_FLAGS = {"-a": "include_all", "--all": "include_all", "--json": "as_json",
          "--semantic": "semantic"}  # fmt: skip


def parse(argv: list[str]) -> dict[str, Any] | None:
    """The search options of `argv` (after `search`), or None when click must parse them."""
    from memkit.fields import STATUSES, TYPES

    opts: dict[str, Any] = {"words": [], "limit": 10, "types": [], "tags": [], "status": []}
    opts.update(dict.fromkeys(_FLAGS.values(), False))
    args = iter(argv)
    for arg in args:
        if arg == "--":
            opts["words"].extend(args)
            break
        if not arg.startswith("-") or arg == "-":
            opts["words"].append(arg)
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _FLAGS and not eq:
            opts[_FLAGS[name]] = True
            continue
        if name not in _VALUED:
            return None
        given = value if eq else next(args, None)
        if given is None:
            return None
        value = given
        key = _VALUED[name]
        if key == "limit":
            if not value.isascii() or not value.isdigit() or int(value) < 1:
                return None
            opts["limit"] = int(value)
        elif (key == "types" and value not in TYPES) or (
            key == "status" and value not in (*STATUSES, "expired")
        ):
            return None
        else:
            opts[key].append(value)
    if not opts["words"] or os.environ.get("MEMKIT_ROOT"):
        return None
    return opts


def search(argv: list[str]) -> int | None:
    """Run `memkit search` on `argv`; its exit code, or None to leave it to click."""
    opts = parse(argv)
    if opts is None:
        return None
    try:
        run(opts, _echo)
        sys.stdout.flush()
    except (Exception, KeyboardInterrupt) as e:
        return report(e)
    return 0


def run(opts: dict[str, Any], echo: Callable[..., None], store: Store | None = None) -> None:
    """Search `store` (default: the one around the current folder); print with `echo`."""
    from memkit.clock import today
    from memkit.search import search as find
    from memkit.search import staleness_checker
    from memkit.store import Store, find_root

    store = store or Store(find_root())
    embedder = None
    if opts["semantic"]:
        from memkit.search.embed import default_embedder

        embedder = default_embedder()
    day = today()
    hits = find(
        store,
        " ".join(opts["words"]),
        today=day,
        limit=opts["limit"],
        types=opts["types"],
        tags=opts["tags"],
        status=opts["status"],
        include_all=opts["include_all"],
        statuses=staleness_checker(store, today=day),
        semantic=embedder,
    )
    show(hits, opts["as_json"], echo)
    notes(echo)


def notes(echo: Callable[..., None]) -> None:
    """Print what the search index had to say (a damaged index rebuilt), once."""
    index = sys.modules.get("memkit.search.index")
    if index is not None:
        from memkit.controls import printable

        for message in index.NOTES:
            echo(printable(f"memkit: note: {message}"), err=True)
        index.NOTES.clear()


def show(hits: list[Hit], as_json: bool, echo: Callable[..., None]) -> None:
    """What `memkit search` prints: a JSON array, or the hits' lines (docs/search.md)."""
    from memkit.controls import CONTROL, printable

    if as_json:
        import json

        text = json.dumps([h.to_record() for h in hits], indent=2, ensure_ascii=False)
        echo(CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text))
        return
    if not hits:
        echo("no memories match", err=True)
    for h in hits:
        mark = "" if h.state in ("active", "fresh") else f" [{h.state}]"
        echo(printable(f"{h.id}  {h.score:.2f}  {h.type}{mark}  {h.title}"))
        if h.stale is not None:
            echo(printable(f"    stale: {h.stale or 'the code it describes changed'}"))
        if h.snippet:
            echo(printable(f"    {h.snippet}"))


def _echo(text: str, err: bool = False) -> None:
    print(text, file=sys.stderr if err else sys.stdout)
