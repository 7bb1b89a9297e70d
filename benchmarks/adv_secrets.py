"""Section 3 of benchmarks/adversarial.py: every way a secret could get into the store.

Each way in (a row) gets its own repository. Every secret of adv_secret_corpus is pushed
through it, then every file under `.memory/` and every session journal in memkit's
private folder is searched for the secret's tells (its random pieces and their ends).
Found there is a leak (must be 0), except for `add --allow-secret` and the allow-secret
pragma used by a person, which exist to let documented fake examples through and are
reported apart. Other files of the private folder (an edit that was refused is kept
there so nothing typed is lost) are counted apart too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adv_common import (
    Run,
    Section,
    commit_all,
    make_repo,
    memkit,
    memory_text,
    run,
    write,
)
from adv_mcp import Mcp
from adv_secret_corpus import Secret, secrets

QUICK_KINDS = (
    "AWS access key id",
    "Slack app-level token",
    "Google OAuth client secret",
    "age secret key",
    "OpenSSH private key",
    ".netrc line",
    "password in redis URL, no user",
    "export X_TOKEN",
)
PRAGMAS = (
    "  <!-- memkit: allow-secret -->",
    "  # memkit: allow-secret",
    " memkit:allow-secret",
    " MEMKIT: ALLOW_SECRETS",
    " memkit : allow secret",
)
EDIT_APPEND = (
    "import os, pathlib, sys\np = pathlib.Path(sys.argv[1])\n"
    "p.write_text(p.read_text('utf-8') + '\\n' + os.environ['ADV_SECRET'] + '\\n', 'utf-8')\n"
)
APP = "def handler(event):\n    return event\n"


def with_pragma(text: str, n: int = 0) -> str:
    return "\n".join(f"{line}{PRAGMAS[n % len(PRAGMAS)]}" for line in text.splitlines())


@dataclass
class Row:
    name: str
    attempt: Callable[[Path, int, Secret], str]  # returns an outcome word
    person: bool = False  # a person vouching: reported apart
    setup: Callable[[Path, list[Secret]], None] | None = None
    mcp: bool = False
    outcomes: dict[str, int] = field(default_factory=dict)
    reached: list[tuple[str, str]] = field(default_factory=list)  # (format, "row -> file")
    kept: list[str] = field(default_factory=list)


class Secrets:
    def __init__(self, base: Path, env: dict[str, str], jobs: int) -> None:
        self.base = base / "secrets"
        self.env = env
        self.jobs = jobs
        editor = write(self.base / "append-editor.py", EDIT_APPEND)
        self.editor = f"{sys.executable} {editor}"
        self.unclean: list[str] = []
        self.client: Mcp | None = None  # the server of the MCP row being run

    # ---------------------------------------------------------------- outcomes

    def outcome(self, r: Run) -> str:
        if r.hung or r.traceback:
            self.unclean.append(r.show(300))
            return "failed (hang or traceback)"
        if r.code == 0:
            return "accepted"
        if "looks like a" in r.err or "refusing to write" in r.err:
            return "refused as a secret"
        if not r.clean_error():
            self.unclean.append(r.show(300))
        return "refused otherwise"

    def cli(
        self,
        *args: str,
        stdin: str | None = None,
        secret: str = "",
        editor: bool = False,
    ) -> Callable[[Path, int, Secret], str]:
        def attempt(repo: Path, i: int, s: Secret) -> str:
            argv = [a.replace("{S}", s.text).replace("{i}", str(i)) for a in args]
            env = {**self.env, "ADV_SECRET": s.text}
            if editor:
                env["EDITOR"] = self.editor
            body = s.text if stdin == "{S}" else stdin
            if "{F}" in argv:
                f = write(self.base / "bodies" / f"{i}.txt", s.text)
                argv = [str(f) if a == "{F}" else a for a in argv]
            return self.outcome(memkit(repo, env, *argv, stdin=body, timeout=60))

        return attempt

    def hook_row(self, tool: str) -> Callable[[Path, int, Secret], str]:
        def attempt(repo: Path, i: int, s: Secret) -> str:
            sid = f"{i:03d}{tool.lower()[:5]:_<5}-secret-session"
            app = str(repo / "src" / "app.py")
            inputs = {
                "Bash": {"command": s.text},
                "Grep": {"pattern": s.text},
                "Edit": {"file_path": app, "old_string": "x", "new_string": s.text},
                "Write": {"file_path": app, "content": s.text},
            }
            payloads = [(tool, inputs[tool])] if tool != "prompt" else []
            if tool not in ("Edit", "Write"):
                payloads.append(("Edit", {"file_path": app, "new_string": "return event"}))
            words = []
            for name, tool_input in payloads:
                payload = {
                    "session_id": sid,
                    "cwd": str(repo),
                    "hook_event_name": "PostToolUse",
                    "tool_name": name,
                    "tool_input": tool_input,
                }
                words.append(self._hook(repo, "post-tool-use", payload))
            stop: dict[str, Any] = {"session_id": sid, "cwd": str(repo), "hook_event_name": "Stop"}
            if tool == "prompt":
                entry = {"type": "user", "message": {"role": "user", "content": s.text}}
                transcript = write(
                    self.base / "transcripts" / f"{i}.jsonl", json.dumps(entry) + "\n"
                )
                stop["transcript_path"] = str(transcript)
            words.append(self._hook(repo, "stop", stop))
            return "accepted" if all(w == "accepted" for w in words) else words[0]

        return attempt

    def _hook(self, repo: Path, event: str, payload: dict[str, Any]) -> str:
        r = run(
            [sys.executable, "-m", "memkit.agent_hooks", event],
            cwd=repo,
            env=self.env,
            stdin=json.dumps(payload),
            timeout=60,
        )
        if r.hung or r.traceback or r.code != 0 or (r.out and not _hook_json(r.out)):
            self.unclean.append(r.show(300))
            return "failed (hang, traceback or not exit 0)"
        return "accepted"

    # ---------------------------------------------------------------- rows

    def rows(self) -> list[Row]:
        c = self.cli
        rows = [
            Row("add TITLE", c("add", "{S}", "--body", "text")),
            Row("add --body", c("add", "Note {i}", "--body", "{S}")),
            Row("add --body-file", c("add", "Note {i}", "--body-file", "{F}")),
            Row("add, piped stdin", c("add", "Note {i}", stdin="{S}")),
            Row("add --body-file -", c("add", "Note {i}", "--body-file", "-", stdin="{S}")),
            Row("add --edit", c("add", "Note {i}", "--edit", editor=True)),
            Row("add --tag", c("add", "Note {i}", "--body", "text", "--tag", "{S}")),
            Row("add --source", c("add", "Note {i}", "--body", "text", "--source", "{S}")),
            Row("add --path", c("add", "Note {i}", "--body", "text", "--path", "{S}")),
            Row("add --link", c("add", "Note {i}", "--body", "text", "--link", "{S}")),
            Row("edit", c("edit", "target-{i}", editor=True), setup=self._targets),
            Row("import", c("import", "docs/secret-{i}.md"), setup=self._imports),
        ]
        rows += [
            Row(f"MCP save_memory {field}", self.mcp_save(field), mcp=True)
            for field in ("title", "body", "source", "tags", "links", "paths")
        ]
        rows += [
            Row(
                "MCP save_memory body + allow-secret pragma",
                self.mcp_save("body", pragma=True),
                mcp=True,
            ),
            Row(
                "MCP update_memory own draft",
                self.mcp_update(draft=True),
                mcp=True,
                setup=self._drafts,
            ),
            Row(
                "MCP update_memory own draft + pragma",
                self.mcp_update(draft=True, pragma=True),
                mcp=True,
                setup=self._drafts,
            ),
            Row(
                "MCP update_memory reviewed memory + pragma",
                self.mcp_update(draft=False, pragma=True),
                mcp=True,
                setup=self._targets,
            ),
        ]
        rows += [
            Row(f"hooks: PostToolUse {tool} + Stop", self.hook_row(tool))
            for tool in ("Bash", "Grep", "Edit", "Write")
        ]
        rows.append(Row("hooks: Stop, first prompt of the transcript", self.hook_row("prompt")))
        rows += [
            Row(
                "add --allow-secret (a person)",
                c("add", "Note {i}", "--body", "{S}", "--allow-secret"),
                person=True,
            ),
            Row("add with the allow-secret pragma (a person)", self.pragma_add(), person=True),
        ]
        return rows

    def pragma_add(self) -> Callable[[Path, int, Secret], str]:
        def attempt(repo: Path, i: int, s: Secret) -> str:
            body = with_pragma(s.text)
            return self.outcome(memkit(repo, self.env, "add", f"Note {i}", "--body", body))

        return attempt

    def mcp_save(self, field: str, pragma: bool = False) -> Callable[[Path, int, Secret], str]:
        def attempt(repo: Path, i: int, s: Secret) -> str:
            text = with_pragma(s.text, i) if pragma else s.text
            args: dict[str, object] = {"title": f"Note {i}", "body": "text"}
            args[field] = [text] if field in ("tags", "links", "paths") else text
            return self._mcp_call(repo, "save_memory", args)

        return attempt

    def mcp_update(
        self, *, draft: bool, pragma: bool = False
    ) -> Callable[[Path, int, Secret], str]:
        def attempt(repo: Path, i: int, s: Secret) -> str:
            text = with_pragma(s.text, i) if pragma else s.text
            mid = f"draft-{i}" if draft else f"target-{i}"
            return self._mcp_call(repo, "update_memory", {"id": mid, "body": text})

        return attempt

    def _mcp_call(self, repo: Path, tool: str, args: dict[str, object]) -> str:
        assert self.client is not None
        status, text = self.client.call(tool, args, timeout=60)
        if status in ("dead", "timeout", "rpc-error") or "Traceback" in text:
            self.unclean.append(f"MCP {tool}: {status}: {text[:300]}")
            return f"failed ({status})"
        if status == "ok":
            return "accepted"
        return "refused as a secret" if "looks like a" in text else "refused otherwise"

    # ---------------------------------------------------------------- setups

    def _targets(self, repo: Path, items: list[Secret]) -> None:
        for i in range(len(items)):
            write(repo / ".memory" / f"target-{i}.md", memory_text(f"Target {i}", "Reviewed text."))
        commit_all(repo, self.env, "targets")

    def _drafts(self, repo: Path, items: list[Secret]) -> None:
        for i in range(len(items)):
            write(
                repo / ".memory" / f"draft-{i}.md",
                memory_text(f"Draft {i}", "Agent text.", status="draft"),
            )
        commit_all(repo, self.env, "drafts")

    def _imports(self, repo: Path, items: list[Secret]) -> None:
        for i, s in enumerate(items):
            write(
                repo / "docs" / f"secret-{i}.md",
                f"# Ops notes\n\n## Deploy credentials {i}\n\nThe deploy uses this:\n\n{s.text}\n",
            )

    # ---------------------------------------------------------------- running

    def go(self, row: Row, items: list[Secret], n: int) -> None:
        repo = make_repo(self.base / f"row-{n}" / "repo", self.env)
        write(repo / "src" / "app.py", APP)
        commit_all(repo, self.env, "app")
        if row.setup:
            row.setup(repo, items)
        if row.mcp:
            self.client = Mcp(repo, self.env)
            self.client.initialize()
            words = [row.attempt(repo, i, s) for i, s in enumerate(items)]
            code, err = self.client.close()
            if code != 0 or "Traceback" in err:
                self.unclean.append(f"MCP server exited {code}: {err.strip()[-300:]}")
        else:
            with ThreadPoolExecutor(self.jobs) as pool:
                words = list(pool.map(lambda a: row.attempt(repo, *a), enumerate(items)))
        for w in words:
            row.outcomes[w] = row.outcomes.get(w, 0) + 1
        self.detect(row, repo, items)

    def detect(self, row: Row, repo: Path, items: list[Secret]) -> None:
        private = repo / ".git" / "memkit"
        watched = [p for p in (repo / ".memory").rglob("*") if p.is_file()]
        watched += [p for p in (private / "sessions").glob("*") if p.is_file()]
        others = [
            p
            for p in private.rglob("*")
            if p.is_file() and p not in watched and p.parent.name in ("edit", "revert")
        ]
        texts = {p: p.read_text("utf-8", "replace") for p in watched + others}
        for s in items:
            where = [p for p in watched if any(t in texts[p] for t in s.tells)]
            if where:
                row.reached.append((s.kind, f"{row.name} -> {where[0].relative_to(repo)}"))
            kept = [p for p in others if any(t in texts[p] for t in s.tells)]
            if kept and not where:
                row.kept.append(f"{row.name}: {s.kind} kept in {kept[0].relative_to(repo)}")


def run_section(base: Path, env: dict[str, str], *, quick: bool, jobs: int) -> Section:
    section = Section(3, "secrets through every write path")
    items = secrets()
    if quick:
        items = [s for s in items if s.kind in QUICK_KINDS]
    s = Secrets(base, env, jobs)
    agents = people = attempts = 0
    leaked = section.fig("secrets that reached .memory/ or a journal")
    ways: dict[str, list[str]] = {}  # format -> "row: file" for every leak
    for n, row in enumerate(s.rows()):
        s.go(row, items, n)
        attempts += len(items)
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(row.outcomes.items()))
        section.details.append(
            f"{row.name}: attempted {len(items)}, reached {len(row.reached)} ({outcomes})"
        )
        if row.person:
            people += len(row.reached)
            for kind, where in row.reached[:2]:
                section.details.append(f"    by design: {kind}, {where}")
        else:
            agents += len(row.reached)
            for kind, where in row.reached:
                leaked.value += 1
                ways.setdefault(kind, []).append(where)
        for x in row.kept:
            section.fig("kept in the private folder (refused edits, by design)", zero=False).add(x)
    section.count("secret formats", len(items))
    section.count("attempts", attempts)
    section.count("reached by a person's --allow-secret or pragma (by design)", people)
    unclean = section.fig("failures (traceback, hang, unclean error)")
    for x in s.unclean:
        unclean.add(x)
    rows = len(s.rows()) - 2
    for kind, places in sorted(ways.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        leaked.examples.append(f"{kind}: through {len(places)} of {rows} ways in, e.g. {places[0]}")
    return section


def summary(section: Section) -> str:
    f = section.figures
    person = f["reached by a person's --allow-secret or pragma (by design)"].value
    return (
        f"{f['secret formats'].value} formats, {f['attempts'].value} attempts, reached "
        f"{f['secrets that reached .memory/ or a journal'].value}, by a person {person}"
    )


def _hook_json(out: str) -> bool:
    """Claude Code's hook contract: stdout may be one JSON object (e.g. a systemMessage)."""
    try:
        return isinstance(json.loads(out), dict)
    except ValueError:
        return False
