"""Dependency, config key, command and environment links through the staleness engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkit.staleness import check_range, check_staged, check_store, fingerprint
from memkit.staleness.parsed import LinkError
from memkit.store import Store
from tests.conftest import Invoke, git
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

PYPROJECT = """\
[project]
name = "shop"
version = "1.0"
dependencies = [
    "celery[redis]>=5.3,<6",
    "Django~=4.2",
    "requests",
]

[project.optional-dependencies]
dev = ["pytest>=8"]

[project.scripts]
shop = "shop.cli:main"

[tool.ruff]
line-length = 100
select = ["E", "F"]
"""

PACKAGE = {
    "name": "web",
    "scripts": {"test": "vitest run", "build": "vite build", "lint": "eslint ."},
    "dependencies": {"react": "^18.2.0", "zod": "~3.22.4"},
    "devDependencies": {"vite": "5.0.0"},
}

MAKEFILE = """\
.PHONY: lint test

# run the linters
lint: install
\truff check .   # fast
\tmypy src

test:
\tpytest -q
"""

COMPOSE = """\
x-defaults: &defaults
  restart: always
services:
  redis:
    <<: *defaults
    image: redis:7
    ports:
      - "6380:6379"
  web:
    image: shop
"""


def states(store: Store) -> dict[str, str]:
    [status] = check_store(store, today=TODAY)
    return {x.link: x.state for x in status.links}


@pytest.fixture
def project(repo: Path) -> Path:
    write(repo, "pyproject.toml", PYPROJECT)
    write(repo, "package.json", json.dumps(PACKAGE, indent=2))
    write(repo, "Makefile", MAKEFILE)
    write(repo, "docker-compose.yml", COMPOSE)
    write(repo, ".env.example", "REDIS_URL=redis://localhost:6380\nexport DEBUG=0\n")
    write(repo, "src/shop/settings.py", 'import os\n\nBROKER = os.environ["BROKER_URL"]\n')
    write(repo, "web/src/api.ts", "export const base = process.env.API_BASE ?? '/api';\n")
    commit_all(repo, "project")
    return repo


def test_fingerprints_of_each_kind(project: Path) -> None:
    links = [
        "dep:celery",
        "dep:django",
        "dep:react",
        "dep:!arq",
        "pyproject.toml::tool.ruff.line-length",
        "docker-compose.yml::services.redis.ports.0",
        "package.json::scripts.test",
        "cmd:make lint",
        "cmd:npm run build",
        "cmd:npm test",
        "cmd:shop",
        "env:REDIS_URL",
        "env:BROKER_URL",
        "env:API_BASE",
    ]
    prints = dict(fingerprint(project, links, today=TODAY).fingerprints)
    assert prints["dep:celery"] == "dep:5"
    assert prints["dep:django"] == "dep:4"
    assert prints["dep:react"] == "dep:18"
    assert prints["dep:!arq"] == "dep:none"
    assert prints["pyproject.toml::tool.ruff.line-length"].startswith("value:")
    assert prints["cmd:make lint"].startswith("cmd:")
    assert prints["env:REDIS_URL"] == "env .env.example"
    assert prints["env:BROKER_URL"] == "env src/shop/settings.py"
    assert prints["env:API_BASE"] == "env web/src/api.ts"


@pytest.mark.parametrize(
    ("link", "message"),
    [
        ("dep:celry", "no dependency 'celry' in the root manifests or lock files (did you mean"),
        ("pyproject.toml::tool.ruff.line-lenght", "has no key 'tool.ruff.line-lenght' (did you"),
        ("cmd:make lnt", "Makefile defines no 'lnt' (did you mean lint?)"),
        ("cmd:npm run tests", "package.json defines no 'tests' (did you mean test?)"),
        ("env:NOPE", "no .env.example or .env.sample declares NOPE"),
        ("missing.toml::a", "no file missing.toml"),
        ("cmd:just build", "no justfile or Justfile or .justfile at the repository root"),
    ],
)
def test_missing_targets_are_refused_with_a_hint(project: Path, link: str, message: str) -> None:
    with pytest.raises(LinkError) as err:
        fingerprint(project, [link], today=TODAY)
    assert message in str(err.value)


def test_dependency_states(project: Path, store: Store) -> None:
    remember(project, store, ["dep:celery", "dep:django", "dep:requests", "dep:!arq"])
    text = PYPROJECT.replace("celery[redis]>=5.3,<6", "celery>=5.4")  # minor bump
    write(project, "pyproject.toml", text)
    commit_all(project, "minor")
    assert set(states(store).values()) == {"unchanged"}
    text = text.replace("Django~=4.2", "Django~=5.0").replace('"requests",', '"arq>=0.25",')
    text = text.replace("celery>=5.4", "httpx")
    write(project, "pyproject.toml", text)
    commit_all(project, "migrate")
    assert states(store) == {
        "dep:celery": "removed",
        "dep:django": "version",
        "dep:requests": "removed",
        "dep:!arq": "added",
    }


def test_lock_file_versions_count(project: Path, store: Store) -> None:
    lock = '[[package]]\nname = "django"\nversion = "4.2.11"\n'
    write(project, "uv.lock", lock)
    commit_all(project, "lock")
    remember(project, store, ["dep:Django"])
    write(project, "uv.lock", lock.replace("4.2.11", "5.1.0"))
    commit_all(project, "upgrade")
    assert states(store) == {"dep:Django": "version"}


def test_config_keys_ignore_formatting_and_order(project: Path, store: Store) -> None:
    links = [
        "pyproject.toml::tool.ruff",
        "package.json::scripts.test",
        "docker-compose.yml::services.redis",
    ]
    remember(project, store, links)
    reordered = PYPROJECT.replace(
        'line-length = 100\nselect = ["E", "F"]',
        'select = [ "E",\n  "F" ]  # rules\nline-length = 100',
    )
    write(project, "pyproject.toml", reordered)
    write(
        project, "package.json", json.dumps(dict(reversed(PACKAGE.items())), separators=(",", ":"))
    )
    compose = COMPOSE.replace('      - "6380:6379"', "      - '6380:6379'").replace(
        "  redis:\n", "  redis:  # cache\n"
    )
    write(project, "docker-compose.yml", compose)
    commit_all(project, "reformat")
    assert set(states(store).values()) == {"unchanged"}
    write(project, "pyproject.toml", reordered.replace("line-length = 100", "line-length = 120"))
    write(project, "docker-compose.yml", compose.replace("6380:6379", "6381:6379"))
    scripts = {**PACKAGE, "scripts": {"build": "vite build"}}
    write(project, "package.json", json.dumps(scripts))
    commit_all(project, "change")
    assert states(store) == {
        "pyproject.toml::tool.ruff": "value",
        "package.json::scripts.test": "removed",
        "docker-compose.yml::services.redis": "value",
    }


def test_commands_changed_renamed_or_reformatted(project: Path, store: Store) -> None:
    remember(project, store, ["cmd:make lint", "cmd:make test", "cmd:npm run lint", "cmd:shop"])
    write(
        project,
        "Makefile",
        MAKEFILE.replace("\truff check .   # fast", "\truff  check .").replace(
            "# run the linters\n", ""
        ),
    )
    commit_all(project, "reformat")
    assert set(states(store).values()) == {"unchanged"}
    write(
        project,
        "Makefile",
        MAKEFILE.replace("test:", "check:").replace("mypy src", "mypy --strict src"),
    )
    write(project, "package.json", json.dumps({**PACKAGE, "scripts": {"lint": "biome check ."}}))
    write(
        project,
        "pyproject.toml",
        PYPROJECT.replace('shop = "shop.cli:main"', 'shopctl = "shop.cli:main"'),
    )
    commit_all(project, "rename")
    assert states(store) == {
        "cmd:make lint": "body",
        "cmd:make test": "removed",
        "cmd:npm run lint": "body",
        "cmd:shop": "removed",
    }


def test_just_and_task_files(repo: Path, store: Store) -> None:
    write(repo, "justfile", "set shell := ['bash', '-c']\n\nbuild target='x':\n    cargo build\n")
    write(repo, "Taskfile.yml", "version: '3'\ntasks:\n  ci:\n    cmds: [go test ./...]\n")
    commit_all(repo, "runners")
    remember(repo, store, ["cmd:just build", "cmd:task ci"])
    write(repo, "justfile", "build target='x':\n    cargo build --release\n")
    write(repo, "Taskfile.yml", "version: '3'\ntasks:\n  ci:\n    cmds: ['go test ./...']\n")
    commit_all(repo, "edit")
    assert states(store) == {"cmd:just build": "body", "cmd:task ci": "unchanged"}


def test_env_variables_moved_or_gone(project: Path, store: Store) -> None:
    remember(project, store, ["env:BROKER_URL", "env:API_BASE", "env:REDIS_URL"])
    write(project, "src/shop/settings.py", "BROKER = 'memory://'\n")
    write(project, "src/shop/broker.py", "from os import getenv\nURL = getenv('BROKER_URL')\n")
    write(project, "web/src/api.ts", "export const base = '/api';\n")
    write(project, ".env.example", "# nothing\n")
    commit_all(project, "move")
    assert states(store) == {
        "env:BROKER_URL": "unchanged",
        "env:API_BASE": "removed",
        "env:REDIS_URL": "removed",
    }


def test_staged_and_range_checks_see_anchor_changes(project: Path, store: Store) -> None:
    remember(project, store, ["dep:react", "cmd:make test", "env:BROKER_URL"])
    base = git(project, "rev-parse", "HEAD").strip()
    write(project, "package.json", json.dumps({**PACKAGE, "dependencies": {"react": "^19.0.0"}}))
    write(project, "src/shop/settings.py", "BROKER = 'x'\n")
    git(project, "add", "-A")
    staged = sorted((mid, s.link, s.state) for mid, s in check_staged(store))
    assert staged == [("m", "dep:react", "version"), ("m", "env:BROKER_URL", "removed")]
    commit_all(project, "upgrade")
    [status] = check_range(store, base, None)
    assert {x.link: x.state for x in status.links} == {
        "dep:react": "version",
        "env:BROKER_URL": "removed",
    }


def test_check_command_and_ci_gate(project: Path, store: Store, run: Invoke) -> None:
    run("add", "Redis port", "--link", "docker-compose.yml::services.redis.ports", "-b", "6380")
    commit_all(project, "memory")
    run("check")
    write(project, "docker-compose.yml", COMPOSE.replace("6380", "6390"))
    result = run("check", code=1)
    assert "docker-compose.yml::services.redis.ports: value" in result.stdout
    run("verify", "redis-port")
    run("check")


def test_pre_commit_hook_reports_anchor_links(project: Path, store: Store) -> None:
    import os
    import subprocess
    import time

    from memkit.githooks import install as hooks
    from tests.conftest import write_memory

    memory = "---\ntitle: UI is React 18\nlinks:\n- dep:react\n---\n\nClass components stay.\n"
    path = write_memory(store, "ui-react", memory)
    (project / ".memory" / "config.toml").write_text("[compile]\ntargets = []\n", "utf-8")
    hour_ago = time.time() - 3600
    os.utime(path, (hour_ago, hour_ago))
    from memkit.staleness import verify

    verify(store, ["ui-react"], today=TODAY)
    commit_all(project, "memory")
    hooks.install(project)
    write(project, "package.json", json.dumps({**PACKAGE, "dependencies": {"react": "^19.1.0"}}))
    git(project, "add", "package.json")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "react 19"], cwd=project, capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "ui-react: UI is React 18" in done.stderr
    assert "dep:react: major version changed" in done.stderr


def test_compiled_files_and_context_note_stale_anchors(project: Path, run: Invoke) -> None:
    run("init")
    run(
        "add",
        "Redis on 6380",
        "--link",
        "docker-compose.yml::services.redis.ports",
        "--path",
        "docker-compose.yml",
        "-b",
        "Integration tests need Redis on port 6380.",
    )
    commit_all(project, "memory")
    write(project, "docker-compose.yml", COMPOSE.replace("6380", "6390"))
    run("compile")
    compiled = (project / "AGENTS.md").read_text("utf-8")
    assert "docker-compose.yml::services.redis.ports (value since" in compiled
    context = run("context", "--file", "docker-compose.yml").stdout
    assert "docker-compose.yml::services.redis.ports (value since" in context


LOCKS = {
    "uv.lock": 'version = 1\n\n[[package]]\nname = "Anyio"\nversion = "4.4.0"\nsource = '
    '{ registry = "https://pypi.org/simple" }\ndependencies = [\n    { name = "idna" },\n]\n\n'
    '[package.optional-dependencies]\nname = "not-a-package"\n\n[[package]]\nname = "idna"\n'
    'version = "3.7"\n',
    "poetry.lock": "[[package]]\nname = 'click'\nversion = '8.1.7'\ndescription = \"x\"\n\n"
    '[package.dependencies]\ncolorama = {version = "*", markers = "platform_system"}\n\n'
    '[metadata]\nlock-version = "2.0"\n',
    "Cargo.lock": '# generated\nversion = 3\n\n[[package]]\nname = "serde"\nversion = "1.0.200"\n'
    'dependencies = [\n "serde_derive",\n]\n\n[[package]]\nname = "serde_derive"\n'
    'version = "1.0.200"\n',
}


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_lock_packages_read_by_lines_match_a_toml_parse(name: str) -> None:
    import tomllib

    from memkit.staleness.anchors.manifests import toml_packages

    text = LOCKS[name]
    parsed = [{k: p[k] for k in ("name", "version")} for p in tomllib.loads(text)["package"]]
    assert toml_packages(text) == parsed
