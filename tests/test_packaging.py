"""The wheel: it carries templates/, the JSON schema and py.typed, and runs from its own layout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def test_wheel_ships_templates(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*") if p.is_file()
    }
    assert shipped, "templates/ is empty"
    assert {f"memkit/{name}" for name in shipped} <= names
    assert {"memkit/cli.py", "memkit/py.typed"} <= names
    assert "memkit/memory/schema.json" in names  # for editors: see docs/format.md
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "memkit = memkit.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_templates_found_from_installed_layout(wheel: Path, tmp_path: Path) -> None:
    """resources.templates_folder() finds memkit/templates inside an unpacked wheel."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = "from memkit.resources import templates_folder; print(templates_folder())"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        check=True,
        text=True,
        capture_output=True,
        env={"PYTHONPATH": str(site)},
    )
    assert out.stdout.strip() == str(site / "memkit" / "templates")
