"""Override templates from `.memory/templates/` are code from the repository: the known
escapes from jinja2's sandbox must not read the environment through memkit's own
rendering path, and a jinja2 whose sandbox is known to leak is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, write_memory

from memkit.compile import render
from memkit.store import Store

NOTE = "---\ntitle: Read CONTRIBUTING first\npin: true\n---\n\nIt lists the release steps.\n"
CANARY = "sandbox-canary-7f3a"
_REACH = "__init__.__globals__[__spec__].__class__.__init__.__globals__[sys].modules[os]"
PAYLOADS = [
    # CVE-2025-27516: |attr hands out str.format, whose fields walk attributes freely.
    '{{ "{0.' + _REACH + '.environ[MEMKIT_CANARY]}"|attr("format")(memory) }}',
    # CVE-2024-56326: str.format reached indirectly, then called.
    '{% set f = "{0.' + _REACH + '.environ[MEMKIT_CANARY]}".format %}{{ f(memory) }}',
    # The classic: a plain Environment runs code through the template object.
    "{{ self.__init__.__globals__.__builtins__.__import__('os').environ.MEMKIT_CANARY }}",
    "{{ memory.__init__.__globals__ }}",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_escape_payloads_leak_nothing(
    run: Invoke, store: Store, monkeypatch: pytest.MonkeyPatch, payload: str
) -> None:
    monkeypatch.setenv("MEMKIT_CANARY", CANARY)
    write_memory(store, "read-contributing", NOTE)
    run("compile", "-t", "agents")
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "memory.md.j2").write_text(payload + "\n{{ title }}\n", "utf-8")
    checked = run("compile", "-t", "agents", "--check", code=2)
    written = run("compile", "-t", "agents", code=2)
    for result in (checked, written):
        assert CANARY not in result.output
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    assert CANARY not in (store.root / "AGENTS.md").read_text("utf-8")


def test_a_leaky_jinja2_refuses_overrides(
    run: Invoke, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_memory(store, "read-contributing", NOTE)
    run("compile", "-t", "agents")
    monkeypatch.setattr(render, "JINJA2_FIXED", (99, 0, 0))
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "memory.md.j2").write_text("{{ title }}!\n", "utf-8")
    result = run("compile", "-t", "agents", "--check", code=2)
    assert result.stderr.count("\n") == 1
    assert ".memory/templates/memory.md.j2 needs jinja2 99.0.0 or later" in result.stderr
    (store.dir / "templates" / "memory.md.j2").unlink()
    run("compile", "-t", "agents")  # memkit's own templates still render


def test_pyproject_requires_the_fixed_jinja2() -> None:
    text = (Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8")
    fixed = ".".join(map(str, render.JINJA2_FIXED))
    assert f'"jinja2>={fixed}"' in text
