"""Section 2 of benchmarks/adversarial.py: many writers on one store at once, then an audit.

16 threads each run `memkit` processes in a loop (add, add --commit, add --status draft,
edit of their own memories and of shared seeds, rm, approve, approve --reject, verify,
compile, revert, list --json); two `memkit mcp` servers save and update drafts and propose
revisions of the seeds; a hook thread plays Claude Code sessions (PostToolUse, then
Stop); a git thread commits everything with memkit's pre-commit hook installed. Every
write a process acknowledged goes into a ledger (adv_ledger), audited at the end.
"""

from __future__ import annotations

import json
import random
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any

from adv_common import Run, Section, commit_all, make_repo, memkit, memory_text, run, write
from adv_ledger import Ledger, Owned, audit, git_refusal
from adv_mcp import Mcp

SEEDS = 8
EDITOR = (
    "import os, pathlib, sys\np = pathlib.Path(sys.argv[1])\n"
    "p.write_bytes(p.read_bytes().rstrip(b'\\n') + b'\\n\\n' + os.environ['ADV_TOKEN'].encode()"
    " + b'\\n')\n"
)
APP = (
    "def handler(event):\n    return event\n\n\n"
    "class Service:\n    def run(self):\n        return 1\n"
)
# fmt: off
OPS = [("add", 5), ("add-link", 2), ("add-commit", 1), ("add-draft", 2), ("edit-own", 4),
       ("edit-seed", 3), ("rm", 2), ("approve", 2), ("reject", 1), ("verify", 1),
       ("verify-all", 1), ("compile", 2), ("revert", 1), ("list", 1)]
# fmt: on


class Writer:
    """One CLI writer: its own memories and drafts, and the operations it runs on them."""

    def __init__(self, c: Concurrency, w: int) -> None:
        self.c, self.w, self.L = c, w, c.ledger
        self.rng = random.Random(w)
        self.mine: list[str] = []  # ids it created and has not removed
        self.drafts: list[str] = []

    def loop(self) -> None:
        names, weights = [n for n, _ in OPS], [x for _, x in OPS]
        seq = 0
        while self.c.running():
            seq += 1
            op = self.rng.choices(names, weights)[0]
            token = f"tok-w{self.w}-{seq}"
            if op.startswith("add"):
                self.add(op, seq, token)
            elif op.startswith("edit"):
                self.edit(op, token)
            elif op in ("rm", "reject", "approve"):
                self.remove_or_approve(op)
            elif op == "revert":
                self.revert()
            else:
                self.other(op)

    def add(self, op: str, seq: int, token: str) -> None:
        title = f"W{self.w} {op} {seq}"
        extra = {"add-link": ["--link", "src/app.py::handler"], "add-commit": ["--commit"],
                 "add-draft": ["--status", "draft"]}.get(op, [])  # fmt: skip
        r = self.c.mk("add", title, "--body", token, "--tag", f"w{self.w}", *extra)
        self.L.done(op, r, r.code == 0)
        if r.code != 0:
            return
        mid = r.out.split()[0]
        with self.L.lock:
            self.L.owned[mid] = Owned([token], committed=op == "add-commit")
            if op == "add-commit":
                self.L.commits.append(f"memkit: add {mid}: {title}")
        (self.drafts if op == "add-draft" else self.mine).append(mid)

    def edit(self, op: str, token: str) -> None:
        own = op == "edit-own" and self.mine
        target = self.rng.choice(self.mine) if own else f"seed-{self.rng.randrange(SEEDS)}"
        r = self.c.mk("edit", target, token=token)
        changed = r.code == 2 and "changed while you were editing it" in r.err
        ok = r.code == 0 and r.out.startswith("saved")
        self.L.done(op, r, ok, "edit refused: changed while editing" if changed else None)
        if ok:
            with self.L.lock:
                if target.startswith("seed-"):
                    self.L.seed_tokens[target].append(token)
                else:
                    self.L.owned[target].tokens.append(token)
        if changed:  # the kept edit would reopen next time: drop it, as a person might
            self.c.mk("edit", target, "--discard")

    def remove_or_approve(self, op: str) -> None:
        pool = self.mine if op == "rm" else self.drafts
        if not pool:
            return
        target = pool.pop(self.rng.randrange(len(pool)))
        args = {"rm": ["rm", target], "reject": ["approve", "--reject", target],
                "approve": ["approve", target]}[op]  # fmt: skip
        r = self.c.mk(*args)
        self.L.done(op, r, r.code == 0)
        if r.code != 0:
            pool.append(target)
            return
        with self.L.lock:
            if op == "approve":
                self.L.owned[target].approved = True
            else:
                self.L.removed.add(target)
        if op == "approve":
            self.mine.append(target)

    def revert(self) -> None:
        if not self.mine:
            return
        target = self.rng.choice(self.mine)
        r = self.c.mk("revert", target)
        first = r.code == 2 and ("has no earlier version" in r.err or "not committed yet" in r.err)
        self.L.done(
            "revert",
            r,
            r.code == 0,
            "revert refused: no earlier version (or not committed)" if first else None,
        )
        if r.code == 0:  # what it put back has the text it was added with, maybe no more,
            with self.L.lock:  # and the status committed then (a draft, if approved since)
                self.L.owned[target].tokens = self.L.owned[target].tokens[:1]
                self.L.owned[target].approved = False

    def other(self, op: str) -> None:
        if op == "verify":
            linked = [m for m in self.mine if m.startswith(f"w{self.w}-add-link")]
            target = self.rng.choice(linked) if linked else f"seed-{self.rng.randrange(SEEDS)}"
            r = self.c.mk("verify", target)
        else:
            r = self.c.mk(*{"verify-all": ["verify", "--all"], "compile": ["compile"],
                            "list": ["list", "--json"]}[op])  # fmt: skip
        ok = r.code == 0
        if ok and op == "list":
            try:
                json.loads(r.out)
            except ValueError:
                ok = False
        self.L.done(op, r, ok)


