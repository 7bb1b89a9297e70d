"""Time `memkit audit` of a 1,000-line instruction file in a generated 5,000-file repository.

    python benchmarks/bench_audit.py [--files 5000] [--lines 1000] [--runs 5] [--dir DIR]

The repository holds Python modules in nested packages, a Makefile, a package.json,
a pyproject.toml and an .env.example; the instruction file mentions paths, commands,
symbols, environment variables, imports and config keys, about one in ten of them
stale. Each run times, alternating, two floors (`git ls-files | wc -l`: listing the
repository once; `memkit --help`: starting Python and the command line) and the whole
`memkit audit` command (a new process), and reports the
median wall time and CPU time (user + system of the child) of each, and their ratio,
measured in the same run: the machine may be shared, so absolute wall times drift.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = '''"""Module {n}."""

import os

TIMEOUT_{n} = int(os.environ.get("SERVICE_{n}_TIMEOUT", "30"))


def load_{n}(path, retries=3):
    for _ in range(retries):
        if os.path.exists(path):
            return open(path).read()
    return None


class Service{n}:
    def start(self):
        return load_{n}("x")
'''


def build(root: Path, files: int, lines: int) -> None:
    for n in range(files - 4):
        path = root / "src" / "app" / f"pkg{n // 100}" / f"mod{n}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SOURCE.format(n=n), encoding="utf-8")
    targets = "".join(f"target{t}:\n\techo {t}\n\n" for t in range(50))
    (root / "Makefile").write_text(targets, encoding="utf-8")
    scripts = {f"script{t}": f"node s{t}.js" for t in range(50)}
    (root / "package.json").write_text(json.dumps({"scripts": scripts}), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "app"\ndependencies = ["requests>=2"]\n[tool.ruff]\nline-length = 99\n',
        encoding="utf-8",
    )
    (root / ".env.example").write_text("DATABASE_URL=\n", encoding="utf-8")
    out = ["# Instructions", ""]
    for i in range(lines - 2):
        n = (i * 7) % (files - 4)
        stale = i % 10 == 0
        kind = i % 6
        if kind == 0:
            mod = f"mod{n}x.py" if stale else f"mod{n}.py"
            out.append(f"- The loader lives in `src/app/pkg{n // 100}/{mod}`.")
        elif kind == 1:
            out.append(f"- Run `make target{i % 50 + (60 if stale else 0)}` first.")
        elif kind == 2:
            name = f"load_{n}_old" if stale else f"load_{n}"
            out.append(f"- Call `{name}()` to read it; `Service{n}.start()` starts it.")
        elif kind == 3:
            var = f"SERVICE_{n}_TIMEOUT_MS" if stale else f"SERVICE_{n}_TIMEOUT"
            out.append(f"- `{var}` sets the timeout; see `npm run script{i % 50}`.")
        elif kind == 4:
            out.append("- Line length is `pyproject.toml::tool.ruff.line-length`.")
        else:
            out.append(f"- Plain prose line {i} with no reference at all, only words.")
    (root / "CLAUDE.md").write_text("\n".join(out) + "\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True)


# As an installed package runs: with its compiled bytecode (pip writes it at install time;
# PYTHONDONTWRITEBYTECODE would make every run compile memkit's modules again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], cwd: Path, shell: bool = False) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its stdout) of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        " ".join(command) if shell else command, cwd=cwd, capture_output=True, text=True,
        shell=shell, env=ENV,
    )  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path)
    args = parser.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="memkit-bench-audit-"))
    if not (root / "CLAUDE.md").exists():
        build(root, args.files, args.lines)
    memkit = Path(sys.executable).with_name("memkit")
    runs: dict[str, list[tuple[float, float]]] = {"floor": [], "help": [], "audit": []}
    out = timed([str(memkit), "audit"], root)[2]  # warm-up: bytecode and the page cache
    for _ in range(args.runs):
        wall, cpu, _out = timed(["git", "ls-files", "|", "wc", "-l"], root, shell=True)
        runs["floor"].append((wall, cpu))
        wall, cpu, _out = timed([str(memkit), "--help"], root)
        runs["help"].append((wall, cpu))
        wall, cpu, out = timed([str(memkit), "audit"], root)
        runs["audit"].append((wall, cpu))
    print(out.splitlines()[-1])
    print(f"load average: {os.getloadavg()[0]:.1f}")
    labels = {"floor": "git ls-files | wc -l", "help": "memkit --help", "audit": "memkit audit"}
    for name, label in labels.items():
        wall = statistics.median(w for w, _ in runs[name])
        cpu = statistics.median(c for _, c in runs[name])
        print(f"{label:22} wall median {wall:.3f} s, CPU median {cpu:.3f} s over {args.runs}")
    for floor in ("floor", "help"):
        pairs = zip(runs["audit"], runs[floor], strict=True)
        ratio = statistics.median(a[0] / f[0] for a, f in pairs)
        print(f"memkit audit / {labels[floor]}, wall, median of per-run ratios: {ratio:.1f}")
    all_wall = ", ".join(f"{w:.2f}" for w, _ in runs["audit"])
    all_cpu = ", ".join(f"{c:.2f}" for _, c in runs["audit"])
    print(f"memkit audit runs: wall {all_wall} s; CPU {all_cpu} s")
    print(f"repository: {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
