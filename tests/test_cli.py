from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Invoke, git, write_memory

from memkit.store import Store


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_init_then_add_list_show(run: Invoke, repo: Path) -> None:
    assert run("init").stdout == (
        "created .memory/\ncreated .memory/config.toml\ncreated .memory/.gitignore\n"
    )
    assert run("init").stdout == f".memory/ already set up in {repo}\n"
    (repo / "memkit").mkdir()
    (repo / "memkit" / "git.py").write_text("def open_repo(path):\n    return path\n")
    out = run(
        "add",
        "Use pygit2 for git",
        "--type",
        "decision",
        "--tag",
        "git",
        "--link",
        "memkit/git.py::open_repo",
        "--body",
        "It is fast.",
    )
    assert out.stdout == "use-pygit2-for-git\n"
    run("add", "Tabs are banned", "-t", "convention", "--path", "src/**/*.py", "-b", "Spaces.")
    assert run("list").stdout == (
        "ID                  TYPE        STATUS  TITLE\n"
        "tabs-are-banned     convention  active  Tabs are banned\n"
        "use-pygit2-for-git  decision    active  Use pygit2 for git\n"
    )
    assert run("list", "--type", "decision").stdout.count("\n") == 2
    assert run("show", "use-pygit2-for-git").stdout == (
        "# Use pygit2 for git\n\n"
        "id:           use-pygit2-for-git\n"
        "path:         .memory/use-pygit2-for-git.md\n"
        "type:         decision\n"
        "status:       active\n"
        "tags:         git\n"
        "links:        memkit/git.py::open_repo\n"
        "created:      2026-11-22\n"
        "updated:      2026-11-22\n"
        "verified:     2026-11-22 at no commit\n"
        "committed:    not yet (the repository has no commits)\n"
        "\nIt is fast.\n"
    )


def test_json_schema(run: Invoke, store: Store) -> None:
    run("add", "A memory", "--tag", "x", "--path", "src/*.py", "-b", "text")
    [item] = json.loads(run("list", "--json").stdout)
    assert item == {
        "id": "a-memory",
        "path": ".memory/a-memory.md",
        "title": "A memory",
        "type": "note",
        "status": "active",
        "tags": ["x"],
        "paths": ["src/*.py"],
        "links": [],
        "description": None,
        "activation": None,
        "source": None,
        "order": None,
        "confidence": None,
        "created": "2026-11-22",
        "updated": "2026-11-22",
        "review_after": None,
        "expires": None,
        "priority": 0,
        "pin": False,
        "supersedes": [],
        "superseded_by": None,
        "revises": None,
        "verified": None,
    }
    assert json.loads(run("show", "a-memory", "--json").stdout) == {**item, "body": "text"}


def test_add_body_from_stdin_and_file(run: Invoke, store: Store, tmp_path: Path) -> None:
    run("add", "From stdin", input="piped body\n")
    assert store.get("from-stdin").text == "piped body"
    f = tmp_path / "b.md"
    f.write_text("file body\n")
    run("add", "From file", "--body-file", str(f))
    assert store.get("from-file").text == "file body"


