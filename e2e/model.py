"""What memkit's own model says an agent reads (`memkit compile --explain AGENT`), per scenario.

The runner compares it with what reached the model: a file the agent sent that memkit
did not expect, or a file memkit expected that the agent never sent, is a disagreement
to fix in memkit/compile/readers.py or in the agent table of docs/compile.md.

`--explain` says when each file is read: "always"; "when working on GLOB" (after a
read of a file GLOB matches); "when started in the repository root"; "when started in
DIR" (that folder only); "when started in DIR or below"; "... or after reading a file
under it". The scenarios start at the root (`root`, `read`) or in SUBFOLDER (`sub`).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

from scratch import READ, SUBFOLDER

FILE_LINE = re.compile(r"^  (\S+) \(([^;]+);")
FATE_LINE = re.compile(r"^  (\S+)  +(.+)$")  # after "N memory(ies) compiled:"
FULL_IN = re.compile(r"in full in ([^;]+?)(?: \(twice\))?(?:;|$)")
SHORT_IN = re.compile(r"title only in ([^;]+?) \(over budget\)")
GLOBS = "when working on "
STARTED = re.compile(r"when started in (.+?)( or below)?(, or after reading a file under it)?$")
ROOT = "when started in the repository root"
HOOK_FULL = "in full by the SessionStart hook"  # memkit's hook, run for a start at the root
HOOK_DESC = "by its description from the SessionStart hook"
IMPORTS = "always, importing AGENTS.md"
IMPORTED = "imported by "


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + "/")


def applies(
    when: str, scenario: str, reads: tuple[str, ...] = (READ,), subfolder: str = SUBFOLDER
) -> bool:
    """Whether a file `--explain` says is read `when` reaches the model in `scenario`,
    where the read scenario opens `reads` and the subfolder one starts in `subfolder`."""
    read, sub = scenario == "read", scenario == "sub"
    if when == "always":
        return True
    if when.startswith(IMPORTS):  # Claude Code leaves the import unread started below
        return not (sub and when.endswith(ROOT))
    if when == ROOT or when.startswith(IMPORTED):
        return not sub
    if when.startswith(GLOBS):
        globs = [g.strip() for g in when[len(GLOBS) :].split(",")]
        return read and any(_match(g, path) for g in globs for path in reads)
    m = STARTED.fullmatch(when)
    if not m:
        return False  # on demand: by description or by name
    folder, below, after_read = m.group(1), bool(m.group(2)), bool(m.group(3))
    started = sub and (_under(subfolder, folder) if below else folder == subfolder)
    return started or (after_read and read and any(_under(path, folder) for path in reads))


def _match(glob: str, path: str) -> bool:
    try:
        from memkit.globs import match
    except ImportError:  # memkit's CLI on PATH, its package not in this Python
        from fnmatch import fnmatch

        return fnmatch(path, glob)
    return match(glob, path)


@dataclass(frozen=True)
class Expected:
    """The files memkit says an agent loads, each with when (as `--explain` says it)."""

    files_when: tuple[tuple[str, str], ...]
    fates: tuple[tuple[str, str], ...] = ()  # memory id -> what --explain says of it
    reads: tuple[str, ...] = (READ,)  # the files the read scenario opens
    subfolder: str = SUBFOLDER  # where the subfolder scenario starts

    def reaches(self, when: str, scenario: str) -> bool:
        """Whether a file read `when` reaches the model in `scenario` (see `applies`)."""
        return applies(when, scenario, self.reads, self.subfolder)

    def state(self, scenario: str, memory_id: str) -> str:
        """The memory's state, "full", "short", "desc" or "absent": the best of the files
        holding it that reach the model in `scenario` (a memory left out by a budget, or
        on demand, is absent unless another file holds it), or what memkit's SessionStart
        hook gives a session started at the root (in full, or by its description)."""
        fate = dict(self.fates).get(memory_id, "")
        when = dict(self.files_when)
        hook = self.reaches(ROOT, scenario)  # Claude Code runs no project hook started below
        for state, pattern in (("full", FULL_IN), ("short", SHORT_IN)):
            m = pattern.search(fate)
            held = [f.strip() for f in m.group(1).split(",")] if m else []
            if any(f in when and self.reaches(when[f], scenario) for f in held):
                return state
            if state == "full" and hook and HOOK_FULL in fate:
                return "full"
        return "desc" if hook and HOOK_DESC in fate else "absent"

    def files(self, scenario: str) -> set[str]:
        """The files memkit expects to reach the model in `scenario`: a file that only
        imports AGENTS.md (CLAUDE.md as `@AGENTS.md`) counts as the AGENTS.md it brings."""
        return {
            "AGENTS.md" if when.startswith(IMPORTS) else f
            for f, when in self.files_when
            if self.reaches(when, scenario)
        }

    def times(self, scenario: str, texts: dict[str, str], marker: str) -> int:
        """How many times memkit expects `marker` in one request: once per file that
        carries it, and once more for each file that imports AGENTS.md (AGENTS.md read
        only through such an import counts there, not again)."""
        fate = dict(self.fates).get(marker.partition(":")[2].rstrip("]"), "")
        out = int(HOOK_FULL in fate and self.reaches(ROOT, scenario))
        for f, when in self.files_when:
            if self.reaches(when, scenario) and not when.startswith(IMPORTED):
                name = "AGENTS.md" if when.startswith(IMPORTS) else f
                out += marker in texts.get(name, "")
        return out


def explain(
    memkit: str,
    repo: str,
    reader: str,
    reads: tuple[str, ...] = (READ,),
    subfolder: str = SUBFOLDER,
) -> Expected | str:
    """memkit's model for `reader` in `repo` (the read scenario opening `reads`, the
    subfolder one starting in `subfolder`), or why there is none."""
    done = subprocess.run([memkit, "compile", "--explain", reader], cwd=repo,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        return f"`memkit compile --explain {reader}` failed: {done.stderr.strip()[-200:]}"
    lines = done.stdout.splitlines()
    cut = next(
        (i for i, ln in enumerate(lines) if ln.endswith("memory(ies) compiled:")), len(lines)
    )
    found = [(m[1], m[2]) for m in map(FILE_LINE.match, lines[:cut]) if m]
    fates = [(m[1], m[2]) for m in map(FATE_LINE.match, lines[cut + 1 :]) if m]
    return Expected(tuple((f, when.strip()) for f, when in found), tuple(fates), reads, subfolder)


def disagreements(expected: set[str], seen: set[str]) -> list[str]:
    """Each file on one side only, as `+sent, not modelled` or `-modelled, not sent`."""
    return [f"+{f}" for f in sorted(seen - expected)] + [f"-{f}" for f in sorted(expected - seen)]
