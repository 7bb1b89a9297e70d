"""A package's names that load their module on first use (PEP 562's module `__getattr__`).

`attach(__name__, {NAME: MODULE})` gives the `__getattr__` a package sets: asking the
package for NAME imports MODULE then, not when the package is imported, and keeps the
value in the package. Standard library only: the hooks import packages that use it
before they know whether they need more.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def attach(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """The module `__getattr__` of `package`: each name in `homes` from its module."""

    def __getattr__(name: str) -> object:
        module = homes.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
