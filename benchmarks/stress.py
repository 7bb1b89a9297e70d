#!/usr/bin/env python3
"""Several real memkit processes working on one store at once; report what was lost.

    python benchmarks/stress.py [--workers 8] [--seconds 60] [--dir DIR] [--keep]

Each worker loops until the time is up, running one `memkit` process per operation:
add (unique titles, and one title shared by every worker to race on ids), add --commit,
edit (an editor script appends a token line), show, list --json, validate, and every
other command present in this memkit (verify, compile, search, context, check...). When
the MCP server is available, one more worker drives it over stdio. At the end the store
is checked: every added memory exists with its text, every saved edit is in its file,
ids are unique, every file and JSON output parses. Prints operations run, errors and
anything lost; exits 1 if there were errors or losses.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

EDITOR = (
    "import os, pathlib, sys, time\n"
    "p = pathlib.Path(sys.argv[1])\n"
    "time.sleep(float(os.environ.get('STRESS_EDIT_PAUSE', '0')))\n"
    "p.write_bytes(p.read_bytes().rstrip(b'\\n') + b'\\n' + os.environ['STRESS_TOKEN'].encode()"
    " + b'\\n')\n"
)
SEEDS = 12


def memkit(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memkit", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "MEMKIT_ROOT": str(root), **env},
        timeout=300,
    )


def setup(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for args in (
        ["init", "-q", "-b", "main"],
        ["config", "user.name", "Stress"],
        ["config", "user.email", "stress@example.com"],
        ["config", "commit.gpgsign", "false"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "app.py").write_text(
        "def handler(event):\n    return event\n\n\nclass Service:\n    def run(self):\n"
        "        return 1\n",
        encoding="utf-8",
    )
    assert memkit(root, "init").returncode == 0
    for i in range(SEEDS):
        r = memkit(root, "add", f"Seed memory {i}", "--body", f"seed-{i}", "--tag", "seed",
                   "--link", "src/app.py::handler", "--path", "src/**")  # fmt: skip
        assert r.returncode == 0, r.stderr
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "seed"], cwd=root, check=True)


def available(root: Path) -> set[str]:
    out = memkit(root, "--help").stdout
    names = set()
    in_commands = False
    for line in out.splitlines():
        if line.strip() == "Commands:":
            in_commands = True
        elif in_commands and line.startswith("  ") and line.strip():
            names.add(line.split()[0])
    return names


def _ops(commands: set[str]) -> list[tuple[str, int]]:
    ops = [("add", 6), ("add-shared", 2), ("add-commit", 1), ("edit", 4), ("show", 3),
           ("list", 3), ("validate", 2)]  # fmt: skip
    for name, weight in (("verify", 2), ("compile", 2), ("search", 3), ("context", 2),
                         ("check", 1), ("stale", 1), ("diff", 1), ("log", 1)):  # fmt: skip
        if name in commands:
            ops.append((name, weight))
    return ops


def _ok(op: str, r: subprocess.CompletedProcess[str]) -> bool:
    if "Traceback" in r.stderr or "crashed" in r.stderr:
        return False
    allowed = {0}
    if op in ("validate", "check", "stale", "verify"):
        allowed.add(1)  # "a check found something" is an answer, not an error
    if op in ("search", "context"):
        allowed.add(1)  # nothing found
    if op == "edit" and "changed while you were editing it" in r.stderr:
        return True  # refused, edit kept: the safe answer to a concurrent change
    return r.returncode in allowed


def worker(root: Path, wid: int, seconds: float, out: Path, editor: Path) -> None:
    rng = random.Random(wid)
    commands = available(root)
    ops = _ops(commands)
    names = [n for n, _ in ops]
    weights = [w for _, w in ops]
    deadline = time.monotonic() + seconds
    log: dict[str, Any] = {"ops": Counter(), "errors": [], "added": {}, "edits": []}
    seq = 0
    while time.monotonic() < deadline:
        seq += 1
        op = rng.choices(names, weights)[0]
        token = f"token-w{wid}-{seq}"
        args: list[str]
        env: dict[str, str] = {}
        if op == "add":
            args = ["add", f"Worker {wid} note {seq}", "--body", token, "--tag", f"w{wid}"]
        elif op == "add-shared":
            args = ["add", "Shared title", "--body", token]
        elif op == "add-commit":
            args = ["add", f"Committed {wid} {seq}", "--body", token, "--commit"]
        elif op == "edit":
            target = f"seed-memory-{rng.randrange(SEEDS)}"
            args = ["edit", target]
            env = {"EDITOR": f"{sys.executable} {editor}", "STRESS_TOKEN": token,
                   "STRESS_EDIT_PAUSE": str(rng.choice([0, 0, 0.05]))}  # fmt: skip
        elif op == "show":
            args = ["show", f"seed-memory-{rng.randrange(SEEDS)}", "--json"]
        elif op == "list":
            args = ["list", "--json"]
        elif op == "search":
            args = ["search", rng.choice(["seed", "token", "worker", "shared"])]
        elif op == "verify":
            args = ["verify", "--all"]
        elif op == "context":
            args = ["context", "-f", "src/app.py", "-q", "seed"]
        else:
            args = [op]
        r = memkit(root, *args, **env)
        log["ops"][op] += 1
        if not _ok(op, r):
            log["errors"].append(f"{' '.join(args)} -> {r.returncode}: {r.stderr.strip()[-400:]}")
            continue
        if op in ("add", "add-shared", "add-commit"):
            log["added"][r.stdout.split()[0]] = token
        elif op == "edit" and r.stdout.startswith("saved"):
            log["edits"].append([args[1], token])
        elif op in ("list", "show"):
            try:
                json.loads(r.stdout)
            except ValueError:
                log["errors"].append(f"{' '.join(args)}: output is not JSON")
    out.write_text(json.dumps(log), encoding="utf-8")


def mcp_worker(root: Path, seconds: float, out: Path) -> None:
    """Drive `memkit mcp` with the MCP SDK's own client, if both exist."""
    import asyncio

    log: dict[str, Any] = {"ops": Counter(), "errors": [], "added": {}, "edits": []}

    async def go() -> None:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "memkit", "mcp"],
            env={**os.environ, "MEMKIT_ROOT": str(root)},
            cwd=str(root),
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            tools = {t.name: t for t in (await s.list_tools()).tools}
            deadline = time.monotonic() + seconds
            seq = 0
            while time.monotonic() < deadline:
                seq += 1
                for name in sorted(tools):
                    tool = tools[name]
                    schema = getattr(tool, "inputSchema", None) or getattr(tool, "input_schema", {})
                    args = _mcp_args(name, schema, seq)
                    if args is None:
                        continue
                    try:
                        res = await s.call_tool(name, args)
                    except Exception as e:  # a transport failure is an error
                        log["errors"].append(f"mcp {name}: {e!r}")
                        continue
                    log["ops"][f"mcp:{name}"] += 1
                    text = "".join(getattr(c, "text", "") for c in res.content)
                    if "Traceback" in text:
                        log["errors"].append(f"mcp {name}: {text[-300:]}")
                    if name in ("save_memory", "add", "add_memory") and not getattr(
                        res, "is_error", False
                    ):
                        log["added"][_added_id(res, text)] = f"token-mcp-{seq}"

    try:
        asyncio.run(go())
    except Exception as e:
        log["errors"].append(f"mcp server: {e!r}")
    out.write_text(json.dumps(log), encoding="utf-8")


