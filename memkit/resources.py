"""Files shipped with memkit: the top-level templates/ directory (memkit/templates in a wheel);
and where an installed library's code is, found without importing it.

Standard library only, and no pathlib at import: the pre-commit hook's fast path asks
where the templates are (memkit.compile.current) on commits that need nothing else.
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.realpath(__file__))


def templates_folder() -> str:
    """The built-in templates' folder: inside the package when installed, beside it in a
    checkout."""
    for candidate in (
        os.path.join(_HERE, "templates"),
        os.path.join(os.path.dirname(_HERE), "templates"),
    ):
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError(  # pragma: no cover - a broken install
        f"memkit's templates/ directory is missing (looked in {_HERE}); reinstall memkit"
    )


def read_template(name: str) -> str:
    with open(os.path.join(templates_folder(), name), encoding="utf-8") as f:
        return f.read()


def library_init(name: str) -> str | None:
    """The `__init__.py` of library `name` on sys.path, found without importing it (its
    stamp changes when the library is reinstalled); None when there is none."""
    for entry in sys.path:
        candidate = os.path.join(entry or ".", name, "__init__.py")
        if os.path.isfile(candidate):
            return candidate
    return None
