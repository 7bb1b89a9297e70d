"""Run `memkit audit` over the instruction files of real projects read from git mirrors.

    python benchmarks/audit_real.py MIRRORS [--corpus FILE | --all] [--show] [--json OUT]
                                    [--verdicts FILE]

MIRRORS holds one folder per project (`owner+name/repo`, a bare git directory). The
projects and commits audited are pinned in benchmarks/audit_corpus.toml (`--all`: every
mirror at HEAD, to find new projects). Each project's commit is extracted to a temporary
folder (blobs the mirror lacks become empty files, submodules empty folders, symbolic
links are left out) and audited. Prints per project the references checked and flagged;
`--show` prints every flag. With `--verdicts` (a TSV of hand-checked flags: repo, file,
line, kind, reference, verdict real|false, reason) it tallies, per kind of reference,
resolved, flagged, real and false alarms, and lists flags not judged yet. Only names,
commits, paths and counts are written: never the projects' contents.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from memkit.audit import Report, audit
from memkit.audit.sources import instruction_files

CORPUS = Path(__file__).with_name("audit_corpus.toml")
KINDS = ("path", "command", "marker", "module", "package", "symbol", "env", "config")


def extract(git_dir: Path, dest: Path, rev: str = "HEAD") -> str:
    """Write the files of `rev` under `dest`; a blob the mirror lacks becomes an empty file."""
    git = ["git", "--git-dir", str(git_dir)]
    commit = subprocess.run(
        [*git, "rev-parse", f"{rev}^{{commit}}"], capture_output=True, text=True, check=True
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
            elif kind == b"commit":  # a submodule: an empty folder, as a plain clone has it
                (dest / path.decode("utf-8", "replace")).mkdir(parents=True, exist_ok=True)
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


def listed(git_dir: Path, rev: str = "HEAD") -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", rev],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return instruction_files(out.splitlines())


def projects(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(owner/name, commit or HEAD) to audit."""
    if args.all:
        return [(f.name.replace("+", "/"), "HEAD") for f in sorted(args.mirrors.iterdir())]
    with open(args.corpus, "rb") as f:
        return [(p["repo"], p["commit"]) for p in tomllib.load(f)["project"]]


