"""Link shapes: what a memory may link to, refused with the form to write, and normalised."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memkit import memory as mm
from memkit.memory.links import normalise, split_key
from memkit.store import Store
from tests.conftest import Invoke, commit_files, git, write_memory

ACCEPTED = [
    "src/x.py",
    "src/x.py::Client.send",
    "pyproject.toml::project.requires-python",
    "pyproject.toml::tool.ruff.line-length",
    'pyproject.toml::tool."ruff.lint".select',
    "package.json::devDependencies.@types/node",
    "config/app.yaml::services.web.ports.0",
    "config/app.yaml::my key.sub-key",
    "dep:celery",
    "cmd:make lint",
    "env:REDIS_URL",
]


@pytest.mark.parametrize("link", ACCEPTED)
def test_well_formed_links_are_accepted(link: str) -> None:
    assert mm.written_links([link]) == (link,)


REFUSED = [
    ("src/x.py:Sym", "`src/x.py::Sym`"),
    ("src/x.py#L850", "line numbers are not supported"),
    ("src/x.py:850", "link the symbol (`src/x.py::Name`) or the file (`src/x.py`)"),
    ("src/x.py#Sym", "`src/x.py::Sym`"),
    ("src/x.py::", "names no symbol after '::'"),
    ("src/x.py::Sym.", "`src/x.py::Sym`"),
    ("src/x.py::.Sym", "`src/x.py::Sym`"),
    ("src/x.py::A..b", "`src/x.py::A.b`"),
    ("src/x.py::A::b", "`src/x.py::A.b`"),
    ("src/x.py::project.requires-python", "is not a symbol name"),
    ("pyproject.toml::", "the key is empty"),
    ("pyproject.toml::project.", "ends with a dot"),
    ("pyproject.toml::a..b", "empty part"),
    ("src\\x.py", "backslashes"),
    ("/etc/passwd", "absolute"),
    ("../x.py", "escapes the repository"),
    ("src/../../x.py", "escapes the repository"),
    ("https://example.com/x", "put a URL in `source`"),
    (" src/x.py", "spaces"),
    ("dep:", "names nothing"),
]


@pytest.mark.parametrize(("link", "fix"), REFUSED)
def test_malformed_links_are_refused_with_the_form_to_write(link: str, fix: str) -> None:
    with pytest.raises(ValueError) as e:
        mm.written_links([link])
    assert fix in str(e.value)


@pytest.mark.parametrize(
    ("link", "normal"),
    [
        ("./src/x.py::f", "src/x.py::f"),
        ("src//x.py::f", "src/x.py::f"),
        ("src/./x.py::f", "src/x.py::f"),
        ("src/x.py/", "src/x.py"),
        ("./pyproject.toml::project.requires-python", "pyproject.toml::project.requires-python"),
        ("cmd:./run.sh", "cmd:./run.sh"),
    ],
)
def test_link_paths_are_normalised(link: str, normal: str) -> None:
    assert normalise(link) == normal
    assert mm.written_links([link]) == (normal,)


def test_config_keys_split_as_the_config_anchor_reads_them() -> None:
    assert split_key('tool."ruff.lint".select') == ("tool", "ruff.lint", "select")
    assert split_key("project.requires-python") == ("project", "requires-python")


def test_validate_refuses_a_link_that_cannot_resolve(store: Store, run: Invoke) -> None:
    write_memory(store, "one", "---\ntitle: One\nlinks:\n- src/x.py:Sym\n---\nbody\n")
    out = run("validate", code=1).output
    assert ".memory/one.md:3: links:" in out
    assert "`src/x.py::Sym`" in out


def test_add_links_a_config_key_with_a_dash(repo: Path, store: Store, run: Invoke) -> None:
    commit_files(repo, {"pyproject.toml": '[project]\nrequires-python = ">=3.11"\n'})
    run("add", "Python floor", "-b", "b", "--link", "pyproject.toml::project.requires-python")
    mem = store.get("python-floor")
    assert mem.links == ("pyproject.toml::project.requires-python",)
    assert mem.verified is not None
    commit_files(repo, {"pyproject.toml": '[project]\nrequires-python = ">=3.12"\n'})
    assert "pyproject.toml::project.requires-python: value" in run("check", code=1).output


@pytest.mark.parametrize("written", ["./src/x.py::f", "src//x.py::f", "src/./x.py::f"])
def test_add_writes_link_paths_as_git_names_them_and_they_go_stale(
    repo: Path, store: Store, run: Invoke, written: str
) -> None:
    commit_files(repo, {"src/x.py": "def f():\n    return 1\n"})
    run("add", "F", "-b", "b", "--link", written)
    text = (store.dir / "f.md").read_text(encoding="utf-8")
    assert "- src/x.py::f\n" in text
    assert "    src/x.py::f: " in text
    commit_files(repo, {"src/x.py": "def f():\n    return 2\n"})
    assert "src/x.py::f: body" in run("check", code=1).output


def test_a_stored_unnormalised_link_goes_stale(repo: Path, store: Store, run: Invoke) -> None:
    commit_files(repo, {"src/x.py": "def f():\n    return 1\n"})
    run("add", "F", "-b", "b", "--link", "src/x.py::f")
    path = store.dir / "f.md"
    # as earlier versions wrote it: the path as given, in the links and the record
    path.write_text(path.read_text(encoding="utf-8").replace("src/x.py", "./src//x.py"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    run("check")
    commit_files(repo, {"src/x.py": "def f():\n    return 2\n"})
    assert "src/x.py::f: body" in run("check", code=1).output


def test_link_command_normalises_and_refuses_malformed_links(
    repo: Path, store: Store, run: Invoke
) -> None:
    commit_files(repo, {"src/x.py": "def f():\n    return 1\n"})
    run("add", "F", "-b", "b")
    run("link", "f", "./src/x.py::f")
    assert store.get("f").links == ("src/x.py::f",)
    out = run("link", "f", "src/x.py:f", code=2).output
    assert "`src/x.py::f`" in out
    assert store.get("f").links == ("src/x.py::f",)


def test_mcp_tools_normalise_and_refuse_links(repo: Path, store: Store) -> None:
    import datetime as dt

    from memkit.agents.mcp import tools
    from memkit.errors import MemkitError

    commit_files(repo, {"src/x.py": "def f():\n    return 1\n"})
    day = dt.date(2026, 1, 31)
    saved = tools.save(store, title="F", body="b", today=day, links=["./src/x.py::f"])
    assert saved.links == ("src/x.py::f",)
    assert "- src/x.py::f\n" in (store.root / saved.path).read_text(encoding="utf-8")
    with pytest.raises(MemkitError, match=re.escape("`src/x.py::f`")):
        tools.save(store, title="G", body="b", today=day, links=["src/x.py:f"])
    with pytest.raises(MemkitError, match="line numbers are not supported"):
        tools.update(store, saved.id, today=day, links=["src/x.py#L2"])
    updated = tools.update(store, saved.id, today=day, links=["src//x.py"])
    assert updated.links == ("src/x.py",)
