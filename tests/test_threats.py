"""The threat model (docs/reliability.md), one hostile repository per test, real processes.

Nothing a repository carries may run code, make memkit read or write outside the
repository, or hang it: not `.memory/.cache/`, templates, config, memory files or
instruction files.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import git, write_memory

from memkit.store import Store

OK = "---\ntitle: Retry policy\n---\nRetry idempotent requests only.\n"


def memkit(
    root: Path, *args: str, stdin: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMKIT_TODAY": "2026-11-22"}
    return subprocess.run(
        [sys.executable, "-P", "-m", "memkit", *args],
        cwd=root,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


class _Payload:
    """Unpickling it creates a file: proof that a planted pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def _plant_whoosh_index(folder: Path, marker: Path) -> None:
    """A whoosh index whose table of contents unpickles `_Payload` when opened."""
    from whoosh.fields import ID, Schema
    from whoosh.filedb.filestore import FileStorage
    from whoosh.index import TOC

    folder.mkdir(parents=True)
    storage = FileStorage(str(folder))
    storage.create_index(Schema(path=ID(stored=True)))
    TOC(Schema(path=ID(stored=True)), [_Payload(marker)], 2).write(storage, "MAIN")


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "code-ran"


def test_a_committed_search_index_is_never_loaded(store: Store, marker: Path) -> None:
    """Item 1: a pull request force-adds a pickled whoosh index under .memory/.cache/."""
    write_memory(store, "retry", OK)
    planted = store.dir / ".cache" / "search"
    _plant_whoosh_index(planted / "index", marker)
    manifest = {"version": 5, "files": {".memory/retry.md": [1, 1]}}
    (planted / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    git(store.root, "add", "-f", ".")
    git(store.root, "commit", "-qm", "planted")
    for args in (
        ("search", "retry"),
        ("context", "--file", "x.py", "--query", "retry"),
        ("index",),
    ):
        done = memkit(store.root, *args)
        assert done.returncode == 0, done.stderr
        assert not marker.exists(), f"memkit {' '.join(args)} ran the planted pickle"
    assert "retry" in memkit(store.root, "search", "retry").stdout


def test_planted_parse_cache_and_template_bytecode_are_ignored(store: Store, marker: Path) -> None:
    """Item 1: nothing under .memory/.cache/ is read, whatever it claims."""
    from jinja2.bccache import bc_magic

    write_memory(store, "retry", OK)
    cache = store.dir / ".cache"
    (cache / "templates").mkdir(parents=True)
    code = compile(f"open({str(marker)!r}, 'w').close()\n", "<planted>", "exec")
    import marshal

    for name in ("a.cache", "b.cache"):
        (cache / "templates" / name).write_bytes(
            bc_magic + pickle.dumps("x", 2) + marshal.dumps(code)
        )
    fake = {"version": 2, "entries": {".memory/retry.md": [1, 1, "", {"title": "Forged"}, ""]}}
    (cache / "parsed.json").write_text(json.dumps(fake), encoding="utf-8")
    done = memkit(store.root, "compile")
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert "Retry policy" in (store.root / "AGENTS.md").read_text("utf-8")
    assert "Forged" not in memkit(store.root, "list").stdout


def test_derived_data_lives_in_the_git_directory(store: Store) -> None:
    write_memory(store, "retry", OK)
    assert memkit(store.root, "search", "retry").returncode == 0
    assert store.cache_dir == store.root / ".git" / "memkit"
    assert (store.cache_dir / "search").is_dir()
    assert not (store.dir / ".cache").exists()


def test_outside_git_derived_data_goes_to_the_user_cache(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    assert memkit(root, "init").returncode == 0
    write_memory(Store(root), "retry", OK)
    assert memkit(root, "search", "retry").returncode == 0
    cache = Path(os.environ["HOME"]) / ".cache" / "memkit"
    assert [p.name.startswith("plain-") for p in cache.iterdir()] == [True]
    assert not (root / ".memory" / ".cache").exists()


# ------------------------------------------------------------------ templates


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "id_rsa"
    path.write_text("PRIVATE-KEY-MATERIAL\n", encoding="utf-8")
    return path


def test_a_template_cannot_include_through_a_link_out(store: Store, secret_file: Path) -> None:
    """Item 2: `.memory/templates/proc -> /proc/self` and `{% include "proc/environ" %}`."""
    write_memory(store, "retry", OK)
    templates = store.dir / "templates"
    templates.mkdir()
    (templates / "proc").symlink_to("/proc/self", target_is_directory=True)
    (templates / "key.md").symlink_to(secret_file)
    for include in ("proc/environ", "key.md"):
        (templates / "memory.md.j2").write_text(f'{{% include "{include}" %}}\n', encoding="utf-8")
        for args in (("compile", "--check"), ("compile",)):
            done = memkit(store.root, *args)
            assert done.returncode == 2, done.stdout + done.stderr
            assert "outside the repository" in done.stderr, done.stderr
            assert "PATH=" not in done.stdout + done.stderr
            assert "PRIVATE-KEY" not in done.stdout + done.stderr
            assert not (store.root / "AGENTS.md").exists()


def test_a_template_override_that_is_a_link_out_is_refused(store: Store, secret_file: Path) -> None:
    write_memory(store, "retry", OK)
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "memory.md.j2").symlink_to(secret_file)
    done = memkit(store.root, "compile")
    assert done.returncode == 2
    assert done.stderr.startswith("memkit: .memory/templates/memory.md.j2 leads to ")
    assert not (store.root / "AGENTS.md").exists()


@pytest.mark.parametrize(
    ("template", "what"),
    [
        ('{{ "x" * 3000000000 }}', "memory"),
        pytest.param(  # the memory bound again, reached in steps: seconds of work
            '{% set ns = namespace(s="xxxxxxxx") %}{% for i in range(40) %}'
            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}", "memory",
            marks=pytest.mark.slow),
        ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
         "time"),
        ('{% for i in range(100000) %}{{ "y" * 1000 }}{% endfor %}', "output"),
    ],
    ids=["3-GB-string", "doubling", "nested-loops", "huge-output"],
)  # fmt: skip
def test_template_rendering_is_bounded(
    store: Store, template: str, what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: a template computing a 3 GB string reached 10.9 GB; a loop hangs compile."""
    write_memory(store, "retry", OK)
    (store.dir / "templates").mkdir()
    (store.dir / "templates" / "memory.md.j2").write_text(template, encoding="utf-8")
    # The loop waits out the time bound: one second is enough for it to fire, where the
    # others keep three, so that on a loaded machine time does not beat the output bound.
    seconds = 1 if what == "time" else 3
    script = (
        "import resource, sys\n"
        "from memkit.compile import render\n"
        f"render.RENDER_SECONDS = {seconds}\n"
        "from memkit.cli import main\n"
        "try:\n"
        "    main(['compile'])\n"
        "finally:\n"
        "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "    print(f'peak-kb {peak}', file=sys.stderr)\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=store.root, capture_output=True, text=True, timeout=120
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    assert elapsed < 60
    peak_kb = int(done.stderr.rsplit("peak-kb ", 1)[1])
    assert peak_kb < 1_600_000, f"peak {peak_kb} kB"
    first = done.stderr.splitlines()[0]
    assert first.startswith("memkit: "), done.stderr
    assert "Traceback" not in done.stderr
    # Whichever bound fires first stops it: on a loaded machine time can beat memory.
    expected = {
        "memory": ("memory", "longer than"),
        "time": ("longer than",),
        "output": ("characters",),
    }[what]
    assert any(e in first for e in expected), first
    assert not (store.root / "AGENTS.md").exists()


# ------------------------------------------------------- reads and writes outside


def test_session_start_never_reads_devices_or_fifos(store: Store) -> None:
    """Item 8: `@/dev/zero` in CLAUDE.md ate memory; `@fifo` hung SessionStart."""
    write_memory(store, "retry", OK)
    os.mkfifo(store.root / "fifo")
    (store.root / "zero").symlink_to("/dev/zero")
    (store.root / "CLAUDE.md").write_text("@/dev/zero\n@fifo\n@zero\n@../../etc/passwd\n")
    payload = {"session_id": "s1", "cwd": str(store.root), "hook_event_name": "SessionStart"}
    done = memkit(store.root, "hook", "session-start", stdin=json.dumps(payload), timeout=20)
    assert done.returncode == 0, done.stderr
    assert "Retry policy" in done.stdout


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "huge"])
def test_config_is_read_bounded(store: Store, kind: str) -> None:
    """Item 8: `.memory/config.toml -> /dev/zero` ate memory until a traceback."""
    config = store.dir / "config.toml"
    config.unlink()
    if kind == "dev-zero":
        config.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(config)
    else:
        config.write_text("# " + "x" * 2_000_000 + "\n", encoding="utf-8")
    done = memkit(store.root, "compile", timeout=20)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("memkit: .memory/config.toml")


def test_linked_cache_folders_are_never_written_through(store: Store, tmp_path: Path) -> None:
    """Item 3: symlinks in .memory/.cache/ led the hooks and `edit --discard` outside."""
    outside = tmp_path / "outside"
    (outside / "sessions").mkdir(parents=True)
    old = outside / "sessions" / "old.jsonl"
    old.write_text("{}\n")
    os.utime(old, (0, 0))
    (outside / "edit").mkdir()
    (outside / "edit" / "retry.md").write_text("someone's file\n")
    write_memory(store, "retry", OK)
    (store.dir / ".cache").symlink_to(outside, target_is_directory=True)
    before = sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*"))
    payload = {"session_id": "s1", "cwd": str(store.root), "hook_event_name": "SessionStart"}
    memkit(store.root, "hook", "session-start", stdin=json.dumps(payload))
    post = {**payload, "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": str(store.root / "a.py")}}  # fmt: skip
    memkit(store.root, "hook", "post-tool-use", stdin=json.dumps(post))
    memkit(store.root, "edit", "retry", "--discard")
    assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == before


def test_import_never_follows_a_link_out(store: Store, secret_file: Path) -> None:
    """Item 10: `memkit import .` read a CLAUDE.md linked to a file outside."""
    (store.root / "CLAUDE.md").symlink_to(secret_file)
    (store.root / "AGENTS.md").write_text("# Rules\n\n## Tests\n\nRun pytest.\n")
    done = memkit(store.root, "import", ".")
    assert done.returncode == 0, done.stderr  # the link is skipped, the rest imported
    assert "skipped CLAUDE.md: a symbolic link to" in done.stdout
    assert "outside the repository" in done.stdout
    assert "PRIVATE-KEY" not in "".join(p.read_text() for p in store.dir.glob("*.md"))
    assert (store.dir / "tests.md").is_file()


def test_a_linked_instruction_file_stays_a_link(store: Store) -> None:
    """Item 10: compile replaced a tracked `CLAUDE.md -> AGENTS.md` with a plain file."""
    write_memory(store, "retry", OK)
    (store.root / "AGENTS.md").write_text("# Team notes\n", encoding="utf-8")
    (store.root / "CLAUDE.md").symlink_to("AGENTS.md")
    first = memkit(store.root, "compile")
    assert first.returncode == 0, first.stderr
    assert (store.root / "CLAUDE.md").is_symlink()
    text = (store.root / "AGENTS.md").read_text("utf-8")
    assert text.startswith("# Team notes\n") and "Retry policy" in text
    assert "CLAUDE.md: a link to AGENTS.md, which memkit writes: left as it is" in first.stderr
    assert memkit(store.root, "compile", "--check").returncode == 0


@pytest.mark.parametrize("folder", [".git", ".memory"])
def test_nested_outputs_never_land_in_git_or_the_store(store: Store, folder: str) -> None:
    """Item 13: a memory scoped to `.git/hooks/**` wrote `.git/hooks/AGENTS.md`."""
    (store.dir / "config.toml").write_text("[compile]\nnested_agents = true\n")
    write_memory(store, "inside", f"---\ntitle: Hooks\npaths: ['{folder}/hooks/**']\n---\nb\n")
    done = memkit(store.root, "compile")
    assert done.returncode == 0, done.stderr
    assert not (store.root / folder / "hooks" / "AGENTS.md").exists()
    assert "Hooks" in (store.root / "AGENTS.md").read_text("utf-8")


# ------------------------------------------------------------------ locks and commits


@pytest.mark.slow  # another process holds the store lock for three seconds
@pytest.mark.parametrize("command", [("rm", "retry"), ("revert", "retry")])
def test_rm_and_revert_wait_for_the_store_lock(store: Store, command: tuple[str, ...]) -> None:
    """Item 7: racing an MCP update, `rm` said "removed" and the memory came back."""
    write_memory(store, "retry", OK)
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "one")
    write_memory(store, "retry", OK.replace("only", "only, twice"))
    git(store.root, "commit", "-qam", "two")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom memkit.store import Store\n"
            "with Store(sys.argv[1]).lock():\n    print('held', flush=True)\n    time.sleep(3)\n",
            str(store.root),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    started = time.monotonic()
    done = memkit(store.root, *command)
    waited = time.monotonic() - started
    holder.wait()
    assert done.returncode == 0, done.stderr
    assert waited > 1.5, f"{command[0]} did not wait for the lock ({waited:.2f} s)"


def test_commit_honours_git_identity_variables(store: Store) -> None:
    """Item 13: `--commit` ignored GIT_AUTHOR_* / GIT_COMMITTER_*."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "Grace", "GIT_AUTHOR_EMAIL": "grace@example.com",
           "GIT_AUTHOR_DATE": "@1700000000 +0100", "GIT_COMMITTER_NAME": "Bot",
           "GIT_COMMITTER_EMAIL": "bot@example.com"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "memkit", "add", "Note", "-b", "text", "--commit"],
        cwd=store.root,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    log = git(store.root, "log", "-1", "--format=%an <%ae> %at %ai|%cn <%ce>")
    assert log.startswith("Grace <grace@example.com> 1700000000 2023-11-14 23:13:20 +0100|Bot <")