def _mcp_args(name: str, schema: dict[str, Any], seq: int) -> dict[str, Any] | None:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    if name in ("save_memory", "add", "add_memory"):
        args: dict[str, Any] = {"title": f"MCP note {seq}"}
        for key in ("body", "text", "content"):
            if key in props:
                args[key] = f"token-mcp-{seq}"
                break
        return args if required <= set(args) else None
    if required - {"query", "path", "id", "paths"}:
        return None
    args = {}
    if "query" in required:
        args["query"] = "seed"
    if "path" in required:
        args["path"] = "src/app.py"
    if "paths" in required:
        args["paths"] = ["src/app.py"]
    if "id" in required:
        args["id"] = "seed-memory-1"
    if any(w in name for w in ("delete", "remove", "rm", "archive", "forget", "supersede")):
        return None  # destructive tools would make losses unprovable
    return args


def _added_id(res: Any, text: str) -> str:
    try:
        data = json.loads(text)
        if isinstance(data, dict):
            return str(data.get("id", text.strip()))
    except ValueError:
        pass
    return text.strip().split()[0] if text.strip() else "?"


def audit(root: Path, logs: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(lost, problems): memories or edits missing, and anything else wrong."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from memkit.store import Store

    store = Store(root)
    loaded = store.load()
    problems = [str(p) for p in loaded.problems]
    by_id = {m.id: m for m in loaded.memories}
    lost = []
    for log in logs:
        for mid, token in log["added"].items():
            if mid not in by_id:
                lost.append(f"added memory {mid} is missing")
            elif not token.startswith("token-mcp") and token not in by_id[mid].body:
                lost.append(f"memory {mid} lost its text {token}")
        for mid, token in log["edits"]:
            if mid not in by_id or token not in by_id[mid].body:
                lost.append(f"saved edit {token} of {mid} is missing")
    ids = [p.stem for p in store.files()]
    problems += [f"duplicate id {i}" for i, n in Counter(ids).items() if n > 1]
    problems += [f"leftover temp file {p.name}" for p in store.dir.rglob(".*.tmp")]
    r = memkit(root, "validate")
    if r.returncode != 0:
        problems.append(f"validate at the end: {r.stdout.strip()[-400:]}")
    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True,
                            text=True)  # fmt: skip
    problems += [f"git index lost a file: {line}" for line in status.stdout.splitlines()
                 if line.startswith("D ")]  # fmt: skip
    return lost, problems


