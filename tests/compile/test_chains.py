"""Codex's AGENTS.md chain: one budget for the files from the root down to a folder.

A store shaped like benchmarks/gen_store.py's, with every path-scoped memory in one
package (1,000 always-on memories, 500 for `services/payments/`), compiled with
`nested_agents = true`: each chain keeps within 32 KiB, the root keeps its best
memories, the budget goes by rank across the chain, and the root says where the
package's file is for an agent started at the root.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import write_memory

from memkit.compile.plan import Placed, apply, build
from memkit.store import Store
from tests.compile.test_compile import configure

ROOT = Path(__file__).parents[2]
TODAY = dt.date(2026, 11, 22)
CODEX = 32 * 1024  # project_doc_max_bytes: the whole chain, root first
NESTED = "services/payments/AGENTS.md"


def _gen_store() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return __import__("gen_store")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def package_store(tmp_path: Path, n: int) -> Store:
    out = _gen_store().generate(n, tmp_path / "store", commit=False, scope="services/payments/**")
    store = Store(out)
    configure(store, '[compile]\ntargets = ["agents"]\nnested_agents = true\n')
    return store


def chains(root: Path) -> dict[str, int]:
    """{nested AGENTS.md: bytes Codex reads started in its folder} (files' bytes summed)."""
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("AGENTS.md"))
    files = [f for f in files if not f.startswith(".")]
    size = {f: (root / f).stat().st_size for f in files}
    return {
        leaf: sum(n for f, n in size.items() if f == "AGENTS.md" or leaf.startswith(f[:-9]))
        for leaf in files
        if leaf != "AGENTS.md"
    }


@pytest.mark.parametrize("n", [300, 1500])
def test_every_chain_within_codex_budget(tmp_path: Path, n: int) -> None:
    store = package_store(tmp_path, n)
    plan = build(store, today=TODAY)
    apply(plan)
    sizes = chains(store.root)
    assert set(sizes) == {NESTED}
    assert all(total <= CODEX for total in sizes.values()), sizes
    placed = {p.path: p for p in plan.placed}
    root, nested = placed["AGENTS.md"], placed[NESTED]
    rank = {m.id: i for i, m in enumerate(plan.selected)}
    always = [m.id for m in plan.selected if not m.paths]
    # The root keeps its best always-on memories in full, in rank order...
    assert len(root.full) >= 10
    assert list(root.full) == always[: len(root.full)]
    text = (store.root / "AGENTS.md").read_text("utf-8")
    for mid in root.full:
        assert f"<!-- memkit:id={mid} -->" in text
    # ...and the package's best ones go in full too: the budget is shared by rank.
    assert len(nested.full) >= 10
    assert max(rank[m] for m in nested.full) < min(rank[m] for m in (*root.short, *root.cut))
    # An agent started at the root is told where the package's memories are.
    assert f"`{NESTED}`" in text


BODY = "A sentence of a memory, long enough to count against the budget.\n" * 8


def _root_and_package(store: Store) -> None:
    """60 root memories and 60 better-ranked ones for `services/payments/`, within a
    12,000-byte budget for each chain."""
    for i in range(60):
        write_memory(store, f"root-{i:02d}", f"---\ntitle: Root {i}\n---\n\n{BODY}")
        write_memory(
            store,
            f"pkg-{i:02d}",
            f"---\ntitle: Package {i}\npriority: 9\npaths:\n- services/payments/**\n---\n\n{BODY}",
        )
    configure(
        store,
        '[compile]\ntargets = ["agents"]\nnested_agents = true\n'
        'budgets = { agents = "12000 bytes" }\n',
    )


def test_root_keeps_its_share_against_better_ranked_package(store: Store) -> None:
    """Package memories that all outrank the root's do not squeeze the root to nothing."""
    _root_and_package(store)
    plan = build(store, today=TODAY)
    apply(plan)
    (total,) = chains(store.root).values()
    assert total <= 12000
    placed: dict[str, Placed] = {p.path: p for p in plan.placed}
    root = placed["AGENTS.md"]
    assert root.full[:3] == ("root-00", "root-01", "root-02")
    assert (store.root / "AGENTS.md").stat().st_size >= 12000 // 2 - 1500
    assert placed[NESTED].full  # the package keeps the rest


def test_chain_budget_note_and_stable_output(tmp_path: Path) -> None:
    store = package_store(tmp_path, 300)
    plan = build(store, today=TODAY)
    apply(plan)
    assert any("still reads the nested AGENTS.md" in note for note in plan.notes)
    again = build(store, today=TODAY)
    assert again.changes == ()  # byte for byte the same on the next run


def test_a_chain_with_room_keeps_its_files_memories_in_full(store: Store) -> None:
    """The rank decides where a chain is tight; what another chain leaves over goes to
    its own files, so adopting memkit never makes Codex read less there (the adoption
    benchmark: 0 places with less)."""
    _root_and_package(store)
    for i in range(4):
        write_memory(
            store,
            f"mail-{i}",
            f"---\ntitle: Mail {i}\npriority: 1\npaths:\n- services/mail/**\n---\n\n{BODY}",
        )
    plan = build(store, today=TODAY)
    apply(plan)
    sizes = chains(store.root)
    assert all(total <= 12000 for total in sizes.values()), sizes
    placed: dict[str, Placed] = {p.path: p for p in plan.placed}
    assert placed["services/mail/AGENTS.md"].full == tuple(f"mail-{i}" for i in range(4))
    assert placed[NESTED].short  # the tight chain is shared by rank
    assert sizes[NESTED] > 12000 - 600  # and filled
