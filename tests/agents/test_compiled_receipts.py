"""Receipts of what Claude Code loads by itself from `memkit compile`'s files: CLAUDE.md
(AGENTS.md when there is none) at session start, a .claude/rules file once a file its
`paths` match is read; each named with the file and that file's git blob as it was.
The hooks get Claude Code's own payloads; the projects are compiled for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke, commit_files, git
from conftest import claude_hook as hook

from memkit import memory as mm
from memkit.agents.claude import ledger, loaded
from memkit.store import Store

SID = "0d6c1f2a-5b7e-4c3d-9a8b-1e2f3a4b5c6d"
DAY = "2026-11-22"


def start(root: Path, source: str = "startup", cwd: Path | None = None) -> dict[str, Any]:
    return {
        "session_id": SID,
        "transcript_path": str(root / "t.jsonl"),
        "cwd": str(cwd or root),
        "permission_mode": "default",
        "hook_event_name": "SessionStart",
        "source": source,
    }


def read(root: Path, rel: str) -> dict[str, Any]:
    """A PostToolUse payload as Claude Code sends it after its Read tool."""
    path = str(root / rel)
    return {
        "session_id": SID,
        "transcript_path": str(root / "t.jsonl"),
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "tool_response": {
            "type": "text",
            "file": {
                "filePath": path,
                "content": "x",
                "numLines": 1,
                "startLine": 1,
                "totalLines": 1,
            },
        },
        "tool_use_id": "toolu_01",
    }


def add(store: Store, mid: str, title: str, **extra: Any) -> None:
    import datetime

    store.add(mm.new(title, f"{title}: body.", mid=mid, today=datetime.date(2026, 11, 22), **extra))


def compiled(store: Store, run: Invoke, targets: str, more: str = "") -> Path:
    """The project with two memories, compiled for `targets`, committed."""
    root = store.root
    commit_files(
        root, {"src/billing.py": "def total(xs):\n    return sum(xs)\n", "README.md": "# billing\n"}
    )
    (root / ".memory" / "config.toml").write_text(f"[compile]\ntargets = {targets}\n{more}")
    add(store, "utc", "Use UTC everywhere")
    add(store, "invoices", "Invoices are immutable", paths=["src/**/*.py"])
    run("compile")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "memories")
    return root


def why(run: Invoke) -> list[dict[str, Any]]:
    return [r for r in json.loads(run("why", SID, "--json").stdout) if r.get("id")]


def blob(root: Path, rel: str) -> str:
    return git(root, "hash-object", rel).strip()


def test_why_lists_what_claude_md_and_a_rule_gave(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["claude"]')
    rule = ".claude/rules/memkit-src-py.md"
    assert (root / rule).is_file()
    assert hook(root, "session-start", start(root), process=True) == ""  # all in CLAUDE.md
    hook(root, "post-tool-use", read(root, "README.md"))
    assert [(r["id"], r["via"]) for r in why(run)] == [("utc", "CLAUDE.md")]
    hook(root, "post-tool-use", read(root, "src/billing.py"), process=True)
    hook(root, "post-tool-use", read(root, "src/billing.py"))  # loaded once
    got = why(run)
    head = git(root, "rev-parse", "HEAD").strip()
    assert [(r["event"], r["id"], r["via"], r["why"], r["blob"], r["commit"]) for r in got] == [
        ("session-start", "utc", "CLAUDE.md", "loaded at startup", blob(root, "CLAUDE.md"), head),
        ("file", "invoices", rule, "src/billing.py", blob(root, rule), head),
    ]
    table = run("why", SID[:8]).stdout.splitlines()
    assert table[0].split()[3] == "ROUTE"
    assert [line.split()[2:4] for line in table[2:]] == [["utc", "CLAUDE.md"], ["invoices", rule]]
    listed = run("sessions").stdout.splitlines()
    assert listed[1].split()[0] == SID and listed[1].split()[3] == "2"
    influenced = run("sessions", "--memory", "invoices").stdout.splitlines()
    assert influenced[1].split()[3] == rule


def test_agents_md_is_what_claude_code_reads_without_claude_md(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["agents"]')
    assert not (root / "CLAUDE.md").exists()
    assert hook(root, "session-start", start(root)) == ""  # AGENTS.md has it: not given twice
    got = why(run)
    assert {(r["id"], r["via"]) for r in got} == {("utc", "AGENTS.md"), ("invoices", "AGENTS.md")}
    assert {r["blob"] for r in got} == {blob(root, "AGENTS.md")}


def test_the_version_is_the_file_as_it_was_when_read(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["claude"]')
    hook(root, "session-start", start(root))
    before = blob(root, "CLAUDE.md")
    path = root / ".memory" / "utc.md"
    path.write_text(path.read_text().replace("body.", "body, edited."))
    run("compile")
    hook(root, "session-start", start(root, "compact"))
    versions = [r["blob"] for r in why(run) if r["id"] == "utc"]
    assert versions == [before, blob(root, "CLAUDE.md")] and before != versions[1]
    sessions = run("sessions", "--memory", "utc").stdout.splitlines()[1:]
    assert [line.split()[-1] for line in sessions] == [versions[1][:12], before[:12]]


def test_a_rule_is_loaded_again_after_a_compaction(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["claude"]')
    hook(root, "session-start", start(root))
    hook(root, "post-tool-use", read(root, "src/billing.py"))
    hook(root, "session-start", start(root, "compact"))
    hook(root, "post-tool-use", read(root, "src/billing.py"))
    assert [r["id"] for r in why(run) if r["event"] == "file"] == ["invoices", "invoices"]


def test_imports_and_a_started_subfolder_are_followed(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["agents"]')
    notes = "Hand-written notes.\n<!-- memkit:id=local -->\n"
    commit_files(root, {"CLAUDE.md": "# Project\n\n@AGENTS.md\n", "src/CLAUDE.md": notes})
    hook(root, "session-start", start(root, cwd=root / "src"))
    got = {(r["id"], r["via"]) for r in why(run)}
    assert got == {("utc", "AGENTS.md"), ("invoices", "AGENTS.md"), ("local", "src/CLAUDE.md")}


def test_a_subfolder_agents_md_is_received_when_a_file_there_is_read(
    store: Store, run: Invoke
) -> None:
    root = compiled(store, run, '["agents"]', "nested_agents = true\n")
    assert "memkit:id=invoices" in (root / "src" / "AGENTS.md").read_text()
    hook(root, "session-start", start(root))
    hook(root, "post-tool-use", read(root, "README.md"))
    assert [r["via"] for r in why(run) if r["event"] == "file"] == []
    hook(root, "post-tool-use", read(root, "src/billing.py"))
    hook(root, "post-tool-use", read(root, "src/billing.py"))
    got = [(r["id"], r["via"], r["blob"]) for r in why(run) if r["event"] == "file"]
    assert got == [("invoices", "src/AGENTS.md", blob(root, "src/AGENTS.md"))]


def test_a_shortened_memory_is_received_as_its_title(store: Store, run: Invoke) -> None:
    root = store.root
    text = (
        "# Notes\n\n<!-- memkit:begin -->\n## Notes\n\n### Kept\n\nKept: body.\n"
        "<!-- memkit:id=kept -->\n\n## More memories\n\nShortened to their titles to keep "
        "this file within its budget; read one with `memkit show ID`.\n\n"
        "- Cut short: `memkit show cut`\n- Old one: `memkit show old` (possibly out of date)\n"
        "\nLeft out to keep this file within its budget; read one with `memkit show ID`:\n\n"
        "- `gone`\n<!-- memkit:end -->\n"
    )
    commit_files(root, {"CLAUDE.md": text})
    hook(root, "session-start", start(root))
    assert [(r["id"], r.get("form", "")) for r in why(run)] == [
        ("kept", ""),
        ("cut", "title"),
        ("old", "title"),
    ]
    assert "CLAUDE.md (title only)" in run("why", SID).stdout


def test_compiled_memories_spend_nothing_of_the_hooks_budget(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["claude"]')
    hook(root, "session-start", start(root))
    hook(root, "post-tool-use", read(root, "src/billing.py"))
    given, spent = ledger.state(ledger.records(ledger.receipts_file(str(root), SID)))
    assert given == {"utc", "invoices"} and spent == 0


@pytest.mark.parametrize(
    ("front", "globs"),
    [
        ("paths:\n  - src/**/*.py\n  - 'docs/*.md'\n", ["src/**/*.py", "docs/*.md"]),
        ('paths: ["src/**", "lib/*.ts"]\n', ["src/**", "lib/*.ts"]),
        ("paths: src/**\ndescription: x\n", ["src/**"]),
        ("description: no paths\n", []),
    ],
)
def test_rule_paths_are_read_in_each_yaml_form(front: str, globs: list[str]) -> None:
    assert loaded._paths(f"---\n{front}---\nbody\n".encode()) == globs


def test_a_link_out_of_the_project_is_not_read(store: Store, run: Invoke, tmp_path: Path) -> None:
    root = compiled(store, run, '["claude"]')
    outside = tmp_path / "elsewhere.md"
    outside.write_text("<!-- memkit:id=outside -->\n")
    (root / "CLAUDE.md").unlink()
    (root / "CLAUDE.md").symlink_to(outside)
    hook(root, "session-start", start(root))
    assert "outside" not in {r["id"] for r in why(run)}


def test_a_read_imports_nothing_heavy(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["claude"]')
    code = (
        "import sys, io, json\n"
        "from memkit.agents.claude import hook\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(read(root, 'src/billing.py'))!r}"
        ".encode()))\n"
        "hook.main(['post-tool-use'])\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    subprocess.run(
        [sys.executable, "-m", "memkit.agents.claude", "session-start"],
        input=json.dumps(start(root)),
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "MEMKIT_TODAY": DAY},
        check=True,
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "MEMKIT_TODAY": DAY},
    )
    mods = set(json.loads(done.stderr.splitlines()[-1]))
    assert not mods & {"typing", "pathlib", "dataclasses", "yaml", "pygit2", "memkit.store"}
    assert [r["id"] for r in why(run) if r["event"] == "file"] == ["invoices"]


def test_with_claude_md_a_subfolder_agents_md_is_not_read(store: Store, run: Invoke) -> None:
    root = compiled(store, run, '["agents", "claude"]', "nested_agents = true\n")
    assert (root / "src" / "AGENTS.md").is_file() and (root / "CLAUDE.md").is_file()
    hook(root, "session-start", start(root))
    hook(root, "post-tool-use", read(root, "src/billing.py"))
    vias = {r["via"] for r in why(run)}
    assert vias == {"CLAUDE.md", ".claude/rules/memkit-src-py.md"}


def test_a_memory_the_file_marks_out_of_date_is_received_so(store: Store, run: Invoke) -> None:
    commit_files(store.root, {"src/billing.py": "def total(xs):\n    return sum(xs)\n"})
    add(store, "totals", "Totals are plain sums")
    (store.root / ".memory" / "config.toml").write_text('[compile]\ntargets = ["claude"]\n')
    run("link", "totals", "src/billing.py::total")
    git(store.root, "add", "-A")
    git(store.root, "commit", "-q", "-m", "memory")
    commit_files(store.root, {"src/billing.py": "def total(xs):\n    return round(sum(xs))\n"})
    run("compile")
    assert "Possibly out of date" in (store.root / "CLAUDE.md").read_text()
    hook(store.root, "session-start", start(store.root))
    (got,) = why(run)
    assert got["id"] == "totals" and "src/billing.py" in got["stale"]
    assert "totals was given marked possibly out of date: " in run("why", SID).stdout


def test_rules_reached_through_links_are_read_when_inside(tmp_path: Path) -> None:
    """.claude/rules resolved once: a linked rules folder (or project path) still reads
    its files, each under its .claude/rules name; a link out of the project never is."""
    proj, outside = tmp_path / "proj", tmp_path / "outside"
    (proj / "shared" / "rules" / "sub").mkdir(parents=True)
    outside.mkdir()
    rule = "---\npaths:\n  - src/**\n---\n<!-- memkit:id={} -->\n"
    (proj / "shared" / "rules" / "a.md").write_text(rule.format("a"))
    (proj / "shared" / "rules" / "sub" / "b.md").write_text(rule.format("b"))
    (proj / "shared" / "c.md").write_text(rule.format("c"))
    (outside / "d.md").write_text(rule.format("d"))
    (proj / "shared" / "rules" / "c.md").symlink_to(proj / "shared" / "c.md")
    (proj / "shared" / "rules" / "d.md").symlink_to(outside / "d.md")
    (proj / "shared" / "rules" / "out").symlink_to(outside, target_is_directory=True)
    (proj / ".claude").mkdir()
    (proj / ".claude" / "rules").symlink_to(proj / "shared" / "rules")
    (tmp_path / "via").symlink_to(proj, target_is_directory=True)
    want = [(".claude/rules/a.md", ["src/**"]), (".claude/rules/c.md", ["src/**"]),
            (".claude/rules/sub/b.md", ["src/**"])]  # fmt: skip
    for root in (proj, tmp_path / "via"):
        assert [(rel, globs) for rel, _, globs in loaded.rules(str(root))] == want
    (proj / ".claude" / "rules").unlink()
    (proj / ".claude" / "rules").symlink_to(outside, target_is_directory=True)
    assert loaded.rules(str(proj)) == []
