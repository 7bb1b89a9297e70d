"""`memkit search`, `memkit context --file` and `memkit check` without click.

Importing click and building the command group costs more CPU than a search on a
warm index, or than the few memories `context --file` reads. memkit.cli.main hands
`memkit search ...` and `memkit context ...` here first: when every option is one
these parsers know, written plainly (search: `-n 5`, `--limit=5`, `--type gotcha`,
`--tag x`, `--status s`, `--all`, `--json`, `--semantic`, `--`, at least one word;
context: `--file F` / `-f F` / `--file=F`, `--budget N`, `--format markdown|json`,
`--exclude-always-on`, at least one file), with valid values and no MEMKIT_ROOT, the
command runs and prints exactly what its click command (memkit.commands.search)
prints: both call `run` / `run_context` here. Anything else (help, a bad value, an
unknown option, `--query`, `-word`) returns None and click handles it, error
messages included. `memkit check [--json] [ID]...` likewise (run_check, which its click
command calls too), and `memkit verify` with ids or `--all` and `--follow` (run_verify;
`--commit` goes to click).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memkit.errors import EXIT_FOUND, report

if TYPE_CHECKING:
    from memkit.memory import Memory
    from memkit.search.rank import Hit
    from memkit.staleness.verdict import LinkStatus, MemoryStatus
    from memkit.store import Store

_CONTEXT_FORMATS = ("markdown", "json")

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


def parse_context(argv: list[str]) -> dict[str, Any] | None:
    """The options of `memkit context` in `argv` (after `context`) when they name files
    only, or None when click must parse them."""
    opts: dict[str, Any] = {"files": [], "query": None, "budget": 2000, "fmt": "markdown",
                            "exclude_always_on": False}  # fmt: skip
    args = iter(argv)
    for arg in args:
        if arg == "--exclude-always-on":
            opts["exclude_always_on"] = True
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name not in ("-f", "--file", "--budget", "--format"):
            return None
        given = value if eq else next(args, None)
        if given is None:
            return None
        if name == "--budget":
            if not given.isascii() or not given.isdigit() or int(given) < 1:
                return None
            opts["budget"] = int(given)
        elif name == "--format":
            if given not in _CONTEXT_FORMATS:
                return None
            opts["fmt"] = given
        else:
            opts["files"].append(given)
    if not opts["files"] or os.environ.get("MEMKIT_ROOT"):
        return None
    return opts


def _ids_and_flags(argv: list[str], flags: dict[str, str]) -> dict[str, Any] | None:
    """Ids and the flags named in `flags` (option -> key) in `argv`; None for click when
    another option is given or MEMKIT_ROOT is set."""
    opts: dict[str, Any] = {"ids": [], **dict.fromkeys(flags.values(), False)}
    args = iter(argv)
    for arg in args:
        if arg == "--":
            opts["ids"].extend(args)
        elif arg in flags:
            opts[flags[arg]] = True
        elif arg.startswith("-"):
            return None
        else:
            opts["ids"].append(arg)
    return None if os.environ.get("MEMKIT_ROOT") else opts


def parse_check(argv: list[str]) -> dict[str, Any] | None:
    """The options of `memkit check` in `argv` (ids and `--json`), or None for click."""
    return _ids_and_flags(argv, {"--json": "as_json"})


def parse_verify(argv: list[str]) -> dict[str, Any] | None:
    """The options of `memkit verify` in `argv` (ids, `--all`, `--follow`), or None for
    click (`--commit`, help, unknown options, and neither ids nor `--all`, or both)."""
    opts = _ids_and_flags(argv, {"--all": "all", "--follow": "follow"})
    return None if opts is None or bool(opts["ids"]) == opts["all"] else opts


def search(argv: list[str]) -> int | None:
    """Run `memkit search` on `argv`; its exit code, or None to leave it to click."""
    return _run(parse(argv), run)


def context(argv: list[str]) -> int | None:
    """Run `memkit context` on `argv`; its exit code, or None to leave it to click."""
    return _run(parse_context(argv), run_context)


def check(argv: list[str]) -> int | None:
    """Run `memkit check` on `argv`; its exit code, or None to leave it to click."""
    return _run(parse_check(argv), run_check)


def verify(argv: list[str]) -> int | None:
    """Run `memkit verify` on `argv`; its exit code, or None to leave it to click."""
    return _run(parse_verify(argv), run_verify)


def _run(opts: dict[str, Any] | None, command: Callable[..., Any]) -> int | None:
    if opts is None:
        return None
    try:
        failed = command(opts, _echo)
        sys.stdout.flush()
    except (Exception, KeyboardInterrupt) as e:
        return report(e)
    return EXIT_FOUND if failed else 0


def run_check(opts: dict[str, Any], echo: Callable[..., None], store: Store | None = None) -> bool:
    """Print the staleness of the memories `opts["ids"]` names (all when none); True when
    one fails the check (`[check] fail_on`)."""
    from memkit.clock import today
    from memkit.staleness import check_store
    from memkit.staleness.verdict import fail_on, fails
    from memkit.store import Store, find_root

    store = store or Store(find_root())
    if opts["ids"]:
        mems = store.get_many(opts["ids"])
        problems = []
    else:  # one load of the store for the check and for the invalid files
        loaded = store.load()
        mems = sorted(loaded.memories, key=lambda m: m.id)
        problems = list(loaded.problems)
    statuses = check_store(store, today=today(), memories=mems)
    problems += invalid_fields(mems)
    failing = fail_on(store.config.section("check"), str(store.config.path or "config.toml"))
    if opts["as_json"]:
        _json([s.to_record() for s in statuses], echo)
    else:
        echo(check_report(statuses))
    if problems:  # each invalid file, one line a problem; the valid ones were checked
        from memkit.controls import printable

        problems.sort(key=lambda p: (p.path, p.line, p.field))
        for p in problems:
            echo(printable(f"memkit: {p}"), err=True)
        files = len({p.path for p in problems})
        echo(f"memkit: {files} invalid memory file(s) (fix them, then `memkit validate`)", err=True)
    return bool(problems) or any(fails(s, failing) for s in statuses)


def invalid_fields(mems: list[Memory]) -> list[Any]:
    """A problem for each front-matter key of `mems` that is no field (a misspelt `tpye`)."""
    from memkit import __version__
    from memkit.memory import unknown_fields

    return [p for m in mems for p in unknown_fields(m, __version__)]


def run_verify(
    opts: dict[str, Any],
    echo: Callable[..., None],
    store: Store | None = None,
    written: Callable[[list[Memory]], None] | None = None,
) -> bool:
    """Verify the memories `opts["ids"]` names (every linked one with `opts["all"]`),
    print each one written and each problem; True when a problem remained. `written`
    is given the memories saved, before the problems are printed (`--commit`)."""
    from memkit.clock import today
    from memkit.controls import printable
    from memkit.staleness import verify_store
    from memkit.store import Store, find_root

    store = store or Store(find_root())
    every = opts["all"]
    done = verify_store(store, None if every else opts["ids"], today=today(), follow=opts["follow"])
    lines = []
    for mem in done.saved:
        commit = mem.verified.commit if mem.verified and mem.verified.commit else None
        lines.append(f"verified {mem.id}" + (f" at {commit[:12]}" if commit else ""))
    for mem in () if every else done.unchanged:
        lines.append(f"{mem.id}: fingerprints unchanged, file left as it is")
    if lines:
        echo("\n".join(lines))
    if written is not None and done.saved:
        written(list(done.saved))
    for problem in done.problems:
        echo(printable(f"memkit: {problem}"), err=True)
    links = sum(1 for p in done.problems if not p.unreadable)
    counts = [f"{links} link(s) could not be verified"] if links else []
    if unread := len({p.id for p in done.problems if p.unreadable}):
        counts.append(f"{unread} invalid memory file(s) (see `memkit validate`)")
    if counts:
        echo(f"memkit: {'; '.join(counts)}", err=True)
    return bool(counts)


def check_report(statuses: list[MemoryStatus]) -> str:
    """Each memory that needs attention with its links, then a summary line.

    A draft (or proposed revision, or archived memory) is marked as such: it never fails.
    """
    from memkit.staleness.verdict import MEMORY_STATES

    lines: list[str] = []
    for status in statuses:
        if status.state == "fresh":
            continue
        note = "" if status.active else " (draft: does not fail the check)"
        lines.append(f"{status.id}: {status.state}{note}")
        lines.extend(
            f"  {_link_line(status.id, link)}" for link in status.links if link.state != "unchanged"
        )
    counts = {s: sum(1 for x in statuses if x.state == s) for s in MEMORY_STATES}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    lines.append(f"{len(statuses)} memories checked: {summary or 'none'}")
    return "\n".join(lines)


def _link_line(mid: str, link: LinkStatus) -> str:
    from memkit.staleness.verdict import advice

    how = link.how()
    if link.state == "unverified":
        return f"{link.link}: never fingerprinted (run `memkit verify {mid}`)"
    since = f" since {link.since[:12]}" if link.since else ""
    why = f": {link.reason}" if link.reason else ""
    fix = f" (`{advice(mid, [link])}`)" if link.state in ("removed", "unreadable") else ""
    return f"{link.link}: {how}{since}{why}{fix}"


def skipped_files(problems: Any) -> str:
    """The warning for invalid memory files a command left out: counted by file, named."""
    files = sorted({p.path for p in problems})
    from memkit.capped import capped

    shown = capped(files)
    return f"skipped {len(files)} invalid memory file(s): {shown}; run `memkit validate`"


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


def run_context(
    opts: dict[str, Any], echo: Callable[..., None], store: Store | None = None
) -> None:
    """Print the context for `opts` (files, query, budget, fmt, exclude_always_on)."""
    from memkit.clock import today
    from memkit.errors import MemkitError
    from memkit.search import staleness_checker
    from memkit.search.context import build_context
    from memkit.store import Store, find_root

    files, query = tuple(opts["files"]), opts["query"]
    if not files and not query:
        raise MemkitError("give at least one --file or a --query")
    store = store or Store(find_root())
    day = today()
    statuses = staleness_checker(store, today=day)
    common = {"budget_tokens": opts["budget"], "today": day, "statuses": statuses,
              "exclude_always_on": opts["exclude_always_on"]}  # fmt: skip
    got = None
    if not query:  # files only: the point-of-action index names the few memories to read
        from memkit.agents.filecontext import context_for_files

        got = context_for_files(store, files, **common)
    if got is None:
        got = build_context(store, files=files, query=query, **common)
    notes(echo)
    if opts["fmt"] == "json":
        _json(got.to_record(), echo)
    else:
        from memkit.controls import printable

        echo(printable(got.to_markdown()), nl=False)


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
    from memkit.controls import printable

    if as_json:
        _json([h.to_record() for h in hits], echo)
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


def _json(data: Any, echo: Callable[..., None]) -> None:
    """Exact JSON; the controls json.dumps leaves raw (C1, DEL, bidi) written as \\u escapes."""
    import json

    from memkit.controls import CONTROL

    text = json.dumps(data, indent=2, ensure_ascii=False)
    echo(CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def _echo(text: str, err: bool = False, nl: bool = True) -> None:
    print(text, file=sys.stderr if err else sys.stdout, end="\n" if nl else "")
