"""Run `memkit audit` over the instruction files of real projects read from git mirrors.

    python benchmarks/audit_real.py MIRRORS [--show] [--json OUT]

MIRRORS holds one folder per project (`owner+name/repo`, a bare git directory). Each
project's HEAD is extracted to a temporary folder (git archive) and audited. Prints,
per project, its commit, the instruction files, references checked and unresolved;
`--show` also prints every flag (for checking them by hand). Only names, commits,
paths and counts are written to OUT: never the projects' contents.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memkit.audit import audit
from memkit.audit.sources import instruction_files


def extract(git_dir: Path, dest: Path) -> str:
    """Write HEAD's files under `dest`; a blob the mirror lacks becomes an empty file."""
    git = ["git", "--git-dir", str(git_dir)]
    commit = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = subprocess.run(
        [*git, "ls-tree", "-r", "-z", commit], capture_output=True, check=True
    ).stdout.split(b"\0")
    entries = []
    for entry in tree:
        if entry:
            meta, _, path = entry.partition(b"\t")
            mode, kind, oid = meta.split()
            if kind == b"blob" and mode != b"120000":
                entries.append((oid.decode(), path.decode("utf-8", "replace")))
    batch = subprocess.Popen(
        [*git, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert batch.stdin is not None and batch.stdout is not None
    for oid, path in entries:
        batch.stdin.write(oid.encode() + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        data = b""
        if len(header) == 3:
            data = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    batch.stdin.close()
    batch.wait()
    return commit


def listed(git_dir: Path) -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return instruction_files(out.splitlines())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mirrors", type=Path)
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    rows = []
    for folder in sorted(args.mirrors.iterdir()):
        git_dir = folder / "repo"
        name = folder.name.replace("+", "/")
        if not git_dir.is_dir() or (args.only and name not in args.only):
            continue
        try:
            if not listed(git_dir):
                continue
        except subprocess.CalledProcessError:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            commit = extract(git_dir, root)
            start = time.perf_counter()
            report = audit(root)
            took = time.perf_counter() - start
        rows.append(
            {
                "repo": name,
                "commit": commit,
                "files": list(report.files),
                "checked": report.checked,
                "unresolved": len(report.flags),
                "by_kind": {
                    k: sum(1 for f in report.flags if f.kind == k)
                    for k in sorted({f.kind for f in report.flags})
                },
                "seconds": round(took, 3),
            }
        )
        print(
            f"{name} {commit[:12]}: {len(report.files)} files, {report.checked} checked, "
            f"{len(report.flags)} unresolved ({took:.2f} s)"
        )
        if args.show:
            for flag in report.flags:
                print(f"    [{flag.kind}] {flag}")
    total = sum(r["checked"] for r in rows)
    flagged = sum(r["unresolved"] for r in rows)
    print(f"{len(rows)} projects, {total} references checked, {flagged} unresolved")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
