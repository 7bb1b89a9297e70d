"""`memkit import`: realistic instruction files of every agent -> memories."""

from __future__ import annotations

import pytest
from conftest import Invoke, write_files

from memkit.store import Store

CLAUDE_MD = """\
# Acme shop

Acme is a Django 5 shop serving three countries. Read this before changing anything.

## Build and test

- Run `make test` before pushing; CI runs the same target.
- Use `pytest -x -q tests/unit` for a quick loop.

## Code style

- Type hints on every public function.
- No `print`; use the `logging` module.

```python
# a comment in a code block is not a heading
log = logging.getLogger(__name__)
```

## Gotchas

- The `orders` table is partitioned by month: never query it without a date range.

@AGENTS.md
"""

AGENTS_MD = """\
# Agents guide

## Build and test

- Run `make test` before pushing; CI runs the same target.
- Use `pytest -x -q tests/unit` for a quick loop.

## Pull requests

Title PRs as `area: what changed`. Link the issue.
"""

CURSOR_RULE = """\
---
description: API handler conventions
globs: src/api/**/*.py, src/api/*.ts
alwaysApply: false
---

- Validate request bodies with pydantic models.
- Return errors as application/problem+json.
"""

CURSOR_ALWAYS = """\
---
description:
globs:
alwaysApply: true
---

Answer in English even when the issue is written in another language.
"""

COPILOT = """\
Use the repository's `Money` type for amounts, never floats.
"""

COPILOT_SCOPED = """\
---
applyTo: "tests/**/*.py,conftest.py"
---
# Test conventions

Build test data with the factories in `tests/factories.py`, never with JSON fixtures.
"""

CLINE = """\
# Migrations

Every migration must be reversible; write the `reverse` step and test it.
"""

BANK_TECH = """\
# Tech context

## Stack

Django 5, PostgreSQL 16, Celery with Redis.

## Constraints

<!-- filled in later -->
"""


ALL = {
    "CLAUDE.md": CLAUDE_MD,
    "AGENTS.md": AGENTS_MD,
    ".cursor/rules/api.mdc": CURSOR_RULE,
    ".cursor/rules/english.mdc": CURSOR_ALWAYS,
    ".github/copilot-instructions.md": COPILOT,
    ".github/instructions/tests.instructions.md": COPILOT_SCOPED,
    ".clinerules": CLINE,
    "memory-bank/techContext.md": BANK_TECH,
    "services/payments/CLAUDE.md": "# Payments\n\nAmounts are integers in cents.\n",
}


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def test_import_everything(run: Invoke, store: Store) -> None:
    write_files(store.root, ALL)
    before = {name: (store.root / name).read_bytes() for name in ALL}
    out = run("import", ".", "services/payments/CLAUDE.md")
    assert out.stdout == (
        "created acme-shop  <- CLAUDE.md#acme-shop\n"
        "created build-and-test  <- CLAUDE.md#build-and-test\n"
        "created code-style  <- CLAUDE.md#code-style\n"
        "created gotchas  <- CLAUDE.md#gotchas\n"
        "created pull-requests  <- AGENTS.md#pull-requests\n"
        "created api-handler-conventions  <- .cursor/rules/api.mdc#top\n"
        "created english  <- .cursor/rules/english.mdc#top\n"
        "created copilot-instructions  <- .github/copilot-instructions.md#top\n"
        "created test-conventions  <- .github/instructions/tests.instructions.md#test-conventions\n"
        "created migrations  <- .clinerules#migrations\n"
        "created stack  <- memory-bank/techContext.md#stack\n"
        "created payments  <- services/payments/CLAUDE.md#payments\n"
        "skipped CLAUDE.md#gotchas: @AGENTS.md imports a file: it stays where it is\n"
        "skipped AGENTS.md#build-and-test: same text as CLAUDE.md#build-and-test: one memory\n"
        "12 memories created, 2 skipped\n"
        "CLAUDE.md, AGENTS.md, .cursor/rules/api.mdc, .cursor/rules/english.mdc, "
        ".github/copilot-instructions.md, .github/instructions/tests.instructions.md, "
        "services/payments/CLAUDE.md keep their text, so after `memkit compile` agents read "
        "it twice; `memkit import --adopt` takes the imported text out of them for compile "
        "to write once\n"
    )
    assert {name: (store.root / name).read_bytes() for name in ALL} == before
    mems = {m.id: m for m in store.memories()}
    assert mems["api-handler-conventions"].paths == ("src/api/**/*.py", "src/api/*.ts")
    assert mems["test-conventions"].paths == ("tests/**/*.py", "conftest.py")
    assert mems["payments"].paths == ("services/payments/**",)
    assert mems["english"].paths == ()
    assert mems["english"].title == "English"
    assert (mems["build-and-test"].type, mems["gotchas"].type) == ("procedure", "gotcha")
    assert mems["code-style"].text == (
        "- Type hints on every public function.\n"
        "- No `print`; use the `logging` module.\n\n"
        "```python\n"
        "# a comment in a code block is not a heading\n"
        "log = logging.getLogger(__name__)\n"
        "```"
    )
    assert (store.dir / "gotchas.md").read_text() == (
        "---\n"
        "title: Gotchas\n"
        "type: gotcha\n"
        "tags:\n- imported\n"
        "source: CLAUDE.md#gotchas\n"
        "order: 4\n"
        "created: 2026-11-22\n"
        "updated: 2026-11-22\n"
        "---\n\n"
        "- The `orders` table is partitioned by month: never query it without a date range.\n"
    )
    assert run("validate").stdout == "12 memories, all valid\n"
    again = run("import", ".")
    assert again.stdout.endswith("0 memories created, 14 skipped\n")