def run_one(git_dir: Path, rev: str) -> tuple[str, Report, float, list[tuple[str, int, str, str]]]:
    """(commit, report, seconds, every resolved reference as (file, line, kind, text))."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        commit = extract(git_dir, root, rev)
        start = time.perf_counter()
        report = audit(root)
        took = time.perf_counter() - start
        return commit, report, took, resolved_refs(root, report)


def resolved_refs(root: Path, report: Report) -> list[tuple[str, int, str, str]]:
    """The references that resolved, for checking a sample of them by hand (recall)."""
    from memkit.audit import _audit_file, _read
    from memkit.audit.project import Project
    from memkit.staleness.anchors.tree import walk_files

    project = Project(root, walk_files(root), skip=frozenset(report.files))
    out = []
    for name in report.files:
        for (line, kind, target), found in _audit_file(project, name, _read(root, name)):
            if found is None:
                out.append((name, line, kind, target))
    return out


def load_verdicts(path: Path | None) -> dict[tuple[str, str, str, str], tuple[str, str]]:
    """{(repo, file:line, kind, reference): (verdict, reason)} from a TSV file."""
    if path is None:
        return {}
    out = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if row and not row[0].startswith("#") and len(row) >= 6:
                repo, file, line, kind, ref, verdict, *reason = row
                out[(repo, f"{file}:{line}", kind, ref)] = (verdict, " ".join(reason))
    return out


def tally(
    rows: list[dict[str, object]], verdicts: dict[tuple[str, str, str, str], tuple[str, str]]
) -> None:
    """Per kind: resolved, flagged, real, false alarm; then the flags nobody judged."""
    stats = {k: {"checked": 0, "flagged": 0, "real": 0, "false": 0} for k in KINDS}
    unjudged = []
    for row in rows:
        for kind, n in row["checked_by_kind"].items():  # type: ignore[attr-defined]
            stats[kind]["checked"] += n
        for flag in row["flags"]:  # type: ignore[attr-defined]
            key = (row["repo"], f"{flag['file']}:{flag['line']}", flag["kind"], flag["reference"])
            stats[flag["kind"]]["flagged"] += 1
            verdict = verdicts.get(key)  # type: ignore[arg-type]
            if verdict is None:
                unjudged.append(key)
            else:
                stats[flag["kind"]][verdict[0]] += 1
    print(f"{'kind':8} {'checked':>8} {'resolved':>9} {'flagged':>8} {'real':>5} {'false':>6}")
    total = {"checked": 0, "flagged": 0, "real": 0, "false": 0}
    for kind, s in stats.items():
        for k in total:
            total[k] += s[k]
        if s["checked"]:
            print(
                f"{kind:8} {s['checked']:>8} {s['checked'] - s['flagged']:>9} {s['flagged']:>8} "
                f"{s['real']:>5} {s['false']:>6}"
            )
    t = total
    print(
        f"{'all':8} {t['checked']:>8} {t['checked'] - t['flagged']:>9} {t['flagged']:>8} "
        f"{t['real']:>5} {t['false']:>6}"
    )
    judged = t["real"] + t["false"]
    if judged:
        print(f"precision {t['real']}/{judged} = {t['real'] / judged:.1%} of judged flags")
    for key in unjudged:
        print("not judged:", "\t".join(key))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mirrors", type=Path)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--all", action="store_true", help="every mirror, at HEAD")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--verdicts", type=Path)
    parser.add_argument("--unchecked", action="store_true", help="print what was not checked")
    parser.add_argument("--sample", type=int, default=0, help="print N resolved references")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    pool: list[tuple[str, str, int, str, str]] = []
    skipped: dict[str, int] = {}
    for name, rev in projects(args):
        git_dir = args.mirrors / name.replace("/", "+") / "repo"
        if args.only and name not in args.only:
            continue
        try:
            if not listed(git_dir, rev):
                continue
        except (subprocess.CalledProcessError, FileNotFoundError):
            print(f"{name}: no mirror with commit {rev} under {args.mirrors}")
            continue
        commit, report, took, resolved = run_one(git_dir, rev)
        pool.extend((name, *r) for r in resolved)
        by_kind: dict[str, int] = {}
        for kind, n in report.checked_by_kind:
            by_kind[kind] = n
        for reason, n in report.skipped:
            skipped[reason] = skipped.get(reason, 0) + n
        rows.append(
            {
                "repo": name,
                "commit": commit,
                "files": list(report.files),
                "checked": report.checked,
                "unresolved": len(report.flags),
                "checked_by_kind": by_kind,
                "not_checked": dict(report.skipped),
                "not_checked_refs": [list(u) for u in report.unchecked],
                "flags": [
                    {k: f.to_record()[k] for k in ("file", "line", "kind", "reference")}
                    for f in report.flags
                ],
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
        if args.unchecked:
            for file, line, kind, ref, reason in report.unchecked:
                print(f"    not checked ({reason}) [{kind}] {file}:{line}: {ref}")
    total = sum(int(r["checked"]) for r in rows)  # type: ignore[call-overload]
    flagged = sum(int(r["unresolved"]) for r in rows)  # type: ignore[call-overload]
    files = sum(len(r["files"]) for r in rows)  # type: ignore[arg-type]
    print(
        f"{len(rows)} projects, {files} instruction files, {total} references checked, "
        f"{flagged} unresolved; not checked: {dict(sorted(skipped.items()))}"
    )
    tally(rows, load_verdicts(args.verdicts))
    if args.sample:
        import random

        for repo, file, line, kind, text in random.Random(0).sample(pool, args.sample):
            print(f"resolved sample: {repo}\t{file}:{line}\t{kind}\t{text}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