def test_commit_without_identity_fails_before_writing(store: Store, tmp_path: Path) -> None:
    """Item 13: `--commit` failed after writing, so a retry made a `-2` duplicate."""
    git(store.root, "config", "--unset", "user.name")
    git(store.root, "config", "--unset", "user.email")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_AUTHOR", "GIT_COMMIT"))}
    env["EMAIL"] = ""
    done = subprocess.run(
        [sys.executable, "-m", "memkit", "add", "Note", "-b", "text", "--commit"],
        cwd=store.root,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") <= 3 and "git has no identity configured" in done.stderr
    assert store.files() == []


def test_merge_driver_with_missing_files_says_so(store: Store, tmp_path: Path) -> None:
    """Item 13: `hooks merge-file` with missing files gave a traceback."""
    missing = [str(tmp_path / n) for n in ("base", "ours", "theirs")]
    done = memkit(store.root, "hooks", "merge-file", *missing, "AGENTS.md")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"memkit: the merge driver cannot read {tmp_path / 'ours'}")


# ------------------------------------------------- found by benchmarks/adversarial.py


def test_init_never_writes_through_a_store_linked_out(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".memory").symlink_to(elsewhere, target_is_directory=True)
    done = memkit(repo, "init")
    assert done.returncode == 2 and "outside the repository" in done.stderr
    assert list(elsewhere.iterdir()) == []