def test_dry_run_writes_nothing(run: Invoke, store: Store) -> None:
    write_files(store.root, {".clinerules": CLINE})
    assert run("import", "-n", ".clinerules").stdout == (
        "would create migrations  <- .clinerules#migrations\n"
        "1 memories would be created, 0 skipped\n"
    )
    assert store.files() == []


def test_a_secret_skips_its_section_and_the_rest_is_imported(run: Invoke, store: Store) -> None:
    write_files(
        store.root,
        {
            "AGENTS.md": "## Deploy\n\nUse `AKIAABCDEFGHIJKLMNOP` to deploy.\n\n"
            "## Salesforce\n\nNAMED_CREDENTIAL = 'callout:External_API'\n"
            "Read `process.env.API_KEY!` in handlers.\n",
            "CLAUDE.md": "## Fine\n\nNothing secret.\n",
        },
    )
    out = run("import", "CLAUDE.md", "AGENTS.md").stdout.splitlines()
    assert out[:2] == [
        "created fine  <- CLAUDE.md#fine",
        "created salesforce  <- AGENTS.md#salesforce",
    ]
    assert out[2].startswith(
        "skipped AGENTS.md#deploy: not imported: AGENTS.md#deploy:12: refusing to write what "
        "looks like a AWS access key id"
    )
    assert "--allow-secret" in out[2]
    assert sorted(p.name for p in store.files()) == ["fine.md", "salesforce.md"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["import", "nope.md"], "nope.md does not exist; give an instruction file or a folder"),
        (["import", "empty"], "holds no known instruction file"),
    ],
)
def test_bad_paths(run: Invoke, store: Store, args: list[str], message: str) -> None:
    (store.root / "empty").mkdir()
    assert message in run(*args, code=2).stderr


def instructions(text: str) -> list[str]:
    """The lines that carry an instruction: not blank, headings, front matter or imports."""
    if text.startswith("---\n"):
        text = text.split("\n---\n", 1)[1]
    return [
        line.strip()
        for line in text.splitlines()
        if (line.strip() and not line.lstrip().startswith(("#", "@", "<!--")))
        or line.startswith("# a comment")
    ]


def test_compile_takes_over_and_keeps_every_instruction(run: Invoke, store: Store) -> None:
    pytest.importorskip("memkit.compile.plan")
    write_files(store.root, ALL)
    run("import", ".", "services/payments/CLAUDE.md")
    for name in ALL:  # the person deletes the imported text; memkit owns the files now
        (store.root / name).unlink()
    run("compile")
    seen = "\n".join(
        p.read_text()
        for p in sorted(store.root.rglob("*"))
        if p.is_file() and ".git" not in p.parts and ".memory" not in p.parts
    )
    missing = [i for text in ALL.values() for i in instructions(text) if i not in seen]
    assert missing == []
    assert "<!-- memkit:id=build-and-test -->" in (store.root / "CLAUDE.md").read_text()
    again = run("import", ".").stdout.splitlines()
    assert again[0] == (
        "skipped .claude/rules/memkit-conftest-py-tests-py.md: "
        "compiled by memkit from .memory/: nothing to import"
    )
    assert again[-1] == "0 memories created, 7 skipped"
    run("compile", "--check")


def test_claude_rules_keep_their_paths(run: Invoke, store: Store) -> None:
    write_files(
        store.root,
        {
            ".claude/rules/db.md": '---\npaths:\n  - "src/db/**/*.py"\n  - migrations/*.py\n---\n\n'
            "Use the session from `db.session()`, never a new engine.\n",
            "GEMINI.md": "Prefer small pull requests.\n",
        },
    )
    assert run("import", ".").stdout == (
        "created gemini  <- GEMINI.md#top\n"
        "created db  <- .claude/rules/db.md#top\n"
        "2 memories created, 0 skipped\n"
        ".claude/rules/db.md keep their text, so after `memkit compile` agents read it twice; "
        "`memkit import --adopt` takes the imported text out of them for compile to write once\n"
    )
    assert store.get("db").paths == ("src/db/**/*.py", "migrations/*.py")
    assert store.get("gemini").paths == ()
