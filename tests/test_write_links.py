"""Every writer but compile refuses a file that is a symbolic link to another tracked file.

compile writes through a link only to another of its outputs (tests/compile/
test_linked_outputs.py); the agents' settings files, .gitattributes and
.memory/.gitignore are never written (or read) through a link at all.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import commit_files

from memkit.errors import UnsafePathError
from memkit.store import Store

VICTIM = "config/app.conf"  # a tracked file each writer could parse
BODY = {"claude settings": "{}\n", "mcp": "{}\n", "codex": "# app\n"}


def _claude(store: Store) -> object:
    from memkit.agents.install.register import install_claude

    return install_claude(store.root)


def _mcp(store: Store) -> object:
    from memkit.agents.install import more_agents as installers

    return installers.install(store.root, installers.MCP_FILES)


def _codex(store: Store) -> object:
    from memkit.agents.install import more_agents as installers

    return installers.install(store.root, ["codex"])


def _attributes(store: Store) -> object:
    from memkit.githooks.mergedriver import install_merge_driver

    return install_merge_driver(store)


def _init(store: Store) -> object:
    from memkit.store.init import init

    return init(store.root)


WRITERS: dict[str, tuple[str, Callable[[Store], object]]] = {
    "claude settings": (".claude/settings.json", _claude),
    "mcp": (".mcp.json", _mcp),
    "codex": (".codex/config.toml", _codex),
    "gitattributes": (".gitattributes", _attributes),
    "init": (".memory/.gitignore", _init),
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_link_to_a_tracked_file_is_refused(store: Store, name: str) -> None:
    rel, write = WRITERS[name]
    body = BODY.get(name, "# tracked\n")
    commit_files(store.root, {VICTIM: body})
    link = store.root / rel
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.exists() or link.is_symlink():
        link.unlink()
    link.symlink_to(Path("../" * rel.count("/")) / VICTIM)
    with pytest.raises(UnsafePathError, match=f"{rel} is a symbolic link to {VICTIM}"):
        write(store)
    assert (store.root / VICTIM).read_text() == body
    assert link.is_symlink()
