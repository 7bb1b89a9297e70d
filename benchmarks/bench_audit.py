"""Time `memkit audit` of a 1,000-line instruction file in a generated 5,000-file repository.

    python benchmarks/bench_audit.py [--files 5000] [--lines 1000] [--runs 5] [--dir DIR]

The repository holds Python modules in nested packages, a Makefile, a package.json,
a pyproject.toml and an .env.example; the instruction file mentions paths, commands,
symbols, environment variables, imports and config keys, about one in ten of them
stale. Prints the median wall time of the whole `memkit audit` command (a new
process each run) and of the audit() call alone.
"""

from __future__ import annotations

import argparse
import json
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
    command, inline = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        done = subprocess.run([str(memkit), "audit"], cwd=root, capture_output=True, text=True)
        command.append(time.perf_counter() - start)
        start = time.perf_counter()
        from memkit.audit import audit

        report = audit(root)
        inline.append(time.perf_counter() - start)
    print(done.stdout.splitlines()[-1])
    print(f"memkit audit (command): median {statistics.median(command):.3f} s over {args.runs}")
    print(f"audit() in process:     median {statistics.median(inline):.3f} s; {report.summary()}")
    print(f"repository: {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
