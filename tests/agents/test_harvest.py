"""`memkit import --harvest`: agents' own memories -> drafts (real files, a temporary HOME)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from pathlib import Path

import pytest

from memkit.agents import proposals
from memkit.agents.adopt.harvest import harvest
from memkit.agents.adopt.places import (
    claude_memory_dirs,
    claude_project_name,
    git_roots,
    locate,
)
from memkit.store import Store
from tests.conftest import Invoke, git, write_memory

TODAY = dt.date(2026, 11, 23)

TOPIC = """\
---
name: Testing preferences
description: how tests are run here
type: feedback
---
Run pytest with -q; never the slow marker locally.

**Why:** the slow tests need a database.
"""

INDEX = """\
# Memory

- [Testing preferences](feedback_testing.md) — how tests are run here
- Build with `make build`; it needs Node 20.
- [Gone](missing.md) — a file that is not there
"""


@pytest.fixture(autouse=True)
def no_agent_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CLAUDE_CONFIG_DIR", "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"):
        monkeypatch.delenv(name, raising=False)


def home() -> Path:
    return Path(os.environ["HOME"])


def claude_dir(root: Path) -> Path:
    folder = home() / ".claude" / "projects" / claude_project_name(str(root)) / "memory"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def seed(root: Path) -> dict[Path, bytes]:
    """Realistic memory files of three agents; returns their bytes, to check none changes."""
    folder = claude_dir(root)
    (folder / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    (folder / "feedback_testing.md").write_text(TOPIC, encoding="utf-8")
    (root / "CLAUDE.local.md").write_text(
        "# Local notes\n\n## Sandbox\n\nThe sandbox API answers on port 8080.\n", encoding="utf-8"
    )
    (root / "services" / "pay").mkdir(parents=True)
    (root / "services" / "pay" / "CLAUDE.local.md").write_text(
        "Use the fake card 4242 in payment tests.\n", encoding="utf-8"
    )
    gemini = home() / ".gemini"
    gemini.mkdir(exist_ok=True)
    (gemini / "GEMINI.md").write_text(
        "# My rules\n\nBe brief.\n\n## Gemini Added Memories\n"
        "- The staging database listens on port 5433.\n"
        "- I prefer pnpm over npm.\n",
        encoding="utf-8",
    )
    files = [folder / "MEMORY.md", folder / "feedback_testing.md", root / "CLAUDE.local.md",
             root / "services/pay/CLAUDE.local.md", gemini / "GEMINI.md"]  # fmt: skip
    return {f: f.read_bytes() for f in files}


def test_harvest_drafts_each_memory_with_its_provenance(store: Store) -> None:
    before = seed(store.root)
    done = harvest(store, today=TODAY, env=os.environ)
    label = f"~/.claude/projects/{claude_project_name(str(store.root))}/memory"
    assert [(o.id, o.where) for o in done.drafted] == [
        ("build-with-make-build-it-needs-node-20", f"{label}/MEMORY.md#memory"),
        ("testing-preferences", f"{label}/feedback_testing.md"),
        ("sandbox", "CLAUDE.local.md#sandbox"),
        ("use-the-fake-card-4242-in-payment-tests", "services/pay/CLAUDE.local.md#top"),
        (
            "the-staging-database-listens-on-port-5433",
            "~/.gemini/GEMINI.md#gemini-added-memories (1)",
        ),
        ("i-prefer-pnpm-over-npm", "~/.gemini/GEMINI.md#gemini-added-memories (2)"),
    ]
    assert [(o.where, o.note) for o in done.skipped] == [
        (
            f"{label}/MEMORY.md",
            "1 index line(s) name topic files: those are harvested from the files themselves",
        ),
    ]
    topic = store.get("testing-preferences")
    assert topic.status == "draft"
    assert topic.type == "convention"  # Claude Code's `feedback`
    assert topic.tags == ("harvested", "claude-auto-memory")
    assert topic.source == "claude-auto-memory:feedback_testing.md"
    assert topic.body.lstrip("\n").startswith("how tests are run here\n\nRun pytest with -q;")
    nested = store.get("use-the-fake-card-4242-in-payment-tests")
    assert nested.paths == ("services/pay/**",)
    assert nested.source == "services/pay/CLAUDE.local.md#top"
    index = store.get("build-with-make-build-it-needs-node-20")
    assert "Gone" in index.body and "Testing preferences" not in index.body
    assert {f: f.read_bytes() for f in before} == before  # the sources are never written
    assert [m.id for m in proposals.pending(store)] == sorted(o.id for o in done.drafted)


def test_a_second_harvest_and_a_rejected_draft_add_nothing(store: Store) -> None:
    seed(store.root)
    harvest(store, today=TODAY, env=os.environ)
    again = harvest(store, today=TODAY, env=os.environ)
    assert again.drafted == ()
    assert ("CLAUDE.local.md#sandbox", "same text as sandbox") in [
        (o.where, o.note) for o in again.skipped
    ]
    proposals.reject(store, "sandbox")
    third = harvest(store, today=TODAY, env=os.environ)
    assert third.drafted == ()
    notes = {o.where: o.note for o in third.skipped}
    assert notes["CLAUDE.local.md#sandbox"].startswith("harvested before")


def test_text_already_in_a_memory_is_skipped(store: Store) -> None:
    write_memory(
        store,
        "ports",
        "---\ntitle: Ports\n---\n\n- The staging database listens on "
        "port 5433.\n- The cache listens on 6380.\n",
    )
    write_memory(store, "pnpm", "---\ntitle: Package manager\n---\n\nI prefer pnpm over npm!\n")
    write_memory(
        store, "sandbox", "---\ntitle: Sandbox\n---\n\nThe sandbox API now answers on port 8080.\n"
    )
    seed(store.root)
    done = harvest(store, today=TODAY, env=os.environ)
    notes = {o.where: o.note for o in done.skipped}
    assert notes["~/.gemini/GEMINI.md#gemini-added-memories (1)"] == "already in ports"
    assert notes["~/.gemini/GEMINI.md#gemini-added-memories (2)"] == "same text as pnpm"
    assert notes["CLAUDE.local.md#sandbox"] == "nearly the same text as sandbox"
    assert "sandbox-2" not in [o.id for o in done.drafted]


def test_a_secret_or_a_bad_file_skips_only_that(store: Store) -> None:
    seed(store.root)
    folder = claude_dir(store.root)
    (folder / "deploy.md").write_text(
        "# Deploy\n\nexport AWS_ACCESS_KEY_ID=AKIAZ7Q4MPLR3XWN2K5D before deploying.\n",
        encoding="utf-8",
    )
    (folder / "broken.md").write_bytes(b"# Broken\n\n\xff\xfe not text\n")
    (folder / "elsewhere.md").symlink_to(store.root / "CLAUDE.local.md")
    done = harvest(store, today=TODAY, env=os.environ)
    label = f"~/.claude/projects/{claude_project_name(str(store.root))}/memory"
    notes = {o.where: o.note for o in done.skipped}
    assert notes[f"{label}/deploy.md"] == (
        "looks like it holds a secret (AWS access key id): not harvested; remove it from the "
        "file, or add what is worth keeping by hand (`memkit add`)"
    )
    assert notes[f"{label}/broken.md"] == f"{label}/broken.md is not UTF-8 text; memkit reads UTF-8"
    assert "symbolic link" in notes[f"{label}/elsewhere.md"]
    assert len(done.drafted) == 6  # everything else
    assert not any("AKIA" in p.read_text("utf-8") for p in store.dir.glob("*.md"))


def test_dry_run_writes_nothing(store: Store) -> None:
    seed(store.root)
    done = harvest(store, today=TODAY, env=os.environ, dry_run=True)
    assert len(done.drafted) == 6
    assert sorted(p.name for p in store.dir.iterdir()) == [".gitignore", "config.toml"]
    assert not (store.cache_dir / "harvested.json").exists()


def test_memory_bank_and_gemini_project_memory(store: Store) -> None:
    bank = store.root / "memory-bank"
    bank.mkdir()
    (bank / "systemPatterns.md").write_text(
        "# System Patterns\n\n## Architecture\n\nOrders flow through one queue.\n", "utf-8"
    )
    gemini = home() / ".gemini"
    (gemini / "tmp" / "shop" / "memory").mkdir(parents=True)
    (gemini / "projects.json").write_text(json.dumps({"projects": {str(store.root): "shop"}}))
    (gemini / "tmp" / "shop" / "memory" / "MEMORY.md").write_text(
        "# Project memory\n\n- Invoices are numbered per year.\n", "utf-8"
    )
    old = hashlib.sha256(str(store.root).encode()).hexdigest()
    (gemini / "tmp" / old / "memory").mkdir(parents=True)  # the older name: the first found wins
    done = harvest(store, today=TODAY, env=os.environ)
    assert [(o.id, o.where) for o in done.drafted] == [
        ("invoices-are-numbered-per-year", "~/.gemini/tmp/shop/memory/MEMORY.md#project-memory"),
        ("architecture", "memory-bank/systemPatterns.md#architecture"),
    ]
    assert store.get("architecture").type == "decision"
    assert store.get("architecture").tags == ("harvested", "memory-bank")


def test_claude_folder_names() -> None:
    assert claude_project_name("/home/ann/my_shop.v2") == "-home-ann-my-shop-v2"
    assert claude_project_name("C:\\Users\\ann\\shop") == "C--Users-ann-shop"


def test_long_paths_settings_and_config_dir(tmp_path: Path) -> None:
    root = tmp_path / ("x" * 120) / ("y" * 100)
    root.mkdir(parents=True)
    config = tmp_path / "cfg"
    name = claude_project_name(str(root))
    assert len(name) > 200
    (config / "projects" / f"{name[:200]}-1ab2c3").mkdir(parents=True)
    env = {"HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(config)}
    assert claude_memory_dirs(root, root, env) == [
        config / "projects" / f"{name[:200]}-1ab2c3" / "memory"
    ]
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text('{"autoMemoryDirectory": "/etc"}')
    assert claude_memory_dirs(root, root, env)[0] != Path("/etc")  # project settings: ignored
    (config / "settings.json").write_text('{"autoMemoryDirectory": "~/notes"}')
    assert claude_memory_dirs(root, root, {**env, "HOME": os.environ["HOME"]}) == [
        Path(os.path.expanduser("~/notes"))
    ]


@pytest.mark.parametrize("name", ["settings.local.json", "settings.json"])
def test_a_work_tree_settings_file_never_moves_the_folder(
    store: Store, run: Invoke, tmp_path: Path, name: str
) -> None:
    """A pull request commits `.claude/settings.local.json` naming a folder outside the
    repository: `--harvest` must not walk it and read its files into drafts."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.md").write_text("- The production password is hunter2.\n")
    (store.root / ".claude").mkdir()
    setting = json.dumps({"autoMemoryDirectory": str(outside)})
    (store.root / ".claude" / name).write_text(setting)
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "settings")
    root = store.root.resolve()
    assert outside not in claude_memory_dirs(root, root, os.environ)
    out = run("import", "--harvest", "--dry-run").output
    assert "hunter2" not in out and "elsewhere" not in out


