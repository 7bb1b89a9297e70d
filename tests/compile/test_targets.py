"""Every agent's target: golden output from a realistic store, read back as the agent reads it.

Then what agents load together: Codex's AGENTS.md chain, Claude's `@AGENTS.md`, Windsurf's
per-rule limit, each within one budget, and no memory reaching an agent twice.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import Invoke, write_memory

from memkit.compile import readers
from memkit.compile.plan import Plan, apply, build
from memkit.globs import match as glob_match
from memkit.memory import Memory
from memkit.store import Store
from tests.compile.test_compile import check_golden, configure, outputs

TODAY = dt.date(2026, 11, 22)
STORE = {
    "use-pnpm": "---\ntitle: Use pnpm, never npm\ntype: decision\npin: true\n---\n\n"
    "The lockfile is pnpm-lock.yaml; `npm install` rewrites it.\n",
    "tabs-banned": "---\ntitle: Indent with two spaces\ntype: convention\npaths:\n"
    "- src/**/*.{ts,tsx}\n---\n\nNo tabs in TypeScript.\n",
    "sql-lowercase": "---\ntitle: SQL keywords in lowercase\ntype: convention\npaths:\n"
    "- '**/*.sql'\n- db/[a-z]*.sql\n---\n\nWrite `select`, not `SELECT`.\n",
    "release": "---\ntitle: Release procedure\ntype: procedure\npriority: 3\n---\n\n"
    "1. Tag.\n2. Push the tag.\n",
    "retry-gotcha": "---\ntitle: The API client retries twice\ntype: gotcha\npaths:\n"
    "- packages/api/**\n---\n\nDo not wrap it in another retry.\n",
}
RULE_DIRS = {
    "cursor": ".cursor/rules",
    "windsurf": ".windsurf/rules",
    "cline": ".clinerules",
    "kiro": ".kiro/steering",
    "continue": ".continue/rules",
    "amazonq": ".amazonq/rules",
    "roo": ".roo/rules",
    "copilot": ".github/instructions",
    "claude": ".claude/rules",
}
ALL = ["agents", "claude", "cursor", "copilot", "gemini", "windsurf", "cline", "kiro",
       "continue", "amazonq", "junie", "zed", "aider", "roo"]  # fmt: skip


def fill(store: Store, extra: dict[str, str] | None = None) -> None:
    for mid, text in {**STORE, **(extra or {})}.items():
        write_memory(store, mid, text)


def targets(store: Store, *names: str, more: str = "") -> None:
    listed = ", ".join(f'"{n}"' for n in names)
    configure(store, f"[compile]\ntargets = [{listed}]\n{more}")


def compiled(store: Store) -> Plan:
    plan = build(store, today=TODAY)
    apply(plan)
    return plan


def front(text: str) -> tuple[dict[str, Any], str]:
    """The front matter as a standard YAML parser reads it, and its raw lines."""
    if not text.startswith("---\n"):
        return {}, ""
    head = text[4 : text.index("\n---\n", 3) + 1]
    data = yaml.safe_load(head)
    assert isinstance(data, dict)
    return data, head


def ids(text: str) -> list[str]:
    return re.findall(r"<!-- memkit:id=([\w-]+) -->", text)


# ------------------------------------------------------------- goldens


@pytest.mark.parametrize("target", ALL)
def test_golden_each_target_on_its_own(store: Store, target: str) -> None:
    """The target alone (AGENTS.md off, so it carries everything its agent needs)."""
    fill(store)
    targets(store, target)
    compiled(store)
    check_golden(f"target-{target}", outputs(store.root))
    assert build(store, today=TODAY).changes == ()  # a second run writes nothing


def test_golden_every_target_with_agents_md(store: Store) -> None:
    fill(store)
    targets(store, *ALL)
    plan = compiled(store)
    check_golden("every-target", outputs(store.root))
    assert build(store, today=TODAY).changes == ()
    assert plan.facts  # VS Code's Copilot Chat: said in the report, not hidden


# ------------------------------------------- read back as the agent does

SAMPLES = {
    "tabs-banned": ["src/app/main.ts", "src/ui/Button.tsx"],
    "sql-lowercase": ["db/users.sql", "migrations/001.sql"],
    "retry-gotcha": ["packages/api/client.py"],
}


def agent_globs(rel: str, text: str, data: dict[str, Any], head: str) -> list[str]:
    """The globs as each agent's own reader takes them from the front matter."""
    if rel.startswith((".cursor/", ".windsurf/")):
        (line,) = [x for x in head.splitlines() if x.startswith("globs: ")]
        raw = line.removeprefix("globs: ")  # the rest of the line, split on commas
        assert raw == data["globs"]  # ... and a YAML parser reads the same string
        return [g.strip() for g in raw.split(",") if g.strip() != rel]
    if rel.startswith(".github/"):
        return [g for g in data["applyTo"].split(",")]
    if rel.startswith(".kiro/"):
        pat = data["fileMatchPattern"]
        return [pat] if isinstance(pat, str) else list(pat)
    if rel.startswith(".continue/"):
        return list(data["globs"])
    return list(data["paths"])


