"""The install line memkit's messages give works as written: memkit is not on the package
index, so it names a clone (the one memkit runs from, when it runs from one)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from memkit import install

ROOT = Path(__file__).resolve().parents[1]


def test_from_a_clone_the_line_names_that_clone() -> None:
    line = install.pip_line("mcp")
    assert shlex.split(line) == ["pip", "install", f"{ROOT}[mcp]"]
    assert shlex.split(install.pip_line(reinstall=True))[-2:] == ["--force-reinstall", str(ROOT)]


def test_from_an_installed_wheel_the_line_says_to_use_a_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(install, "__file__", str(tmp_path / "site" / "memkit" / "install.py"))
    line = install.pip_line("treesitter")
    assert line.startswith("pip install '.[treesitter]' in a clone of the memkit repository")
    assert "agent-memkit" not in line and "pip install memkit" not in line
