"""The GitHub Actions workflow in docs/: the same in both places, pinned, least privilege,
and installing memkit under its distribution name."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

DOCS = Path(__file__).resolve().parent.parent / "docs"
WORKFLOW = (DOCS / "memkit-review.yml").read_text("utf-8")


def test_the_page_shows_the_file() -> None:
    page = (DOCS / "github-actions.md").read_text("utf-8")
    assert f"```yaml\n{WORKFLOW}```\n" in page


def test_actions_pinned_by_commit_and_permissions_least() -> None:
    flow = yaml.safe_load(WORKFLOW)
    assert flow["permissions"] == {}
    jobs = flow["jobs"]
    assert jobs["gate"]["permissions"] == {"contents": "read"}
    assert jobs["comment"]["permissions"] == {"pull-requests": "write"}
    assert "pull_request_target" not in flow[True]  # `on:` parses as True
    uses = [s["uses"] for job in jobs.values() for s in job["steps"] if "uses" in s]
    assert uses and all(re.fullmatch(r"actions/[\w-]+@[0-9a-f]{40}", u) for u in uses)
    assert all(job["runs-on"] != "ubuntu-latest" for job in jobs.values())
    gate = [s.get("run", "") for s in jobs["gate"]["steps"]]
    assert 'memkit ci --base "origin/$BASE_REF"' in gate
    # no release is on the package index and no tag in the repository: a commit, by SHA
    assert re.fullmatch(r"agent-memkit @ git\+https://\S+@[0-9a-f]{40}", flow["env"]["MEMKIT"])
