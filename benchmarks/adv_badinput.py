"""Section 5 of benchmarks/adversarial.py: bad CLI invocations, hook payloads, MCP garbage.

A bad CLI invocation must end in a clean error (exit 1 or 2, memkit's one line or click's
usage error) or be accepted (exit 0, listed apart); a hook must exit 0 with at most one
line on stderr, write nothing but memkit's own files, and print nothing or SessionStart's
JSON; the MCP server must answer every request (or a line it cannot read) with a reply,
stay up, and never show a traceback. Each process has a time limit and a 4 GiB
address-space limit (reading /dev/zero must not take the machine down).
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from adv_badcases import bad_env_cases, cli_cases, hook_payloads, mcp_calls, mcp_lines
from adv_common import (
    Run,
    Section,
    commit_all,
    diff_stamps,
    make_repo,
    memory_text,
    run,
    shorten,
    tree_stamps,
    write,
)
from adv_mcp import Mcp

APP = "def handler(event):\n    return event\n"


def limited(
    argv: list[Any],
    *,
    cwd: Path,
    env: dict[str, str],
    stdin: bytes | str | None = None,
    timeout: float,
) -> Run:
    return run(argv, cwd=cwd, env=env, stdin=stdin, timeout=timeout, capped=True)


# ---------------------------------------------------------------------- running


class BadInput:
    def __init__(
        self, base: Path, env: dict[str, str], *, quick: bool, jobs: int, timeout: float
    ) -> None:
        self.base = base / "badinput"
        self.env = env
        self.quick = quick
        self.jobs = jobs
        self.timeout = timeout
        self.repo = make_repo(self.base / "repo", env)
        self.outside = self.base / "outside"
        write(self.outside / "bin", b"\x00\xff" * 100)
        write(self.outside / "big.md", "word " * 400_000)
        (self.repo / "out").symlink_to(self.outside)
        os.mkfifo(self.outside / "fifo")
        write(self.repo / "src" / "app.py", APP)
        write(
            self.repo / ".memory" / "seed.md",
            memory_text("Seed", "Seed text.", links=["src/app.py::handler"]),
        )
        commit_all(self.repo, env, "seed")

    def sample(self, items: list[Any], n: int) -> list[Any]:
        if not self.quick or len(items) <= n:
            return items
        step = len(items) / n
        return [items[int(i * step)] for i in range(n)]

    def cli(self, section: Section) -> None:
        cases = [(self.env, c) for c in cli_cases(self.repo, self.outside)]
        cases += [({**self.env, **e}, c) for e, c in bad_env_cases()]
        cases = self.sample(cases, 40)
        bad = section.fig("CLI: violations")
        accepted = section.fig("CLI: accepted (exit 0)", zero=False)

        def one(case: tuple[dict[str, str], list[str]]) -> Run:
            env, args = case
            argv = [sys.executable, "-P", "-m", "memkit", *[os.fsencode(a) for a in args]]
            return limited(argv, cwd=self.repo, env=env, timeout=self.timeout)

        with ThreadPoolExecutor(self.jobs) as pool:
            runs = list(pool.map(one, cases))
        for r in runs:
            if r.hung:
                bad.add(f"hang: {r.show(200)}", keep=20)
            elif r.code == 0 or (r.code == 1 and not r.traceback and not r.err.strip()):
                accepted.add(r.show(160), keep=40)  # done, or a check's answer
            elif not r.clean_error():
                bad.add(r.show(400), keep=20)
        section.count("CLI invocations", len(runs))
        section.details.append(
            f"CLI: {len(runs)} invocations, {len(runs) - bad.value} without a "
            f"violation ({accepted.value} of them accepted, exit 0)"
        )

    def hooks(self, section: Section) -> None:
        payloads = list(hook_payloads(self.repo, self.outside))
        # Every payload to each of its events through the entry point Claude Code runs
        # (`memkit-hook`, i.e. memkit.agent_hooks); every other one through `memkit hook` too.
        cases = [
            (["memkit.agent_hooks", e], label, raw)
            for label, raw, events in payloads
            for e in events
        ]
        cases = self.sample(cases, 40)
        cases += self.sample(
            [
                (["memkit", "hook", events[n % len(events)]], label, raw)
                for n, (label, raw, events) in enumerate(payloads)
                if n % 2 == 0
            ],
            10,
        )
        bad = section.fig("hooks: violations")
        home = Path(self.env["HOME"])
        skip = (str(self.repo / ".git" / "memkit"),)
        section.details.append(f"hooks: {len(payloads)} distinct payloads, {len(cases)} runs")
        for entry, label, raw in cases:
            event = entry[-1]
            before = tree_stamps(self.repo, home, self.outside, skip=skip)
            r = limited(
                [sys.executable, "-m", *entry],
                cwd=self.repo,
                env=self.env,
                stdin=raw,
                timeout=self.timeout,
            )
            problem = _hook_problem(r, event)
            if problem:
                bad.add(f"{' '.join(entry)} <- {label}: {problem}", keep=25)
            section.count("hook payloads", 1)
            after = tree_stamps(self.repo, home, self.outside, skip=skip)
            changed = [
                x
                for x in diff_stamps(before, after)
                if "/.memory/session-" not in x and not x.endswith("/.memory")
            ]
            if changed:
                bad.add(f"{event} <- {label}: wrote {', '.join(changed[:3])}", keep=25)

    def mcp(self, section: Section) -> None:
        bad = section.fig("MCP: violations")
        multi = section.fig("MCP: error replies longer than one line", zero=False)
        client = Mcp(self.repo, self.env, capped=True)
        n = 0
        for label, raw in self.sample(mcp_lines(), 8):
            n += 1
            client.send(raw)
            reply = client.next_message(min(self.timeout, 10))
            if reply in (None, "timeout"):
                what = "no reply in 10 s" if reply else "the server died"
                bad.add(f"line {label!r} before initialize: {what}")
                if reply is None:
                    break
            elif "Traceback" in json.dumps(reply):
                bad.add(f"line {label!r}: a traceback in the reply")
        if not client.initialize(self.timeout):
            bad.add("initialize failed after the garbage lines")
        lost_id = section.fig("MCP: error replies without the request's id", zero=False)
        for label, method, params in self.sample(mcp_calls(), 16):
            n += 1
            rid = client.next_id
            client.next_id += 1
            line = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
            client.send((json.dumps(line) + "\n").encode())
            reply = client.next_message(self.timeout)
            if reply is None:
                bad.add(f"{label}: the server died")
                break
            if reply == "timeout":
                bad.add(f"{label}: no reply in {self.timeout:g} s")
                continue
            if isinstance(reply, dict) and reply.get("id") is None and "error" in reply:
                lost_id.add(f"{label} (id {rid}): {shorten(json.dumps(reply['error']), 120)}")
            text = json.dumps(reply)
            if "Traceback" in text:
                bad.add(f"{label}: a traceback in the reply: {shorten(text, 200)}")
            message = _error_text(reply)
            if message is not None and "\n" in message.strip():
                multi.add(f"{label}: {shorten(message, 240)}", keep=12)
            alive = client.request("ping", {}, self.timeout)
            if not isinstance(alive, dict) or "result" not in alive:
                bad.add(f"{label}: the server no longer answers ping")
                break
        code, err = client.close(self.timeout)
        if code not in (0, None) or "Traceback" in err:
            bad.add(f"the server exited {code}: {shorten(err.strip()[-400:], 400)}")
        section.count("MCP lines and calls", n)


def _error_text(reply: dict[str, Any]) -> str | None:
    if "error" in reply:
        return str(reply["error"].get("message", ""))
    result = reply.get("result", {})
    if isinstance(result, dict) and result.get("isError"):
        return "".join(c.get("text", "") for c in result.get("content", []))
    return None


def _hook_problem(r: Run, event: str) -> str | None:
    if r.hung:
        return f"no answer within {r.seconds:.0f} s"
    if r.code != 0:
        return f"exit {r.code}: {shorten(r.err.strip()[-300:], 300)}"
    if r.traceback:
        return f"traceback: {shorten(r.err.strip()[-300:], 300)}"
    if r.err.count("\n") > 1:
        return f"{r.err.count(chr(10))} lines on stderr: {shorten(r.err, 200)}"
    if r.out.strip():
        try:
            data = json.loads(r.out)
        except ValueError:
            return f"stdout is not JSON: {shorten(r.out, 120)}"
        # a top-level systemMessage (shown to the person, any event: the Stop hook names
        # the draft it saved), and SessionStart's context
        told = isinstance(data, dict) and set(data) == {"systemMessage"}
        told = told and isinstance(data["systemMessage"], str)
        if not told and (event != "session-start" or "hookSpecificOutput" not in data):
            return f"unexpected stdout: {shorten(r.out, 120)}"
    return None


def run_section(
    base: Path, env: dict[str, str], *, quick: bool, jobs: int, timeout: float
) -> Section:
    section = Section(5, "bad input")
    b = BadInput(base, env, quick=quick, jobs=jobs, timeout=timeout)
    b.cli(section)
    b.hooks(section)
    b.mcp(section)
    return section


def summary(section: Section) -> str:
    f = section.figures
    return (
        f"CLI {f['CLI invocations'].value} ({f['CLI: violations'].value} violations, "
        f"{f['CLI: accepted (exit 0)'].value} accepted), hooks {f['hook payloads'].value} "
        f"({f['hooks: violations'].value} violations), MCP {f['MCP lines and calls'].value} "
        f"({f['MCP: violations'].value} violations)"
    )
