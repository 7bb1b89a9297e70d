"""The end-to-end suite's analysis (e2e/analyze.py, e2e/model.py) on hand-made records.

No agent and no endpoint: a JSON-lines record is written as the endpoint writes it,
and the counts per request, the files before and after a read, and the comparison
with `memkit compile --explain` are checked.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

E2E = Path(__file__).resolve().parents[2] / "e2e"


@pytest.fixture(scope="module")
def e2e() -> Any:
    sys.path.insert(0, str(E2E))
    try:
        import analyze
        import model
        import scratch

        yield analyze, model, scratch
    finally:
        sys.path.remove(str(E2E))


def _record(path: Path, bodies: list[tuple[str, dict[str, Any]]]) -> Path:
    with path.open("w") as fh:
        for seq, (flavour, body) in enumerate(bodies, 1):
            fh.write(json.dumps({"seq": seq, "flavour": flavour, "body": body}) + "\n")
    return path


def test_counts_are_per_request_and_split_at_the_read(e2e: Any, tmp_path: Path) -> None:
    analyze, _, scratch = e2e
    mem = {m.id: m for m in scratch.MEMORIES}
    always = f"{mem['always'].title_marker} {mem['always'].body_marker}"
    first = {
        "messages": [
            {
                "role": "system",
                "content": f"{always} {always} [MKF:AGENTS.md] {mem['bulky'].title_marker}",
            }
        ]
    }
    second = {
        "messages": [
            *first["messages"],
            {"role": "tool", "content": f"{mem['api'].body_marker} [MKF:src/api/AGENTS.md]"},
        ]
    }
    record = _record(
        tmp_path / "r.jsonl", [("chat", first), ("chat", second), ("models", {}), ("chat", first)]
    )
    files = ["AGENTS.md", "src/api/AGENTS.md", "CLAUDE.md"]
    r = analyze.analyse(analyze.RunResult("x", "read"), record, files)
    assert r.requests == 3  # the model listing is no model request
    assert r.memories == {
        "always": ("full", 2),
        "api": ("full", 1),
        "docs": ("absent", 0),
        "bulky": ("short", 1),
    }
    assert r.twice == ["always"]  # twice in one request, not twice over the run
    assert (r.start_files, r.after_files, r.read_done) == (
        ["AGENTS.md"],
        ["src/api/AGENTS.md"],
        True,
    )
    assert "always:F2 api:F1 docs:- bulky:S1 read:yes" in analyze.cell(r)


def test_a_memory_in_two_requests_once_each_is_not_twice(e2e: Any, tmp_path: Path) -> None:
    analyze, _, scratch = e2e
    marker = scratch.MEMORIES[0].body_marker
    body = {"contents": [{"parts": [{"text": marker}]}]}
    record = _record(tmp_path / "r.jsonl", [("gemini", body), ("gemini", body)])
    r = analyze.analyse(analyze.RunResult("x", "root"), record, [])
    assert (r.memories[scratch.MEMORIES[0].id], r.twice) == (("full", 1), [])


def test_memkit_explain_is_read_per_scenario(e2e: Any) -> None:
    _, model, scratch = e2e
    expected = model.Expected(
        (
            ("CLAUDE.md", "always"),
            (".claude/rules/memkit-src-api.md", "when working on src/api/**"),
            (".claude/rules/memkit-docs.md", "when working on docs/**"),
        )
    )
    assert expected.files("root") == {"CLAUDE.md"}
    assert expected.files("sub") == {"CLAUDE.md"}
    assert expected.files("read") == {"CLAUDE.md", ".claude/rules/memkit-src-api.md"}
    assert scratch.READ.startswith("src/api/")
    assert model.disagreements({"CLAUDE.md", "x.md"}, {"CLAUDE.md", "AGENTS.md"}) == [
        "+AGENTS.md",
        "-x.md",
    ]


def test_files_by_the_folder_the_agent_starts_in(e2e: Any) -> None:
    """Nested AGENTS.md: the chain to the start folder; some agents add one after a read;
    others read only the folder they start in (then not the root's files)."""
    _, model, scratch = e2e
    sub, after = scratch.SUBFOLDER, "or after reading a file under it"
    assert scratch.READ.startswith(sub + "/")
    expected = model.Expected(
        (
            ("AGENTS.md", "when started in the repository root"),
            (f"{sub}/AGENTS.md", f"when started in {sub}"),
            ("docs/AGENTS.md", "when started in docs or below"),
            ("src/AGENTS.md", "when started in src or below"),
            (f"{sub}/x/AGENTS.md", f"when started in {sub}/x or below, {after}"),
            ("src/y/AGENTS.md", f"when started in src or below, {after}"),
            ("r.md", "when the agent judges it relevant (description)"),
        )
    )
    assert expected.files("root") == {"AGENTS.md"}
    assert expected.files("read") == {"AGENTS.md", "src/y/AGENTS.md"}
    assert expected.files("sub") == {f"{sub}/AGENTS.md", "src/AGENTS.md", "src/y/AGENTS.md"}


@pytest.mark.slow  # six memkit processes
def test_the_scratch_repository_and_memkits_explain_agree_on_files(
    e2e: Any, tmp_path: Path
) -> None:
    """memkit itself builds the scratch store; its --explain output parses into files."""
    _, model, scratch = e2e
    memkit = str(Path(sys.executable).parent / "memkit")
    files = scratch.build(tmp_path / "repo", memkit)
    assert {"AGENTS.md", "CLAUDE.md", "src/api/AGENTS.md"} <= set(files)
    for rel in files:
        assert scratch.file_marker(rel) in (tmp_path / "repo" / rel).read_text()
    got = model.explain(memkit, str(tmp_path / "repo"), "claude")
    assert isinstance(got, model.Expected)
    assert got.files("root") == {"CLAUDE.md"}
    assert got.files("read") - got.files("root") == {".claude/rules/memkit-src-api.md"}
    assert isinstance(model.explain(memkit, str(tmp_path / "repo"), "nosuch"), str)


def test_compare_names_files_and_counts_memkit_did_not_expect(e2e: Any, tmp_path: Path) -> None:
    analyze, model, scratch = e2e
    import run

    always, api = scratch.MEMORIES[0], scratch.MEMORIES[1]
    texts = {
        "AGENTS.md": f"{always.title_marker} {always.body_marker}",
        "CLAUDE.md": f"{always.title_marker} {always.body_marker}",
        "src/api/AGENTS.md": f"{api.title_marker} {api.body_marker}",
        "IMPORT.md": "@AGENTS.md",  # carries no memory: never a disagreement by itself
    }
    for rel, text in texts.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = analyze.RunResult("x", "root", start_files=["AGENTS.md", "CLAUDE.md", "IMPORT.md"])
    result.memories = {m.id: ("absent", 0) for m in scratch.MEMORIES}
    result.memories[always.id] = ("full", 2)
    want = model.Expected((("AGENTS.md", "always"), ("src/api/AGENTS.md", "always")))
    got = run.compare(want, "root", result, tmp_path, sorted(texts))
    assert got == ["+CLAUDE.md", "-src/api/AGENTS.md", f"{always.id}:2x(model 1x)"]
    imported = ("IMPORT.md", "always, importing AGENTS.md")
    imports = model.Expected((("AGENTS.md", "always"), imported))
    assert run.compare(imports, "root", result, tmp_path, sorted(texts)) == ["+CLAUDE.md"]
    # Claude Code: AGENTS.md read once, through CLAUDE.md's import
    through = model.Expected(
        (("AGENTS.md", "imported by IMPORT.md when started in the repository root"), imported)
    )
    assert run.compare(through, "root", result, tmp_path, sorted(texts)) == [
        "+CLAUDE.md",
        f"{always.id}:2x(model 1x)",
    ]


def _edge(scratch: Any) -> dict[str, Any]:
    return {m.id: m for m in scratch.EDGE}


def test_each_memorys_state_follows_explain_and_the_scenario(e2e: Any) -> None:
    """Full where a file holding it in full is read, else short where a file holding
    its title is, else absent: left out by a budget, on demand, or in an unread file."""
    _, model, scratch = e2e
    sub = scratch.SUBFOLDER
    expected = model.Expected(
        (
            ("AGENTS.md", "always"),
            (f"{sub}/AGENTS.md", f"when started in {sub} or below"),
            ("docs/AGENTS.md", "when started in docs or below"),
        ),
        (
            ("stale", "in full in AGENTS.md"),
            ("pkg", f"in full in {sub}/AGENTS.md"),
            ("extra1", "title only in AGENTS.md (over budget)"),
            ("extra9", "left out by the budget of AGENTS.md (1,855 bytes and 12,000 chars)"),
            ("docs", "in full in docs/AGENTS.md; title only in AGENTS.md (over budget)"),
            ("always", "in full in AGENTS.md, docs/AGENTS.md (twice)"),
            ("byagent", "not loaded: activation agent, and no file x loads has that kind of rule"),
            ("manual", "not loaded: activation manual, and no file x loads has that kind of rule"),
        ),
    )
    got = {s: {m: expected.state(s, m) for m, _ in expected.fates} for s in ("root", "sub")}
    assert got["root"] == {
        "stale": "full",
        "pkg": "absent",
        "extra1": "short",
        "extra9": "absent",
        "docs": "short",
        "always": "full",
        "byagent": "absent",
        "manual": "absent",
    }
    assert got["sub"] == {**got["root"], "pkg": "full"}
    assert expected.state("root", "unknown") == "absent"


def test_stale_annotation_and_description_alone_are_seen(e2e: Any, tmp_path: Path) -> None:
    analyze, _, scratch = e2e
    m = _edge(scratch)
    stale = f"{m['stale'].title_marker} {m['stale'].body_marker}"
    note = f"> **{scratch.STALE_NOTE}:** the code has changed: {scratch.STALE_LINK} (signature)"
    desc = f"- Release {m['byagent'].title_marker}: Use when {m['byagent'].description_marker}"
    with_note = {"system": f"{stale}\n{note}\n{desc}", "messages": []}
    r = analyze.analyse(
        analyze.RunResult("x", "edge:root"),
        _record(tmp_path / "a.jsonl", [("anthropic", with_note)]),
        [],
    )
    assert r.stale_note is True
    assert (r.memories["byagent"], r.memories["manual"]) == (("desc", 1), ("absent", 0))
    assert set(r.memories) == {x.id for x in scratch.ALL}  # the edge store's memories
    assert "stale:F1" in analyze.cell(r) and "byagent:D1" in analyze.cell(r)
    assert "stale-note:yes" in analyze.cell(r)
    # the note naming another link, or no note at all, is no annotation of this memory
    for text in (f"{stale}\n> **{scratch.STALE_NOTE}:** src/other.py::f", stale):
        r = analyze.analyse(
            analyze.RunResult("x", "edge:root"),
            _record(tmp_path / "b.jsonl", [("anthropic", {"system": text})]),
            [],
        )
        assert r.stale_note is False and "stale-note:NO" in analyze.cell(r)
    # a store without a stale memory says nothing of annotations
    r = analyze.analyse(
        analyze.RunResult("x", "root"),
        _record(tmp_path / "c.jsonl", [("anthropic", {"system": stale})]),
        [],
    )
    assert r.stale_note is None and "stale" not in r.memories


def test_compare_names_memories_in_the_wrong_state(e2e: Any, tmp_path: Path) -> None:
    analyze, model, scratch = e2e
    import run

    m = _edge(scratch)
    (tmp_path / "AGENTS.md").write_text(
        f"{m['stale'].title_marker} {m['stale'].body_marker} {m['extra1'].title_marker}"
    )
    result = analyze.RunResult("x", "edge:root", start_files=["AGENTS.md"], stale_note=False)
    result.memories = {x.id: ("absent", 0) for x in scratch.ALL}
    result.memories.update(stale=("full", 1), extra9=("short", 1), byagent=("desc", 1))
    want = model.Expected(
        (("AGENTS.md", "always"),),
        (
            ("stale", "in full in AGENTS.md"),
            ("extra1", "title only in AGENTS.md (over budget)"),
            ("extra9", "left out by the budget of AGENTS.md (9 bytes)"),
        ),
    )
    got = run.compare(want, "root", result, tmp_path, ["AGENTS.md"])
    assert got == [
        "byagent:desc(model absent)",
        "extra1:absent(model short)",
        "extra9:short(model absent)",
        "stale:no annotation",
    ]


@pytest.mark.slow  # a dozen memkit processes
def test_the_edge_store_has_a_stale_memory_and_every_budget_fate(e2e: Any, tmp_path: Path) -> None:
    """memkit builds the edge store: the stale memory carries its annotation, and for an
    AGENTS.md reader some memories are full, some shortened, some left out."""
    _, model, scratch = e2e
    memkit = str(Path(sys.executable).parent / "memkit")
    files = scratch.build(tmp_path / "repo", memkit, "edge")
    agents_md = (tmp_path / "repo" / "AGENTS.md").read_text()
    assert scratch.STALE_NOTE in agents_md and scratch.STALE_LINK in agents_md
    assert f"{scratch.SUBFOLDER}/AGENTS.md" in files or "src/AGENTS.md" in files
    got = model.explain(memkit, str(tmp_path / "repo"), "codex")
    assert isinstance(got, model.Expected)
    states = {m.id: got.state("root", m.id) for m in scratch.ALL}
    assert {"full", "short", "absent"} == set(states.values())
    assert states["stale"] == "full"
    assert states["manual"] == states["byagent"] == states["pkg"] == "absent"
    assert got.state("sub", "pkg") == "full"  # the package's memory, started in it


def test_what_the_session_start_hook_gives_counts_for_a_start_at_the_root(e2e: Any) -> None:
    """`--explain claude` names what memkit's hook gives; Claude Code runs no project hook
    when started in a subfolder."""
    model = e2e[1]
    expected = model.Expected(
        (("CLAUDE.md", "always"),),
        (
            ("bulky", "title only in CLAUDE.md (over budget); in full by the SessionStart hook"),
            ("byagent", "by its description from the SessionStart hook"),
        ),
    )
    assert expected.state("root", "bulky") == "full"
    assert expected.state("sub", "bulky") == "short"
    assert expected.state("read", "byagent") == "desc"
    assert expected.state("sub", "byagent") == "absent"
    assert expected.times("root", {"CLAUDE.md": "x"}, "[MKB:bulky]") == 1
    assert expected.times("sub", {"CLAUDE.md": "x"}, "[MKB:bulky]") == 0


def test_files_added_after_each_of_several_reads_are_told_apart(e2e: Any, tmp_path: Path) -> None:
    analyze, _, scratch = e2e
    alpha = next(m for m in scratch.NEST if m.id == "alpha")
    start = {"messages": [{"role": "user", "content": "[MKF:CLAUDE.md]"}]}
    one = {
        "messages": [
            *start["messages"],
            {"role": "tool", "content": f"{alpha.body_marker} [MKF:pkg/alpha/AGENTS.md]"},
        ]
    }
    two = {
        "messages": [
            *one["messages"],
            {"role": "tool", "content": "[MKF:.claude/rules/memkit-pkg-beta.md]"},
        ]
    }
    record = _record(tmp_path / "r.jsonl", [("chat", start), ("chat", one), ("chat", two)])
    files = ["CLAUDE.md", "pkg/alpha/AGENTS.md", ".claude/rules/memkit-pkg-beta.md"]
    r = analyze.analyse(analyze.RunResult("x", "nest:read"), record, files)
    assert r.after_read == {"pkg/alpha/AGENTS.md": 1, ".claude/rules/memkit-pkg-beta.md": 2}
    assert set(r.memories) == {m.id for m in scratch.NEST}
    assert r.memories["alpha"] == ("full", 1) and r.twice == []
    text = analyze.table([r], ["nest:read"])
    assert "pkg/alpha/AGENTS.md (read 1)" in text and "memkit-pkg-beta.md (read 2)" in text
    assert "x  nest:read   none" in text  # no memory more than once in one request


def test_the_nest_stores_scenarios_open_each_package_and_start_in_one(e2e: Any) -> None:
    """The read scenario of the nest store opens a file in each package; the subfolder
    one starts in the package whose CLAUDE.md links to its AGENTS.md."""
    _, model, scratch = e2e
    reads, sub = scratch.reads_of("nest"), scratch.subfolder_of("nest")
    assert [r.split("/")[1] for r in reads] == ["alpha", "beta"] and sub == "pkg/alpha"
    assert set(scratch.LINKS) == {f"{sub}/CLAUDE.md"}
    after = "or after reading a file under it"
    expected = model.Expected(
        (
            ("CLAUDE.md", "always"),
            ("pkg/alpha/AGENTS.md", f"when started in pkg/alpha or below, {after}"),
            ("pkg/beta/AGENTS.md", "when started in pkg/beta or below"),
            (".claude/rules/memkit-pkg-beta.md", "when working on pkg/beta/**"),
        ),
        reads=reads,
        subfolder=sub,
    )
    assert expected.files("root") == {"CLAUDE.md"}
    assert expected.files("read") == {
        "CLAUDE.md",
        "pkg/alpha/AGENTS.md",
        ".claude/rules/memkit-pkg-beta.md",
    }
    assert expected.files("sub") == {"CLAUDE.md", "pkg/alpha/AGENTS.md"}
    assert model.Expected(expected.files_when).files("read") == {"CLAUDE.md"}  # src/api/...


@pytest.mark.slow  # a dozen memkit processes
def test_the_nest_store_links_claude_to_one_packages_agents_md(e2e: Any, tmp_path: Path) -> None:
    """memkit builds the nest store: the linked package's memories leave .claude/rules
    and `--explain claude` reads its AGENTS.md; Codex keeps the package's low-ranked
    memory in full, its chain having room."""
    _, model, scratch = e2e
    memkit = str(Path(sys.executable).parent / "memkit")
    repo = tmp_path / "repo"
    files = scratch.build(repo, memkit, "nest")
    assert (repo / "pkg/alpha/CLAUDE.md").is_symlink()
    assert {
        "CLAUDE.md",
        "pkg/alpha/AGENTS.md",
        "pkg/beta/AGENTS.md",
        ".claude/rules/memkit-pkg-beta.md",
    } <= set(files)
    assert not (repo / ".claude/rules/memkit-pkg-alpha.md").exists()
    reads, sub = scratch.reads_of("nest"), scratch.subfolder_of("nest")
    claude = model.explain(memkit, str(repo), "claude", reads, sub)
    codex = model.explain(memkit, str(repo), "codex", reads, sub)
    assert isinstance(claude, model.Expected) and isinstance(codex, model.Expected)
    assert claude.files("sub") == {"CLAUDE.md", "pkg/alpha/AGENTS.md"}
    assert [claude.state(s, "alpha") for s in ("root", "read", "sub")] == ["absent", "full", "full"]
    assert [claude.state(s, "beta") for s in ("root", "read", "sub")] == [
        "absent",
        "full",
        "absent",
    ]
    assert codex.state("sub", "alphalow") == "full"
    assert codex.state("root", "bulky") == "short"


def test_reanalysis_of_the_runs_folder_takes_each_cells_latest_run(
    e2e: Any, tmp_path: Path
) -> None:
    import run

    for rel in ("T1/claude-root", "T2/claude-root", "T1/codex-nest-read", "T2/x/y"):
        (tmp_path / rel / "logs").mkdir(parents=True)
        if rel != "T2/x/y":
            (tmp_path / rel / "logs" / "spec.json").write_text("{}")
    assert run.recorded(tmp_path) == [tmp_path / "T2/claude-root", tmp_path / "T1/codex-nest-read"]
    assert run.recorded(tmp_path / "T1") == [
        tmp_path / "T1/claude-root",
        tmp_path / "T1/codex-nest-read",
    ]


def test_a_run_memkits_model_gets_wrong_fails_the_suite(
    e2e: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    analyze = e2e[0]
    import run

    good = analyze.RunResult("claude", "nest:read")
    bad = analyze.RunResult("copilot", "nest:read", model=["beta:2x(model 1x)"])
    assert run.verdict([good]) == 0
    assert run.verdict([good, bad]) == 1
    assert "1 run(s) disagree with memkit's model: copilot nest:read" in capsys.readouterr().out
