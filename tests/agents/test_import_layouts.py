"""`memkit import` on the layouts real projects have: monorepos, links, rule collections."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import Invoke, git, write_files

from memkit.agents.adopt.markdown import parse
from memkit.agents.adopt.scope import Scope, scope_of, split_globs
from memkit.agents.adopt.sources import Source
from memkit.store import Store


@pytest.fixture(autouse=True)
def pinned_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_TODAY", "2026-11-22")


def by_source(store: Store) -> dict[str, object]:
    return {m.source: m for m in store.memories()}


TESTING_MD = """\
# Testing

## Fixtures

```python
@pytest.fixture
def client(app):
    return app.test_client()
```

@dataclass lines inside indented code are text too:

    @dataclass(frozen=True)
    class Point: ...

## Imports

@docs/style.md
"""


def test_at_lines_in_code_are_text_and_only_real_imports_are_left_out(
    run: Invoke, store: Store
) -> None:
    write_files(store.root, {"CLAUDE.md": TESTING_MD, "docs/style.md": "Style.\n"})
    out = run("import", "CLAUDE.md").stdout
    assert "skipped CLAUDE.md#imports: @docs/style.md imports a file: it stays where it is" in out
    fixtures = store.get("fixtures").text
    assert "@pytest.fixture" in fixtures and "    @dataclass(frozen=True)" in fixtures
    assert "@dataclass lines inside" in fixtures
    # In AGENTS.md an @ line is text: Codex and the others do not import files.
    write_files(store.root, {"AGENTS.md": "## Deploy\n\n@team-ops owns deploys.\n@ops\n"})
    run("import", "AGENTS.md")
    assert store.get("deploy").text == "@team-ops owns deploys.\n@ops"


def test_brace_globs_stay_whole_and_context_finds_the_memory(run: Invoke, store: Store) -> None:
    assert split_globs("**/*.{json,md}, src/{a,b}/**/*.ts") == [
        "**/*.{json,md}",
        "src/{a,b}/**/*.ts",
    ]
    assert split_globs(["src/**/*.{ts,tsx}"]) == ["src/**/*.{ts,tsx}"]
    write_files(store.root, {
        ".cursor/rules/config.mdc": "---\ndescription: Config files\nglobs: **/*.{json,md}\n"
                                    "alwaysApply: false\n---\n\nKeep keys sorted.\n",
        ".github/instructions/ts.instructions.md": '---\napplyTo: "src/**/*.{ts,tsx},test/*.ts"\n'
                                                   "---\n\nUse strict null checks.\n",
    })  # fmt: skip
    run("import", ".")
    mems = by_source(store)
    assert mems[".cursor/rules/config.mdc#top"].paths == ("**/*.{json,md}",)  # type: ignore[attr-defined]
    assert mems[".github/instructions/ts.instructions.md#top"].paths == (  # type: ignore[attr-defined]
        "src/**/*.{ts,tsx}",
        "test/*.ts",
    )
    assert "Keep keys sorted" in run("context", "--file", "docs/readme.md").stdout
    assert "Use strict null checks" in run("context", "--file", "src/app/x.tsx").stdout


MONOREPO = {
    "CLAUDE.md": "# Acme\n\n## Commits\n\nUse conventional commits.\n",
    "packages/api/CLAUDE.md": "## Testing\n\nRun `pnpm test` in this package.\n",
    "packages/web/CLAUDE.md": "## Testing\n\nRun `pnpm test` in this package.\n",
    "packages/web/src/AGENTS.md": "Components are function components.\n",
    "packages/cli/CLAUDE.md": "## Commits\n\nUse conventional commits.\n",
    "docs/.cursor/rules/docs.mdc": "---\nglobs: *.md\nalwaysApply: false\n---\n\nOne sentence per line.\n",  # noqa: E501
    "docs/.cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n\nDocs are in English.\n",
    "node_modules/pkg/AGENTS.md": "Not ours.\n",
    "build/AGENTS.md": "Ignored by git.\n",
    ".gitignore": "build/\n",
}


def test_a_monorepo_keeps_every_nested_file_and_scope(run: Invoke, store: Store) -> None:
    write_files(store.root, MONOREPO)
    out = run("import").stdout
    mems = by_source(store)
    testing = mems["packages/api/CLAUDE.md#testing"]
    assert testing.paths == ("packages/api/**", "packages/web/**")  # type: ignore[attr-defined]
    assert (
        "skipped packages/web/CLAUDE.md#testing: same text as packages/api/CLAUDE.md#testing" in out
    )
    assert mems["CLAUDE.md#commits"].paths == ()  # type: ignore[attr-defined]
    assert "skipped packages/cli/CLAUDE.md#commits: same text as CLAUDE.md#commits" in out
    assert mems["packages/web/src/AGENTS.md#top"].paths == ("packages/web/src/**",)  # type: ignore[attr-defined]
    assert mems["packages/web/src/AGENTS.md#top"].title == "Agents for packages/web/src"  # type: ignore[attr-defined]
    assert mems["docs/.cursor/rules/docs.mdc#top"].paths == ("docs/*.md",)  # type: ignore[attr-defined]
    assert mems["docs/.cursor/rules/always.mdc#top"].paths == ("docs/**",)  # type: ignore[attr-defined]
    assert "node_modules" not in out and "build/AGENTS.md" not in out
    assert "5 memories created, 2 skipped\n" in out
    assert out.endswith("`memkit import --adopt` takes the imported text out of them for "
                        "compile to write once\n")  # fmt: skip


def test_symlinked_root_files_are_read_once_with_the_link_s_scope(
    run: Invoke, store: Store
) -> None:
    write_files(store.root, {".agents/AGENTS.md": "## Style\n\nTabs, not spaces.\n"})
    os.symlink(".agents/AGENTS.md", store.root / "AGENTS.md")
    os.symlink("AGENTS.md", store.root / "CLAUDE.md")
    out = run("import").stdout
    assert out == (
        "created style  <- AGENTS.md#style\n"
        "skipped .agents/AGENTS.md: the same file as AGENTS.md: read once, from there\n"
        "skipped CLAUDE.md: the same file as AGENTS.md: read once, from there\n"
        "1 memories created, 2 skipped\n"
        "AGENTS.md keep their text, so after `memkit compile` agents read it twice; "
        "`memkit import --adopt` takes the imported text out of them for compile to write once\n"
    )
    assert store.get("style").paths == ()


def test_descriptions_and_on_demand_rules(run: Invoke, store: Store) -> None:
    write_files(store.root, {
        ".cursor/rules/auth.mdc": "---\ndescription: Use when touching login or sessions\n"
                                  "globs:\nalwaysApply: false\n---\n\n# Auth\n\nHash with argon2.\n",  # noqa: E501
        ".cursor/rules/release.mdc": "---\ndescription:\nglobs:\nalwaysApply: false\n---\n\n"
                                     "Tag releases as vX.Y.Z.\n",
        ".cursor/rules/api.mdc": "---\ndescription: API handlers\nglobs: src/api/**\n---\n\nReturn problem+json.\n",  # noqa: E501
        ".github/instructions/db.instructions.md": "---\napplyTo: 'db/**'\ndescription: Database "
                                                   "rules\n---\n\nMigrations are reversible.\n",
        ".windsurf/rules/perf.md": "---\ntrigger: model_decision\ndescription: Performance work\n"
                                   "---\n\nProfile before optimising.\n",
        ".kiro/steering/ops.md": "---\ninclusion: manual\n---\n\nPage the on-call first.\n",
    })  # fmt: skip
    run("import")
    mems = {m.id: m for m in store.memories()}
    auth = mems["auth"]
    assert (auth.description, auth.activation, auth.paths) == (
        "Use when touching login or sessions",
        "agent",
        (),
    )
    assert mems["release"].activation == "manual" and mems["release"].description is None
    api = mems["api-handlers"]
    assert (api.description, api.activation, api.paths) == ("API handlers", None, ("src/api/**",))
    db = mems["database-rules"]
    assert (db.description, db.paths) == ("Database rules", ("db/**",))
    assert (mems["performance-work"].activation, mems["ops"].activation) == ("agent", "manual")
    assert run("validate").stdout == "6 memories, all valid\n"


@pytest.mark.parametrize(
    ("rel", "kind", "meta", "want"),
    [
        (".windsurf/rules/a.md", "windsurf-rule", {"trigger": "glob", "globs": "*.py"}, ("*.py",)),
        (".windsurf/rules/a.md", "windsurf-rule", {"trigger": "always_on"}, ()),
        (".windsurf/rules/a.md", "windsurf-rule", {"trigger": "model_decision"}, "manual"),
        (
            ".kiro/steering/a.md",
            "kiro",
            {"inclusion": "fileMatch", "fileMatchPattern": "a/*"},
            ("a/*",),
        ),
        (".kiro/steering/a.md", "kiro", {"inclusion": "auto", "description": "Ops"}, "agent"),
        (".kiro/steering/a.md", "kiro", {}, ()),
    ],
)
def test_windsurf_triggers_and_kiro_inclusions(
    rel: str, kind: str, meta: dict[str, str], want: tuple[str, ...] | str
) -> None:
    src = Source(rel, Path(rel), kind, False, "")
    scope = scope_of(src, dict(meta))
    if isinstance(want, str):  # on demand: no paths, this activation
        assert (scope.paths, scope.activation) == ((), want)
    else:
        assert scope == Scope(want, meta.get("description"))


def test_cline_workflows_and_hook_docs_stay_on_demand(run: Invoke, store: Store) -> None:
    write_files(store.root, {
        ".clinerules/general.md": "# General\n\nUse TypeScript strict mode.\n",
        ".clinerules/workflows/release.md": "# Release\n\n1. Bump the version.\n2. Tag it.\n",
        ".clinerules/hooks/README.md": "# Hooks\n\nThe pre-tool hook blocks rm -rf.\n",
        ".roo/rules/base.md": "Prefer small diffs.\n",
        ".roo/rules-translate/de.md": "Use formal German.\n",
        ".roo/rules-issue-fixer/1_workflow.xml": "<workflow/>\n",
    })  # fmt: skip
    out = run("import").stdout
    mems = {m.source: m for m in store.memories()}
    assert mems[".clinerules/general.md#general"].activation is None
    assert mems[".clinerules/workflows/release.md#release"].activation == "manual"
    assert mems[".clinerules/hooks/README.md#hooks"].activation == "manual"
    assert mems[".roo/rules/base.md#top"].activation is None
    assert mems[".roo/rules-translate/de.md#top"].activation == "manual"
    assert "skipped .roo/rules-issue-fixer/1_workflow.xml: not markdown" in out


TITLES = {
    "bom.md": "\ufeff# Service guide\n\nRead me first.\n\n## Build\n\nmake\n",
    "untitled.md": "# Handbook\n\n## Style\n\nShort functions.\n\n## \n\nText under an empty heading.\n",  # noqa: E501
    "rule.md": "---\n\nLeading rule text stays.\n\n---\n\n## After\n\nMore text.\n",
    "marker.md": "## Markers\n\nmemkit writes `<!-- memkit:begin -->` lines into files.\n",
}


def test_titles_boms_empty_headings_and_leading_rules(run: Invoke, store: Store) -> None:
    write_files(store.root, TITLES)
    out = run("import", *TITLES).stdout
    mems = {m.source: m for m in store.memories()}
    assert mems["bom.md#service-guide"].title == "Service guide"
    assert mems["untitled.md#top"].title == "Handbook"  # an empty heading: the document's
    assert mems["untitled.md#style"].title == "Handbook: Style"  # no intro: the title leads
    assert mems["untitled.md#style"].id == "style"
    assert mems["untitled.md#top"].text == "Text under an empty heading."
    assert mems["rule.md#top"].text == "---\n\nLeading rule text stays.\n\n---"
    assert mems["marker.md#markers"].text == (
        "memkit writes `<!-- memkit:begin -->` lines into files."
    )
    assert "error" not in out
    doc = parse(TITLES["untitled.md"], imports=False)
    assert doc.title is not None and doc.title.text == "Handbook"


def instruction_lines(text: str) -> list[str]:
    if text.startswith("---\n"):
        text = text.split("\n---\n", 1)[1]
    return [
        s.strip()
        for s in text.splitlines()
        if s.strip() and not s.lstrip().startswith(("#", "@", "<!--"))
    ]


ADOPT = {
    "CLAUDE.md": "# Acme\n\n@AGENTS.md\n\n## Claude only\n\nUse the Task tool for searches.\n",
    "AGENTS.md": "# Acme agents\n\nAcme is a shop.\n\n## Build\n\n- Run `make test` before pushing.\n"  # noqa: E501
                 "\n## Secrets\n\nDeploy with `AKIAABCDEFGHIJKLMNOP`.\n\n## Style\n\nShort functions.\n",  # noqa: E501
    "services/pay/AGENTS.md": "# Payments\n\n## Money\n\nAmounts are integers in cents.\n",
    ".cursor/rules/api.mdc": "---\ndescription: API\nglobs: src/api/**/*.{ts,tsx}\n---\n\n"
                            "- Validate bodies with zod.\n",
    ".github/copilot-instructions.md": "Use the `Money` type, never floats.\n",
    ".clinerules/workflows/release.md": "# Release\n\nTag it.\n",
}  # fmt: skip


def reads(root: Path, agent: str) -> str:
    """Everything an agent loads (each file once; Claude's @ imports followed)."""
    patterns = {
        "claude": r"(.*/)?CLAUDE\.md|\.claude/rules/.*\.md",
        "codex": r"(.*/)?AGENTS\.md",
        "cursor": r"(.*/)?AGENTS\.md|\.cursor/rules/.*\.mdc",
        "copilot": r"\.github/copilot-instructions\.md|\.github/instructions/.*\.md",
    }
    names = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and ".memory" not in p.parts
    )
    texts = []
    for name in names:
        if re.fullmatch(patterns[agent], name):
            text = (root / name).read_text()
            texts.append(text)
            if agent == "claude":
                texts += [(root / m).read_text() for m in re.findall(r"^@(\S+)$", text, re.M)]
    return "\n".join(texts)


