"""`verify` writes only what changed: unchanged fingerprints leave the file alone, and
`--follow` moves `paths` along with `links`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from memkit import memory as mm
from memkit.staleness import fingerprint
from memkit.store import Store
from tests.conftest import Invoke, git
from tests.staleness.test_staleness_languages import TODAY, commit_all, write

CODE = "def top(x):\n    return x * 2\n"


def remember(repo: Path, store: Store, mid: str, links: list[str], paths: list[str]) -> None:
    mem = mm.new("About " + mid, "text", mid=mid, today=TODAY, links=links, paths=paths)
    store.add(dataclasses.replace(mem, verified=fingerprint(repo, links, today=TODAY)))
    commit_all(repo, f"memory {mid}")


def test_verify_all_leaves_unchanged_memories_alone(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    write(repo, "b.py", CODE.replace("top", "other"))
    commit_all(repo, "code")
    remember(repo, store, "ma", ["a.py::top"], [])
    remember(repo, store, "mb", ["b.py::other"], [])
    write(repo, "a.py", CODE.replace("x * 2", "x * 3"))
    commit_all(repo, "change a")
    before = (repo / ".memory" / "mb.md").read_bytes()
    out = run("verify", "--all").stdout
    assert out.startswith("verified ma at ") and "mb" not in out
    assert git(repo, "status", "--porcelain") == " M .memory/ma.md\n"
    assert (repo / ".memory" / "mb.md").read_bytes() == before
    assert run("verify", "mb").stdout == "mb: fingerprints unchanged, file left as it is\n"
    assert (repo / ".memory" / "mb.md").read_bytes() == before


def test_follow_moves_paths_with_links(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "src/a.py", CODE)
    commit_all(repo, "code")
    remember(repo, store, "m", ["src/a.py::top", "src/a.py"], ["src/a.py", "docs/**"])
    git(repo, "mv", "src/a.py", "src/b.py")
    commit_all(repo, "rename")
    run("verify", "--all", "--follow")
    mem = store.get("m")
    assert mem.links == ("src/b.py::top", "src/b.py")
    assert mem.paths == ("src/b.py", "docs/**")
    assert run("check").stdout == "1 memories checked: 1 fresh\n"


def test_a_flow_style_front_matter_is_verified(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "a.py", CODE)
    (repo / ".memory" / "flow.md").write_text(
        "---\n{title: Flow, links: [a.py::top], x-owner: me}\n---\n\nBody.\n"
    )
    commit_all(repo, "code and a memory in flow style")
    assert run("verify", "--all").stdout.startswith("verified flow at ")
    text = (repo / ".memory" / "flow.md").read_text()
    assert text.startswith("---\ntitle: Flow\nlinks:\n- a.py::top\nx-owner: me\nverified:\n")
    assert text.endswith("---\n\nBody.\n")
    assert run("check").stdout == "1 memories checked: 1 fresh\n"
