"""memkit.errors.report: the one mapping of an exception to an exit code and a message."""

from __future__ import annotations

import pytest

from memkit import __version__
from memkit.errors import COULD_NOT_RUN, HOOK_CRASHED, ConfigError, report, verdict

BUG = (
    f"memkit {__version__} crashed: this is a bug in memkit, not in your input. "
    "Please report it with the traceback above."
)
HOOK_BUG = HOOK_CRASHED.format(hook="compile", kind="ValueError", exc="x")
NO_RUN = COULD_NOT_RUN.format(hook="pre-commit", exc="bad")
CASES: list[tuple[BaseException, str | None, bool, tuple[int, str, bool]]] = [
    (ConfigError("bad"), None, True, (2, "memkit: bad", False)),
    (ConfigError("bad"), "stale", True, (2, "memkit: bad", False)),
    (ValueError("x"), None, True, (3, BUG, True)),
    (ValueError("x"), "compile", True, (3, HOOK_BUG, False)),
    (OSError("bad"), "pre-commit", False, (3, NO_RUN, False)),
    (ConfigError("bad"), "pre-commit", False, (3, NO_RUN, False)),
    (KeyboardInterrupt(), "pre-commit", True, (130, "memkit: interrupted", False)),
    (BrokenPipeError(), None, True, (0, "", False)),
]


@pytest.mark.parametrize(("exc", "hook", "started", "expected"), CASES)
def test_verdict(
    exc: BaseException, hook: str | None, started: bool, expected: tuple[int, str, bool]
) -> None:
    assert verdict(exc, hook=hook, started=started) == expected


def test_memkit_debug_shows_a_hook_crash_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_DEBUG", "1")
    assert verdict(ValueError("x"), hook="compile") == (3, BUG, True)


def test_report_prints_one_escaped_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert report(ConfigError("bad \x1b[2J value")) == 2
    assert capsys.readouterr() == ("", "memkit: bad \\x1b[2J value\n")
    try:
        raise ValueError("boom")
    except ValueError as e:
        assert report(e) == 3
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n") and err.endswith(BUG + "\n")