def test_adoption_makes_each_instruction_reach_each_agent_once(run: Invoke, store: Store) -> None:
    write_files(store.root, ADOPT)
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "hand-written instructions")
    dry = run("import", "--adopt", "--dry-run").stdout
    assert "--- a/CLAUDE.md\n+++ b/CLAUDE.md\n" in dry and "+<!-- memkit:begin -->\n" in dry
    assert store.files() == [] and (store.root / "CLAUDE.md").read_text() == ADOPT["CLAUDE.md"]
    out = run("import", "--adopt").stdout
    assert "kept .clinerules/workflows/release.md: memkit compiles no file for Cline" in out
    assert "deleted .cursor/rules/api.mdc: all of its text is in memories" in out
    assert "copies of" not in out  # every file was as git's HEAD has it
    assert (store.root / "CLAUDE.md").read_text() == (
        "# Acme\n\n<!-- memkit:begin -->\n<!-- memkit:end -->\n"
    )
    agents = (store.root / "AGENTS.md").read_text()
    assert agents == (  # the title went with its text, into the memory it names
        "<!-- memkit:begin -->\n<!-- memkit:end -->\n\n"
        "## Secrets\n\nDeploy with `AKIAABCDEFGHIJKLMNOP`.\n"
    )  # the skipped section stays the person's
    assert (store.root / "services/pay/AGENTS.md").read_text() == (  # a folder file stays one
        "# Payments\n\n<!-- memkit:begin -->\n<!-- memkit:end -->\n"
    )
    assert "set `nested_agents = true` in .memory/config.toml" in out
    assert "nested_agents = true" in (store.dir / "config.toml").read_text()
    run("compile")
    run("compile", "--check")
    for agent in ("claude", "codex", "cursor", "copilot"):
        text = reads(store.root, agent)
        for name, original in ADOPT.items():
            if name.startswith(".clinerules"):
                continue
            scoped = name.startswith(("services/", ".cursor/"))
            if agent == "cursor" and scoped:
                continue  # Cursor reads AGENTS.md, which lists scoped memories too
            for line in instruction_lines(original):
                times = text.count(line)
                assert times <= 1, (agent, line, times)
                if agent in ("claude", "codex"):
                    assert times == 1 or "AKIA" in line or "zod" in line, (agent, line)