def test_the_users_own_settings_move_the_folder(store: Store, tmp_path: Path) -> None:
    chosen = tmp_path / "notes"
    (home() / ".claude").mkdir(parents=True, exist_ok=True)
    (home() / ".claude" / "settings.json").write_text(
        json.dumps({"autoMemoryDirectory": str(chosen)})
    )
    root = store.root.resolve()
    assert claude_memory_dirs(root, root, os.environ) == [chosen]


def test_a_config_folder_inside_the_repository_is_not_the_users(
    store: Store, tmp_path: Path
) -> None:
    config = store.root / "cfg"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"autoMemoryDirectory": str(tmp_path)}))
    root = store.root.resolve()
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(config)}
    assert tmp_path not in claude_memory_dirs(root, root, env)


def test_worktrees_share_the_main_work_tree_memory(store: Store) -> None:
    git(store.root, "commit", "-q", "--allow-empty", "-m", "start")
    other = store.root.parent / "wt"
    git(store.root, "worktree", "add", "-q", str(other))
    assert git_roots(other) == (other.resolve(), store.root.resolve())
    folder = claude_dir(store.root.resolve())
    (folder / "MEMORY.md").write_text("- Shared between worktrees.\n", "utf-8")
    found = locate(other.resolve(), store.root.resolve(), os.environ)
    assert [p.path for p in found] == [folder / "MEMORY.md"]


