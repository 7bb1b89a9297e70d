"""The comment job of docs/memkit-review.yml updates only the comment it posted itself."""

from __future__ import annotations

from pathlib import Path

import yaml

WORKFLOW = Path(__file__).resolve().parent.parent / "docs" / "memkit-review.yml"


def _script() -> str:
    flow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    [step] = [s for s in flow["jobs"]["comment"]["steps"] if "github-script" in s.get("uses", "")]
    return str(step["with"]["script"])


def test_only_the_bots_own_comment_is_updated() -> None:
    """A comment by anyone that starts with the marker must not be taken over (and the
    bot's update would not be allowed on it anyway): match the author too."""
    script = " ".join(_script().split())
    find = script[script.index("comments.find(") :]
    find = find[: find.index(");") + 2]
    assert 'c.user.login === "github-actions[bot]"' in find
    assert "c.body.startsWith(marker)" in find
