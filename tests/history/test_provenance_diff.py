"""memkit diff: a memory-level review of a range, on a real branch off main."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Invoke, git, write_memory

from memkit.history.diff import diff_range
from memkit.store import Store


def mem(title: str, body: str = "Text.", **fields: str) -> str:
    lines = [f"title: {title}", *(f"{k}: {v}" for k, v in fields.items())]
    return "---\n" + "\n".join(lines) + f"\n---\n\n{body}\n"


@pytest.fixture
def branch(repo: Path, store: Store) -> dict[str, str]:
    """main has five memories; branch `feature` changes each in a different way."""
    write_memory(store, "old", mem("Old", paths="[src/*.py]"))
    write_memory(
        store, "conf", mem("Conf", "Line one.\nLine two.", confidence="low", paths="[a/*]")
    )
    write_memory(store, "stat", mem("Stat", paths="[b/*]"))
    write_memory(store, "moved", mem("Moved", paths="[c/*]"))
    write_memory(store, "was-x", mem("X", "Same text.", paths="[d/*]"))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "rm", "-q", ".memory/old.md")
    write_memory(store, "conf", mem("Conf", "Line one.\nLine 2.", confidence="high", paths="[a/*]"))
    write_memory(store, "stat", mem("Stat", paths="[b/*]", status="archived"))
    (store.dir / "topic").mkdir()
    git(repo, "mv", ".memory/moved.md", ".memory/topic/moved.md")
    git(repo, "mv", ".memory/was-x.md", ".memory/now-x.md")
    write_memory(store, "new-always", mem("Always", "Read me always.", type="convention"))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "feature work")
    git(repo, "checkout", "-q", "main")
    write_memory(store, "on-main", mem("On main", paths="[z/*]"))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "main moves on")
    git(repo, "checkout", "-q", "feature")
    # not committed yet: an agent's draft
    write_memory(
        store, "scoped", mem("Scoped", paths="[e/*]", status="draft", source="claude session 42")
    )
    return {"base": base}


def test_each_kind_of_change(store: Store, branch: dict[str, str]) -> None:
    review = diff_range(store)
    assert review.base == branch["base"]  # the merge base, not main's tip
    assert review.head is None
    got = {c.id: (c.kind, c.old_path, c.path, c.flags) for c in review.changes}
    assert got == {
        "conf": ("changed", ".memory/conf.md", ".memory/conf.md", ("confidence-rose",)),
        "moved": ("renamed", ".memory/moved.md", ".memory/topic/moved.md", ()),
        "new-always": ("added", None, ".memory/new-always.md", ("always-on",)),
        "now-x": ("renamed", ".memory/was-x.md", ".memory/now-x.md", ()),
        "old": ("removed", ".memory/old.md", None, ()),
        "scoped": ("added", None, ".memory/scoped.md", ("agent-written",)),
        "stat": ("changed", ".memory/stat.md", ".memory/stat.md", ()),
    }
    conf = next(c for c in review.changes if c.id == "conf")
    assert [(f.name, f.old, f.new) for f in conf.fields] == [("confidence", "low", "high")]
    assert conf.body_diff == "@@ -1,2 +1,2 @@\n Line one.\n-Line two.\n+Line 2."
    stat = next(c for c in review.changes if c.id == "stat")
    assert [(f.name, f.old, f.new) for f in stat.fields] == [("status", "active", "archived")]


def test_committed_range_leaves_out_the_work_tree(store: Store, branch: dict[str, str]) -> None:
    review = diff_range(store, branch["base"], "feature")
    assert "scoped" not in {c.id for c in review.changes}
    assert diff_range(store, "feature", "feature").changes == ()
    assert {c.id for c in diff_range(store, "feature", "main").changes} >= {"on-main", "old"}


def test_text_output(run: Invoke, branch: dict[str, str]) -> None:
    out = run("diff").stdout.replace(branch["base"][:12], "<base>")
    assert out == (
        "memory changes <base>..working tree: 2 added, 2 changed, 2 renamed, 1 removed\n"
        "\nchanged  conf  Conf  [confidence-rose]\n  .memory/conf.md\n"
        "  confidence: low -> high\n"
        "    @@ -1,2 +1,2 @@\n     Line one.\n    -Line two.\n    +Line 2.\n"
        "\nrenamed  moved  Moved\n  .memory/moved.md -> .memory/topic/moved.md\n"
        "\nadded    new-always  Always  [always-on]\n  .memory/new-always.md\n"
        "\nrenamed  now-x  X\n  .memory/was-x.md -> .memory/now-x.md\n"
        "\nremoved  old  Old\n  .memory/old.md\n"
        "\nadded    scoped  Scoped  [agent-written]\n  .memory/scoped.md\n"
        "\nchanged  stat  Stat\n  .memory/stat.md\n  status: active -> archived\n"
        "\nneeds a reviewer's eye:\n"
        "  conf: confidence rose\n"
        "  new-always: new always-on memory (active, no `paths`): every agent session loads it\n"
        "  scoped: written by an agent (status draft, or a `source` naming an agent)\n"
    )


def test_markdown_output(run: Invoke, branch: dict[str, str]) -> None:
    out = run("diff", branch["base"], "feature", "--format", "markdown").stdout
    assert out.replace(branch["base"][:12], "<base>").replace(
        git(Path.cwd(), "rev-parse", "feature").strip()[:12], "<head>"
    ) == (
        "<!-- memkit-diff -->\n"
        "### memkit: memory changes\n\n"
        "`<base>..<head>`: 1 added, 2 changed, 2 renamed, 1 removed.\n\n"
        "#### Needs a reviewer's eye\n\n"
        "- **`conf`** Conf: confidence rose\n"
        "- **`new-always`** Always: new always-on memory (active, no `paths`): every agent "
        "session loads it\n\n"
        "#### Added\n\n"
        "- **`new-always`** Always (`.memory/new-always.md`)\n"
        "  - `type`: convention\n"
        "  - `status`: active\n\n"
        "  <details><summary>text</summary>\n\n"
        "  ```diff\n  @@ -0,0 +1 @@\n  +Read me always.\n  ```\n\n"
        "  </details>\n\n"
        "#### Changed\n\n"
        "- **`conf`** Conf (`.memory/conf.md`)\n"
        "  - `confidence`: low → high\n\n"
        "  <details><summary>text</summary>\n\n"
        "  ```diff\n  @@ -1,2 +1,2 @@\n   Line one.\n  -Line two.\n  +Line 2.\n  ```\n\n"
        "  </details>\n"
        "- **`stat`** Stat (`.memory/stat.md`)\n"
        "  - `status`: active → archived\n\n"
        "#### Renamed\n\n"
        "- **`moved`** Moved (`.memory/moved.md` → `.memory/topic/moved.md`)\n"
        "- **`now-x`** X (`.memory/was-x.md` → `.memory/now-x.md`)\n\n"
        "#### Removed\n\n"
        "- **`old`** Old (`.memory/old.md`)\n"
    )


def test_json_output(run: Invoke, branch: dict[str, str]) -> None:
    data = json.loads(run("diff", "--format", "json").stdout)
    assert data["base"] == branch["base"] and data["head"] is None
    assert data["stale"] == [] and data["notes"] == []
    scoped = next(c for c in data["changes"] if c["id"] == "scoped")
    assert scoped == {
        "id": "scoped",
        "kind": "added",
        "title": "Scoped",
        "path": ".memory/scoped.md",
        "old_path": None,
        "flags": ["agent-written"],
        "invalid": False,
        "owners": [],
        "fields": [
            {"name": "title", "old": None, "new": "Scoped"},
            {"name": "type", "old": None, "new": "note"},
            {"name": "status", "old": None, "new": "draft"},
            {"name": "paths", "old": None, "new": "e/*"},
            {"name": "source", "old": None, "new": "claude session 42"},
        ],
        "body_diff": "@@ -0,0 +1 @@\n+Text.",
    }
    assert run("diff", "--json").stdout == run("diff", "--format", "json").stdout


def test_default_base_needs_a_default_branch(run: Invoke, repo: Path, store: Store) -> None:
    write_memory(store, "a", mem("A"))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "a")
    git(repo, "branch", "-m", "main", "trunk")
    assert "name the base: `memkit diff BASE`" in run("diff", code=2).stderr
    assert run("diff", "HEAD").stdout.endswith(": no memory changes\n")


def test_invalid_memory_in_range(run: Invoke, branch: dict[str, str], store: Store) -> None:
    write_memory(store, "broken", "---\ntitle: [\n---\n")
    out = run("diff").stdout
    assert "\nadded    broken  broken\n  .memory/broken.md\n  does not parse: run " in out


def test_workflow_doc_matches_the_workflow_file() -> None:
    import yaml

    docs = Path(__file__).parents[2] / "docs"
    workflow = (docs / "memkit-review.yml").read_text("utf-8")
    assert f"```yaml\n{workflow}```\n" in (docs / "github-actions.md").read_text("utf-8")
    steps = yaml.safe_load(workflow)["jobs"]["gate"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    for command in ("memkit ci --base", "--format markdown"):
        assert command in runs


def test_store_below_the_repository_top(repo: Path, run: Invoke) -> None:
    from memkit.store import init

    proj = repo / "proj"
    proj.mkdir()
    init(proj)
    store = Store(proj)
    write_memory(store, "deep", mem("Deep", paths="[x/*]"))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "deep")
    write_memory(store, "deep", mem("Deep", "Changed.", paths="[x/*]"))
    review = diff_range(store, "HEAD")
    assert [(c.id, c.kind, c.path) for c in review.changes] == [
        ("deep", "changed", ".memory/deep.md")
    ]
    out = run("--root", str(proj), "log", "deep").stdout
    assert out.endswith("  Ada Lovelace  added\n    deep\n")


def test_shallow_clone_diff(
    run: Invoke, branch: dict[str, str], repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "-b", "feature", f"file://{repo}", str(clone))
    monkeypatch.chdir(clone)
    err = run("diff", branch["base"], code=2).stderr
    assert "this is a shallow clone and may not have it" in err
    out = run("diff", "HEAD").stdout
    assert out.endswith(
        "no memory changes\n\nnote: shallow clone: history before the "
        "clone's depth is not available\n"
    )


def test_memories_made_stale_by_code_in_the_range(run: Invoke, repo: Path, store: Store) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def handler():\n    return 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "code")
    run(
        "add",
        "Handler returns one",
        "--link",
        "src/app.py::handler",
        "--path",
        "src/*",
        "-b",
        "It returns 1.",
    )
    run("add", "Unrelated", "--path", "docs/*", "-b", "x")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "memories")
    base = git(repo, "rev-parse", "HEAD").strip()
    (repo / "src" / "app.py").write_text("def handler():\n    return 2\n")
    git(repo, "commit", "-q", "-am", "change the handler")
    review = diff_range(store, base, "HEAD")
    assert review.changes == ()
    [status] = review.stale
    assert (status.id, [(x.link, x.state) for x in status.stale_links()]) == (
        "handler-returns-one",
        [("src/app.py::handler", "body")],
    )
    out = run("diff", base, "--format", "markdown").stdout
    assert (
        "#### Stale because of code changed in this range\n\n- **`handler-returns-one`**: "
        "src/app.py::handler (body since " in out
    )
    assert run("diff", base).stdout.startswith(f"memory changes {base[:12]}..working tree: 1 stale")
    assert json.loads(run("diff", base, "--json").stdout)["stale"][0]["id"] == "handler-returns-one"
