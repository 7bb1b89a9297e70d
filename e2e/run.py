"""Run the real coding-agent CLIs offline and record exactly what reaches the model.

    python3 e2e/run.py CACHE [--agents claude,codex] [--scenarios root,read,sub,agents:root]

CACHE holds the pinned agents (installed there once, with npm --prefix or a venv)
and the runs (CACHE/runs/<time>/<agent>-<scenario>/: the requests, the agent's output).
Each run gets a fresh HOME and a fresh scratch repository compiled by memkit, and runs
in a new network namespace with only loopback (`unshare`, as root), together with the
recording endpoint; a new PID namespace too, so whatever the agent leaves behind dies
with the run. Scenarios: `root` starts at the repository root; `read` has the model
ask to read a path-scoped file; `sub` starts in a subfolder. `STORE:SCENARIO` runs a
scenario on another store (scratch.STORES): `agents` (AGENTS.md alone), `import`
(CLAUDE.md is `@AGENTS.md`), `edge` (a stale memory, budgets, activation, a package),
`nest` (two packages, one with `CLAUDE.md -> AGENTS.md`; its read scenario reads a file
in each, its subfolder one starts in the linked one); the default store has every
target on.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

import analyze
import model
import receipts
import scratch
from agents import AGENTS, BY_KEY, Agent

PORT = 4010
SCENARIOS = ("root", "read", "sub")
PROMPTS = {
    "root": "Say hello in one word.",
    "read": "Read {reads} and say what {it} does.",
    "sub": "Say hello in one word.",
}


def prompt(base: str, store: str) -> str:
    """The one-shot prompt of scenario `base` on `store` (the read one names its files)."""
    reads = scratch.reads_of(store)
    return PROMPTS[base].format(reads=" and ".join(reads), it="it" if len(reads) == 1 else "each")


def install(agent: Agent, cache: Path) -> tuple[Path | None, str]:
    """The agent's binary, installed into CACHE once; (None, why) when it cannot be."""
    prefix = cache / f"{agent.key}-{agent.version}"
    binary = (
        prefix / "node_modules" / ".bin" / agent.binary
        if agent.registry == "npm"
        else prefix / "bin" / agent.binary
    )
    if binary.exists():
        return binary, ""
    if agent.registry == "npm":
        argv = [
            "npm",
            "install",
            "--prefix",
            str(prefix),
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            agent.spec,
        ]
    else:
        subprocess.run([sys.executable, "-m", "venv", str(prefix)], check=False)
        argv = [str(prefix / "bin" / "pip"), "install", "-q", agent.spec]
    print(f"installing {agent.spec} into {prefix}", flush=True)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{agent.registry} install of {agent.spec} failed: {exc}"
    if done.returncode != 0 or not binary.exists():
        said = [ln.strip() for ln in done.stderr.splitlines()
                if ln.strip() and "complete log" not in ln]  # fmt: skip
        why = "; ".join(said[:2])[:300] or f"exit {done.returncode}"
        return (
            None,
            f"{agent.registry} install of {agent.spec} failed (registry unreachable?): {why}",
        )
    return binary, ""


def _expand(argv: list[str], env: dict[str, str]) -> list[str]:
    return [env.get(a[1:], a) if a.startswith("$") else a for a in argv]


