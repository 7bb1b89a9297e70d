#!/usr/bin/env python3
"""Long fuzzing run: the FUZZ properties of the tests (PROPERTIES) with many more examples.

    python benchmarks/fuzz.py [--examples 5000]

Parse -> dumps -> parse on arbitrary text and bytes, generated memories changed and
written back, and the compiler over random stores (a fifth as many examples, each
writes a store). Prints the examples run per property and every failure hypothesis
found (shrunk to a minimal example); exits 1 if any.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The tests whose example count MEMKIT_FUZZ_EXAMPLES sets.
PROPERTIES = (
    "tests/memory/test_parse.py::test_parse_never_crashes_and_round_trips",
    "tests/memory/test_parse.py::test_parse_bytes_never_crashes",
    "tests/memory/test_parse.py::test_front_matter_with_fuzzed_values",
    "tests/memory/test_write.py::test_new_dumps_parse_and_change",
    "tests/compile/test_compile.py::test_compiler_over_random_stores",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=5000)
    a = ap.parse_args()
    started = time.perf_counter()
    env = {**os.environ, "MEMKIT_FUZZ_EXAMPLES": str(a.examples)}
    r = subprocess.run(
        [sys.executable, "-m", "pytest", *PROPERTIES, "-q",
         "-p", "no:cacheprovider", "--hypothesis-show-statistics", "-o", "addopts="],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    for line in r.stdout.splitlines():
        if ("passing examples" in line or "::" in line or "FAILED" in line
                or line.startswith(("E ", "Falsifying", "=="))):  # fmt: skip
            print(line)
    print(f"examples per property: {a.examples} (compiler: {max(1, a.examples // 5)})")
    print(f"wall time: {time.perf_counter() - started:.0f} s")
    print("result:", "no failure found" if r.returncode == 0 else "FAILURES (see above)")
    sys.exit(r.returncode)


if __name__ == "__main__":
    main()
