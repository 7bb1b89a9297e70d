"""A memory's `paths` mean the same to the agents' own matchers as to memkit.

Every scoped rule file compiled for Claude Code, Cursor, Copilot, Windsurf, Cline, Kiro
and Continue is read back the way the agent reads its front matter, and its globs are
run through picomatch and minimatch (the npm packages, installed once into a pinned
folder under pytest's temporary root) and wcmatch, against memkit.globs.match on the
same paths. Left out: paths with a dot folder (picomatch and minimatch skip dot files
unless told otherwise, a difference docs/compile.md names), and a file named as the
folder a `/**` glob ends in (`src/api` for `src/{api,web}/**`: picomatch matches it,
memkit does not; no tree holds both the file and the folder).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import npm_packages, write_memory

from memkit.globs import match
from memkit.store import Store
from tests.compile.test_targets import RULE_DIRS, agent_globs, compiled, front, targets

PICOMATCH, MINIMATCH = "picomatch@4.0.7", "minimatch@10.0.3"
GLOBS = [
    "services/api", "infra/", "src/*/", "app/(auth)", "app/(auth)/**/*.tsx", "src/**/*.py",
    "*.md", "docs/**", "src/{api,web}/**", "src/{api,web}", "db/[a-z]*.sql", "a b/c",
    "src/*.{ts,tsx}", "**/test_*.py", "pkg/@scope/**", "x/+(y)/*", "lib/**/index.js",
]  # fmt: skip
PATHS = [
    "services/api", "services/api/main.py", "services/api/v1/routes.py", "services/apiary/x.py",
    "services/api.py", "infra", "infra/main.tf", "infra/modules/vpc/main.tf", "infrastructure/x",
    "src/a.py", "src/a.ts", "src/a.tsx", "src/api/x.py", "src/api/deep/y.py",
    "src/web/z.tsx", "src/other/z.py", "app/(auth)", "app/(auth)/login/page.tsx",
    "app/auth/login/page.tsx", "README.md", "docs/index.md", "docs/a/b.md", "db/users.sql",
    "db/Users.sql", "a b/c", "a b/c/d.txt", "a b/cd", "pkg/@scope/x.js", "x/+(y)/z", "x/y/z",
    "lib/index.js", "lib/a/index.js", "tests/test_x.py", "test_y.py",
]  # fmt: skip
NODE = """
const picomatch = require('picomatch'); const { minimatch } = require('minimatch');
const { globs, paths } = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = {};
for (const g of globs) {
  const pm = picomatch(g);
  out[g] = { picomatch: paths.map(p => pm(p)), minimatch: paths.map(p => minimatch(p, g)) };
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="session")
def node_matchers() -> Path:
    """A folder with picomatch and minimatch installed (kept between runs)."""
    folder = npm_packages(PICOMATCH, MINIMATCH)
    (folder / "match.js").write_text(NODE, encoding="utf-8")
    return folder


def node_match(
    folder: Path, globs: list[str], paths: list[str]
) -> dict[str, dict[str, list[bool]]]:
    got = subprocess.run(
        [shutil.which("node") or "node", str(folder / "match.js")],
        input=json.dumps({"globs": globs, "paths": paths}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, "NODE_PATH": str(folder / "node_modules")},
        cwd=folder,
    )
    data: dict[str, dict[str, list[bool]]] = json.loads(got.stdout)
    return data


def rule_globs(store: Store) -> dict[tuple[str, str], list[str]]:
    """{(target, the memory's glob): the globs its rule file gives the agent}."""
    out = {}
    for target, folder in sorted(RULE_DIRS.items()):
        if target in ("amazonq", "roo"):  # no scoping: an `Applies to` line instead
            continue
        for path in sorted((store.root / folder).rglob("memkit*")):
            rel = path.relative_to(store.root).as_posix()
            text = path.read_text("utf-8")
            data, head = front(text)
            if not data or data.get("alwaysApply") or data.get("inclusion") == "always":
                continue
            if data.get("trigger") == "always_on" or data.get("applyTo") == "**":
                continue
            (mid,) = [
                line[15:-4] for line in text.splitlines() if line.startswith("<!-- memkit:id=")
            ]
            out[target, GLOBS[int(mid[1:])]] = agent_globs(rel, text, data, head)
    return out


def test_paths_mean_the_same_to_agents_matchers(store: Store, node_matchers: Path) -> None:
    wcmatch = pytest.importorskip("wcmatch.glob")
    for i, g in enumerate(GLOBS):
        write_memory(store, f"g{i:02d}", f"---\ntitle: Glob {i}\npaths: ['{g}']\n---\n\nText.\n")
    names = [t for t in RULE_DIRS if t not in ("amazonq", "roo")]
    targets(store, *names)
    compiled(store)
    found = rule_globs(store)
    assert {t for t, _ in found} == set(names) and len(found) == len(names) * len(GLOBS)
    every = sorted({g for gs in found.values() for g in gs})
    node = node_match(node_matchers, every, PATHS)
    flags = wcmatch.GLOBSTAR | wcmatch.BRACE
    wrong = []
    for (target, glob), gs in sorted(found.items()):
        for n, path in enumerate(PATHS):
            want = match(glob, path)
            seen = {
                "picomatch": any(node[g]["picomatch"][n] for g in gs),
                "minimatch": any(node[g]["minimatch"][n] for g in gs),
                "wcmatch": bool(wcmatch.globmatch(path, gs, flags=flags)),
            }
            wrong += [
                f"{target}: {glob!r} as {gs} on {path!r}: memkit {want}, {m} {got}"
                for m, got in seen.items()
                if got != want
            ]
    assert not wrong, "\n".join(wrong[:20])
