#!/usr/bin/env python3
"""Write a realistic memory store of N memories into a fresh git repository.

    python benchmarks/gen_store.py N OUTDIR [--files F] [--seed S] [--no-commit]

OUTDIR becomes a git repository with F Python source files under src/ (default
N // 2, at least 50), and .memory/ with N memories of every type: decisions,
conventions, gotchas, procedures..., about a third path-scoped, a third linked to
real symbols in the generated sources, spread over subfolders, with tags, dates,
sources and confidence. Deterministic for a given seed. Other benchmarks import
`generate()` to time memkit's commands on the result.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
from pathlib import Path

TYPES = ["decision", "convention", "gotcha", "procedure", "note", "preference", "episode"]
AREAS = ["auth", "billing", "search", "api", "storage", "ui", "jobs", "metrics", "email", "cli"]
VERBS = ["validate", "load", "save", "render", "retry", "parse", "sync", "index", "notify"]
NOUNS = ["user", "invoice", "session", "token", "order", "report", "query", "event", "cache"]
SENTENCES = [
    "Always {verb} the {noun} inside a transaction; partial writes corrupted data in the past.",
    "The {area} service times out after 30 seconds, so batch {noun} work into chunks of 500.",
    "Prefer the typed {noun} client over raw HTTP calls; it handles retries and backoff.",
    "Never log the full {noun} payload: it can carry personal data that must not leave the box.",
    "Run `make {area}-test` before pushing; CI runs the same target with coverage enabled.",
    "The {noun} cache is keyed by tenant id first; forgetting the tenant leaks across customers.",
    "We chose to {verb} {noun}s asynchronously because the synchronous path blocked requests.",
    "When {noun} migration fails halfway, rerun it: every step is idempotent by design.",
    "Use UTC everywhere in {area}; convert to local time only in templates for display.",
    "Tests for {area} use the in-memory fake, never the real provider, to stay deterministic.",
]


def _module(area: str, i: int) -> tuple[str, list[str]]:
    """A small Python module and the symbols it defines."""
    cls = f"{area.capitalize()}Service{i}"
    funcs = [f"{random.choice(VERBS)}_{random.choice(NOUNS)}_{k}" for k in range(3)]
    lines = [f'"""The {area} module number {i}."""', "", f"class {cls}:"]
    lines += [f'    """Handles {area} work."""', ""]
    for f in funcs:
        lines += [f"    def {f}(self, item, *, retries=3):", f"        return item or {i}", ""]
    for f in funcs:
        lines += [f"def {f}_helper(value):", "    return value", ""]
    symbols = [cls] + [f"{cls}.{f}" for f in funcs] + [f"{f}_helper" for f in funcs]
    return "\n".join(lines) + "\n", symbols


def _memory(
    i: int, sources: list[tuple[str, list[str]]], today: dt.date, scope: str | None = None
) -> tuple[str, str]:
    area = random.choice(AREAS)
    kind = TYPES[i % len(TYPES)]
    noun, verb = random.choice(NOUNS), random.choice(VERBS)
    title = f"{area.capitalize()}: {verb} {noun} rule {i}"
    body = " ".join(
        random.choice(SENTENCES).format(area=area, noun=noun, verb=verb)
        for _ in range(random.randint(2, 6))
    )
    fm = [f'title: "{title}"', f"type: {kind}", "status: active", "tags:", f"- {area}"]
    if i % 3 == 1:
        fm += ["paths:", f"- {scope or f'src/{area}/**/*.py'}"]
    if i % 3 == 2 and sources:
        path, symbols = random.choice(sources)
        fm += ["links:", f"- {path}::{random.choice(symbols)}"]
    created = today - dt.timedelta(days=random.randint(1, 700))
    fm += [
        f"source: https://example.com/pr/{1000 + i}",
        f"confidence: {random.choice(['high', 'medium', 'low'])}",
    ]
    fm += [f"created: {created}", f"updated: {created + dt.timedelta(days=random.randint(0, 30))}"]
    if i % 10 == 0:
        fm += ["priority: 5"]
    folder = f"{area}/" if i % 2 else ""
    return f"{folder}rule-{i:05d}", "---\n" + "\n".join(fm) + f"\n---\n\n{body}\n"


def generate(n: int, out: Path, *, files: int | None = None, seed: int = 7,
             commit: bool = True, scope: str | None = None) -> Path:  # fmt: skip
    """The store (see the module docstring); `scope`: the one glob every path-scoped
    memory gets instead of its area's (`services/payments/**`: one package's memories)."""
    random.seed(seed)
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}  # fmt: skip
    subprocess.run(["git", "init", "-q", "-b", "main", str(out)], check=True, env=env)
    sources = []
    for i in range(files if files is not None else max(50, n // 2)):
        area = AREAS[i % len(AREAS)]
        text, symbols = _module(area, i)
        path = f"src/{area}/mod_{i:05d}.py"
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text)
        sources.append((path, symbols))
    mdir = out / ".memory"
    mdir.mkdir(exist_ok=True)
    (mdir / ".gitignore").write_text(".cache/\n")
    today = dt.date(2026, 11, 1)
    for i in range(n):
        rel, text = _memory(i, sources, today, scope)
        path = mdir / f"{rel}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if commit:
        subprocess.run(["git", "add", "-A"], cwd=out, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "-m", f"{n} memories"], cwd=out, check=True,
                       env=env)  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--files", type=int, default=None)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-commit", action="store_true")
    args = ap.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"gen_store: {args.out} exists and is not empty; choose a new directory")
    generate(args.n, args.out, files=args.files, seed=args.seed, commit=not args.no_commit)
    print(f"wrote {args.n} memories to {args.out}/.memory")


if __name__ == "__main__":
    main()