@pytest.mark.parametrize("target", sorted(RULE_DIRS))
def test_scoped_rules_read_back(store: Store, target: str) -> None:
    """Front matter parses with a YAML parser; each scoped file matches its memory's files."""
    fill(store)
    targets(store, target)
    compiled(store)
    scoped = 0
    for path in sorted((store.root / RULE_DIRS[target]).rglob("memkit*")):
        rel = path.relative_to(store.root).as_posix()
        text = path.read_text("utf-8")
        data, head = front(text)
        if target == "continue":
            assert isinstance(data["name"], str) and data["name"]  # required by Continue
        kinds = {"windsurf": "trigger", "kiro": "inclusion"}
        if target in kinds:
            assert data[kinds[target]] in {"always_on", "glob", "always", "fileMatch"}
        in_file = ids(text)
        if not any(m in SAMPLES for m in in_file) or rel.endswith(("/memkit.md", "/memkit.mdc")):
            continue
        if target in ("amazonq", "roo"):  # no scoping: an `Applies to` line instead
            continue
        globs = agent_globs(rel, text, data, head)
        (mid,) = in_file
        for sample in SAMPLES[mid]:
            assert any(glob_match(g, sample) for g in globs), (rel, sample, globs)
        assert not any(glob_match(g, "README.md") for g in globs)
        scoped += 1
    assert scoped == (0 if target in ("amazonq", "roo") else 3)


def test_always_on_rules_have_the_agents_always_form(store: Store) -> None:
    fill(store)
    targets(store, "cursor", "windsurf", "cline", "kiro", "continue", "copilot")
    compiled(store)
    read = lambda rel: front((store.root / rel).read_text("utf-8"))[0]  # noqa: E731
    assert read(".cursor/rules/memkit.mdc") == {
        "description": "Project memory",
        "alwaysApply": True,
    }
    assert read(".windsurf/rules/memkit.md") == {"trigger": "always_on"}
    assert read(".clinerules/memkit.md") == {}  # no front matter: always
    assert read(".kiro/steering/memkit.md") == {"inclusion": "always"}
    assert read(".continue/rules/memkit.md") == {"name": "memkit", "alwaysApply": True}
    assert read(".github/instructions/memkit.instructions.md") == {"applyTo": "**"}


# ---------------------------------------------------- loaded together


def big(n: int, lines: int = 6) -> dict[str, str]:
    return {
        f"m{i:02d}": f"---\ntitle: Memory {i}\npriority: {-i}\n---\n\n" + "Some text.\n" * lines
        for i in range(n)
    }


def test_codex_chain_within_one_budget(store: Store) -> None:
    """Root plus nested AGENTS.md stay within 32 KiB-style budget for every working folder."""
    nested = {
        f"api{i}": f"---\ntitle: API rule {i}\npaths:\n- packages/api/**\n---\n\n" + "API.\n" * 20
        for i in range(6)
    }
    fill(store, {**big(30), **nested})
    targets(store, "agents", more='nested_agents = true\nbudgets = { agents = "3000 bytes" }\n')
    plan = compiled(store)
    root = (store.root / "AGENTS.md").read_bytes()
    sub = (store.root / "packages/api/AGENTS.md").read_bytes()
    assert len(root) + 2 + len(sub) <= 3000
    assert any("still reads the nested AGENTS.md" in n for n in plan.notes)


