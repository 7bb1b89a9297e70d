"""What memkit's own model says an agent reads (`memkit compile --explain AGENT`), per scenario.

The runner compares it with what reached the model: a file the agent sent that memkit
did not expect, or a file memkit expected that the agent never sent, is a disagreement
to fix in memkit/compile/readers.py or in the agent table of docs/compile.md.

`--explain` lists each file as "always" or "when working on GLOB"; it has no notion of
the folder an agent starts in, so the subfolder scenario expects what the root one does.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

from scratch import READ

FILE_LINE = re.compile(r"^  (\S+) \((always|when working on ([^;]+));")


@dataclass(frozen=True)
class Expected:
    """The files memkit says an agent loads: always, and scoped (file -> globs)."""

    always: tuple[str, ...]
    scoped: tuple[tuple[str, tuple[str, ...]], ...]

    def files(self, scenario: str) -> set[str]:
        """The files memkit expects to reach the model in `scenario`."""
        try:
            from memkit.globs import match
        except ImportError:  # memkit's CLI on PATH, its package not in this Python
            from fnmatch import fnmatch as match_any

            def match(glob: str, path: str) -> bool:
                return match_any(path, glob)

        out = set(self.always)
        if scenario == "read":
            out |= {f for f, globs in self.scoped if any(match(g, READ) for g in globs)}
        return out


def explain(memkit: str, repo: str, reader: str) -> Expected | str:
    """memkit's model for `reader` in `repo`, or why there is none."""
    done = subprocess.run([memkit, "compile", "--explain", reader], cwd=repo,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        return f"`memkit compile --explain {reader}` failed: {done.stderr.strip()[-200:]}"
    always: list[str] = []
    scoped: list[tuple[str, tuple[str, ...]]] = []
    for line in done.stdout.splitlines():
        m = FILE_LINE.match(line)
        if m and m.group(2) == "always":
            always.append(m.group(1))
        elif m:
            globs = tuple(g.strip() for g in m.group(3).split(","))
            scoped.append((m.group(1), globs))
    return Expected(tuple(always), tuple(scoped))


def disagreements(expected: set[str], seen: set[str]) -> list[str]:
    """Each file on one side only, as `+sent, not modelled` or `-modelled, not sent`."""
    return [f"+{f}" for f in sorted(seen - expected)] + [f"-{f}" for f in sorted(expected - seen)]