@pytest.mark.slow  # an editor process that takes two seconds
def test_discard_waits_for_an_edit_in_progress(store: Store, tmp_path: Path) -> None:
    write_memory(store, "retry", OK)
    editor = tmp_path / "slow.py"
    editor.write_text(
        "import sys, time\np = sys.argv[1]\nt = open(p).read()\ntime.sleep(2)\n"
        "open(p, 'w').write(t + 'more\\n')\n"
    )
    env = {**os.environ, "EDITOR": f"{sys.executable} {editor}"}
    editing = subprocess.Popen(
        [sys.executable, "-m", "memkit", "edit", "retry"],
        cwd=store.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1)
    assert memkit(store.root, "edit", "retry", "--discard").returncode == 0
    out, err = editing.communicate(timeout=30)
    assert editing.returncode == 0, err
    assert out == "saved .memory/retry.md\n"


@pytest.mark.parametrize("source", ["/dev/zero", "big"])
def test_body_file_is_read_bounded(store: Store, tmp_path: Path, source: str) -> None:
    if source == "big":
        source = str(tmp_path / "big.md")
        Path(source).write_text("a" * 1_500_000, encoding="utf-8")
    done = memkit(store.root, "add", "Big", "--body-file", source, timeout=30)
    assert done.returncode == 2
    assert "over the size of a memory" in done.stderr and "Traceback" not in done.stderr
    assert store.files() == []


