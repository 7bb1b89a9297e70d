#!/usr/bin/env python3
"""Held-out evaluation of the secret scanner: data the rules were not tuned on.

    python benchmarks/secrets_heldout.py --mirrors /work/.mirror [--seeds 20] [--show-flags]

Recall: every format of benchmarks/secrets_heldout_corpus.py (written before the rules were
tuned) in --seeds random surroundings; a sample counts as found when `scan` flags it, and as
redacted when `redact` removes the secret and leaves nothing `scan` flags.

False positives: every non-empty line of the documentation, config and example code of a few
public repositories, read with git from mirrors under --mirrors (`<owner>+<name>/repo`, as the
fetch tool lays them out; a bare or normal clone at `<owner>+<name>` works too), plus every
non-empty line of the installed Python standard library (tests excluded). Nothing of those
repositories is stored here: only their names, and the commit each run read is printed.
--show-flags prints every flagged line for hand-checking.

--scanner FILE measures another copy of the scanner (e.g. an older memkit/secrets.py saved
with `git show <commit>:memkit/secrets.py > /tmp/old_secrets.py`).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from secrets_heldout_corpus import FORMATS, samples  # noqa: E402

REPOS = (
    "psf/requests",
    "pallets/flask",
    "encode/httpx",
    "fastapi/fastapi",
    "traefik/traefik",
    "prometheus/prometheus",
    "docker-library/docs",
)
DOC_EXT = {
    ".md", ".rst", ".txt", ".adoc", ".yml", ".yaml", ".toml", ".ini", ".cfg", ".conf",
    ".json", ".env", ".properties", ".sh", ".py", ".tmpl", ".j2", ".example",
}  # fmt: skip
MAX_FILE = 1_000_000


def load_scanner(path: str | None) -> ModuleType:
    if path is None:
        import memkit.secrets

        return memkit.secrets
    spec = importlib.util.spec_from_file_location("scanner_under_test", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- recall


def recall(sc: ModuleType, seeds: int) -> dict[str, tuple[int, int, int]]:
    """format -> (samples, found, redacted)."""
    out: dict[str, list[int]] = {name: [0, 0, 0] for name in FORMATS}
    for seed in range(seeds):
        for s in samples(seed):
            row = out[s.format]
            row[0] += 1
            row[1] += bool(sc.scan(s.text))
            red = sc.redact(s.text)
            row[2] += s.secret not in red and not sc.scan(red)
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


# ---------------------------------------------------------------- benign text


def _git_dir(mirrors: Path, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+")
    for cand in (base / "repo", base):
        if cand.is_dir():
            return cand
    return None


def repo_lines(git_dir: Path) -> tuple[str, Iterator[tuple[str, int, str]]]:
    """(commit, lines as (path, line number, text)) of documentation and config at HEAD."""

    def run(*args: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True, text=True
        ).stdout

    commit = run("rev-parse", "HEAD").strip()
    listing = run("ls-tree", "-r", "-l", "HEAD").splitlines()
    paths = []
    for row in listing:
        meta, path = row.split("\t", 1)
        _, kind, _, size = meta.split()
        name = path.rsplit("/", 1)[-1]
        ext = "." + name.rsplit(".", 1)[-1] if "." in name else ""
        wanted = ext in DOC_EXT or name.startswith(("Dockerfile", ".env"))
        if kind == "blob" and size.isdigit() and int(size) <= MAX_FILE and wanted:
            paths.append(path)

    def lines() -> Iterator[tuple[str, int, str]]:
        batch = subprocess.run(
            ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
            input="".join(f"HEAD:{p}\n" for p in paths).encode(),
            check=True,
            capture_output=True,
        ).stdout
        pos = 0
        for path in paths:
            header_end = batch.index(b"\n", pos)
            size = int(batch[pos:header_end].split()[2])
            data = batch[header_end + 1 : header_end + 1 + size]
            pos = header_end + 1 + size + 1
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    yield path, n, line

    return commit, lines()


def stdlib_lines() -> Iterator[tuple[str, int, str]]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    skip = {"test", "tests", "site-packages", "idle_test"}
    for path in sorted(stdlib.rglob("*.py")):
        if skip & set(path.relative_to(stdlib).parts):
            continue
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rel = str(path.relative_to(stdlib))
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                yield rel, n, line


def benign(
    scan: Callable[[str], list[object]], sources: dict[str, Iterator[tuple[str, int, str]]]
) -> tuple[list[tuple[str, int, int, float]], list[str]]:
    rows = []
    flags = []
    for name, lines in sources.items():
        n = hits = 0
        started = time.perf_counter()
        for path, lineno, line in lines:
            n += 1
            found = scan(line)
            if found:
                hits += 1
                kind = getattr(found[0], "kind", "?")
                flags.append(f"{name}:{path}:{lineno}: [{kind}] {line.strip()[:140]}")
        rows.append((name, n, hits, time.perf_counter() - started))
    return rows, flags


# ---------------------------------------------------------------- report


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--mirrors", type=Path, help="folder holding <owner>+<name> git mirrors")
    ap.add_argument("--repos", default=",".join(REPOS))
    ap.add_argument("--scanner", help="a secrets.py file to measure instead of memkit.secrets")
    ap.add_argument("--show-flags", action="store_true", help="print every flagged benign line")
    ap.add_argument("--no-stdlib", action="store_true")
    a = ap.parse_args()
    sc = load_scanner(a.scanner)

    table = recall(sc, a.seeds)
    total = sum(t[0] for t in table.values())
    found = sum(t[1] for t in table.values())
    redacted = sum(t[2] for t in table.values())
    print(f"## Recall on held-out formats ({len(table)} formats x {a.seeds} surroundings)\n")
    print("| format | found | redacted |\n|---|---:|---:|")
    for name, (n, f, r) in table.items():
        print(f"| {name} | {f}/{n} | {r}/{n} |")
    print(f"| **all** | **{found}/{total} = {found / total:.1%}** | "
          f"**{redacted}/{total} = {redacted / total:.1%}** |")  # fmt: skip
    formats_full = sum(1 for n, f, _ in table.values() if f == n)
    print(f"\nformats always found: {formats_full}/{len(table)}")

    sources: dict[str, Iterator[tuple[str, int, str]]] = {}
    if a.mirrors:
        for repo in a.repos.split(","):
            git_dir = _git_dir(a.mirrors, repo)
            if git_dir is None:
                print(f"(no mirror of {repo} under {a.mirrors}; skipped)")
                continue
            commit, lines = repo_lines(git_dir)
            sources[f"{repo}@{commit[:12]}"] = lines
    if not a.no_stdlib:
        sources[f"Python {sys.version.split()[0]} stdlib"] = stdlib_lines()
    rows, flags = benign(sc.scan, sources)
    print("\n## False positives on public text the rules never saw\n")
    print("| source | lines | flagged | rate | lines/s |\n|---|---:|---:|---:|---:|")
    for name, n, hits, secs in rows:
        print(f"| {name} | {n:,} | {hits} | {hits / max(n, 1):.4%} | {n / secs:,.0f} |")
    n_all = sum(r[1] for r in rows)
    h_all = sum(r[2] for r in rows)
    print(f"| **all** | **{n_all:,}** | **{h_all}** | **{h_all / max(n_all, 1):.4%}** | |")
    kinds = collections.Counter(f.split("[", 1)[1].split("]", 1)[0] for f in flags)
    if kinds:
        print("\nflags by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    if a.show_flags:
        print("\n## Every flagged line\n")
        for f in flags:
            print(f)


if __name__ == "__main__":
    main()
