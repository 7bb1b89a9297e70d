"""Adoption never makes an agent read less of what it read in full before."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, git, write_files

from memkit import memory as mm
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
    write_files(
        store.root,
        {
            ".memory/config.toml": '[compile]\ntargets = ["agents"]\n'
            '[compile.budgets]\nagents = "6000 bytes"\n'
        },
    )
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


MIXED = ("Overview of the project", "Deploy workflow", "Never do this", "Naming style")


def _order_in_outputs(root: Path, expected: list[str]) -> dict[str, list[str]]:
    """{output: the imported ids it holds, in the order it holds them}, every output
    holding two or more; each must be in `expected`'s order."""
    found = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and ".git" not in p.parts):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".memory/"):
            continue
        text = path.read_text()
        ids = sorted(
            (text.index(f"memkit:id={m} "), m) for m in expected if f"memkit:id={m} " in text
        )
        if len(ids) > 1:
            found[rel] = [m for _, m in ids]
    return found


def test_adopted_sections_keep_their_order_on_every_compile(run: Invoke, store: Store) -> None:
    root_text = "# Acme\n\n" + "".join(_section(t, i) for i, t in enumerate(MIXED))
    pkg_text = "# Package\n\n" + "".join(_section(f"Pkg {t}", i) for i, t in enumerate(MIXED))
    write_files(store.root, {"AGENTS.md": root_text, "pkg/AGENTS.md": pkg_text, "pkg/a.py": ""})
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "hand-written")
    run("import", "--adopt")
    kinds = {m.id: m.type for m in store.memories()}
    assert len(set(kinds.values())) == 4  # by type they would sort in another order
    expected = [mm.slugify(t) for t in MIXED] + [mm.slugify(f"Pkg {t}") for t in MIXED]
    assert {m.id: m.order for m in store.memories()} == {
        mid: n % 4 + 1 for n, mid in enumerate(expected)
    }
    run("compile")
    first = _order_in_outputs(store.root, expected)
    assert {"AGENTS.md", "pkg/AGENTS.md", "CLAUDE.md"} <= first.keys()
    for rel, ids in first.items():
        assert ids == [m for m in expected if m in ids], rel
    outputs = {rel: (store.root / rel).read_bytes() for rel in first}
    run("compile")  # the adopted files hold memkit's sections now, not the hand text
    assert {rel: (store.root / rel).read_bytes() for rel in first} == outputs
    run("compile", "--check")


def test_copilot_reads_in_full_what_codex_budget_shortened(run: Invoke, store: Store) -> None:
    # Codex stops at its limit for the chain; Copilot's coding agent, reading the same
    # chain, has none: it read every section in full before and must after
    write_files(store.root, {"AGENTS.md": ROOT, "tests/AGENTS.md": TESTS})
    write_files(store.root, {".memory/config.toml": '[compile.budgets]\nagents = "6000 bytes"\n'})
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "hand-written")
    run("import", "--adopt")
    run("compile")
    codex = run("compile", "--explain", "codex").stdout.splitlines()
    short = [ln.split()[0] for ln in codex if "title only in tests/AGENTS.md" in ln]
    assert short  # the chain was over Codex's limit: its deep end is shortened
    copilot = run("compile", "--explain", "copilot").stdout.splitlines()
    for mid in short:
        line = next(ln for ln in copilot if ln.split() and ln.split()[0] == mid)
        assert " in full in .github/instructions/" in line, line
    assert not any("title only" in ln and " in full " not in ln for ln in copilot)
    assert "copilot reads" not in run("compile", "--check").stderr  # nothing read twice