def test_claude_import_counts_agents_md_against_claude(store: Store) -> None:
    fill(store, big(30))
    more = 'claude_mode = "import"\nbudgets = { claude = "60 lines" }\n'
    targets(store, "agents", "claude", more=more)
    plan = compiled(store)
    claude = (store.root / "CLAUDE.md").read_text("utf-8")
    agents = (store.root / "AGENTS.md").read_text("utf-8")
    assert "@AGENTS.md" in claude
    assert claude.count("\n") + agents.count("\n") <= 60
    (cut,) = [n for n in plan.notes if n.startswith("AGENTS.md: over its budget")]
    assert "60 lines" not in cut or "left out (" in cut  # what was cut is named


@pytest.mark.parametrize("agent", ["cursor", "windsurf", "cline", "kiro", "roo"])
def test_agents_md_readers_get_each_memory_once(store: Store, agent: str) -> None:
    """What AGENTS.md cannot hold goes to the agent's own files; nothing arrives twice."""
    fill(store, big(20))
    more = 'budgets = { agents = "40 lines" }\n'
    targets(store, "agents", agent, more=more)
    plan = compiled(store)
    assert readers.twice(plan.placed, agent, store.root) == {}
    loaded = readers.AGENTS[agent].loads(plan.placed, store.root)
    full = [m for p in loaded for m in p.full]
    assert len(full) == len(set(full))
    assert set(full) == {m.id for m in plan.selected}  # and every memory arrives once


def test_windsurf_limit_applies_to_agents_md(store: Store) -> None:
    fill(store, big(40))
    targets(store, "agents", "windsurf", more='budgets = { windsurf = "2500 chars" }\n')
    compiled(store)
    assert len((store.root / "AGENTS.md").read_text("utf-8")) <= 2500
    for rule in (store.root / ".windsurf/rules").glob("*.md"):
        assert len(rule.read_text("utf-8")) <= 2500


def test_zed_reads_agents_md_not_copilot_file(store: Store) -> None:
    """memkit writes no .github/copilot-instructions.md, which Zed would read instead."""
    fill(store)
    targets(store, "agents", "copilot", "zed")
    plan = compiled(store)
    assert not (store.root / ".github/copilot-instructions.md").exists()
    (seen,) = readers.AGENTS["zed"].loads(plan.placed, store.root)
    assert seen.path == "AGENTS.md" and set(seen.full) == {m.id for m in plan.selected}


def test_zed_shadowed_by_a_hand_written_rules_file(store: Store) -> None:
    fill(store)
    (store.root / ".cursorrules").write_text("Be nice.\n")
    targets(store, "agents")
    plan = compiled(store)
    assert readers.AGENTS["zed"].loads(plan.placed, store.root) == []


# ------------------------------------------------ order and the cut


def test_budget_cut_keeps_source_order_and_names_the_rest(store: Store) -> None:
    titles = ["Zebra crossing", "Apple pie", "Mango season", "Banana split"]
    source = "# Rules\n\n" + "".join(f"## {t}\n\nText.\n\n" for t in titles)
    (store.root / "CLAUDE.md").write_text(source)
    for t in titles:
        slug = t.lower().replace(" ", "-")
        write_memory(
            store, slug, f"---\ntitle: {t}\nsource: CLAUDE.md#{slug}\n---\n\n" + "Line.\n" * 4
        )
    targets(store, "agents", more='budgets = { agents = "26 lines" }\n')
    plan = build(store, today=TODAY)
    assert [m.id for m in plan.selected] == [
        "zebra-crossing",
        "apple-pie",
        "mango-season",
        "banana-split",
    ]
    (placed,) = plan.placed
    assert placed.full == ("zebra-crossing",)  # first in the file, though last by id
    assert placed.short + placed.cut == ("apple-pie", "mango-season", "banana-split")
    apply(plan)
    text = (store.root / "AGENTS.md").read_text("utf-8")
    assert all(mid in text for mid in placed.short + placed.cut)  # named in the file's index
    (note,) = plan.notes
    assert all(mid in note for mid in placed.short + placed.cut)  # and in the report
    targets(store, "agents", "claude", more='budgets = { agents = "26 lines" }\n')
    apply(build(store, today=TODAY))  # CLAUDE.md, the source, now holds memkit's section too
    assert build(store, today=TODAY).changes == ()  # which does not change the order