def test_arguments_that_are_not_utf8_are_refused(store: Store) -> None:
    for args in ([b"caf\xe9", b"--body", b"x"], [b"x", b"--body", b"\xff\xfe"]):
        done = subprocess.run(
            [sys.executable.encode(), b"-m", b"memkit", b"add", *args],
            cwd=store.root,
            capture_output=True,
        )
        assert done.returncode == 2, done.stderr
        assert b"is not UTF-8; give UTF-8 text" in done.stderr
    assert store.files() == []


def test_an_unusable_cache_folder_is_a_clean_error(store: Store) -> None:
    write_memory(store, "retry", OK)
    env = {**os.environ, "MEMKIT_CACHE_DIR": "/proc/self"}
    for args in (["search", "retry"], ["list"], ["compile"]):
        done = subprocess.run(
            [sys.executable, "-m", "memkit", *args],
            cwd=store.root,
            capture_output=True,
            text=True,
            env=env,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("memkit: cannot create memkit's cache folder /proc/self/")


def test_a_locked_git_index_stops_commit_before_writing(store: Store) -> None:
    (store.root / ".git" / "index.lock").touch()
    done = memkit(store.root, "add", "Note", "--body", "text", "--commit")
    assert done.returncode == 2 and "git's index is locked" in done.stderr
    assert store.files() == []


def test_revert_never_takes_another_memorys_text(store: Store) -> None:
    """git pairs a deleted memory with an unrelated new one as a rename (50% similar)."""
    assert memkit(store.root, "add", "W14 add 5", "--body", "tok-a").returncode == 0
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "one")
    memkit(store.root, "rm", "w14-add-5")
    memkit(store.root, "add", "W14 add 20", "--body", "tok-b")
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "two")
    done = memkit(store.root, "revert", "w14-add-20")
    assert done.returncode == 2 and "has no earlier version" in done.stderr
    assert "tok-b" in (store.dir / "w14-add-20.md").read_text("utf-8")