def run(root: Path, workers: int, seconds: float, *, mcp: bool = True) -> dict[str, Any]:
    setup(root)
    editor = root.parent / "stress_editor.py"
    editor.write_text(EDITOR, encoding="utf-8")
    procs = []
    outs = []
    for wid in range(workers):
        out = root.parent / f"worker-{wid}.json"
        outs.append(out)
        procs.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", str(wid), "--dir", str(root),
             "--seconds", str(seconds), "--out", str(out), "--editor", str(editor)],
        ))  # fmt: skip
    if mcp and "mcp" in available(root):
        out = root.parent / "worker-mcp.json"
        outs.append(out)
        procs.append(subprocess.Popen(
            [sys.executable, __file__, "--mcp-worker", "--dir", str(root),
             "--seconds", str(seconds), "--out", str(out)],
        ))  # fmt: skip
    codes = [p.wait() for p in procs]
    logs = []
    crashed = [f"worker {i} exited {c}" for i, c in enumerate(codes) if c != 0]
    for out in outs:
        if out.exists():
            logs.append(json.loads(out.read_text(encoding="utf-8")))
    lost, problems = audit(root, logs)
    ops: Counter[str] = Counter()
    for log in logs:
        ops.update(log["ops"])
    errors = [e for log in logs for e in log["errors"]] + crashed + problems
    return {"ops": dict(sorted(ops.items())), "operations": sum(ops.values()),
            "errors": errors, "lost": lost}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-mcp", action="store_true")
    ap.add_argument("--worker", type=int)
    ap.add_argument("--mcp-worker", action="store_true")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--editor", type=Path)
    a = ap.parse_args()
    if a.worker is not None:
        worker(a.dir, a.worker, a.seconds, a.out, a.editor)
        return
    if a.mcp_worker:
        mcp_worker(a.dir, a.seconds, a.out)
        return
    base = Path(tempfile.mkdtemp(prefix="memkit-stress-")) if a.dir is None else a.dir
    root = base / "repo"
    started = time.monotonic()
    result = run(root, a.workers, a.seconds, mcp=not a.no_mcp)
    print(f"workers: {a.workers} (+ MCP server: {'yes' if 'mcp' in available(root) else 'no'})")
    print(f"wall time: {time.monotonic() - started:.1f} s")
    print(f"operations: {result['operations']}")
    for op, n in result["ops"].items():
        print(f"  {op}: {n}")
    print(f"errors: {len(result['errors'])}")
    for e in result["errors"][:20]:
        print(f"  {e}")
    print(f"lost: {len(result['lost'])}")
    for e in result["lost"][:20]:
        print(f"  {e}")
    if not a.keep and a.dir is None:
        shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if result["errors"] or result["lost"] else 0)


if __name__ == "__main__":
    main()
