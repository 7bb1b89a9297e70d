"""What memkit says each agent loads (`--explain`, the twice notes) agrees with real runs.

docs/compile.md ("Observed in real runs") has the runs: nested AGENTS.md files by the
folder an agent starts in, Claude Code reading AGENTS.md without CLAUDE.md, Copilot CLI
reading CLAUDE.md besides AGENTS.md, Continue and Cline reading their working folder.
"""

from __future__ import annotations

import pytest
from conftest import Invoke, write_files

from memkit.store import Store

ALWAYS = "---\ntitle: Prefer small functions\ntype: convention\n---\n\nKeep them short.\n"
API = (
    "---\ntitle: Handlers return dicts\ntype: convention\npaths:\n- src/api/**\n---\n\n"
    "Return a dict from every handler.\n"
)
DEPLOY = (
    "---\ntitle: Deploying\ntype: procedure\nactivation: agent\n"
    "description: How to deploy the service\n---\n\nRun the deploy script.\n"
)


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def _store(store: Store, targets: str, *, nested: bool = True, extra: str = "") -> None:
    memories = {".memory/always.md": ALWAYS, ".memory/api.md": API}
    config = f"[compile]\ntargets = [{targets}]\nnested_agents = {str(nested).lower()}\n{extra}"
    write_files(store.root, {**memories, ".memory/config.toml": config})


def _files(out: str) -> dict[str, str]:
    """`--explain`'s file lines: path -> when."""
    lines = [ln[2:] for ln in out.splitlines() if ln.startswith("  ") and " (" in ln]
    return {ln.split(" (")[0]: ln.split(" (", 1)[1].split(";")[0] for ln in lines if "budget" in ln}


@pytest.mark.parametrize(
    ("agent", "when"),
    [
        ("codex", "when started in src/api or below"),
        ("qwen", "when started in src/api or below"),
        ("opencode", "when started in src/api or below, or after reading a file under it"),
        ("copilot", "when started in src/api or below, or after reading a file under it"),
    ],
)
def test_nested_agents_md_is_read_by_the_folder_started_in(
    run: Invoke, store: Store, agent: str, when: str
) -> None:
    _store(store, '"agents", "copilot"')
    run("compile")
    files = _files(run("compile", "--explain", agent).stdout)
    assert files["AGENTS.md"] == "always"
    assert files["src/api/AGENTS.md"] == when


def test_claude_code_reads_agents_md_without_claude_md(run: Invoke, store: Store) -> None:
    _store(store, '"agents"', nested=False)
    run("compile")
    out = run("compile", "--explain", "claude").stdout
    assert _files(out) == {"AGENTS.md": "always"}
    assert "not loaded" not in out


def test_claude_code_reads_a_nested_agents_md_a_claude_md_beside_it_links_to(
    run: Invoke, store: Store
) -> None:
    # a layout real projects use: CLAUDE.md -> AGENTS.md in the root and in a package.
    # Claude Code reads the package's CLAUDE.md (so its AGENTS.md) when it reads a file
    # there: its rule file leaves the memory out; a package without the link keeps it
    other = API.replace("Handlers return dicts", "Jobs are idempotent").replace(
        "src/api/**", "src/jobs/**"
    )
    write_files(store.root, {".memory/jobs.md": other})
    _store(store, '"agents", "claude"')
    run("compile")
    (store.root / "CLAUDE.md").unlink()
    (store.root / "CLAUDE.md").symlink_to("AGENTS.md")
    (store.root / "src/api/CLAUDE.md").symlink_to("AGENTS.md")
    run("compile")
    out = run("compile", "--explain", "claude").stdout
    files = _files(out)
    assert files["AGENTS.md"] == "always"
    assert files["src/api/AGENTS.md"] == (
        "when started in src/api or below, or after reading a file under it"
    )
    assert "src/jobs/AGENTS.md" not in files
    assert files[".claude/rules/memkit-src-jobs.md"] == "when working on src/jobs/**"
    assert not (store.root / ".claude/rules/memkit-src-api.md").exists()
    assert "Jobs are idempotent" in (store.root / ".claude/rules/memkit-src-jobs.md").read_text()
    assert "not loaded" not in out and "twice" not in out


def test_claude_code_without_claude_md_reads_every_agents_md(run: Invoke, store: Store) -> None:
    _store(store, '"agents"')
    run("compile")
    files = _files(run("compile", "--explain", "claude").stdout)
    assert files == {
        "AGENTS.md": "always",
        "src/api/AGENTS.md": "when started in src/api or below, or after reading a file under it",
    }


