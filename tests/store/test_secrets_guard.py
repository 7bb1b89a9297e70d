"""`--allow-secret` records the allowance in the file: later checks do not flag it again."""

from __future__ import annotations

from pathlib import Path

from memkit.store import Store
from tests.conftest import Invoke

FAKE = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_allowed_secret_stays_valid(run: Invoke, store: Store) -> None:
    body = f"An example token: {FAKE}\n\nNothing else here."
    err = run("add", "Token example", "-b", body, code=2).stderr
    assert "looks like a GitHub token" in err and "--allow-secret" in err
    run("add", "Token example", "-b", body, "--allow-secret")
    text = (store.root / ".memory" / "token-example.md").read_text("utf-8")
    assert f"An example token: {FAKE} <!-- memkit: allow-secret -->\n\nNothing else here.\n" in text
    assert run("validate").stdout == "1 memories, all valid\n"


def test_a_secret_in_the_front_matter_cannot_be_allowed(run: Invoke, store: Store) -> None:
    err = run("add", f"Token {FAKE}", "-b", "x", "--allow-secret", code=2).stderr
    assert "in the front matter, which has no line to mark as allowed" in err
    assert not list(Path(store.root / ".memory").glob("token-*.md"))
