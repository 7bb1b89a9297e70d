"""`memkit audit` on real git repositories: what it resolves, what it flags, how it reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkit.audit import audit
from memkit.audit.sources import instruction_files, references
from tests.conftest import Invoke, commit_files, git

CLAUDE = """\
# Shop

Run `make lint` and `make tset` before pushing; `npm run build` builds the UI.
API: `src/shop/api.py`, views: `src/shop/views.py`, settings: [here](src/shop/settings.py).
Totals go through `compute_total()`; refunds through `legacy_total()`.
Redis comes from `REDIS_URL`; set `CACHE_HOST` to the cache's host.
Line length: `pyproject.toml::tool.ruff.line-length` and `pyproject.toml::tool.ruff.line_length`.
Mark slow tests with `pytest -m slow`, integration ones with `pytest -m integraton`.

```bash
$ uv run shop serve
./scripts/deploy.sh --prod
pytest tests/test_api.py::test_total
```

```python
from shop.api import app
import celery
```

<!-- memkit:begin -->
`src/not/checked.py` is inside memkit's section.
<!-- memkit:end -->
<!-- `src/commented/out.py` -->
"""

PYPROJECT = """\
[project]
name = "shop"
dependencies = ["fastapi>=0.110", "redis>=5"]

[project.scripts]
shop = "shop.cli:main"

[tool.ruff]
line-length = 100

[tool.pytest.ini_options]
markers = ["slow: takes long", "integration: needs services"]
"""


@pytest.fixture
def project(repo: Path) -> Path:
    files = {
        "CLAUDE.md": CLAUDE,
        "pyproject.toml": PYPROJECT,
        "Makefile": "lint:\n\truff check .\n\ntest:\n\tpytest\n",
        "package.json": json.dumps({"scripts": {"build": "vite build"}}),
        "src/shop/__init__.py": "",
        "src/shop/api.py": "def compute_total(xs):\n    return sum(xs)\n",
        "src/shop/settings.py": "import os\nREDIS = os.environ['REDIS_URL']\n",
        "scripts/deploy.sh": "#!/bin/sh\n",
        "tests/test_api.py": "def test_total():\n    pass\n",
    }
    return commit_files(repo, files)


EXPECTED = """\
CLAUDE.md:3: `make tset`: no Makefile defines the target tset (did you mean test?)
CLAUDE.md:4: no file or folder src/shop/views.py
CLAUDE.md:5: legacy_total(): no code in the project mentions legacy_total
CLAUDE.md:6: environment variable CACHE_HOST appears in no file of the project
CLAUDE.md:7: pyproject.toml has no key tool.ruff.line_length (did you mean tool.ruff.line-length?)
CLAUDE.md:8: pytest marker integraton is neither declared nor used (did you mean integration?)
CLAUDE.md:18: module celery: not in the project, the standard library or its dependencies
1 instruction file(s), 19 reference(s) checked, 7 unresolved
"""


def test_audit_reports_each_unresolved_reference(project: Path, run: Invoke) -> None:
    result = run("audit", code=1)
    assert result.stdout == EXPECTED


def test_audit_json(project: Path, run: Invoke) -> None:
    record = json.loads(run("audit", "--json", code=1).stdout)
    assert record["files"] == ["CLAUDE.md"]
    assert record["resolved"] == record["checked"] - 7
    assert record["unresolved"][0] == {
        "file": "CLAUDE.md",
        "line": 3,
        "kind": "command",
        "reference": "make tset",
        "message": "`make tset`: no Makefile defines the target tset",
        "suggestion": "test",
    }


def test_clean_file_exits_zero_and_needs_no_memkit(project: Path, run: Invoke) -> None:
    (project / "AGENTS.md").write_text("Use `make lint` and `src/shop/api.py`.\n", "utf-8")
    assert not (project / ".memory").exists()
    result = run("audit", "AGENTS.md")
    assert result.stdout == "1 instruction file(s), 2 reference(s) checked, 0 unresolved\n"


def test_files_in_sub_folders_resolve_relative_paths(project: Path) -> None:
    (project / "src" / "shop" / "AGENTS.md").write_text(
        "See `api.py` and `./settings.py`.\n", "utf-8"
    )
    git(project, "add", "-A")
    report = audit(project, ["src/shop/AGENTS.md"])
    assert report.flags == ()
    assert report.checked == 2


def test_missing_file_argument_is_a_usage_error(project: Path, run: Invoke) -> None:
    result = run("audit", "NOPE.md", code=2)
    assert "no file NOPE.md" in result.stderr


def test_ignored_and_placeholder_references_are_not_flagged(project: Path) -> None:
    (project / ".gitignore").write_text("dist/\n.env\n", "utf-8")
    text = "Build to `dist/app.js`; copy `.env`; run `make <target>`; see `config.json`.\n"
    (project / "AGENTS.md").write_text(text, "utf-8")
    assert audit(project, ["AGENTS.md"]).flags == ()


def test_instruction_files_are_found_where_agents_read_them() -> None:
    paths = [
        "CLAUDE.md",
        "docs/guide.md",
        "web/AGENTS.md",
        ".cursor/rules/style.mdc",
        ".github/copilot-instructions.md",
        ".github/instructions/py.instructions.md",
        "node_modules/x/CLAUDE.md",
        ".clinerules",
    ]
    assert instruction_files(paths) == [
        ".clinerules",
        "CLAUDE.md",
        ".github/copilot-instructions.md",
        "web/AGENTS.md",
        ".cursor/rules/style.mdc",
        ".github/instructions/py.instructions.md",
    ]


def test_references_skip_front_matter_markers_and_comments() -> None:
    text = "---\nglobs: src/*.py\n---\n`a.py` <!-- `b.py` -->\n<!--\n`c.py`\n-->\n`d.py`\n"
    assert [(r.line, r.text) for r in references(text)] == [(4, "a.py"), (8, "d.py")]
