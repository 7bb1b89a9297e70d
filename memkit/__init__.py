"""memkit: markdown-in-git memory for coding agents.

Importing this package is cheap: the heavy libraries (pygit2, jinja2,
markdown-it, frontmatter) load only inside the functions that need them, and not
even `typing` is imported here (the git hook's fast path imports this package).
"""

from __future__ import annotations

from memkit.lazy import attach

TYPE_CHECKING = False

__version__ = "0.2.0"

__all__ = ["MemkitError", "Memory", "Store", "__version__"]

if TYPE_CHECKING:
    from memkit.errors import MemkitError
    from memkit.memory import Memory
    from memkit.store import Store


__getattr__ = attach(
    __name__, {"Store": "memkit.store", "Memory": "memkit.memory", "MemkitError": "memkit.errors"}
)
