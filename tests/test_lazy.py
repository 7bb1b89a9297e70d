"""memkit.lazy: a package's names load their module on first use, once."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

from memkit.lazy import attach


def test_a_name_is_imported_when_asked_for_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    package = types.ModuleType("lazy_example")
    monkeypatch.setitem(sys.modules, "lazy_example", package)
    package.__getattr__ = attach("lazy_example", {"dedent": "textwrap"})  # type: ignore[attr-defined]
    import textwrap

    assert package.dedent is textwrap.dedent
    assert package.__dict__["dedent"] is textwrap.dedent  # kept: asked once
    with pytest.raises(AttributeError, match="module 'lazy_example' has no attribute 'nope'"):
        package.nope  # noqa: B018


def test_packages_import_none_of_their_lazy_modules() -> None:
    code = (
        "import sys, memkit, memkit.git, memkit.staleness, memkit.store, memkit.search\n"
        "lazy = ['memkit.git.repo', 'memkit.staleness.check', 'memkit.staleness.record',\n"
        "        'memkit.store.loading', 'memkit.search.index']\n"
        "print([m for m in lazy if m in sys.modules])\n"
        "from memkit import Store; from memkit.staleness import check_store\n"
        "print(check_store.__module__, Store.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "memkit.staleness.check memkit.store.store"]
