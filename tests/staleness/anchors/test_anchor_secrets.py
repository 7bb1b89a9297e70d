"""A link to a credential records no digest of it: a short guess list reverses a digest
of a weak password, and no salt both hides it and agrees between clones. Linking one
is refused with one line; a key beside it, or a reference to a variable, links as usual."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from memkit.staleness import fingerprint
from memkit.staleness.parsed import LinkError
from memkit.store import Store
from tests.conftest import Invoke
from tests.staleness.test_staleness_languages import TODAY, commit_all, write

SETTINGS = """\
[database]
host = "db.internal"
password = "hunter2"
password_env = "${DB_PASSWORD}"
pool = 5

[billing]
stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
"""
MAKEFILE = (
    "deploy:\n\tcurl -u admin:Zx9pQ2vLk7mW https://deploy.example.com/hook\n\nlint:\n\truff .\n"
)
GUESSES = ["password", "123456", "letmein", "hunter2", "qwerty", "admin", "secret"]


@pytest.fixture
def project(repo: Path) -> Path:
    write(repo, "settings.toml", SETTINGS)
    write(repo, "Makefile", MAKEFILE)
    commit_all(repo, "project")
    return repo


@pytest.mark.parametrize(
    "link",
    ["settings.toml::database.password", "settings.toml::billing.stripe", "cmd:make deploy"],
)
def test_a_credential_is_not_fingerprinted(project: Path, link: str) -> None:
    with pytest.raises(LinkError) as err:
        fingerprint(project, [link], today=TODAY)
    message = str(err.value)
    assert message.startswith(f"link {link!r}: ") and "\n" not in message
    assert "hunter2" not in message and "sk_live" not in message


def test_no_recorded_print_gives_a_password_back_to_a_guess_list(project: Path) -> None:
    try:
        found = fingerprint(project, ["settings.toml::database.password"], today=TODAY)
        prints = set(dict(found.fingerprints).values())
    except LinkError:
        prints = set()
    guessed = {
        f"value:{hashlib.blake2b(json.dumps(g).encode(), digest_size=6).hexdigest()}"
        for g in GUESSES
    }
    assert not guessed & prints


@pytest.mark.parametrize(
    "link",
    ["settings.toml::database.host", "settings.toml::database.password_env", "cmd:make lint"],
)
def test_keys_that_hold_no_secret_link_as_usual(project: Path, link: str) -> None:
    prints = dict(fingerprint(project, [link], today=TODAY).fingerprints)
    assert prints[link]


def test_the_command_line_says_it_in_one_line(project: Path, store: Store, run: Invoke) -> None:
    result = run("add", "DB", "--link", "settings.toml::database.password", "-b", "x", code=2)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert "settings.toml::database.password" in result.stderr
    assert not list(store.dir.glob("*.md"))