def test_a_symlinked_git_file_is_not_followed(store: Store) -> None:
    git(store.root, "commit", "-q", "--allow-empty", "-m", "start")
    other = store.root.parent / "wt"
    git(store.root, "worktree", "add", "-q", str(other))
    linked = store.root.parent / "linked"
    linked.mkdir()
    (linked / ".git").symlink_to(other / ".git")  # as memkit.cachedir.git_dir: not trusted
    assert git_roots(linked) == (linked.resolve(), linked.resolve())


def test_cli(store: Store, run: Invoke) -> None:
    seed(store.root)
    out = run("import", "--harvest", "--dry-run").output
    assert out.splitlines()[0].startswith(
        "would draft build-with-make-build-it-needs-node-20  <- ~/"
    )
    assert out.endswith("6 memories would be drafted, 1 skipped\n")
    assert "--harvest finds its files itself" in run("import", "--harvest", ".", code=2).output
    out = run("import", "--harvest").output
    assert out.endswith("6 memories drafted for review (`memkit approve`), 1 skipped\n")
    assert run("approve", "sandbox").output == "approved sandbox: .memory/sandbox.md is active\n"


def test_cli_with_nothing_to_harvest(store: Store, run: Invoke) -> None:
    assert run("import", "--harvest").output == (
        "found no memories agents kept for this project (see docs/agents.md, Harvest)\n"
    )


