"""The CI gate, `memkit ci --base REF`: fail for what a change caused, summarise the rest.

`gate(store, base, today=...)` compares the work tree (in CI: the pull request's
checkout) with the merge base of `base` and HEAD, and returns a Verdict:

- failures (exit 1), one line each with the command that fixes it: memory files the
  change touched that are invalid or hold a likely secret; memories the change made
  stale (it changed their linked code without re-verifying or editing them) or
  touched while they fail the policy; compiled files out of date because of the
  change;
- notes (never failing): everything else that needs a person some day, such as
  expired and review-due memories, drafts, memories already stale before the
  change, invalid files it did not touch, compiled files the base branch had left
  out of date.

What fails is decided by memkit.staleness.verdict (FAILING_STATES, `[check] fail_on`).
A compiled file that differs from what `memkit compile` gives is the change's fault
unless the same difference was already there on the base: the base is compiled in a
temporary worktree and its drift (base as committed -> base as compiled today) is
replayed onto the change's file with `git merge-file`; if that gives exactly what
compiling the change gives, the drift came from the base (an expiry date passing, code
changed without memkit's hook), and it is a note.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memkit.capped import capped
from memkit.errors import MemkitError
from memkit.githooks.install import run_git, toplevel
from memkit.githooks.mergedriver import merge3
from memkit.walk import MEMORY_DIR

if TYPE_CHECKING:
    from memkit.store import Store


@dataclass(frozen=True)
class Verdict:
    """What the gate found: `failures` fail the job (exit 1), `notes` only report."""

    base: str  # the merge base compared with
    failures: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures


def gate(store: Store, base: str, *, today: dt.date) -> Verdict:
    """Judge the change from the merge base of `base` and HEAD to the work tree."""
    from memkit.staleness.verdict import fail_on

    store.require()
    mbase = merge_base(store.root, base)
    changed = changed_paths(store.root, mbase)
    failing = fail_on(store.config.section("check"), str(store.config.path or "config.toml"))
    failures: list[str] = []
    notes: list[str] = []
    _invalid(store, changed, failures, notes)
    _staleness(store, mbase, changed, failing, today, failures, notes)
    _compiled(store, mbase, today, failures, notes)
    return Verdict(mbase, tuple(failures), tuple(notes))


def merge_base(root: Path, base: str) -> str:
    """The commit where HEAD's branch left `base`; a clear error when git cannot tell,
    saying which history to fetch when this is a shallow clone."""
    shallow = run_git(root, "rev-parse", "--is-shallow-repository") == "true"
    try:
        run_git(root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}")
    except MemkitError:
        if shallow:
            raise MemkitError(
                f"--base {base!r} names no commit in this shallow clone; memkit ci needs it "
                f"and the history back to where HEAD left it: {_fetch_base(root, base)}"
            ) from None
        raise MemkitError(
            f"--base {base!r} names no commit here; fetch it first (in GitHub Actions: "
            "actions/checkout with fetch-depth: 0, and --base origin/$GITHUB_BASE_REF)"
        ) from None
    try:
        return run_git(root, "merge-base", base, "HEAD")
    except MemkitError:
        if shallow:
            raise MemkitError(
                f"{base} and HEAD share no commit in this shallow clone; memkit ci needs the "
                f"history back to where HEAD left {base}: {_fetch_base(root, base)}"
            ) from None
        raise MemkitError(
            f"{base} and HEAD share no history; name the branch this change goes into "
            "(--base origin/$GITHUB_BASE_REF)"
        ) from None


def _fetch_base(root: Path, base: str) -> str:
    """The command that fetches `base` with the whole history, for a shallow clone."""
    remote, _, branch = base.removeprefix("refs/remotes/").partition("/")
    remotes = run_git(root, "remote").split()
    fetch = (
        f"`git fetch --unshallow {remote} {branch}:refs/remotes/{remote}/{branch}`"
        if branch and remote in remotes
        else "`git fetch --unshallow`"
    )
    return (
        f"fetch it with {fetch} and run `memkit ci` again (in GitHub Actions: "
        "actions/checkout with fetch-depth: 0, as docs/github-actions.md shows)"
    )


def changed_paths(root: Path, commit: str) -> frozenset[str]:
    """Paths (relative to `root`) that differ between `commit` and the work tree."""
    out = run_git(root, "diff", "--name-only", "-z", "--no-renames", "--relative", commit)
    untracked = run_git(root, "ls-files", "--others", "--exclude-standard", "-z")
    return frozenset(n for n in (out + "\0" + untracked).split("\0") if n)


def _invalid(store: Store, changed: frozenset[str], failures: list[str], notes: list[str]) -> None:
    from memkit.validation import validate
    from memkit.walk import shown

    problems = validate(store)
    changed = changed | {shown(n) for n in changed}  # a name not UTF-8 is reported shown
    mine = [p for p in problems if p.path in changed]
    failures.extend(f"{p} (this change)" for p in mine)
    others = sorted({p.path for p in problems if p.path not in changed})
    if others:
        notes.append(
            f"{len(others)} invalid memory file(s) this change did not touch: "
            f"{capped(others)} (`memkit validate` shows why)"
        )


def _staleness(
    store: Store,
    mbase: str,
    changed: frozenset[str],
    failing: frozenset[str],
    today: dt.date,
    failures: list[str],
    notes: list[str],
) -> None:
    from memkit.staleness import check_range, check_store
    from memkit.staleness.verdict import advice, fails

    statuses = {s.id: s for s in check_store(store, today=today)}
    paths = {m.id: m.path for m in store.memories()}
    ranged = check_range(store, mbase, None)
    caused = {s.id for s in ranged if s.id in statuses and s.stale}
    for mid in sorted(caused):
        status = statuses[mid]
        if status.active and status.state == "stale":
            links = status.describe() or "its linked code"
            failures.append(
                f"{paths[mid]}: {mid} is stale: this change altered "
                f"{links}; check the memory, then `{advice(mid, status.links)}` "
                f"(or `memkit edit {mid}`) and commit"
            )
    rest: dict[str, list[str]] = {}
    for mid, status in sorted(statuses.items()):
        if mid in caused and status.active and status.state == "stale":
            continue
        if paths.get(mid) in changed and fails(status, failing):
            stale = status.state in ("stale", "unverified")
            fix = advice(mid, status.links) if stale else f"memkit edit {mid}"
            failures.append(
                f"{paths[mid]}: {mid} is {status.state} and this change touches it; "
                f"`{fix}` and commit"
            )
        elif status.state != "fresh":
            key = status.state if status.active else f"{status.state} (draft)"
            rest.setdefault(key, []).append(mid)
    for key, ids in sorted(rest.items()):
        notes.append(f"{len(ids)} {key}: {capped(ids)} (not caused by this change)")
    blind = sorted(
        {
            (f"{s.id} {x.link}", x.reason)
            for s in [*statuses.values(), *ranged]
            for x in s.links
            if x.state == "unverified" and x.reason
        }
    )
    if blind:
        notes.append(
            f"{len(blind)} link(s) this clone lacks the history to judge: "
            f"{capped([b[0] for b in blind])} (the first: {blind[0][1]})"
        )


def _compiled(
    store: Store, mbase: str, today: dt.date, failures: list[str], notes: list[str]
) -> None:
    from memkit.compile.plan import plan

    changes = plan(store, today=today).changes
    if not changes:
        return
    expected_base = _base_outputs(store, mbase, today, [c.path for c in changes])
    mine, drifted = [], []
    for c in changes:
        committed = _show(store.root, mbase, c.path)
        compiled = expected_base.get(c.path, committed)
        if committed != compiled and _replay(committed, c.old, compiled) == c.new:
            drifted.append(c.path)
        else:
            mine.append(c.path)
    if mine:
        failures.append(
            f"compiled files out of date for this change: {capped(mine)}; run `memkit compile` "
            "and commit the result (after merging the base branch too: it settles conflicts "
            "in compiled files); `memkit hooks install` does it at every commit"
        )
    if drifted:
        notes.append(
            f"compiled files already out of date on the base branch: {capped(drifted)}; "
            "run `memkit compile` on the default branch and commit"
        )


def _base_outputs(
    store: Store, mbase: str, today: dt.date, paths: list[str]
) -> Mapping[str, bytes | None]:
    """What `memkit compile` gives today for the merge base, compiled in a temporary worktree."""
    from memkit.compile.plan import plan
    from memkit.store import Store as StoreClass

    top = toplevel(store.root)
    sub = os.path.relpath(store.root.resolve(), top)
    with tempfile.TemporaryDirectory(prefix="memkit-ci-") as tmp:
        tree = Path(tmp) / "base"
        run_git(top, "worktree", "add", "--detach", "--quiet", str(tree), mbase)
        try:
            root = tree / sub if sub != "." else tree
            if not (root / MEMORY_DIR).is_dir():
                return {p: None for p in paths}
            files = {f.path: f.new for f in plan(StoreClass(root), today=today).files}
            return {p: files.get(p, _show(store.root, mbase, p)) for p in paths}
        finally:
            run_git(top, "worktree", "remove", "--force", str(tree))


def _show(root: Path, commit: str, path: str) -> bytes | None:
    """The bytes of `path` (relative to `root`) at `commit`; None when it has none."""
    done = subprocess.run(
        ["git", "show", f"{commit}:./{path}"], cwd=root, capture_output=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def _replay(base: bytes | None, ours: bytes | None, theirs: bytes | None) -> bytes | None:
    """`ours` with the change base -> theirs applied (git merge-file); None on a conflict."""
    if base is None or ours is None or theirs is None:
        return None
    done = merge3(ours, base, theirs)
    return done.stdout if done.returncode == 0 else None


def format_verdict(v: Verdict, base: str) -> list[str]:
    """The gate's report: failures, then the summary, then the one-line verdict."""
    lines = [f"memkit ci: FAIL {f}" for f in v.failures]
    lines += [f"memkit ci: note: {n}" for n in v.notes]
    if v.ok:
        lines.append(f"memkit ci: ok: nothing this change made (since {base}, {v.base[:12]})")
    else:
        n = len(v.failures)
        since = f"since {base}, {v.base[:12]}"
        lines.append(f"memkit ci: {n} problem(s) caused by this change ({since})")
    return lines
