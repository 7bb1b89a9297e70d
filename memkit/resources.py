"""Files shipped with memkit: the top-level templates/ directory (memkit/templates in a wheel);
and where an installed library's code is, found without importing it."""

from __future__ import annotations

import os
import sys
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


def library_init(name: str) -> str | None:
    """The `__init__.py` of library `name` on sys.path, found without importing it (its
    stamp changes when the library is reinstalled); None when there is none."""
    for entry in sys.path:
        candidate = os.path.join(entry or ".", name, "__init__.py")
        if os.path.isfile(candidate):
            return candidate
    return None
