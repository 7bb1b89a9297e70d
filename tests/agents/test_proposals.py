"""Drafts and proposed revisions: what agents write, and `memkit approve`, where a person
accepts or rejects it."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import Invoke, git, write_memory

from memkit import memory as mm
from memkit.agents import proposals
from memkit.errors import ConfigError, MemkitError, SecretError
from memkit.store import Store, check_secrets
from memkit.validation import validate

DAY = dt.date(2026, 11, 22)
ORIGINAL = (
    "---\n"
    "title: Money is integer cents\n"
    "type: convention\n"
    "# reviewed in #812\n"
    "tags:\n- billing\n"
    "x-owner: payments\n"
    "created: 2026-01-05\n"
    "updated: 2026-02-01\n"
    "---\n\n"
    "Never floats for amounts.\n"
)


@pytest.fixture
def money(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A store holding one reviewed memory, `money`; the CLI's clock pinned to DAY."""
    monkeypatch.setenv("MEMKIT_TODAY", DAY.isoformat())
    write_memory(store, "money", ORIGINAL)
    return store


def revise(store: Store, mid: str, **changes: object) -> mm.Memory:
    return proposals.propose(store, mid, today=DAY, **changes)


def test_a_change_to_a_reviewed_memory_is_a_new_draft(money: Store) -> None:
    rev = revise(money, "money", title="Money is cents", tags=("billing", "money"))
    assert (rev.id, rev.status, rev.revises, rev.path) == (
        "money-revision",
        "draft",
        "money",
        ".memory/money-revision.md",
    )
    assert (money.dir / "money.md").read_text() == ORIGINAL
    again = revise(money, "money-revision", body=mm.format_body("Never floats."))
    assert (again.id, again.status, again.text) == ("money-revision", "draft", "Never floats.")
    with pytest.raises(MemkitError, match=r"^an agent cannot make 'money' active: a person"):
        revise(money, "money", status="active")
    assert revise(money, "money", title="Money is integer cents").id == "money"  # no change
    assert [m.id for m in proposals.pending(money)] == ["money-revision"]


def test_a_draft_changes_in_place_and_stays_a_draft(store: Store) -> None:
    store.add(mm.new("Use UTC", "Always.", mid="use-utc", today=DAY, status="draft"))
    assert revise(store, "use-utc", title="Use UTC everywhere").status == "draft"
    assert [p.name for p in store.files()] == ["use-utc.md"]
    with pytest.raises(MemkitError, match=r"^'use-utc' is a draft and stays one until"):
        revise(store, "use-utc", status="archived")


def test_approve_makes_a_draft_active(run: Invoke, money: Store) -> None:
    money.add(
        mm.new("Use UTC", "Always.", mid="use-utc", today=dt.date(2026, 1, 1), status="draft")
    )
    assert run("approve", "use-utc").stdout == "approved use-utc: .memory/use-utc.md is active\n"
    mem = money.get("use-utc")
    assert (mem.status, mem.created, mem.updated) == ("active", dt.date(2026, 1, 1), DAY)


def test_approve_applies_a_revision_to_the_original(run: Invoke, money: Store) -> None:
    body = mm.format_body("Never floats for amounts.\n\nNot even in tests.")
    rev = revise(
        money, "money", title="Money is integer cents, always", body=body, tags=("billing", "money")
    )
    out = run("approve", rev.id).stdout
    assert out == (
        "applied money-revision to .memory/money.md (title, body, tags)\n"
        "--- a/.memory/money.md\n"
        "+++ b/.memory/money.md\n"
        "@@ -1,12 +1,15 @@\n"
        " ---\n"
        "-title: Money is integer cents\n"
        "+title: Money is integer cents, always\n"
        " type: convention\n"
        " # reviewed in #812\n"
        " tags:\n"
        " - billing\n"
        "+- money\n"
        " x-owner: payments\n"
        " created: 2026-01-05\n"
        "-updated: 2026-02-01\n"
        "+updated: 2026-11-22\n"
        " ---\n"
        " \n"
        " Never floats for amounts.\n"
        "+\n"
        "+Not even in tests.\n"
        "removed .memory/money-revision.md\n"
    )
    assert (money.dir / "money.md").read_text() == (
        "---\n"
        "title: Money is integer cents, always\n"
        "type: convention\n"
        "# reviewed in #812\n"
        "tags:\n- billing\n- money\n"
        "x-owner: payments\n"
        "created: 2026-01-05\n"
        "updated: 2026-11-22\n"
        "---\n\n"
        "Never floats for amounts.\n\nNot even in tests.\n"
    )
    assert [p.name for p in money.files()] == ["money.md"]
    assert validate(money) == []


def test_a_forget_proposal_archives_on_approval(run: Invoke, money: Store) -> None:
    said = proposals.forget(money, "money", today=DAY)
    assert said == (
        "proposed archiving .memory/money.md in .memory/money-revision.md: a person applies "
        "it with `memkit approve money-revision`"
    )
    assert money.get("money-revision").status == "archived"
    assert money.get("money").status == "active"
    assert run("approve").stdout == (
        "ID              PROPOSES         TITLE\n"
        "money-revision  archiving money  Money is integer cents\n"
    )
    out = run("approve", "money-revision").stdout
    assert out.startswith("applied money-revision to .memory/money.md (status)\n")
    assert "+status: archived\n" in out
    assert money.get("money").status == "archived"
    with pytest.raises(MemkitError, match=r"^\.memory/money\.md is already archived$"):
        proposals.forget(money, "money", today=DAY)


