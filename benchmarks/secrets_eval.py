#!/usr/bin/env python3
"""Measure the secret detector: recall on real-shaped secrets, false positives on prose and code.

    python benchmarks/secrets_eval.py [--seeds 200]

Recall: every format in tests/secret_corpus.py, generated with --seeds different random
bodies. False positives: the hand-written benign lines of the corpus, every non-empty line
of the Python standard library (tests excluded), and the markdown and reStructuredText
documentation installed in this environment, scanned line by line.
"""

from __future__ import annotations

import argparse
import collections
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memkit.secrets import scan  # noqa: E402
from tests.secret_corpus import BENIGN, secrets  # noqa: E402


def recall(seeds: int) -> tuple[int, int, dict[str, int]]:
    total = found = 0
    missed: dict[str, int] = collections.Counter()
    for seed in range(seeds):
        for kind, text in secrets(seed):
            total += 1
            if scan(text):
                found += 1
            else:
                missed[kind] += 1
    return total, found, dict(missed)


def _lines(paths: list[Path]) -> list[str]:
    out: list[str] = []
    for path in paths:
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        out.extend(line for line in text.splitlines() if line.strip())
    return out


def corpora() -> dict[str, list[str]]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    code = [
        p
        for p in sorted(stdlib.rglob("*.py"))
        if not {"test", "tests", "site-packages", "idle_test"} & set(p.parts)
    ]
    purelib = Path(sysconfig.get_paths()["purelib"])
    docs = [p for ext in ("*.md", "*.rst", "*.txt") for p in sorted(purelib.rglob(ext))]
    docs = [p for p in docs if not {"tests", "test"} & set(p.parts)]
    return {
        "hand-written prose and code": BENIGN,
        "Python standard library (code)": _lines(code),
        "installed package docs (prose)": _lines(docs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--show", type=int, default=10, help="false positives to print")
    a = ap.parse_args()
    total, found, missed = recall(a.seeds)
    formats = len(secrets())
    print(f"recall: {found}/{total} = {found / total:.2%} ({formats} formats x {a.seeds} seeds)")
    for kind, n in sorted(missed.items()):
        print(f"  missed {kind}: {n}/{a.seeds}")
    all_lines = all_hits = 0
    examples: list[str] = []
    for name, lines in corpora().items():
        started = time.perf_counter()
        hits = [line for line in lines if scan(line)]
        secs = time.perf_counter() - started
        all_lines += len(lines)
        all_hits += len(hits)
        rate = len(hits) / len(lines) if lines else 0.0
        print(f"false positives, {name}: {len(hits)}/{len(lines)} lines = {rate:.4%} "
              f"({len(lines) / secs:,.0f} lines/s)")  # fmt: skip
        examples += [f"  [{name}] {line.strip()[:110]}" for line in hits]
    print(f"false-positive rate: {all_hits}/{all_lines} lines = {all_hits / all_lines:.4%}")
    for line in examples[: a.show]:
        print(line)


if __name__ == "__main__":
    main()