def inner(spec_file: Path) -> int:
    """Inside the namespaces: loopback up, the endpoint, the agent bounded in time."""
    import endpoint

    spec = json.loads(spec_file.read_text())
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    server = endpoint.serve(PORT, Path(spec["record"]), spec["read_path"])
    env = spec["env"]
    logs = Path(spec["logs"])
    status = "ok"
    with (logs / "stdout.txt").open("w") as out, (logs / "stderr.txt").open("w") as err:
        steps = [spec["pre"].split()] if spec["pre"] else []
        steps.append(_expand(spec["argv"], env))
        for argv in steps:
            proc = subprocess.Popen(
                argv,
                cwd=spec["cwd"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
            try:
                code = proc.wait(timeout=spec["timeout"])
                status = "ok" if code == 0 else f"exit {code}"
            except subprocess.TimeoutExpired:
                status = "timeout"
            for sig in (signal.SIGTERM, signal.SIGKILL):  # its whole group, by its id
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                time.sleep(0.5)
            proc.wait()
    server.shutdown()
    (logs / "status.txt").write_text(status)
    return 0


def one_run(
    agent: Agent, binary: Path, scenario: str, out: Path, memkit: str, timeout: int, isolate: bool
) -> analyze.RunResult:
    """Build the scratch world, run the agent once in its namespaces, analyse the requests."""
    store, _, base = scenario.rpartition(":")
    store = store or "all"
    run_dir = out / f"{agent.key}-{scenario.replace(':', '-')}"
    home, repo, logs = run_dir / "home", run_dir / "repo", run_dir / "logs"
    home.mkdir(parents=True)
    logs.mkdir()
    files = scratch.build(repo, memkit, store)
    extra = agent.setup(home, repo, PORT)
    path = [
        str(binary.parent),
        str(Path(shutil.which("node") or "/usr/bin/node").parent),
        "/usr/local/bin",
        "/usr/bin",
        "/bin",
    ]
    env = {
        "HOME": str(home),
        "PATH": ":".join(dict.fromkeys(path)),
        "TERM": "dumb",
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "TMPDIR": str(run_dir),
        **extra,
    }
    pre = env.pop("E2E_PRE", "")
    if agent.key == receipts.AGENT:  # its hooks keep receipts, checked after the run
        receipts.prepare(repo, memkit, env)
    spec = {
        "record": str(logs / "requests.jsonl"),
        "logs": str(logs),
        "env": env,
        "read_path": [str(repo / f) for f in scratch.reads_of(store)] if base == "read" else None,
        "cwd": str(repo / scratch.subfolder_of(store)) if base == "sub" else str(repo),
        "argv": [str(binary), *agent.argv(prompt(base, store))],
        "pre": pre,
        "timeout": timeout,
    }
    spec_file = logs / "spec.json"
    spec_file.write_text(json.dumps(spec, indent=1))
    me = [sys.executable, str(Path(__file__).resolve()), "--inner", str(spec_file)]
    wrap = ["unshare", "--net", "--pid", "--fork", "--kill-child", "--"] if isolate else []
    began = time.monotonic()
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run([*wrap, *me], timeout=timeout + 60, check=False)
    seconds = round(time.monotonic() - began, 1)
    # an agent's own caches are not kept (Copilot CLI unpacks itself there: 235 MB a run)
    shutil.rmtree(home / ".cache", ignore_errors=True)
    return finish(agent, scenario, run_dir, files, memkit, seconds)


def finish(
    agent: Agent, scenario: str, run_dir: Path, files: list[str], memkit: str, seconds: float
) -> analyze.RunResult:
    """Analyse one run's record and compare it with `memkit compile --explain`."""
    repo, logs = run_dir / "repo", run_dir / "logs"
    status_file = logs / "status.txt"
    status = status_file.read_text() if status_file.exists() else "no status (runner died)"
    result = analyze.analyse(
        analyze.RunResult(agent.key, scenario, status=status, seconds=seconds),
        logs / "requests.jsonl",
        files,
    )
    store = analyze.store_of(scenario)
    expected = (
        model.explain(memkit, str(repo), agent.reader, scratch.reads_of(store),
                      scratch.subfolder_of(store))
        if agent.reader else None
    )  # fmt: skip
    if expected is None:
        result.model_note = "not in memkit's model (no --explain for it)"
    elif isinstance(expected, str):
        result.model_note = expected
    else:
        result.model = compare(expected, scenario.rpartition(":")[2], result, repo, files)
    return result


def compare(
    expected: model.Expected, scenario: str, result: analyze.RunResult, repo: Path, files: list[str]
) -> list[str]:
    """Files on one side only, then memories sent in full a number of times memkit did
    not expect (`always:3x(model 1x)`), then memories whose state (full, short, absent)
    is not the one memkit expects (`extra6:short(model absent)`), then a stale memory
    sent in full without its annotation (`stale:no annotation`). A file carrying no
    memory (CLAUDE.md holding only `@AGENTS.md`) is left out: what it imports is counted
    where it comes from."""
    texts = {f: (repo / f).read_text(encoding="utf-8") for f in files}
    memories = scratch.memories_of(analyze.store_of(result.scenario))
    carrying = {f for f, t in texts.items() if any(m.title_marker in t for m in memories)}
    want = expected.files(scenario)
    out = model.disagreements(want, {*result.start_files, *result.after_files} & carrying)
    for m in memories:
        times = expected.times(scenario, texts, m.body_marker)
        state, got = result.memories[m.id]
        if state == "full" and got != times:
            out.append(f"{m.id}:{got}x(model {times}x)")
    if expected.fates:
        for m in memories:
            want_state, state = expected.state(scenario, m.id), result.memories[m.id][0]
            if state != want_state:
                out.append(f"{m.id}:{state}(model {want_state})")
    if result.stale_note is False:
        out.append("stale:no annotation")
    return out


def recorded(runs: Path) -> list[Path]:
    """The run folders in `runs`: those of one recording (CACHE/runs/TIME), or, given
    CACHE/runs, the latest of each agent and scenario over every recording there."""
    own = sorted(p.parent.parent for p in runs.glob("*/logs/spec.json"))
    if own:
        return own
    latest = {p.parent.parent.name: p.parent.parent
              for p in sorted(runs.glob("*/*/logs/spec.json"))}  # fmt: skip
    return [latest[name] for name in sorted(latest)]


def reanalyse(out: Path, memkit: str) -> list[analyze.RunResult]:
    """The results of the runs recorded under `out` (see `recorded`), analysed again
    (no agent runs)."""
    results = []
    for run_dir in recorded(out):
        key, _, rest = run_dir.name.partition("-")
        scenario = rest.replace("-", ":")
        repo = run_dir / "repo"
        files = sorted(
            str(p.relative_to(repo))
            for p in repo.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(repo).parts
            and scratch.file_marker(str(p.relative_to(repo))) in p.read_text("utf-8", "replace")
        )  # fmt: skip
        result = finish(BY_KEY[key], scenario, run_dir, files, memkit, 0.0)
        result.run_dir = str(run_dir)
        results.append(result)
    return results


def verdict(results: list[analyze.RunResult]) -> int:
    """Print how many runs memkit's model gets wrong; 1 when any, else 0."""
    wrong = [f"{r.agent} {r.scenario}" for r in results if r.model]
    if wrong:
        print(f"\n{len(wrong)} run(s) disagree with memkit's model: {', '.join(wrong)}")
        return 1
    print(f"\nevery run agrees with memkit's model ({len(results)} run(s))")
    return 0


def can_isolate() -> str:
    """Why the runs cannot get their own network namespace ("" when they can)."""
    if os.geteuid() != 0:
        return "not root: `unshare -n` needs root"
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "`unshare` or `ip` is missing (util-linux, iproute2)"
    done = subprocess.run(
        ["unshare", "--net", "--pid", "--fork", "true"], capture_output=True, text=True, check=False
    )
    return "" if done.returncode == 0 else f"unshare failed: {done.stderr.strip()}"


def main() -> int:
    """Install, run every agent in every scenario, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cache", type=Path, nargs="?", help="folder for the installed agents and runs")
    ap.add_argument("--agents", default=",".join(a.key for a in AGENTS))
    ap.add_argument("--scenarios", default=",".join(SCENARIOS),
                    help="comma-separated, or `every`: each scenario on each store")  # fmt: skip
    ap.add_argument("--timeout", type=int, default=240, help="seconds per agent run")
    ap.add_argument("--memkit", default=str(Path(sys.executable).parent / "memkit"))
    ap.add_argument(
        "--no-isolation",
        action="store_true",
        help="run without a network namespace (the agents may reach the network)",
    )
    ap.add_argument(
        "--reanalyse",
        type=Path,
        metavar="RUNS",
        help="analyse the runs recorded in RUNS (CACHE/runs/TIME, or CACHE/runs for the"
        " latest of each agent and scenario) again; run no agent",
    )
    ap.add_argument("--or-skip", action="store_true",
                    help="where the runs cannot be isolated, say why and exit 0 (CI)")  # fmt: skip
    ap.add_argument("--inner", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        return inner(args.inner)
    memkit = args.memkit if Path(args.memkit).exists() else shutil.which("memkit")
    if not memkit:
        print("e2e: no memkit command; install memkit or give --memkit")
        return 2
    if args.reanalyse:
        again = reanalyse(args.reanalyse, memkit)
        where = [f"{r.agent:<10}{r.scenario:<12}{r.run_dir}" for r in again]
        print(analyze.table(again, list(dict.fromkeys(r.scenario for r in again)))
              + receipts.report(again, args.reanalyse, memkit)
              + "\n".join(["", "", "recorded in:", *where]))  # fmt: skip
        return verdict(again)
    if args.cache is None:
        ap.error("give the cache folder")
    why = "" if args.no_isolation else can_isolate()
    if why and args.or_skip:
        print(f"SKIP e2e: cannot isolate the runs here ({why})")
        return 0
    if why:
        print(f"e2e: cannot isolate the runs ({why}); use --no-isolation to run anyway")
        return 2
    unknown = [k for k in args.agents.split(",") if k not in BY_KEY]
    if unknown:
        print(f"e2e: unknown agent(s) {', '.join(unknown)}; known: {', '.join(BY_KEY)}")
        return 2
    scenarios = args.scenarios.split(",")
    if scenarios == ["every"]:  # each scenario on each store
        scenarios = [f"{st}:{b}" if st != "all" else b for st in scratch.STORES for b in SCENARIOS]
    bad = [s for s in scenarios if s.rpartition(":")[2] not in SCENARIOS
           or s.rpartition(":")[0] not in ("", *scratch.STORES)]  # fmt: skip
    if bad:
        print(
            f"e2e: unknown scenario(s) {', '.join(bad)}; known: {', '.join(SCENARIOS)},"
            f" each optionally prefixed by a store ({', '.join(scratch.STORES)}) and ':'"
        )
        return 2
    cache = args.cache.resolve()
    out = cache / "runs" / time.strftime("%Y%m%dT%H%M%S")
    out.mkdir(parents=True)
    results: list[analyze.RunResult] = []
    for key in args.agents.split(","):
        agent = BY_KEY[key]
        binary, why = install(agent, cache)
        if binary is None:
            print(f"SKIP {agent.key}: {why}", flush=True)
            results += [analyze.RunResult(key, s, status=f"skipped: {why}") for s in scenarios]
            continue
        for s in scenarios:
            r = one_run(agent, binary, s, out, memkit, args.timeout, not args.no_isolation)
            unread = s.endswith("read") and r.tools and not r.read_done
            if not r.requests or unread:  # a slow start, or no read done: once more
                what = "the read was not done" if r.requests else "no request"
                print(
                    f"{agent.name} {agent.version} {s}: {what} ({r.status}); once more", flush=True
                )
                failed = out / "retried" / f"{agent.key}-{s.replace(':', '-')}"
                failed.parent.mkdir(exist_ok=True)
                (out / failed.name).rename(failed)
                r = one_run(agent, binary, s, out, memkit, args.timeout, not args.no_isolation)
            print(f"{agent.name} {agent.version} {s}: {analyze.cell(r)}", flush=True)
            results.append(r)
    text = analyze.table(results, scenarios) + receipts.report(results, out, memkit)
    (out / "table.txt").write_text(text + "\n")
    (out / "results.json").write_text(json.dumps([r.__dict__ for r in results], indent=1))
    print(f"\n{text}\n\nruns in {out}")
    return verdict(results)


if __name__ == "__main__":
    sys.exit(main())