# ------------------------------------------------------------ explain


def test_explain_names_file_and_fate(store: Store, run: Invoke) -> None:
    fill(store, big(12))
    targets(store, "agents", "cursor", more='budgets = { agents = "40 lines" }\n')
    out = run("compile", "--explain", "cursor").stdout
    assert out.startswith("cursor loads ")
    assert "  AGENTS.md (always; budget 40 lines" in out
    assert re.search(r"use-pnpm +in full in AGENTS.md\n", out)
    assert re.search(r"m11 +.*in full in \.cursor/rules/memkit\.mdc", out)
    # a left-out id costs a line like a title: over a line budget, m11 is shortened or cut
    assert re.search(r"m11 +.*(left out by the budget of|title only in) AGENTS\.md", out)
    assert not (store.root / "AGENTS.md").exists()  # --explain writes nothing


ON_DEMAND = "activation" in getattr(Memory, "__dataclass_fields__", {})


@pytest.mark.skipif(not ON_DEMAND, reason="needs the description and activation fields")
def test_on_demand_memories_become_description_and_manual_rules(store: Store) -> None:
    fill(
        store,
        {
            "deploy": "---\ntitle: Deploying\nactivation: agent\n"
            "description: Use when deploying to production\n---\n\nRun make deploy.\n",
            "release-notes": "---\ntitle: Release notes\nactivation: manual\n---\n\nWrite them.\n",
        },
    )
    targets(store, "agents", "cursor", "windsurf", "kiro")
    compiled(store)
    assert "deploy" not in (store.root / "AGENTS.md").read_text("utf-8")
    read = lambda rel: front((store.root / rel).read_text("utf-8"))[0]  # noqa: E731
    assert read(".cursor/rules/memkit-deploy.mdc") == {
        "description": "Use when deploying to production",
        "alwaysApply": False,
    }
    assert read(".cursor/rules/memkit-release-notes.mdc") == {"alwaysApply": False}
    assert read(".windsurf/rules/memkit-deploy.md")["trigger"] == "model_decision"
    assert read(".kiro/steering/memkit-release-notes.md") == {"inclusion": "manual"}


def test_rule_files_are_owned_and_cleaned(store: Store, tmp_path: Path) -> None:
    fill(store)
    targets(store, "windsurf", "kiro")
    compiled(store)
    assert (store.root / ".kiro/steering/memkit.md").exists()
    targets(store, "agents")
    compiled(store)
    assert not (store.root / ".kiro/steering").exists() or not any(
        (store.root / ".kiro/steering").iterdir()
    )
    assert not list((store.root / ".windsurf/rules").glob("*"))


def test_claude_md_linked_to_agents_md_gets_each_memory_once(store: Store) -> None:
    """`CLAUDE.md -> AGENTS.md` (a common layout): Claude Code reads AGENTS.md through
    the link, so .claude/rules/ holds only what AGENTS.md does not carry in full."""
    import os

    fill(store, big(20))
    (store.root / "AGENTS.md").write_text("# Shop\n\nHand-written intro.\n")
    os.symlink("AGENTS.md", store.root / "CLAUDE.md")
    targets(store, "agents", "claude", more='budgets = { agents = "60 lines" }\n')
    plan = compiled(store)
    assert os.readlink(store.root / "CLAUDE.md") == "AGENTS.md"
    assert build(store, today=TODAY).changes == ()  # the first run was the whole work
    assert readers.twice(plan.placed, "claude", store.root) == {}
    in_agents = set(ids((store.root / "AGENTS.md").read_text("utf-8")))
    rules = "".join(p.read_text("utf-8") for p in (store.root / ".claude/rules").glob("*.md"))
    assert in_agents and not in_agents & set(ids(rules))
    loaded = readers.AGENTS["claude"].loads(plan.placed, store.root)
    full = [m for p in loaded for m in p.full]
    assert len(full) == len(set(full))
    shortened = {m for p in loaded for m in (*p.short, *p.cut)}
    assert set(full) | shortened == {m.id for m in plan.selected}
