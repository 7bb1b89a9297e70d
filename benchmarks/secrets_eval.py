#!/usr/bin/env python3
"""Measure the secret detector: recall on real-shaped secrets, false positives, speed.

    python benchmarks/secrets_eval.py [--seeds 200] [--baseline /tmp/old_secrets.py]

Recall: every format in tests/secretscan/corpus.py, generated with --seeds different random
bodies (the rules were written against this corpus: benchmarks/secrets_heldout.py measures
on data they were not tuned on). False positives: the hand-written benign lines of the
corpus, every non-empty line of the Python standard library (tests excluded), and the
markdown and reStructuredText documentation installed in this environment, line by line.

Speed, in CPU time: ordinary text (this repository's docs and memories, the installed docs,
whole files as a memory write scans them) in MB/s, and 1 MB adversarial lines that made the
old scanner quadratic. --baseline FILE times another copy of the scanner on the same
ordinary text (save the old one with `git show 412a94c:memkit/secrets.py > FILE`) and on
16 KB of `a-a-…` (its adversarial times grow with the square of the length).
"""

from __future__ import annotations

import argparse
import collections
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from secrets_heldout import load_scanner  # noqa: E402

from tests.secretscan.corpus import BENIGN, secrets  # noqa: E402

MB = 1_000_000
ADVERSARIAL = {
    "a-a-a-…": "a-" * (MB // 2),
    "password repeated": "password" * (MB // 8),
    "password= repeated": "password=" * (MB // 9),
    "=====": "=" * MB,
    "AKIA repeated": "AKIA" * (MB // 4),
    "long base64": "AbCd0123+/" * (MB // 10),
    "-----BEGIN repeated": "-----BEGIN" * (MB // 10),
    "key headers repeated": ("-----BEGIN RSA PRIV" + "ATE KEY-----") * (MB // 31),
    "://a: repeated": "://a:" * (MB // 5),
    "eyJ… repeated": "eyJabcdefgh." * (MB // 12),
    "Authorization: Bearer repeated": "Authorization: Bearer " * (MB // 22),
    "API key: repeated": "API key: " * (MB // 9),
    "mysql -p… repeated": ("mysql -p" + "abc ") * (MB // 12),
    "login … password … repeated": ("login x pass" + "word ") * (MB // 17),
    "prose": "the quick brown fox jumps over the lazy dog " * (MB // 44),
}


def recall(sc: ModuleType, seeds: int) -> tuple[int, int, dict[str, int]]:
    total = found = 0
    missed: dict[str, int] = collections.Counter()
    for seed in range(seeds):
        for kind, text in secrets(seed):
            total += 1
            if sc.scan(text):
                found += 1
            else:
                missed[kind] += 1
    return total, found, dict(missed)


def _texts(paths: list[Path]) -> list[str]:
    out = []
    for path in paths:
        try:
            out.append(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return out


def _lines(texts: list[str]) -> list[str]:
    return [line for text in texts for line in text.splitlines() if line.strip()]


def corpora() -> dict[str, list[str]]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    code = [
        p
        for p in sorted(stdlib.rglob("*.py"))
        if not {"test", "tests", "site-packages", "idle_test"} & set(p.parts)
    ]
    return {
        "hand-written prose and code": BENIGN,
        "Python standard library (code)": _lines(_texts(code)),
        "installed package docs (prose)": _lines(installed_docs()),
    }


def installed_docs() -> list[str]:
    purelib = Path(sysconfig.get_paths()["purelib"])
    docs = [p for ext in ("*.md", "*.rst", "*.txt") for p in sorted(purelib.rglob(ext))]
    return _texts([p for p in docs if not {"tests", "test"} & set(p.parts)])


def ordinary_documents() -> list[str]:
    own = [*sorted((ROOT / ".memory").rglob("*.md")), *sorted((ROOT / "docs").rglob("*.md"))]
    return _texts([*own, ROOT / "README.md"]) + installed_docs()


def _best(run: Callable[[], object], repeat: int = 3) -> float:
    """The least CPU time of `repeat` runs (other processes' load does not count)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def speed(scanners: dict[str, ModuleType]) -> None:
    docs = ordinary_documents()
    size = sum(len(d) for d in docs) / MB
    print(f"\n## Ordinary text: {len(docs)} documents, {size:.1f} MB, scanned whole\n")
    print("| scanner | scan | MB/s | per 4 KB memory |\n|---|---:|---:|---:|")
    for name, sc in scanners.items():
        secs = _best(lambda sc=sc: [sc.scan(d) for d in docs])
        print(f"| {name} | {secs:.3f} s | {size / secs:.1f} | {secs / size * 4e3:.0f} µs |")
    sc = scanners["current"]
    print("\n## 1 MB adversarial lines (current scanner)\n")
    print("| line | scan | redact |\n|---|---:|---:|")
    for name, text in ADVERSARIAL.items():
        a = _best(lambda text=text: sc.scan(text), 1)
        b = _best(lambda text=text: sc.redact(text), 1)
        print(f"| {name} | {a:.3f} s | {b:.3f} s |")
    for name, old in scanners.items():
        if name != "current":
            for kb in (4, 8, 16):
                secs = _best(lambda kb=kb, old=old: old.scan("a-" * (kb * 500)), 1)
                print(f"| {name}: {kb} KB of a-a-a-… | {secs:.2f} s | |")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--show", type=int, default=10, help="false positives to print")
    ap.add_argument("--baseline", help="another secrets.py to time on the same ordinary text")
    ap.add_argument("--no-speed", action="store_true")
    a = ap.parse_args()
    sc = load_scanner(None)
    total, found, missed = recall(sc, a.seeds)
    formats = len(secrets())
    print(f"recall: {found}/{total} = {found / total:.2%} ({formats} formats x {a.seeds} seeds)")
    for kind, n in sorted(missed.items()):
        print(f"  missed {kind}: {n}/{a.seeds}")
    all_lines = all_hits = 0
    examples: list[str] = []
    for name, lines in corpora().items():
        started = time.perf_counter()
        hits = [line for line in lines if sc.scan(line)]
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
    if not a.no_speed:
        scanners = {"current": sc}
        if a.baseline:
            scanners["baseline"] = load_scanner(a.baseline)
        speed(scanners)


if __name__ == "__main__":
    main()
