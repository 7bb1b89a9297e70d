from __future__ import annotations

from memkit.search import analyze


def test_analyzer_splits_identifiers_and_stems() -> None:
    assert analyze("AuthService.login authenticate_user max_retry HTTPServer") == [
        "auth", "servic", "login", "authent", "user", "max", "retri", "http", "server",
    ]  # fmt: skip
    assert analyze("How do we run the retries?") == ["run", "retri"]
