"""What `memkit audit` does not flag: references the text makes no claim about, build
outputs, other programs' names; and what it still flags next to them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memkit.audit import audit
from memkit.audit.context import clause
from memkit.audit.sources import instruction_files
from tests.conftest import commit_files, git


@pytest.fixture
def project(repo: Path) -> Path:
    files = {
        "Makefile": "lint:\n\truff check .\n",
        "pyproject.toml": '[project]\nname = "app"\ndependencies = ["fastapi"]\n'
        '[tool.uv]\nconstraint-dependencies = ["vcrpy>=8"]\n',
        ".gitignore": "**/dist\n/coverage\n",
        "apps/web/package.json": json.dumps({"name": "@acme/web"}),
        "apps/web/tsconfig.json": '{"compilerOptions": {"paths": {"@tests/*": ["./t/*"]}}}',
        "apps/web/src/extension.ts": "export const x = 1\n",
        "apps/web/src/components/ui/button.tsx": "export const Button = 1\n",
        "apps/web/.gitignore": "src/generated/\n",
        "src/app/settings.py": "import os\nTOKEN = os.environ['APP_TOKEN']\n",
        "src/app/runner.py": "def update_deployment():\n    pass\n",
        "docs/index.md": "# Docs\n",
        ".claude/rules/style.md": "Style.\n",
    }
    return commit_files(repo, files)


def flagged(root: Path, text: str, name: str = "AGENTS.md") -> list[str]:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text, encoding="utf-8")
    return [f.reference for f in audit(root, [name]).flags]


def test_sentences_that_make_no_claim_are_not_checked(project: Path) -> None:
    text = (
        "- Do not create flat files like `src/stream/openai.py`.\n"
        "- Avoid `wait_for_timeout()` unless needed.\n"
        "- Add a tool (e.g., `foo_tools.go`); components are PascalCase (`DashboardMenu.tsx`).\n"
        "- Branch naming: `docs/feature-description`.\n"
        "- The API is `src/app/api.py` and there is\n"
        "  no `src/app/legacy.py` any more.\n"
        "- Do not forget `make tset`.\n"
        "- Views live in `src/app/views.py`.\n"
    )
    assert flagged(project, text) == ["src/app/api.py", "make tset", "src/app/views.py"]


def test_build_outputs_are_not_checked(project: Path) -> None:
    text = (
        "Outputs: `apps/web/dist/main.js`, `dist/*`, `coverage/index.html`, `build/lib/x.py`,\n"
        "the bundle `extension.js`, `src/generated/*` (from `apps/web`), `out/app.js`.\n"
        "Missing: `apps/web/src/missing.ts`.\n"
    )
    assert flagged(project, text) == ["apps/web/src/missing.ts"]
    report = audit(project, ["AGENTS.md"])
    assert dict(report.skipped)["generated"] == 7
    assert "7 not checked (generated 7)" in report.summary()


def test_tools_files_other_repositories_and_branches_are_not_checked(project: Path) -> None:
    git(project, "branch", "docs/new-landing")
    text = (
        "- Settings: `~/.claude/settings.json` (user), `.claude/settings.json` (project).\n"
        "- Rules go in `.github/instructions/` or `.cursor/rules/`; local: `.claude/x.local.md`.\n"
        "- The harness repo `acme/harness` keeps `docs/conventions.md`.\n"
        "- Work on `docs/new-landing`; read `docs/guide.md`.\n"
    )
    assert flagged(project, text) == ["docs/guide.md"]


def test_environment_variables_need_a_claim(project: Path) -> None:
    text = (
        "- `ELECTRON_RUN_AS_NODE` and `GITHUB_SHA` are set by other programs.\n"
        "- The host is ESM (`WIDGET_ENTRYPOINT`).\n"
        "- Set `APP_TOKEN` and `APP_SECRET` before starting.\n"
        "- `APP_MY_SETTING=1` overrides a setting.\n"
    )
    assert flagged(project, text) == ["APP_SECRET"]


def test_locations_after_a_path_are_not_part_of_it(project: Path) -> None:
    text = (
        "`src/app/runner.py::update_deployment`, `src/app/runner.py:10-12`, "
        "`src/app/runner.py#L3`, `src/app/runner.py:update_deployment`, `src/app/gone.py:7`.\n"
    )
    assert flagged(project, text) == ["src/app/gone.py:7"]


def test_globs_may_start_below_a_package(project: Path) -> None:
    assert flagged(project, "The `ui/*` wrappers; the `widgets/*` ones.\n") == ["widgets/*"]


def test_imports_of_aliases_workspace_packages_and_pinned_modules(project: Path) -> None:
    text = (
        "```ts\n"
        'import { render } from "@tests/utils";\n'
        'import { web } from "@acme/web";\n'
        'import useSWR from "swr";\n'
        "```\n"
        "```python\n"
        "from vcr.cassette import Cassette\n"
        "import os, etc.\n"
        "from my_project.crew import Crew\n"
        "import celery\n"
        "```\n"
    )
    assert flagged(project, text) == ["swr", "celery"]


def test_instance_attributes_and_agent_tools_are_not_symbols(project: Path) -> None:
    text = "Use `getattr(self, x)` not `self._attr`; call `functions.search_web`; `TOKEN.gone()`.\n"
    assert flagged(project, text) == ["TOKEN.gone()"]


def test_skill_packs_and_templates_are_not_the_projects_instructions() -> None:
    paths = [
        "AGENTS.md",
        "web/.agents/skills/react/AGENTS.md",
        ".claude/skills/x/CLAUDE.md",
        "cli/templates/AGENTS.md",
        "tests/fixtures/CLAUDE.md",
        "web/AGENTS.md",
    ]
    assert instruction_files(paths) == ["AGENTS.md", "web/AGENTS.md"]


@pytest.mark.parametrize(
    ("before", "own"),
    [
        ("Run `make x`; then ", " then "),
        ("Do this (was ", "was "),
        ("Use it, e.g. ", "Use it, e.g. "),
        ("No. Instead of ` make x `, use ", "use "),
    ],
)
def test_clause_is_the_text_after_the_last_break(before: str, own: str) -> None:
    assert clause(before) == own


def test_a_bare_name_given_elsewhere_as_an_output_is_that_output(project: Path) -> None:
    text = "Generated: `gen/android/MainActivity.kt`.\n\nEdit `MainActivity.kt`; not `Other.kt`.\n"
    assert flagged(project, text) == []
    text = "Open `gen/android/MainActivity.kt`.\n\nEdit `MainActivity.kt` and `Other.kt`.\n"
    assert flagged(project, text) == ["Other.kt"]


def test_paths_from_folders_the_project_lacks_and_convention_lists(project: Path) -> None:
    text = (
        "Conformance divergences: `css/at-media/at-media.css`, `src/app/gone.py`.\n\n"
        "**File naming** (`src/app/`):\n\n"
        "- `settings.profile.py` → `/settings/profile`\n"
    )
    assert flagged(project, text) == ["src/app/gone.py"]
    assert dict(audit(project, ["AGENTS.md"]).skipped) == {"unknown folder": 1, "example": 1}


def test_folders_of_a_package_and_module_paths_without_extension(project: Path) -> None:
    (project / "apps/web/src/utils/path.ts").parent.mkdir(parents=True)
    (project / "apps/web/src/utils/path.ts").write_text("export {}\n", "utf-8")
    git(project, "add", "-A")
    text = "See `src/utils/path`, `src/gone/folder/` and `src/components/ui/`.\n"
    assert flagged(project, text) == ["src/gone/folder/"]


def test_a_package_folder_name_without_extension_needs_a_slash(project: Path) -> None:
    (project / "apps/web/lib/client.ts").parent.mkdir(parents=True)
    (project / "apps/web/lib/client.ts").write_text("export {}\n", "utf-8")
    git(project, "add", "-A")
    text = "Handle `lib/createMessage` requests; code in `lib/providers/`.\n"
    assert flagged(project, text) == ["lib/providers/"]
