"""Adoption never makes an agent read less of what it read in full before."""

from __future__ import annotations

import pytest
from conftest import Invoke, git, write_files

from memkit.store import Store


def _section(title: str, n: int) -> str:
    return f"## {title}\n\n" + f"- {title} rule {n}: keep it as the team wrote it.\n" * 12 + "\n"


ROOT = "# Acme\n\n" + "".join(
    _section(t, i) for i, t in enumerate(("Your responsibility", "Gathering context", "Avoid"))
)
TESTS = "# Tests guide\n\n" + "".join(_section(f"Testing part {i}", i) for i in range(8))


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_root_file_read_in_full_stays_in_full(run: Invoke, store: Store) -> None:
    write_files(store.root, {"AGENTS.md": ROOT, "tests/AGENTS.md": TESTS})
    write_files(store.root, {".memory/config.toml": '[compile]\ntargets = ["agents"]\n'
                             '[compile.budgets]\nagents = "6000 bytes"\n'})  # fmt: skip
    assert len(ROOT) < 3000 < 6000 < len(ROOT) + len(TESTS)  # root alone fitted before
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "hand-written")
    run("import", "--adopt")
    run("compile")
    explain = run("compile", "--explain", "codex").stdout
    for mid in ("your-responsibility", "gathering-context", "avoid"):
        assert f"{mid} " in explain
        line = next(ln for ln in explain.splitlines() if ln.strip().startswith(mid + " "))
        assert "in full in AGENTS.md" in line, line
    # the chain was over Codex's limit before: its deep end is what gets shortened
    tests = [ln for ln in explain.splitlines() if "testing-part" in ln]
    assert "in full in tests/AGENTS.md" in tests[0]
    assert (store.root / "tests/AGENTS.md").exists()
    run("compile", "--check")


def test_imported_sections_keep_their_file_order_whatever_their_type(
    run: Invoke, store: Store
) -> None:
    text = "# Guide\n\n" + "".join(
        _section(t, i)
        for i, t in enumerate(("Overview of the project", "Deploy workflow", "Never do this"))
    )
    write_files(store.root, {"AGENTS.md": text})
    run("import")
    kinds = {m.id: m.type for m in store.memories()}
    assert len(set(kinds.values())) == 3  # note, procedure, gotcha: types sort otherwise
    write_files(store.root, {".memory/config.toml": '[compile]\ntargets = ["claude"]\n'})
    run("compile")
    out = (store.root / "CLAUDE.md").read_text()
    order = ("overview-of-the-project", "deploy-workflow", "never-do-this")
    at = [out.index(f"memkit:id={mid} ") for mid in order]
    assert at == sorted(at)
