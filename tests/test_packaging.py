"""The wheel must carry the top-level templates/ so a plain `pip install .` finds them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_templates(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    [wheel] = tmp_path.glob("memkit-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*")
               if p.is_file()}  # fmt: skip
    assert shipped, "templates/ is empty"
    assert {f"memkit/{name}" for name in shipped} <= names
    assert "memkit/cli.py" in names
    assert "memkit/memory/schema.json" in names  # for editors: see docs/format.md
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "memkit = memkit.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_templates_found_from_installed_layout(tmp_path: Path) -> None:
    """resources.templates_dir() finds memkit/templates inside an unpacked wheel."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp_path / "w"), str(ROOT)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    [wheel] = (tmp_path / "w").glob("memkit-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = "from memkit.resources import templates_dir; print(templates_dir())"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, text=True,
                         capture_output=True, env={"PYTHONPATH": str(site)})  # fmt: skip
    assert out.stdout.strip() == str(site / "memkit" / "templates")