def test_approve_commit_commits_exactly_what_it_wrote(run: Invoke, money: Store) -> None:
    repo = money.root
    (repo / "notes.txt").write_text("x\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "start")
    rev = revise(money, "money", title="Money is cents")
    git(repo, "add", rev.path)
    git(repo, "commit", "-q", "-m", "proposal")
    (repo / "notes.txt").write_text("staged, not memkit's\n")
    git(repo, "add", "notes.txt")
    out = run("approve", rev.id, "--commit").stdout
    assert out.splitlines()[-1].endswith(" memkit: approve money-revision: Money is cents")
    changed = git(repo, "show", "--name-status", "--format=%s", "HEAD")
    assert changed == (
        "memkit: approve money-revision: Money is cents\n\n"  # with the compiled files
        "A\t.github/instructions/memkit.instructions.md\nD\t.memory/money-revision.md\n"
        "M\t.memory/money.md\nA\tAGENTS.md\nA\tCLAUDE.md\n"
    )
    assert git(repo, "diff", "--cached", "--name-only") == "notes.txt\n"
    draft = money.add(mm.new("Use UTC", "Always.", mid="use-utc", today=DAY, status="draft"))
    git(repo, "add", draft.path)
    git(repo, "commit", "-q", "-m", "draft")
    run("approve", "--reject", "use-utc", "--commit")
    assert git(repo, "show", "--name-status", "--format=%s", "HEAD") == (
        "memkit: reject use-utc\n\nD\t.memory/use-utc.md\n"
    )


def test_reject_drops_only_drafts_and_revisions(run: Invoke, money: Store) -> None:
    rev = revise(money, "money", title="Money is cents")
    assert run("approve", "--reject", rev.id).stdout == "removed .memory/money-revision.md\n"
    err = run("approve", "--reject", "money", code=2).stderr
    assert err == (
        "memkit: .memory/money.md is active, not a draft or a proposed revision: reject drops "
        "only those (`memkit rm money` deletes a reviewed memory)\n"
    )
    err = run("approve", "money", code=2).stderr
    assert err == (
        "memkit: .memory/money.md is active, not a draft or a proposed revision: there is "
        "nothing to approve (`memkit approve` lists what is pending)\n"
    )
    assert run("approve").stdout == "nothing awaits review\n"
    assert run("approve", "--reject", code=2).stderr == (
        "memkit: name what to reject: memkit approve --reject ID\n"
    )
    assert (money.dir / "money.md").read_text() == ORIGINAL


def test_approve_refuses_an_invalid_proposal(run: Invoke, money: Store) -> None:
    write_memory(money, "orphan", "---\ntitle: Orphan\nstatus: draft\nrevises: gone\n---\nx\n")
    err = run("approve", "orphan", code=2).stderr
    assert err == (
        "memkit: cannot approve orphan: .memory/orphan.md:4: revises: no memory with id 'gone' "
        "in the store; fix it first\n"
    )
    assert (money.dir / "orphan.md").exists()


def test_validate_reports_bad_revisions(run: Invoke, money: Store) -> None:
    write_memory(money, "orphan", "---\ntitle: Orphan\nstatus: draft\nrevises: gone\n---\nx\n")
    write_memory(money, "live", "---\ntitle: Live\nrevises: money\n---\nx\n")
    write_memory(money, "odd", "---\ntitle: Odd\nstatus: draft\nrevises: [money]\n---\nx\n")
    out = run("validate", code=1).stdout
    assert out == (
        ".memory/live.md:1: status: a proposed revision (`revises`) is never active: set "
        "`status: draft`, and apply it with `memkit approve ID`\n"
        ".memory/odd.md:4: revises: must be the id of the memory this draft proposes to change\n"
        ".memory/orphan.md:4: revises: no memory with id 'gone' in the store\n"
    )


def test_revises_round_trips(money: Store) -> None:
    text = "---\ntitle: Cents\nstatus: draft\nrevises: money  # the original\n---\n\nCents.\n"
    path = write_memory(money, "cents", text)
    mem = money.get("cents")
    assert mem.revises == "money" and mem.to_record()["revises"] == "money"
    assert mm.dumps(mem) == text
    money.put(mem)
    assert path.read_text() == text
    cached = mm.Memory.from_record(mem.to_record(), head=mem.head, body=mem.body)
    assert cached == mem


def test_agent_text_is_scanned_without_the_pragma() -> None:
    key = "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "zq8Rk2Lm4tNvW"
    for pragma in ("memkit: allow-secret", "MEMKIT:allow-secret", "memkit : allow_secret"):
        text = f"title\n{key}  # {pragma}\n"
        if pragma == "memkit: allow-secret":
            check_secrets(text, "x.md", False)  # a person's pragma is honoured
        with pytest.raises(SecretError, match=r"^x\.md:2: refusing to write what looks like"):
            check_secrets(text, "x.md", True, agent=True)  # never an allowance for agents


def test_agent_status_other_than_draft_is_refused(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    proposals.require_draft_config(store)
    monkeypatch.setenv("MEMKIT_MEMORIES_AGENT_STATUS", "active")
    with pytest.raises(ConfigError, match=r"agent_status = 'active' is no longer supported"):
        proposals.require_draft_config(Store(store.root))


def test_revision_ids_fit() -> None:
    long = "a" * 60 + "-bcd"
    assert proposals.revision_id(long) == "a" * 52 + "-revision"
    assert mm.is_valid_id(proposals.revision_id("x-" + "y" * 62))