def test_add_with_editor(
    run: Invoke, store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script = tmp_path / "ed.py"
    script.write_text(
        "import sys; p=sys.argv[1]; t=open(p).read(); "
        "open(p,'w').write(t.rstrip() + '\\nWritten in the editor.\\n')"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    run("add", "Edited", "-e")
    assert store.get("edited").text == "Written in the editor."


def test_edit_valid_and_invalid(
    run: Invoke, store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run("add", "Target", "-b", "old", "--type", "note")
    script = tmp_path / "ed.py"
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    script.write_text(
        "import sys; p=sys.argv[1]; t=open(p).read(); "
        "open(p,'w').write(t.replace('type: note', 'type: nope'))"
    )
    bad = run("edit", "target", code=2)
    assert bad.stderr == (
        "memkit: .git/memkit/edit/target.md:3: type: unknown value 'nope'; use one of: "
        "decision, convention, gotcha, procedure, episode, preference, note (your edit is "
        "kept in .git/memkit/edit/target.md: `memkit edit target` reopens it, "
        "`memkit edit target --discard` drops it)\n"
    )
    assert store.get("target").type == "note"  # the original is untouched
    script.write_text(
        "import sys; p=sys.argv[1]; t=open(p).read(); "
        "open(p,'w').write(t.replace('type: nope', 'type: gotcha'))"
    )
    monkeypatch.setenv("MEMKIT_TODAY", "2026-12-01")
    assert run("edit", "target").stdout == ("saved .memory/target.md (resumed your earlier edit)\n")
    mem = store.get("target")
    assert (mem.type, str(mem.updated)) == ("gotcha", "2026-12-01")
    assert not (store.cache_dir / "edit" / "target.md").exists()
    script.write_text("pass")
    assert run("edit", "target").stdout == "no change to .memory/target.md\n"


def test_rm(run: Invoke, store: Store) -> None:
    run("add", "Gone soon", "-b", "x")
    run("rm", "nope", "gone-soon", code=2)
    assert store.exists("gone-soon")
    assert run("rm", "gone-soon").stdout == "removed .memory/gone-soon.md\n"


def test_validate_exit_codes(run: Invoke, store: Store) -> None:
    run("add", "Fine", "-b", "x")
    assert run("validate").stdout == "1 memories, all valid\n"
    write_memory(store, "broken", "---\ntitle: [\n---\n")
    out = run("validate", code=1)
    assert out.stdout.startswith(".memory/broken.md:3: front matter: malformed YAML")
    assert out.stderr == "1 problem(s) in 1 file(s)\n"
    assert run("list").stderr == (
        "memkit: warning: skipped 1 invalid memory file(s): .memory/broken.md; "
        "run `memkit validate`\n"
    )
    # Between the parentheses: PyYAML's own words for the problem, not memkit's to assert.
    assert re.fullmatch(
        r"memkit: \.memory/broken\.md:3: front matter: malformed YAML \([^\n]+\); "
        r"fix the YAML syntax\n"
        r"memkit: 1 invalid memory file\(s\) \(fix them, then `memkit validate`\)\n",
        run("check", code=1).stderr,
    )


BAD_ADD = [
    (["add", "X", "--id", "Not Valid"], "--id 'Not Valid' is not a valid id"),
    (["add", "X", "--path", "../out/*"], "paths: path glob '../out/*' escapes the repository"),
    (["add", "X", "--link", "/etc/passwd"], "links: link '/etc/passwd' is absolute"),
    (["add", "X", "-b", "password = 'hunter2Xy9!Qz7#pLm'"], "high-entropy value"),
    (["add", "   "], "title: missing or empty title"),
    (["show", "missing"], "no memory with id 'missing' (see `memkit list`)"),
]


@pytest.mark.parametrize(("args", "message"), BAD_ADD, ids=[a[1][:20] for a in BAD_ADD])
def test_user_errors_are_one_line(run: Invoke, store: Store, args: list[str], message: str) -> None:
    result = run(*args, code=2)
    assert result.stderr.startswith("memkit: ") and result.stderr.count("\n") == 1
    assert message in result.stderr
    assert result.stdout == ""


def test_exact_id_collision(run: Invoke, store: Store) -> None:
    run("add", "X", "-b", "x", "--id", "fixed")
    assert "already exists" in run("add", "Y", "-b", "x", "--id", "fixed", code=2).stderr


def test_no_store(run: Invoke) -> None:
    assert "run `memkit init`" in run("list", code=2).stderr


def test_commit_flag_keeps_unrelated_staged_work(run: Invoke, repo: Path, store: Store) -> None:
    (repo / "README").write_text("hi\n")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "first")
    (repo / "other.txt").write_text("staged, not memkit's\n")
    git(repo, "add", "other.txt")
    out = run("add", "Committed", "--commit", "-b", "x")
    assert out.stdout.splitlines()[1].endswith("memkit: add committed: Committed")
    assert (
        git(repo, "log", "-1", "--format=%an %s") == "Ada Lovelace memkit: add committed: "
        "Committed\n"
    )
    # the compiled files come along, as the git hook would have had them
    assert git(repo, "show", "--name-only", "--format=", "HEAD") == (
        ".github/instructions/memkit.instructions.md\n.memory/committed.md\nAGENTS.md\nCLAUDE.md\n"
    )
    assert git(repo, "diff", "--cached", "--name-only") == "other.txt\n"
    run("compile", "--check")
    run("rm", "committed", "--commit")
    assert git(repo, "show", "--name-status", "--format=", "HEAD") == (
        "D\t.github/instructions/memkit.instructions.md\nD\t.memory/committed.md\nD\tAGENTS.md\nD\tCLAUDE.md\n"
    )
    assert git(repo, "diff", "--cached", "--name-only") == "other.txt\n"
    run("compile", "--check")


def test_import_cost() -> None:
    """`memkit --help` must stay fast: the CLI module loads no heavy library."""
    code = (
        "import sys, memkit.cli\n"
        "import memkit.staleness, memkit.githooks.fastpath, memkit.agents.claude.hook\n"
        "import pkgutil, importlib, memkit.commands\n"
        "for m in pkgutil.iter_modules(memkit.commands.__path__):\n"
        "    importlib.import_module('memkit.commands.' + m.name)\n"
        "heavy = {'pygit2', 'whoosh', 'jinja2', 'markdown_it', 'frontmatter', 'yaml', 'mcp',\n"
        "         'tree_sitter'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"


def test_python_m(repo: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "memkit", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("memkit, version ")


EVIL = (
    "Clear \x1b[2J\x1b[H, retitle \x1b]0;pwned\x07, bell \a, back\bspace, \rfake line, "
    "C1 \x9b31m, hidden\x9d, rlo \u202etxt.exe, isolate \u2066x\u2069, tab\tkept"
)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def test_memory_text_reaches_the_terminal_escaped(run: Invoke, repo: Path, store: Store) -> None:
    write_memory(store, "evil", "---\ntitle: Evil\n---\nPlain first.\n")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=Eve \x1b[31mRed", "commit", "-qm", "Add \x1b]8;;x\x07evil\x1b[0m")
    write_memory(store, "evil", f"---\ntitle: Evil\ntags: [x]\n---\n{EVIL}\n")
    write_memory(store, "bad", '---\ntitle: "Bad \\e[5m"\n---\nx\n')
    outputs = [
        run("show", "evil"), run("log", "evil"), run("log"), run("list"), run("validate", code=1),
        run("diff", "HEAD"), run("diff", "HEAD", "--format", "markdown"),
    ]  # fmt: skip
    for result in outputs:
        assert not RAW.search(result.stdout + result.stderr), result.stdout + result.stderr
    shown = outputs[0].stdout
    assert "Clear \\x1b[2J\\x1b[H, retitle \\x1b]0;pwned\\x07, bell \\x07, back\\x08space" in shown
    assert "\\x0dfake line, C1 \\x9b31m, hidden\\x9d, rlo \\u202etxt.exe" in shown
    assert "isolate \\u2066x\\u2069, tab\tkept" in shown
    assert "Eve \\x1b[31mRed" in outputs[1].stdout and "\\x1b]8;;x\\x07evil" in outputs[2].stdout
    assert "'Bad \\x1b[5m'" in outputs[4].stdout  # the validation message names it, escaped
    assert "\\x1b[2J" in outputs[5].stdout and "\\x1b[2J" in outputs[6].stdout
    # JSON stays exact: the same text, with every control written as a JSON escape.
    out = run("show", "evil", "--json").stdout
    assert not RAW.search(out)
    assert json.loads(out)["body"] == EVIL


def test_rm_the_same_id_twice(run: Invoke, store: Store) -> None:
    run("add", "Twice", "-b", "x")
    assert run("rm", "twice", "twice").stdout == "removed .memory/twice.md\n"
    assert not store.exists("twice")


def _memkit(repo: Path, *args: str, stdin: Any) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "memkit", *args]
    pipe = subprocess.PIPE
    return subprocess.Popen(command, cwd=repo, text=True, stdin=stdin, stdout=pipe, stderr=pipe)


def test_add_does_not_wait_for_a_pipe_nobody_writes_to(repo: Path, store: Store) -> None:
    proc = _memkit(repo, "add", "Silent", stdin=subprocess.PIPE)
    try:
        code = proc.wait(timeout=30)  # stdin stays open, and nothing is written to it
    finally:
        proc.kill()
        out, err = proc.communicate()
    assert (code, out) == (2, "")
    assert err == (
        "memkit: no text arrived on standard input within 1 s: give the body with --body TEXT, "
        "--body-file FILE (--body-file - waits for standard input) or --edit\n"
    )
    assert not store.exists("silent")


def test_add_reads_a_pipe_and_a_redirected_file(repo: Path, store: Store, tmp_path: Path) -> None:
    piped = _memkit(repo, "add", "Piped", stdin=subprocess.PIPE)
    assert piped.communicate("echoed text\n", timeout=30) == ("piped\n", "")
    f = tmp_path / "body.md"
    f.write_text("text from a file\n")
    with f.open() as stdin:
        redirected = _memkit(repo, "add", "Redirected", stdin=stdin)
        assert redirected.communicate(timeout=30) == ("redirected\n", "")
    with open(os.devnull) as stdin:  # closed input: an empty body, refused at once
        empty = _memkit(repo, "add", "Empty", stdin=stdin)
        assert "the memory's text is empty" in empty.communicate(timeout=30)[1]
        assert empty.returncode == 2
    assert store.get("piped").text == "echoed text"
    assert store.get("redirected").text == "text from a file"


def test_add_refuses_an_empty_body_and_reports_a_broken_editor(
    run: Invoke, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", "false")
    assert "the memory's text is empty" in run("add", "Nothing", "-b", "  \n", code=2).stderr
    assert "the memory's text is empty" in run("add", "Nothing", code=2).stderr  # empty stdin
    out = run("add", "Edited", "--edit", code=2)
    assert out.stderr.startswith("memkit: the editor failed (")
    assert "set $VISUAL or $EDITOR" in out.stderr
    assert list((store.root / ".memory").glob("*.md")) == []


def test_an_unreadable_title_gets_a_stable_id(run: Invoke, store: Store) -> None:
    assert run("add", "日本語のメモ", "-b", "x").stdout == "memory-ed038b57\n"
    assert run("add", "別のメモ", "-b", "x").stdout.startswith("memory-")