def test_adoption_backs_up_a_file_git_does_not_have(run: Invoke, store: Store) -> None:
    write_files(store.root, {"AGENTS.md": "## Style\n\nShort functions.\n"})
    out = run("import", "--adopt").stdout
    [line] = [ln for ln in out.splitlines() if ln.startswith("copies of")]
    folder = Path(line.rsplit(" are in ", 1)[1])
    assert (folder / "AGENTS.md").read_text() == "## Style\n\nShort functions.\n"
    assert not folder.is_relative_to(store.root) or ".git" in folder.parts


def test_adoption_never_leaves_a_link_dangling(run: Invoke, store: Store) -> None:
    """Per-folder `CLAUDE.md -> AGENTS.md` links (a monorepo's usual layout): the nested
    AGENTS.md whose text all went into memories is emptied, not deleted."""
    write_files(store.root, {
        "AGENTS.md": "## Commits\n\nConventional commit messages.\n",
        "packages/api/AGENTS.md": "## Handlers\n\nHandlers return typed responses.\n",
    })  # fmt: skip
    os.symlink("AGENTS.md", store.root / "CLAUDE.md")
    os.symlink("AGENTS.md", store.root / "packages/api/CLAUDE.md")
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "instructions")
    run("import", "--adopt")
    nested = store.root / "packages/api/AGENTS.md"
    assert nested.is_file() and "Handlers return" not in nested.read_text()
    assert (store.root / "packages/api/CLAUDE.md").is_symlink()
    assert (store.root / "packages/api/CLAUDE.md").exists()  # the link still leads somewhere
    run("compile")
    assert (store.root / "CLAUDE.md").is_symlink() and (store.root / "CLAUDE.md").exists()


