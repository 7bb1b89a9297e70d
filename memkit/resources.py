"""Files shipped with memkit: the top-level templates/ directory (memkit/templates in a wheel)."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def templates_dir() -> Path:
    """The built-in templates: inside the package when installed, beside it in a checkout."""
    for candidate in (_HERE / "templates", _HERE.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(  # pragma: no cover - a broken install
        f"memkit's templates/ directory is missing (looked in {_HERE}); reinstall memkit"
    )


def read_template(name: str) -> str:
    return (templates_dir() / name).read_text("utf-8")
