"""What a commit is checked for: the pre-commit hook's checks, and those the pre-commit
framework's hooks run one at a time (`memkit hooks run HOOK`).

`run_hook(store, hook, staged, ...)` validates the staged memories, regenerates the
compiled files when the commit needs it, and reports the memories whose linked code
the commit changes (memkit.githooks.affected); `[hooks] strict` (or `strict=True`)
stops the commit when one of them is stale. It returns an Outcome: the lines to print
and whether the commit must stop. Each check asks its record first (memkit.hookvalid,
memkit.compile.current, the derived index memkit.githooks.index) and opens the store
only when that does not answer. The staged names come from the caller, and so do the
memory files' stamps when it has them (the fast path does): the checks run no second
`git diff`, and list the memory files' stamps at most once.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass

from memkit.cachedir import cache_dir
from memkit.capped import capped
from memkit.githooks.affected import affected_memories, describe
from memkit.githooks.index import Opener, Stamps, is_output, memory_stamps, read_index, relevant
from memkit.walk import MEMORY_DIR

TYPE_CHECKING = False  # the git hook imports this module: not even `typing`
if TYPE_CHECKING:
    from collections.abc import Callable

    from memkit.errors import InvalidMemoryError
    from memkit.memory import Memory
    from memkit.store import Store


@dataclass(frozen=True)
class Outcome:
    """What a hook found: `out` (a report, for stdout) then `err` (the verdict, for stderr),
    printed in that order; `stop` when the commit must not go ahead (exit code 1)."""

    out: tuple[str, ...] = ()
    err: tuple[str, ...] = ()
    stop: bool = False


def run_hook(
    store: Store | None,
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
    decides the Outcome. Each asks its record first and loads the store only when that
    does not answer: a commit of memory files the hook validated with these bytes
    (`known_valid`), the compiled files current (memkit.compile.current) and no linked
    file staged loads nothing (the commit after the hook regenerated the files).

    `store`: the store, or None for `opener` (the fast path's memkit.githooks.index.Opener)
    to open it when a check needs it; the derived index is then read once for every check.
    `stamps` are the memory files' stamps (memkit.githooks.index.memory_stamps), read
    here (once) when not given.
    """
    opener = opener or _opener(store)
    root = opener.root
    memory = os.path.join(root, MEMORY_DIR)
    if store is not None or os.path.islink(memory) or not os.path.isdir(memory):
        opener().require()  # the store says what is wrong, or whether a link may be read
    opener.today(today.isoformat())
    stamps = memory_stamps(root) if stamps is None else stamps
    if hook == "pre-merge-commit":
        return merge_commit(opener(), staged, today=today, stamps=stamps, opener=opener)
    if hook in ("pre-commit", "validate"):
        if hook == "validate":
            from memkit.validation import validate

            problems = validate(opener())
        elif known_valid(staged, stamps, opener):
            problems = []
        else:
            problems = invalid_memories(opener(), staged, stamps, key=opener.key)
        if problems:
            files = len({p.path for p in problems})
            summary = f"memkit: {len(problems)} problem(s) in {files} file(s)"
            return Outcome(tuple(str(p) for p in problems), (summary,), stop=True)
    if hook in ("compile", "pre-commit") and compile_needed(root, staged, stamps, opener):
        changed = recompile(opener, today=today)
        if changed:
            shown = capped(changed, see="`git status`")
            review = "review the changes, `git add` them and commit again"
            return Outcome(err=(f"memkit: regenerated {shown} from .memory/; {review}",), stop=True)
    if hook in ("pre-commit", "stale"):
        affected = affected_memories(staged, stamps, opener)
        report = tuple(describe(affected))
        if any(a.stale for a in affected) and (strict or strict_config(opener())):
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
    if not compile_needed(str(store.root), staged, stamps, opener):
        return Outcome()
    changed = recompile(opener, today=today)
    if not changed:
        return Outcome()
    run_git(store.root, "add", "--", *changed)
    shown = capped(changed, see="`git status`")
    done = f"memkit: regenerated {shown} for this merge and staged it; `git commit` completes it"
    return Outcome(err=(done,), stop=True)


def known_valid(names: list[str], stamps: Stamps, opener: Opener) -> bool:
    """Whether the staged memory files need no validation: there are none, or each is one
    the hook found valid with these very bytes under this run's key (memkit.hookvalid),
    no other memory file has its name (ids are file names), nothing else under .memory/
    is staged (no config, template or deletion) and .memory/ is a folder, not a link.
    Reads the record only: False whenever that does not tell."""
    touched = [n for n in names if n.startswith(MEMORY_DIR + "/")]
    if not touched:
        return True
    if any(n not in stamps for n in touched):
        return False
    mine = {n.rsplit("/", 1)[-1] for n in touched}
    if sum(rel.rsplit("/", 1)[-1] in mine for rel in stamps) != len(mine):
        return False  # a file name two memory files share: the store's load decides
    if os.path.islink(os.path.join(opener.root, MEMORY_DIR)):
        return False  # the store's load judges where a link leads
    from memkit import hookvalid

    sizes = {rel: stamps[rel][0] for rel in touched}
    return len(hookvalid.known(opener.root, touched, sizes, opener.key)) == len(touched)


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


def compile_needed(root: str, names: list[str], stamps: Stamps, opener: Opener) -> bool:
    """Whether the commit changes memories, memkit's config or templates, a compiled file,
    or a file a memory links to (the compiled files mark a memory whose code changed as
    possibly out of date, so `memkit compile --check` after the commit agrees)."""
    if any(n.startswith(MEMORY_DIR + "/") for n in names):
        return True
    links, outputs = read_index(root, stamps, opener)
    return any(is_output(n, outputs) for n in names) or bool(relevant(names, links))


def recompile(store: Store | Opener, *, today: dt.date) -> list[str]:
    """Regenerate the compiled files as `memkit compile` does; the paths it rewrote.

    Nothing to do when the last compile that changed nothing recorded the same inputs
    (memkit.compile.current): a commit of linked code alone then compiles nothing, and
    the store is opened only when the record holds staleness warnings to compare.
    `store`: the store, or the hook run's index.Opener (its key is worked out once for
    every check).
    """
    from memkit.compile.current import is_current

    opener = store if isinstance(store, Opener) else _opener(store)
    opener.today(today.isoformat())

    def stale() -> dict[str, str] | None:
        from memkit.compile.plan import statuses_now

        return statuses_now(opener(), today=today)

    real = os.path.realpath(opener.root)
    said = is_current(
        real, cache_dir(real), today, stale, key=opener.key() or None, tree=opener.tree
    )
    if said is not None:
        return []
    from memkit.compile.plan import apply, plan

    store = opener()
    with store.lock():
        made = plan(store, today=today)
        done = apply(made)
    if made.refused:  # the other outputs are written; the commit still stops here
        from memkit.errors import UnsafePathError

        raise UnsafePathError("; ".join(made.refused))
    return done


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


def _opener(store: Store | None) -> Opener:
    """An index.Opener holding `store` (the checks' way to it when none is given)."""
    assert store is not None, "run_hook needs a store or an opener"
    return Opener(str(store.root), store)
