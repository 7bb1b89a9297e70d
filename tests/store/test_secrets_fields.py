"""Every field that reaches a memory file goes through one secret gate, values without
their label included; vendors' documented example values are not secrets."""

from __future__ import annotations

import pytest

from memkit.agents.claude.drafts import Summary, render
from memkit.secrets import redact, scan
from memkit.store import Store
from tests.conftest import Invoke

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Rk2Lm4tNvW"  # a shape, not AWS's example
PEM_BODY = "MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9OiZ1BjP5CEWmRr500P"


@pytest.mark.parametrize(
    "args",
    [
        ["Keys", "-b", "x", "--tag", AWS_SECRET],
        [PEM_BODY, "-b", "x"],
        ["Keys", "-b", "x", "--source", AWS_SECRET],
    ],
)
def test_a_bare_token_is_refused_in_any_field(store: Store, run: Invoke, args: list[str]) -> None:
    result = run("add", *args, code=2)
    assert "refusing to write" in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert list(store.dir.glob("*.md")) == []


def test_a_description_is_scanned(store: Store, run: Invoke) -> None:
    (store.dir / "d.md").write_text(
        # YAML's escape hides the value from a scan of the file's text, not of the field.
        f'---\ntitle: D\ndescription: "aws_secret_access_key=\\x77{AWS_SECRET[1:]}"\n---\nx\n',
        encoding="utf-8",
    )
    result = run("validate", code=1)
    assert "d.md" in result.output


def test_words_and_paths_are_not_bare_tokens(store: Store, run: Invoke) -> None:
    run(
        "add",
        "Use useCallbackWithDependencies in DashboardWidgetContainer",
        "-b",
        "x",
        "--tag",
        "internationalization",
        "--path",
        "src/components/DashboardWidget/**",
    )


def test_documented_examples_are_not_secrets(store: Store, run: Invoke) -> None:
    text = (
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
    )
    assert scan(text) == []
    assert redact(text) == text
    run("add", "AWS example", "-b", text, "--tag", "AKIAIOSFODNN7EXAMPLE")
    assert scan("aws_access_key_id = AKIAIOSFODNN7EXAMPLF") != []  # one letter off: real


def test_a_session_title_never_carries_half_a_secret() -> None:
    prompt = "x" * 80 + " password: Xk9mQ2vL7pz9Rt4Wb8Yc and go on after that"
    title, _ = render(Summary((), ("a.py",), (), (), (), asked=prompt), "sid")
    assert "Xk9m" not in title and "[REDACTED" in title


@pytest.mark.parametrize(
    "value",
    [
        "tests/AGENTS.md#testing-part-6",
        "docs/architecture.md#the-layers",
        "src/http/client_retry.py",
    ],
)
def test_paths_and_anchors_are_not_bare_tokens(value: str) -> None:
    from memkit.secrets import bare_values

    assert bare_values(value) == []