class Concurrency:
    def __init__(self, base: Path, env: dict[str, str], seconds: float, hang: float) -> None:
        self.repo = make_repo(base / "concurrency" / "repo", env)
        self.env = {**env, "EDITOR": f"{sys.executable} {write(base / 'conc-editor.py', EDITOR)}"}
        self.seconds = seconds
        self.hang = hang
        self.ledger = Ledger()
        self.stop_at = 0.0

    def setup(self) -> None:
        write(self.repo / "src" / "app.py", APP)
        for i in range(SEEDS):
            text = memory_text(f"Seed {i}", f"seed-body-{i}", type="convention",
                               links=["src/app.py::handler"], paths=["src/**"])  # fmt: skip
            write(self.repo / ".memory" / f"seed-{i}.md", text)
        commit_all(self.repo, self.env, "seeds")
        done = memkit(self.repo, self.env, "hooks", "install")
        assert done.code == 0, done.show()

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    def mk(self, *args: str, token: str = "") -> Run:
        env = {**self.env, "ADV_TOKEN": token} if token else self.env
        return memkit(self.repo, env, *args, timeout=self.hang)

    # ---------------------------------------------------------------- MCP servers

    def mcp(self, k: int) -> None:
        rng = random.Random(100 + k)
        L = self.ledger
        client = Mcp(self.repo, self.env)
        if not client.initialize(timeout=self.hang):
            L.hangs.append(f"mcp {k}: initialize got no answer")
            client.close()
            return
        seq = 0
        mine: list[str] = []
        while self.running():
            seq += 1
            token = f"tok-mcp{k}-{seq}"
            tool, args = self._mcp_call(rng, k, seq, token, mine)
            started = time.monotonic()
            status, text = client.call(tool, args, timeout=self.hang)
            code = None if status == "timeout" else (0 if status == "ok" else 2)
            r = Run(
                ["mcp", tool, json.dumps(args)[:80]], code, "", text, time.monotonic() - started
            )
            if status == "dead":
                with L.lock:
                    L.unclean.append(f"mcp server {k} died during {tool}")
                break
            L.done(f"mcp:{tool}", r, status == "ok")
            if status == "rpc-error" or "Traceback" in text:
                with L.lock:
                    L.unclean.append(f"mcp {tool}: {text[:300]}")
            self._mcp_record(status == "ok", tool, args, text, token, mine)
        code, err = client.close(timeout=self.hang)
        if code != 0 or "Traceback" in err:
            with L.lock:
                L.unclean.append(f"mcp server {k} exited {code}: {err.strip()[-300:]}")

    def _mcp_call(self, rng: random.Random, k: int, seq: int, token: str,
                  mine: list[str]) -> tuple[str, dict[str, Any]]:  # fmt: skip
        roll = rng.random()
        if roll < 0.35 or not mine:
            return "save_memory", {"title": f"MCP {k} note {seq}", "body": token}
        if roll < 0.7:
            mid = rng.choice(mine)
            body = "\n\n".join([*self.ledger.mcp_drafts[mid], token])
            return "update_memory", {"id": mid, "body": body}
        if roll < 0.8:
            seed = f"seed-{rng.randrange(SEEDS)}"
            return "update_memory", {"id": seed, "body": f"Proposed: {token}"}
        if roll < 0.85:
            return "forget_memory", {"id": mine.pop(rng.randrange(len(mine)))}
        return "search_memories", {"query": "seed"}

    def _mcp_record(self, ok: bool, tool: str, args: dict[str, Any], text: str, token: str,
                    mine: list[str]) -> None:  # fmt: skip
        L = self.ledger
        if not ok:
            if tool == "forget_memory":
                mine.append(args["id"])
            return
        with L.lock:
            if tool == "save_memory":
                mid = json.loads(text)["id"]
                L.mcp_drafts[mid] = [token]
                mine.append(mid)
            elif tool == "update_memory" and args["id"].startswith("seed-"):
                rec = json.loads(text)
                if rec.get("revises") == args["id"]:
                    L.revisions[rec["id"]] = (args["id"], token)
            elif tool == "update_memory":
                L.mcp_drafts[args["id"]].append(token)
            elif tool == "forget_memory":
                L.archived.add(args["id"])

    # ---------------------------------------------------------------- Claude Code hooks

    def hook(self, event: str, payload: dict[str, Any]) -> Run:
        return run([sys.executable, "-m", "memkit.agent_hooks", event], cwd=self.repo,
                   env=self.env, stdin=json.dumps(payload), timeout=self.hang)  # fmt: skip

    def hooks(self) -> None:
        """Sessions one after another: an edit and three commands journaled, then Stop."""
        L = self.ledger
        n = 0
        while self.running():
            n += 1
            sid = f"{n:04d}c0de-adv-session-{n}"
            tokens = [f"tok-hook-{n}-{i}" for i in range(3)]
            app = str(self.repo / "src" / "app.py")
            inputs = [("Edit", {"file_path": app, "new_string": f"return {tokens[0]}"})]
            inputs += [("Bash", {"command": f"echo {t}"}) for t in tokens]
            journaled = True
            for tool, tool_input in inputs:
                payload = {"session_id": sid, "cwd": str(self.repo), "tool_name": tool,
                           "hook_event_name": "PostToolUse", "tool_input": tool_input}  # fmt: skip
                r = self.hook("post-tool-use", payload)
                L.done("hook:post-tool-use", r, r.code == 0 and not r.err)
                journaled &= r.code == 0 and not r.err
            stop = {"session_id": sid, "cwd": str(self.repo), "hook_event_name": "Stop"}
            r = self.hook("stop", stop)
            saved = re.search(r"(?:saved|updated) \.memory/(\S+)\.md \(draft\)", r.err)
            L.done("hook:stop", r, r.code == 0 and saved is not None)
            if saved and journaled:
                with L.lock:
                    L.sessions[saved.group(1)] = tokens

    # ---------------------------------------------------------------- git commits

    def commit(self, subject: str) -> Run:
        run(["git", "add", "-A"], cwd=self.repo, env=self.env, timeout=self.hang)
        return run(["git", "commit", "-q", "-m", subject], cwd=self.repo, env=self.env,
                   timeout=self.hang)  # fmt: skip

    def committer(self) -> None:
        """`git add -A && git commit` every half second, the pre-commit hook installed."""
        L = self.ledger
        n = 0
        while self.running():
            n += 1
            time.sleep(0.5)
            subject = f"adv commit {n}"
            r = self.commit(subject)
            for _ in range(3):  # the hook asks for a review of what it regenerated: accept it
                if not (r.code == 1 and "regenerated" in r.err):
                    break
                L.done("git commit", r, True, "pre-commit hook regenerated outputs")
                r = self.commit(subject)
            # A file written between `git add -A` and `git commit` is simply not in this one.
            nothing = r.code == 1 and re.search(r"nothing (added )?to commit", r.out + r.err)
            L.done("git commit", r, r.code == 0 or bool(nothing), git_refusal(r))
            if r.code == 0:
                with L.lock:
                    L.commits.append(subject)

    def go(self, writers: int) -> None:
        self.setup()
        self.stop_at = time.monotonic() + self.seconds
        threads = [threading.Thread(target=Writer(self, w).loop) for w in range(writers)]
        threads += [threading.Thread(target=self.mcp, args=(k,)) for k in range(2)]
        threads += [threading.Thread(target=self.hooks), threading.Thread(target=self.committer)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def run_section(
    base: Path, env: dict[str, str], *, seconds: float, writers: int, hang: float
) -> Section:
    section = Section(2, "concurrency")
    c = Concurrency(base, env, seconds, hang)
    c.go(writers)
    L = c.ledger
    found = audit(L, c.repo, c.env, hang)
    section.count("operations", sum(L.ops.values()))
    errors = sum(len(v) for v in L.errors.values())
    section.count("errors (clean one-line)", errors - len(L.unclean))
    for name, items in [("errors that are not a clean one-line message", L.unclean),
                        ("hangs", L.hangs), *found.items()]:  # fmt: skip
        fig = section.fig(name)
        for x in items:
            fig.add(x)
    section.details.append(
        f"{writers} CLI writers, 2 MCP servers, 1 hook thread, 1 git committer for {seconds:g} s; "
        f"a process over {hang:g} s counts as a hang"
    )
    section.details.append("operations: " + ", ".join(f"{k} {v}" for k, v in sorted(L.ops.items())))
    slowest = sorted(L.slowest.items(), key=lambda kv: -kv[1])[:6]
    section.details.append("slowest: " + ", ".join(f"{k} {v:.1f} s" for k, v in slowest))
    for kind, n in sorted(L.refusals.items()):
        section.details.append(f"expected refusal: {kind}: {n}")
    for kind, items in sorted(L.errors.items(), key=lambda kv: -len(kv[1])):
        section.details.append(f"error x{len(items)}: {kind}")
        section.details.append(f"    e.g. {items[0]}")
    return section


def summary(section: Section) -> str:
    f = section.figures
    return (
        f"operations {f['operations'].value}, errors {f['errors (clean one-line)'].value} "
        f"clean + {f['errors that are not a clean one-line message'].value} not clean, lost "
        f"{f['lost'].value}, hangs {f['hangs'].value}, duplicate ids "
        f"{f['duplicate ids'].value}, unparsable {f['files that do not parse'].value}"
    )