def test_claude_code_in_import_mode_gets_a_nested_agents_md_memory_from_a_rule(
    run: Invoke, store: Store
) -> None:
    # CLAUDE.md imports the root AGENTS.md; with a CLAUDE.md Claude Code never reads
    # src/api/AGENTS.md (run: the import store), so its memory gets a rule file
    _store(store, '"agents", "claude"', extra='claude_mode = "import"\n')
    run("compile")
    out = run("compile", "--explain", "claude").stdout
    files = _files(out)
    assert files[".claude/rules/memkit-src-api.md"] == "when working on src/api/**"
    assert "src/api/AGENTS.md" not in files
    assert "not loaded" not in out and "twice" not in out
    # started in a subfolder, Claude Code leaves CLAUDE.md's `@AGENTS.md` unread (run)
    assert files["AGENTS.md"] == "imported by CLAUDE.md when started in the repository root"
    assert files["CLAUDE.md"].endswith("when started in the repository root")
    copilot = _files(run("compile", "--explain", "copilot").stdout)
    assert copilot["CLAUDE.md"] == "always, importing AGENTS.md"  # it resolves it anywhere


def test_copilot_cli_reads_claude_md_too_and_compile_says_so_once(
    run: Invoke, store: Store
) -> None:
    _store(store, '"agents", "claude", "copilot"', nested=False)
    out = run("compile").stdout
    notes = [ln for ln in out.splitlines() if ln.startswith("note: copilot reads")]
    assert len(notes) == 1
    assert "AGENTS.md and CLAUDE.md" in notes[0]
    assert "CLAUDE.md" in _files(run("compile", "--explain", "copilot").stdout)


def test_continue_rules_leave_out_what_agents_md_carries(run: Invoke, store: Store) -> None:
    _store(store, '"agents", "continue"', nested=False)
    run("compile")
    assert not (store.root / ".continue/rules").exists()  # both memories are in AGENTS.md
    out = run("compile", "--explain", "continue").stdout
    assert _files(out) == {"AGENTS.md": "when started in the repository root"}
    assert "twice" not in out


def test_continue_and_cline_get_a_memory_only_a_nested_agents_md_carries(
    run: Invoke, store: Store
) -> None:
    # they read only the AGENTS.md of the folder they start in: from the root, not
    # src/api/AGENTS.md, so their own rule files carry its memory
    _store(store, '"agents", "continue", "cline"')
    run("compile")
    assert "Return a dict" in (store.root / ".clinerules/memkit-src-api.md").read_text()
    assert "Return a dict" in (store.root / ".continue/rules/memkit-src-api.md").read_text()
    assert not (store.root / ".clinerules/memkit.md").exists()  # AGENTS.md has the rest
    cline = run("compile", "--explain", "cline").stdout
    files = _files(cline)
    assert files["src/api/AGENTS.md"] == "when started in src/api"
    assert files[".clinerules/memkit-src-api.md"] == "when started in the repository root"
    assert "twice" not in cline  # the nested file and the rule never load together


def test_cline_falls_back_to_cursor_rules_not_windsurf_rules(run: Invoke, store: Store) -> None:
    # with nothing of its own to write Cline reads `.cursor/rules` (and `.windsurfrules`,
    # which memkit does not write), never `.windsurf/rules`: no memory twice
    write_files(store.root, {".memory/deploy.md": DEPLOY})
    _store(store, '"agents", "cline", "cursor", "windsurf"', nested=False)
    out = run("compile").stdout + run("compile", "--check").stderr
    assert "cline reads" not in out
    files = _files(run("compile", "--explain", "cline").stdout)
    assert not [f for f in files if f.startswith(".windsurf/")]


def test_aider_reads_only_what_its_config_names(run: Invoke, store: Store) -> None:
    _store(store, '"agents"', nested=False)
    run("compile")
    assert _files(run("compile", "--explain", "aider").stdout) == {}
    write_files(store.root, {".aider.conf.yml": "read: AGENTS.md\n"})
    assert _files(run("compile", "--explain", "aider").stdout) == {"AGENTS.md": "always"}


def test_explain_claude_counts_what_memkits_session_start_hook_gives(
    run: Invoke, store: Store
) -> None:
    """A recorded Claude Code run got an `activation: agent` memory's description from
    memkit's SessionStart hook: with the hooks installed, --explain says so."""
    _store(store, '"claude"')
    write_files(store.root, {".memory/deploy.md": DEPLOY})
    run("compile")
    before = run("compile", "--explain", "claude").stdout
    assert "SessionStart hook" not in before
    assert "deploy  not loaded: activation agent" in before
    run("hooks", "install", "--claude")
    after = run("compile", "--explain", "claude").stdout
    assert (
        "memkit's SessionStart hook (when started in the repository root): 0 in full, "
        "1 by description" in after
    )
    assert "deploy  by its description from the SessionStart hook" in after
    assert "always  in full in CLAUDE.md\n" in after  # CLAUDE.md carries it: not the hook