def test_topic_files_as_claude_code_writes_them(store: Store) -> None:
    """Shapes seen in public repositories: the name repeated as a heading, `type` nested
    under `metadata:`, extra keys (`originSessionId`, `related`) and sections."""
    folder = claude_dir(store.root)
    (folder / "guard.md").write_text(
        "---\nname: destructive-action-guard\ndescription: Check before any deletion.\n"
        "metadata:\n  type: project\n---\n\n# Destructive Action Guard\n\nList what goes first.\n",
        "utf-8",
    )
    (folder / "web.md").write_text(
        "---\nname: Web serving preferences\ndescription: JSON and YAML side by side\n"
        "type: user\noriginSessionId: 22e240a2\nrelated: [guard.md]\n---\n"
        "## Parallel endpoints\n\nServe both.\n\n## Inline CSS\n\nAvoid /static.\n",
        "utf-8",
    )
    done = harvest(store, today=TODAY, env=os.environ)
    assert [o.id for o in done.drafted] == ["destructive-action-guard", "web-serving-preferences"]
    guard = store.get("destructive-action-guard")
    assert (guard.title, guard.type) == ("Destructive Action Guard", "note")
    assert guard.body.strip() == "Check before any deletion.\n\nList what goes first."
    web = store.get("web-serving-preferences")
    assert web.type == "preference"
    assert "## Parallel endpoints" in web.body and "originSessionId" not in web.body
