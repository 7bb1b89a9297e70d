"""What a commit is checked for: the pre-commit hook's checks, and those the pre-commit
framework's hooks run one at a time (`memkit hooks run HOOK`).

`run_hook(store, hook, staged, ...)` validates the staged memories, regenerates the
compiled files when the commit needs it, and lists the memories whose linked code
the commit changes; `[hooks] strict` (or `strict=True`) stops the commit when one of
them is stale. It returns an Outcome: the lines to print and whether the commit must
stop. The staged names come from the caller, and so do the memory files' stamps when
it has them (the fast path does): the checks run no second `git diff`, and list the
memory files' stamps at most once.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memkit.capped import capped
from memkit.githooks.index import Opener, Stamps, is_output, memory_stamps, read_index, relevant
from memkit.walk import MEMORY_DIR

if TYPE_CHECKING:
    from collections.abc import Callable

    from memkit.errors import InvalidMemoryError
    from memkit.memory import Memory
    from memkit.staleness.verdict import LinkStatus
    from memkit.store import Store

HOW = {
    "docs": "docstring or comments changed",
    "body": "body changed",
    "signature": "signature changed",
    "changed": "file changed",
    "value": "value changed",
    "version": "major version changed",
    "added": "now a dependency",
    "removed": "removed",
    "unverified": "changed (the memory was never verified)",
}


@dataclass(frozen=True)
class Outcome:
    """What a hook found: `out` (a report, for stdout) then `err` (the verdict, for stderr),
    printed in that order; `stop` when the commit must not go ahead (exit code 1)."""

    out: tuple[str, ...] = ()
    err: tuple[str, ...] = ()
    stop: bool = False


@dataclass(frozen=True)
class Affected:
    """A memory whose linked code the commit changes, and how each link changed."""

    id: str
    title: str
    path: str
    links: tuple[LinkStatus, ...]

    @property
    def stale(self) -> bool:
        return any(link.stale for link in self.links)


def run_hook(
    store: Store,
    hook: str,
    staged: list[str],
    *,
    today: dt.date,
    strict: bool = False,
    stamps: Stamps | None = None,
    opener: Opener | None = None,
) -> Outcome:
    """Run one hook's checks (memkit.githooks.HOOKS) on the `staged` names.

    They run in order (validate, compile, stale) and the first that stops the commit
    decides the Outcome.

    `stamps` are the memory files' stamps (memkit.githooks.index.memory_stamps), read
    here (once) when not given. `opener` is the fast path's (memkit.githooks.index.Opener,
    holding `store`): the derived index is then read once for every check.
    """
    from memkit.validation import validate

    store.require()
    opener = opener or Opener(str(store.root), store)
    opener.today(today.isoformat())
    stamps = memory_stamps(str(store.root)) if stamps is None else stamps
    if hook == "pre-merge-commit":
        return merge_commit(store, staged, today=today, stamps=stamps, opener=opener)
    if hook in ("pre-commit", "validate"):
        if hook == "validate":
            problems = validate(store)
        else:
            problems = invalid_memories(store, staged, stamps, key=opener.key)
        if problems:
            files = len({p.path for p in problems})
            summary = f"memkit: {len(problems)} problem(s) in {files} file(s)"
            return Outcome(tuple(str(p) for p in problems), (summary,), stop=True)
    if hook in ("compile", "pre-commit") and compile_needed(store, staged, stamps, opener):
        changed = recompile(store, today=today, key=opener.key)
        if changed:
            shown = capped(changed, see="`git status`")
            review = "review the changes, `git add` them and commit again"
            return Outcome(err=(f"memkit: regenerated {shown} from .memory/; {review}",), stop=True)
    if hook in ("pre-commit", "stale"):
        affected = affected_memories(store, staged, stamps, opener)
        report = tuple(describe(affected))
        if any(a.stale for a in affected) and (strict or strict_config(store)):
            stopped = "memkit: commit stopped (--strict): verify or edit these memories"
            return Outcome(report, (stopped,), stop=True)
        return Outcome(report)
    return Outcome()


def merge_commit(
    store: Store, staged: list[str], *, today: dt.date, stamps: Stamps, opener: Opener
) -> Outcome:
    """What pre-merge-commit does on a merge git completes by itself: the merged memories
    must be valid, and the compiled files current. When they are not, they are
    regenerated and staged, and the merge stops before committing (git computed the
    merge commit's tree before this hook ran): `git commit` completes it, current."""
    from memkit.githooks.install import run_git

    problems = invalid_memories(store, staged, stamps)
    if problems:
        stop = "memkit: the merged memories are invalid: fix them, `git add` and `git commit`"
        return Outcome(tuple(str(p) for p in problems), (stop,), stop=True)
    if not compile_needed(store, staged, stamps, opener):
        return Outcome()
    changed = recompile(store, today=today)
    if not changed:
        return Outcome()
    run_git(store.root, "add", "--", *changed)
    shown = capped(changed, see="`git status`")
    done = f"memkit: regenerated {shown} for this merge and staged it; `git commit` completes it"
    return Outcome(err=(done,), stop=True)


def invalid_memories(
    store: Store,
    names: list[str],
    stamps: Stamps | None = None,
    *,
    key: Callable[[], str] | None = None,
) -> list[InvalidMemoryError]:
    """The problems the commit brings into the store, proportional to what it stages.

    Only the staged memory files are checked, plus the store-wide rules they can break:
    duplicate ids and `supersedes` references. When neither can apply (no other memory
    file has the same name, the staged memories refer to no other) the staged files are
    read alone (validation.validate_files), else through the store's load. A staged
    config or template is loaded; a staged deletion checks the whole store.

    With `key` (index.Opener.key: memkit.compile.current.static_key for today), the files
    read alone and found valid are remembered by their bytes (memkit.hookvalid):
    the next commit of the same files needs no validation.
    """
    from memkit.validation import validate

    touched = [n for n in names if n.startswith(MEMORY_DIR + "/")]
    if not touched:
        return []
    from memkit.walk import shown, undecodable

    # A name not UTF-8: no record or index can hold it, and the store's load never sees
    # it (memkit.walk leaves it out of every listing): named, not read.
    if any(undecodable(n) for n in touched):
        from memkit.errors import InvalidMemoryError
        from memkit.store.loading import NAME_PROBLEM

        bad = [
            InvalidMemoryError(shown(n), 1, "file", NAME_PROBLEM) for n in touched if undecodable(n)
        ]
        rest = [n for n in names if not undecodable(n)]
        return bad + invalid_memories(store, rest, stamps, key=key)
    if stamps is None:
        stamps = memory_stamps(str(store.root))
    if any(n.endswith(".md") and not (store.root / n).exists() for n in touched):
        return validate(store)  # a memory was deleted: references to it may dangle
    if any(n not in stamps for n in touched):
        store.config.section("compile")  # a ConfigError names the file and the fix
    staged = {n for n in touched if n in stamps}
    from memkit.validation import validate_files

    clean: dict[str, tuple[bytes, Memory]] = {}
    lean = validate_files(store, staged, stamps, clean)  # the staged files alone, if that tells
    if lean is None:
        return validate(store, only=staged)
    day_key = key() if clean and key is not None else ""
    if day_key:
        from memkit.validation import remember_valid

        remember_valid(str(store.root), day_key, clean, stamps)
    return lean


def compile_needed(store: Store, names: list[str], stamps: Stamps, opener: Opener) -> bool:
    """Whether the commit changes memories, memkit's config or templates, a compiled file,
    or a file a memory links to (the compiled files mark a memory whose code changed as
    possibly out of date, so `memkit compile --check` after the commit agrees)."""
    if any(n.startswith(MEMORY_DIR + "/") for n in names):
        return True
    links, outputs = read_index(str(store.root), stamps, opener)
    return any(is_output(n, outputs) for n in names) or bool(relevant(names, links))


def recompile(store: Store, *, today: dt.date, key: Callable[[], str] | None = None) -> list[str]:
    """Regenerate the compiled files as `memkit compile` does; the paths it rewrote.

    Nothing to do when the last compile that changed nothing recorded the same inputs
    (memkit.compile.current): a commit of linked code alone then compiles nothing.
    `key`: the hook run's index.Opener.key, worked out once for every check.
    """
    from memkit.compile.current import is_current

    def stale() -> dict[str, str] | None:
        from memkit.compile.plan import statuses_now

        return statuses_now(store, today=today)

    known = key() if key is not None else None
    root, cache = str(store.root), str(store.cache_dir)
    if is_current(root, cache, today, stale, key=known or None) is not None:
        return []
    from memkit.compile.plan import apply, plan

    with store.lock():
        made = plan(store, today=today)
        done = apply(made)
    if made.refused:  # the other outputs are written; the commit still stops here
        from memkit.errors import UnsafePathError

        raise UnsafePathError("; ".join(made.refused))
    return done


def _staged_statuses(store: Store, touched: set[str]) -> list[tuple[str, LinkStatus]]:
    """check_staged, or its equivalent when git committed from a temporary index.

    `git commit -a` and `git commit FILE` stage into a temporary index file (named by
    GIT_INDEX_FILE in the hook's environment) that libgit2 does not read. Both commit
    the work tree's version of the staged files, so then the work tree is compared with
    HEAD, keeping only the links in files this commit stages.
    """
    from memkit.staleness import check_range, check_staged

    index = os.environ.get("GIT_INDEX_FILE")
    if not index or os.path.basename(index) == "index":
        return check_staged(store)
    return [
        (status.id, link)
        for status in check_range(store, "HEAD", None)
        for link in status.links
        if relevant(sorted(touched), [link.link.partition("::")[0]])
    ]


def affected_memories(
    store: Store, names: list[str], stamps: Stamps, opener: Opener
) -> list[Affected]:
    """Memories whose linked files or symbols the staged changes touch (HEAD -> index).

    `names` are the staged paths: when none is a linked file (the derived index says
    so), the staleness engine is not even loaded.
    """
    links, _ = read_index(str(store.root), stamps, opener)
    touched = relevant(names, links)
    if not [n for n in touched if not n.startswith(MEMORY_DIR + "/")]:
        return []
    by_id: dict[str, list[LinkStatus]] = {}
    for mid, status in _staged_statuses(store, set(touched)):
        if status.state != "unchanged":
            by_id.setdefault(mid, []).append(status)
    out = []
    for mid in sorted(by_id):
        mem = store.get(mid)
        links_of = tuple(sorted(by_id[mid], key=lambda s: s.link))
        out.append(Affected(mid, mem.title, mem.path, links_of))
    return out


def strict_config(store: Store) -> bool:
    """`[hooks] strict = true` in .memory/config.toml (or MEMKIT_HOOKS_STRICT=true)."""
    from memkit.errors import ConfigError

    value = store.config.section("hooks").get("strict", False)
    if not isinstance(value, bool):
        raise ConfigError(
            f"{store.config.path or '.memory/config.toml'}: [hooks] strict must be true or "
            f"false, not {value!r}"
        )
    return value


def describe(affected: list[Affected]) -> list[str]:
    """The report on the memories a commit affects: how each link changed, what to do."""
    from memkit.staleness.verdict import advice

    if not affected:
        return []
    n = len(affected)
    what = "1 memory describes" if n == 1 else f"{n} memories describe"
    lines = [f"memkit: this commit changes code that {what}:"]
    for a in affected:
        lines.append(f"  {a.id}: {a.title} ({a.path})")
        for link in a.links:
            how = f"moved to {link.moved_to}" if link.moved_to else HOW.get(link.state, link.state)
            lines.append(f"    {link.link}: {how}")
        fix = advice(a.id, a.links)
        lines.append(f"    -> still true? `{fix}`; if not, `memkit edit {a.id}`")
    return lines