# ------------------------------------------------- a `memkit` folder in the work tree


def _plant_memkit_package(root: Path, marker: Path) -> None:
    """A `memkit` package at the top of the work tree that proves it ran by creating `marker`."""
    (root / "memkit").mkdir()
    (root / "memkit" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n", "utf-8")
    (root / "memkit" / "__main__.py").write_text("", "utf-8")


def test_a_memkit_folder_a_branch_carries_never_runs_in_the_git_hook(
    store: Store, marker: Path
) -> None:
    """git never versions hooks, so that checking out code cannot run it: memkit's hook
    starts Python with -P, or the work tree would come first on the import path."""
    from memkit.githooks import install as hooks
    from memkit.githooks.fastpath import OLD_HOOK

    root = store.root
    write_memory(store, "retry-policy", OK)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "start")
    hooks.install(root)
    _plant_memkit_package(root, marker)
    git(root, "add", "-A")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=root, capture_output=True, text=True
    )
    assert (done.returncode, marker.exists()) == (0, False), done.stderr
    assert OLD_HOOK not in done.stderr
    # The spelling of hooks installed before -P: the planted package runs (the test's proof
    # that it is planted where an import would find it).
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text(hook.read_text("utf-8").replace(" -P -c ", " -c "), "utf-8")
    (root / "memkit" / "__main__.py").write_text("# changed\n", "utf-8")
    git(root, "add", "-A")
    subprocess.run(["git", "commit", "-q", "-m", "y"], cwd=root, capture_output=True)
    assert marker.exists()


def test_a_hook_installed_before_safe_path_says_to_reinstall(store: Store) -> None:
    from memkit.githooks import install as hooks
    from memkit.githooks.fastpath import OLD_HOOK

    root = store.root
    hooks.install(root)
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text(hook.read_text("utf-8").replace(" -P -c ", " -c "), "utf-8")
    write_memory(store, "retry-policy", OK)
    git(root, "add", "-A")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=root, capture_output=True, text=True
    )
    assert done.returncode in (0, 1)  # the checks run as before: only the warning is new
    assert done.stderr.splitlines()[0] == OLD_HOOK


def test_a_memkit_folder_in_the_work_tree_never_runs_in_the_merge_driver(
    store: Store, marker: Path, tmp_path: Path
) -> None:
    """The merge driver's command, run as git runs it: by sh, at the top of the work tree."""
    from memkit.githooks.mergedriver import OLD_DRIVER, install_merge_driver

    root = store.root
    install_merge_driver(store)
    driver = git(root, "config", "merge.memkit.driver").strip()
    _plant_memkit_package(root, marker)
    sides = []
    for name, text in (("base", "a\n"), ("ours", "a\nb\n"), ("theirs", "c\na\n")):
        (tmp_path / name).write_text(text, "utf-8")
        sides.append(str(tmp_path / name))
    for old, planted in ((driver, False), (driver.replace(" -P -m ", " -m "), True)):
        command = old.replace("%O", sides[0]).replace("%A", sides[1]).replace("%B", sides[2])
        done = subprocess.run(
            ["sh", "-c", command.replace("%P", "NOTES.md")],
            cwd=root,
            capture_output=True,
            text=True,
        )
        assert marker.exists() == planted, done.stderr
        if not planted:
            assert done.returncode == 0 and OLD_DRIVER not in done.stderr, done.stderr
            assert (tmp_path / "ours").read_text("utf-8") == "c\na\nb\n"
    shutil.rmtree(root / "memkit")  # the old spelling, without a planted package
    command = driver.replace(" -P -m ", " -m ").replace("%O", sides[0]).replace("%A", sides[1])
    done = subprocess.run(
        ["sh", "-c", command.replace("%B", sides[2]).replace("%P", "NOTES.md")],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.stderr.splitlines()[0] == OLD_DRIVER
