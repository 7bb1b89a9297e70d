"""Suggested links (`memkit link --suggest`, the hints after add and import) and `memkit link`."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.audit.suggest import suggest_links
from memkit.store import Store
from tests.conftest import Invoke, commit_files

BODY = """\
Background jobs use `arq`, not `celery`; the worker is `src/jobs/worker.py`.
Run `make worker` locally; Redis comes from `REDIS_URL`.
The pool size is `config/settings.toml::database.pool_size`. See `docs/missing.md`.
"""


@pytest.fixture
def project(repo: Path, store: Store) -> Path:
    files = {
        "pyproject.toml": '[project]\nname = "x"\ndependencies = ["arq>=0.25"]\n',
        "Makefile": "worker:\n\tarq src.jobs.worker.Settings\n",
        "src/jobs/worker.py": "import os\nREDIS = os.environ['REDIS_URL']\n",
        "config/settings.toml": "[database]\npool_size = 5\n",
    }
    return commit_files(repo, files)


def test_suggestions_are_what_resolves(project: Path) -> None:
    found = [(s.link, s.line) for s in suggest_links(project, BODY)]
    assert found == [
        ("dep:arq", 1),
        ("src/jobs/worker.py", 1),
        ("cmd:make worker", 2),
        ("env:REDIS_URL", 2),
        ("config/settings.toml::database.pool_size", 3),
    ]
    assert next(s.link for s in suggest_links(project, BODY, ["dep:arq"])) == "src/jobs/worker.py"


def test_add_hints_and_link_accepts(project: Path, run: Invoke) -> None:
    result = run("add", "Jobs use arq", "-b", BODY)
    assert result.stdout == "jobs-use-arq\n"
    assert result.stderr == (
        "suggested links for jobs-use-arq: accept with `memkit link jobs-use-arq dep:arq "
        "src/jobs/worker.py 'cmd:make worker' env:REDIS_URL "
        "config/settings.toml::database.pool_size`\n"
    )
    listed = run("link", "jobs-use-arq", "--suggest").stdout.splitlines()
    assert listed[0] == "dep:arq\t(line 1: arq)"
    run("link", "jobs-use-arq", "dep:arq", "cmd:make worker")
    run("check", "jobs-use-arq")
    (project / "Makefile").write_text("worker:\n\tarq other.Settings\n", "utf-8")
    assert "cmd:make worker: body" in run("check", "jobs-use-arq", code=1).stdout


def test_link_refuses_what_does_not_resolve(project: Path, run: Invoke) -> None:
    run("add", "Jobs", "-b", "text")
    result = run("link", "jobs", "dep:celery", code=2)
    assert "no dependency 'celery'" in result.stderr
    assert "nothing was linked" in result.stderr
    assert "dep:celery" not in (project / ".memory" / "jobs.md").read_text("utf-8")


def test_link_names_a_gone_link_the_memory_already_has(project: Path, run: Invoke) -> None:
    run("add", "Jobs", "-b", "text", "--link", "src/jobs/worker.py")
    (project / "src/jobs/worker.py").unlink()
    result = run("link", "jobs", "dep:arq", code=2)
    assert "src/jobs/worker.py" in result.stderr
    assert "already links to it: remove it first (`memkit link --remove jobs " in result.stderr
    assert "nothing was linked" in result.stderr
    run("link", "--remove", "jobs", "src/jobs/worker.py")
    assert "linked jobs: dep:arq" in run("link", "jobs", "dep:arq").stdout
