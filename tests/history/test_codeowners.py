"""CODEOWNERS routes the review of memory changes to the owners of the code they are about."""

from __future__ import annotations

from pathlib import Path

from memkit.history import codeowners
from tests.conftest import Invoke, git

RULES = """\
# comments and blank lines are skipped

*                @org/everyone
/services/api/   @org/api-team   # the API
*.md             @org/docs
docs/*           @org/writers
.memory/         @org/memory-stewards
"""


def test_last_matching_rule_wins() -> None:
    rules = codeowners.parse(RULES)
    assert rules.owners("services/api/handlers.py") == ("@org/api-team",)
    assert rules.owners("services/api/README.md") == ("@org/docs",)
    assert rules.owners("docs/guide.md") == ("@org/writers",)
    assert rules.owners("docs/deep/guide.txt") == ("@org/everyone",)  # docs/* is one level
    assert rules.owners("web/app.ts") == ("@org/everyone",)
    assert rules.owners("services/api") == ("@org/api-team",)


def test_a_memory_is_reviewed_by_the_owners_of_its_code() -> None:
    rules = codeowners.parse(RULES)
    got = rules.for_memory(".memory/x.md", ["services/api/auth.py::login"], ["web/**"])
    assert got == ("@org/api-team", "@org/everyone")
    assert rules.for_memory(".memory/x.md", [], []) == ("@org/memory-stewards",)
    assert codeowners.parse("").for_memory(".memory/x.md", ["a.py"], []) == ()


def test_diff_names_the_reviewers(repo: Path, run: Invoke) -> None:
    run("init")
    (repo / ".github").mkdir()
    (repo / ".github" / "CODEOWNERS").write_text(RULES, "utf-8")
    (repo / "services" / "api").mkdir(parents=True)
    (repo / "services" / "api" / "auth.py").write_text("def login():\n    pass\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    run("add", "Login throttles", "--link", "services/api/auth.py::login", "-b", "5 a minute.")
    text = run("diff", "HEAD").output
    assert "review: @org/api-team" in text
    md = run("diff", "HEAD", "--format", "markdown").output
    assert "- review: `@org/api-team`" in md  # a code span: no mention
    assert '"owners": [\n        "@org/api-team"' in run("diff", "HEAD", "--json").output
