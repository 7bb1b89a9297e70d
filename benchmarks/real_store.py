#!/usr/bin/env python3
"""Grow a memory store of N memories from a real repository's history, in a copy of its code.

    python benchmarks/real_store.py MIRROR N OUTDIR [--rev REV]

MIRROR is a git directory (a bare mirror is fine). OUTDIR becomes a git repository
holding the files of REV (default HEAD) and `.memory/` with N memories, one per
non-merge commit with a subject of 20 characters or more, newest first: the subject
is the title, the message's body the body, the commit's date its created date, its
touched files that still exist its `paths` (a few of them also `links`), the top
folders its tags, its type guessed from the subject's first word. Past the number of
such commits, each commit gives a further memory per body paragraph ("(part 2)"),
then the list repeats with a round number in the title. Deterministic for a given
mirror and REV. Nothing is stored here but the generated store in OUTDIR; other
benchmarks import `grow()`.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}
_TYPES = [
    (re.compile(r"^(fix|fixed|fixes|avoid|prevent|handle|workaround)\b", re.I), "gotcha"),
    (re.compile(r"^(use|prefer|switch|move|replace|drop|remove|deprecate)\b", re.I), "decision"),
    (re.compile(r"^(doc|docs|document|update docs|clarify)\b", re.I), "convention"),
    (re.compile(r"^(add|implement|introduce|support)\b", re.I), "note"),
    (re.compile(r"^(release|prepare|bump|run|ci)\b", re.I), "procedure"),
]
_SEP = "\x1e"


@dataclass(frozen=True)
class Commit:
    sha: str
    date: str
    subject: str
    body: str
    files: tuple[str, ...]


def commits(mirror: Path, rev: str) -> list[Commit]:
    """Non-merge commits of `rev` with a real subject, newest first, with their files."""
    out = subprocess.run(
        ["git", "--git-dir", str(mirror), "log", "--no-merges", "--name-only",
         f"--format={_SEP}%H%x00%as%x00%s%x00%b%x00", rev],
        capture_output=True, text=True, errors="replace", check=True,
    ).stdout  # fmt: skip
    got = []
    for chunk in out.split(_SEP)[1:]:
        sha, date, subject, body, files = chunk.split("\x00", 4)
        if len(subject.strip()) < 20:
            continue
        names = tuple(f for f in files.split("\n") if f.strip())
        got.append(Commit(sha, date, subject.strip(), body.strip(), names))
    return got


def _slug(text: str, n: int) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())[:7]
    return "-".join(["-".join(words)[:50].strip("-") or "commit", f"{n:05d}"])


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _clean(text: str, trailers: bool = True) -> str:
    """A commit message as memory text: no trailers, no control characters."""
    lines = text.splitlines()
    if trailers:
        lines = [ln for ln in lines if not re.match(r"^[A-Z][\w-]+: \S", ln)]
    text = "\n".join(lines).strip()
    return "".join(c for c in text if c in "\n\t" or c >= " ").replace("---", "- - -")


def memory_text(c: Commit, n: int, part: str, body: str, present: set[str]) -> str:
    kind = next((t for rx, t in _TYPES if rx.search(c.subject)), "note")
    files = [f for f in c.files if f in present][:4]
    tags = sorted({f.split("/", 1)[0].lower() for f in files if "/" in f})[:3]
    tags = [re.sub(r"[^a-z0-9-]+", "-", t).strip("-") or "root" for t in tags]
    title = _quote(_clean(c.subject, False)[:150] + part)
    fm = [f"title: {title}", f"type: {kind}", "status: active"]
    if tags:
        fm += ["tags:", *(f"- {t}" for t in tags)]
    if files and n % 3 == 1:
        fm += ["paths:", *(f"- {_quote(f)}" for f in files[:2])]
    if files and n % 3 == 2:
        fm += ["links:", *(f"- {_quote(f)}" for f in files[:2])]
    fm += [f"source: commit {c.sha[:12]}", f"created: {c.date}"]
    return "---\n" + "\n".join(fm) + "\n---\n\n" + (body or _clean(c.subject, False)) + "\n"


def plan(found: list[Commit], n: int) -> list[tuple[Commit, str, str]]:
    """(commit, title suffix, body) for n memories: commits, then paragraphs, then rounds."""
    first = [(c, "", _clean(c.body)) for c in found]
    more = [
        (c, f" (part {k})", para)
        for c in found
        for k, para in enumerate(
            [p for p in re.split(r"\n\s*\n", _clean(c.body)) if len(p) > 80][1:], 2
        )
    ]
    base = first + more
    out = list(base[:n])
    rnd = 2
    while len(out) < n:
        out += [(c, f"{s} (round {rnd})", b) for c, s, b in base[: n - len(out)]]
        rnd += 1
    return out


def grow(mirror: Path, n: int, out: Path, *, rev: str = "HEAD", commit: bool = True) -> Path:
    """Write the code of `rev` and n memories grown from its history into `out`, a new repo."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(out)], check=True, env=ENV)
    archive = subprocess.run(
        ["git", "--git-dir", str(mirror), "archive", "--format=tar", rev],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    present = {
        str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and ".git" not in p.parts
    }
    mdir = out / ".memory"
    mdir.mkdir(exist_ok=True)
    for i, (c, part, body) in enumerate(plan(commits(mirror, rev), n)):
        folder = f"{c.files[0].split('/', 1)[0].lower()}/" if i % 2 and c.files else ""
        folder = re.sub(r"[^a-z0-9/]+", "-", folder).strip("-")
        path = mdir / folder / f"{_slug(c.subject, i)}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(memory_text(c, i, part, body, present), "utf-8")
    if commit:
        subprocess.run(["git", "add", "-A"], cwd=out, check=True, env=ENV)
        subprocess.run(
            ["git", "commit", "-q", "--no-verify", "-m", f"{n} memories"], cwd=out, check=True,
            env=ENV,
        )  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("n", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--rev", default="HEAD")
    args = ap.parse_args()
    if args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"real_store: {args.out} exists and is not empty; choose a new directory")
    grow(args.mirror, args.n, args.out, rev=args.rev)
    print(f"wrote {args.n} memories to {args.out}/.memory")


if __name__ == "__main__":
    main()