HEADINGS = {
    # A rule collection's file: a title, then sections, no text under the title.
    ".cursor/rules/gitflow.mdc": "---\ndescription: Branching rules\nglobs: **/*\n---\n"
    "# Gitflow Rules\n\n## Main branch\n\n- Never commit to main.\n\n"
    "## Releases\n\n- Tag every merge to main.\n",
    # Instructions written as headings, one after the other, and a trailing one.
    ".cursor/rules/paths.mdc": "---\nalwaysApply: true\n---\n# File Path Usage\n\n"
    "# IMPORTANT: Always use full file paths when editing files.\n"
    "# Example: src/routes/Home.svelte\n\n# Svelte\n\n- Use runes for state.\n\n"
    "# Remember: keep components small.\n",
}  # fmt: skip


def test_headings_without_text_of_their_own_are_kept(run: Invoke, store: Store) -> None:
    """A document title names its sections; a heading with no text under it joins the
    next section (or the last one): every heading line still reaches the agent."""
    write_files(store.root, HEADINGS)
    run("import", "--adopt")
    mems = {m.id: m for m in store.memories()}
    assert mems["main-branch"].title == "Gitflow Rules: Main branch"
    assert mems["releases"].title == "Gitflow Rules: Releases"
    paths = {m.title: m.text for m in mems.values() if m.source.startswith(".cursor/rules/paths")}
    assert paths == {
        "File Path Usage": "# IMPORTANT: Always use full file paths when editing files.",
        "Example: src/routes/Home.svelte": "# Svelte\n\n- Use runes for state.\n\n"
        "# Remember: keep components small.",
    }
    run("compile")
    cursor = "".join(p.read_text() for p in (store.root / ".cursor/rules").glob("*.mdc"))
    cursor += (store.root / "AGENTS.md").read_text()
    for text in (
        "Gitflow Rules: Main branch",
        "IMPORTANT: Always use full file paths",
        "Example: src/routes/Home.svelte",
        "Remember: keep components small.",
    ):
        assert text in cursor


def test_a_root_file_linked_into_a_rules_folder_is_adopted_as_that_file(
    run: Invoke, store: Store
) -> None:
    """`AGENTS.md -> .clinerules/architect.md`: compile writes AGENTS.md through the
    link, so the text is read as AGENTS.md and adoption replaces it by memkit's section."""
    write_files(store.root, {".clinerules/architect.md": "# Architect\n\n## Plan\n\n"
                       "Write the plan before delegating any edit.\n"})  # fmt: skip
    os.symlink(".clinerules/architect.md", store.root / "AGENTS.md")
    git(store.root, "add", "-A")
    git(store.root, "commit", "-qm", "rules")
    out = run("import", "--adopt").stdout
    assert "skipped .clinerules/architect.md: the same file as AGENTS.md" in out
    run("compile")
    assert os.path.islink(store.root / "AGENTS.md")
    text = (store.root / "AGENTS.md").read_text()
    assert text.count("Write the plan before delegating any edit.") == 1
