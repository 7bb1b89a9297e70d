"""memkit.compile.fit: each probe of a fit is rendered once, and the text is the probe's.

The reference is the fit rendering every probe afresh (`probed` switched off): the
compiled bytes must not change, on a generated store whose big files are over their
budgets and on this repository's own .memory/.
"""

from __future__ import annotations

import collections
import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import write_memory

from memkit.compile import fit
from memkit.compile.plan import build
from memkit.compile.render import Renderer
from memkit.store import Store
from tests.compile.test_chains import _gen_store

ROOT = Path(__file__).parents[2]
TODAY = dt.date(2026, 11, 22)


def compiled(store: Store) -> dict[str, bytes | None]:
    """Every output's new bytes (None: deleted), by path."""
    return {f.path: f.new for f in build(store, today=TODAY).files}


def every_probe_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fit as it would be with no probe remembered: each text(k, j) renders."""

    def afresh(text: Callable[[int, int], str]) -> Callable[[int, int], str]:
        return text

    monkeypatch.setattr(fit, "probed", afresh)


def test_same_bytes_as_rendering_every_probe_generated_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(_gen_store().generate(400, tmp_path / "store", commit=False))
    got = compiled(store)
    over = [p for p, b in got.items() if b and b"over its budget" in b]
    assert "AGENTS.md" in got and len(got) > 20
    with monkeypatch.context() as m:
        every_probe_rendered(m)
        assert compiled(store) == got
    # the store is big enough that some files are fitted over many probes
    notes = build(store, today=TODAY).notes
    assert any("over its budget" in n for n in notes), (notes, over)


def test_same_bytes_as_rendering_every_probe_this_repository(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = Store(ROOT)  # build reads, writes nothing
    got = compiled(store)
    assert got
    with monkeypatch.context() as m:
        every_probe_rendered(m)
        assert compiled(store) == got


def test_a_file_that_fits_is_rendered_once(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(3):
        write_memory(store, f"note-{i}", f"---\ntitle: Note {i}\ntype: note\n---\nBody {i}.\n")
    write_memory(store, "scoped", "---\ntitle: Scoped\ntype: gotcha\npaths: [src/**]\n---\nMind.\n")
    renders: collections.Counter[str] = collections.Counter()
    section = Renderer.section

    def counted(self: Renderer, out: Any, *args: Any) -> str:
        renders[out.path] += 1
        return section(self, out, *args)

    monkeypatch.setattr(Renderer, "section", counted)
    files = compiled(store)
    assert renders and "AGENTS.md" in renders and ".claude/rules/memkit-src.md" in renders
    assert set(renders) <= set(files)
    assert set(renders.values()) == {1}, renders


def test_the_largest_is_found_from_any_start() -> None:
    for hi in range(0, 40):
        for answer in range(0, hi + 1):
            asked: list[int] = []

            def ok(n: int, answer: int = answer, asked: list[int] = asked) -> bool:
                asked.append(n)
                return n <= answer

            for start in (0, answer, answer + 1, max(0, answer - 1), hi, hi + 5, 3):
                asked.clear()
                assert fit.largest(ok, hi, start) == answer, (hi, answer, start)
                assert all(0 < n <= hi for n in asked)
            asked.clear()
            fit.largest(ok, hi, answer)
            assert len(asked) <= 2  # a right estimate: itself and the one above


def test_a_fit_started_from_the_entries_sizes_renders_less_and_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(_gen_store().generate(400, tmp_path / "store", commit=False))
    renders: collections.Counter[str] = collections.Counter()
    section = Renderer.section

    def counted(self: Renderer, out: Any, *args: Any) -> str:
        renders[out.path] += 1
        return section(self, out, *args)

    monkeypatch.setattr(Renderer, "section", counted)
    got, guessed = compiled(store), sum(renders.values())
    renders.clear()
    decide = fit._decide
    with monkeypatch.context() as m:
        m.setattr(fit, "_decide", lambda out, text, renderer=None: decide(out, text))
        assert compiled(store) == got
    assert guessed < sum(renders.values()), (guessed, renders)
