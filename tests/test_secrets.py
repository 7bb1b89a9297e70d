"""The secret detector: real-shaped secrets are found and refused on every way in; prose is not.

benchmarks/secrets_eval.py measures recall and the false-positive rate at scale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memkit.secrets import redact, scan
from memkit.store import Store
from tests.conftest import Invoke, write_memory
from tests.secret_corpus import BENIGN, secrets

SECRETS = secrets()
IDS = [kind for kind, _ in SECRETS]
AWS = dict(SECRETS)["AWS access key id"].split()[-1]
REFUSED = "refusing to write what looks like a"


@pytest.mark.parametrize(("kind", "text"), SECRETS, ids=IDS)
def test_every_format_is_found_and_redacted(kind: str, text: str) -> None:
    assert scan(text), f"{kind} not detected"
    redacted = redact(text)
    assert "[REDACTED]" in redacted
    assert scan(redacted) == []


@pytest.mark.parametrize("seed", range(20))
def test_recall_over_many_generated_tokens(seed: int) -> None:
    missed = [kind for kind, text in secrets(seed) if not scan(text)]
    assert len(missed) <= 1, missed


@pytest.mark.parametrize("text", BENIGN)
def test_ordinary_prose_and_code_are_not_flagged(text: str) -> None:
    assert scan(text) == []
    assert redact(text) == text


def test_memkit_own_sources_are_not_flagged() -> None:
    root = Path(__file__).resolve().parents[1]
    files = [*sorted((root / "memkit").rglob("*.py")), *sorted((root / "docs").rglob("*.md"))]
    flagged = [(f.name, x.line) for f in files for x in scan(f.read_text("utf-8"))]
    assert flagged == []


@pytest.mark.parametrize(("kind", "text"), SECRETS, ids=IDS)
def test_cli_add_refuses_each_format(store: Store, run: Invoke, kind: str, text: str) -> None:
    result = run("add", "Deploy notes", "--body", f"Context first.\n\n{text}\n", code=2)
    assert REFUSED in result.stderr
    assert "a store committed to git keeps it forever" in result.stderr
    assert store.files() == []


@pytest.mark.parametrize(
    "where",
    ["title", "body", "body-file", "stdin", "source", "tag", "path", "editor"],
)
def test_cli_add_refuses_on_every_field(
    store: Store, run: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    args = ["add", "Notes"]
    stdin = None
    if where == "title":
        args = ["add", f"Key {AWS}"]
    elif where == "body":
        args += ["--body", AWS]
    elif where == "body-file":
        (tmp_path / "body.md").write_text(AWS, encoding="utf-8")
        args += ["--body-file", str(tmp_path / "body.md")]
    elif where == "stdin":
        args += ["--body-file", "-"]
        stdin = f"line\n{AWS}\n"
    elif where == "source":
        args += ["--source", f"leaked {AWS}"]
    elif where == "tag":
        args += ["--tag", AWS]
    elif where == "path":
        args += ["--path", f"src/{AWS}/*.py"]
    else:
        editor = tmp_path / "editor.py"
        editor.write_text(
            f"import sys\nopen(sys.argv[1], 'a').write('{AWS[:4]}' + '{AWS[4:]}\\n')\n",
            encoding="utf-8",
        )
        monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
        args += ["--edit"]
    result = run(*args, code=2, input=stdin)
    assert REFUSED in result.stderr and "AWS access key id" in result.stderr
    assert store.files() == []


def test_allow_secret_and_pragma_let_a_fake_example_through(store: Store, run: Invoke) -> None:
    assert run("add", "Fake", "--body", AWS, "--allow-secret").stdout == "fake\n"
    body = f"Example key: {AWS}  <!-- memkit: allow-secret -->"
    assert run("add", "Documented", "--body", body).stdout == "documented\n"
    result = run("validate", code=1)
    assert result.stdout.startswith(".memory/fake.md:")
    assert "documented" not in result.stdout


def test_edit_refuses_a_secret_and_keeps_the_edit(
    store: Store, run: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_memory(store, "ops", "---\ntitle: Ops\n---\nRotate keys monthly.\n")
    editor = tmp_path / "editor.py"
    token = dict(SECRETS)["GitHub personal token"].split("=")[-1]
    editor.write_text(
        f"import sys\nopen(sys.argv[1], 'a').write('token {token[:3]}' + '{token[3:]}\\n')\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    result = run("edit", "ops", code=2)
    assert result.stderr.startswith(
        "memkit: .git/memkit/edit/ops.md:5: refusing to write what looks like a GitHub token"
    )
    assert "your edit is kept in .git/memkit/edit/ops.md" in result.stderr
    assert token not in (store.dir / "ops.md").read_text("utf-8")
    monkeypatch.setenv("EDITOR", "true")
    assert run("edit", "ops", "--allow-secret").stdout == (
        "saved .memory/ops.md (resumed your earlier edit)\n"
    )


def test_validate_reports_a_secret_committed_by_hand(store: Store, run: Invoke) -> None:
    key = dict(SECRETS)["OpenSSH private key"]
    write_memory(store, "leak", f"---\ntitle: Leak\n---\nServer access:\n\n{key}\n")
    assert run("validate", code=1).stdout == (
        ".memory/leak.md:6: secret: looks like a private key block; remove it (a store "
        "committed to git keeps it forever), or mark a fake example with "
        "`memkit: allow-secret` on that line\n"
    )


@pytest.mark.parametrize(("kind", "text"), SECRETS[::4], ids=IDS[::4])
def test_mcp_save_and_update_refuse_secrets(store: Store, kind: str, text: str) -> None:
    import datetime as dt

    from memkit.agents import mcp as mcp_server
    from memkit.errors import SecretError

    today = dt.date(2026, 3, 1)
    with pytest.raises(SecretError):
        mcp_server.save(store, title="From an agent", body=text, today=today)
    saved = mcp_server.save(store, title="Clean", body="nothing here", today=today)
    with pytest.raises(SecretError):
        mcp_server.update(store, saved.id, today=today, body=f"now {text}")
    assert store.get(saved.id).text == "nothing here"


def test_import_refuses_secrets(store: Store, run: Invoke) -> None:
    (store.root / "RULES.md").write_text(
        f"# Rules\n\n## Deploy\n\nUse the key {AWS} for staging.\n", encoding="utf-8"
    )
    result = run("import", "RULES.md", code=2)
    assert REFUSED in result.stderr
    assert store.files() == []


@pytest.mark.parametrize(("kind", "text"), SECRETS[::3], ids=IDS[::3])
def test_session_drafts_are_redacted(store: Store, kind: str, text: str) -> None:
    import datetime as dt

    from memkit.agents.drafts import Summary, episode

    summary = Summary(
        read=(), edited=(), commands=(f"deploy --token {text}", "make test", "make lint"),
        searches=(), symbols=(), asked=f"please use {text}",
    )  # fmt: skip
    mem = episode(summary, "sess-1234", root=store.root, status="draft",
                  today=dt.date(2026, 3, 1))  # fmt: skip
    assert scan(mem.title) == [] and scan(mem.body) == []
    store.add(mem)  # the redacted draft is accepted as it is
