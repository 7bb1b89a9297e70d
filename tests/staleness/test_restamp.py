"""restamped() must write exactly what dumps() writes for the same change."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from memkit import memory as mm
from memkit.memory import Verification
from memkit.staleness.restamp import restamped

OLD = (
    "verified:\n  commit: 0a1b2c3d4e5f\n  date: 2025-01-01\n  links:\n"
    "    a.py::f: sig:00000000 body:00000000 doc:00000000\n"
)
HEADS = [
    "---\ntitle: T\nlinks:\n- a.py::f\n",
    "---\ntitle: T\nlinks:\n- a.py::f\n" + OLD,
    "---\ntitle: T\n" + OLD + "links: [a.py::f]  # mine\nowner: me\n",
    "---\n# a comment\ntitle: 'T'\nlinks:\n  - a.py::f\n" + OLD + "# trailing\n",
    "---\r\ntitle: T\r\nlinks:\r\n- a.py::f\r\n",
    "---\ntitle: verified thing\nlinks:\n- a.py::f\n",
]
PRINTS = [
    {"a.py::f": "sig:1a2b3c4d body:5e6f7a8b doc:9c0d1e2f"},
    {"a.py::f": "sig:1a2b3c4d body:5e6f7a8b doc:9c0d1e2f", "docs/x.md": "file:0123456789ab"},
    {"a.py::f": "file:0123456789ab", "dep:celery": "dep:5", "cmd:make lint": "cmd:0a1b2c3d4e5f"},
    {"a.py::f": "env .env.example src/a.py"},
    {"a.py::f": "odd: value"},
    {"#weird key": "file:1", "a.py::f": "file:2"},
    {"x" * 130: "file:1"},
    {"null": "file:1", "a.py::f": "true"},
]
COMMITS = [
    "cf481aea53b80f9a3bce53cedd28ad75ed6ec6b8",
    None,
    "1234567890123456789012345678901234567890",
]


def _mem(head: str) -> mm.Memory:
    text = head + ("---\r\n" if "\r" in head else "---\n") + "body\n"
    return mm.parse(text, mid="m", path=".memory/m.md")


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("prints", PRINTS)
@pytest.mark.parametrize("commit", COMMITS)
def test_same_text_as_dumps(head: str, prints: dict[str, str], commit: str | None) -> None:
    mem = _mem(head)
    verified = Verification(commit, dt.date(2026, 1, 2), prints)
    fast = restamped(mem, verified)
    slow = dataclasses.replace(mem, verified=verified)
    assert fast == dataclasses.replace(slow, head=fast.head)  # every other field as it was
    text = mm.dumps(fast)
    assert text == mm.dumps(slow)
    assert mm.parse(text, mid="m", path=".memory/m.md").verified == verified


def test_the_usual_memory_gets_its_head_rewritten() -> None:
    mem = _mem(HEADS[1])
    verified = Verification(COMMITS[0], dt.date(2026, 1, 2), PRINTS[1])
    fast = restamped(mem, verified)
    assert fast.head != mem.head and "docs/x.md: file:0123456789ab" in fast.head
    assert mm.dumps(fast) == fast.head + fast.body  # dumps() has nothing left to patch


@pytest.mark.parametrize(
    "head",
    [
        "---\n{title: T, links: [a.py::f]}\n",
        "---\r\ntitle: T\r\nlinks:\r\n- a.py::f\r\n",
    ],
)
def test_unusual_heads_are_left_to_dumps(head: str) -> None:
    mem = _mem(head)
    verified = Verification(COMMITS[0], dt.date(2026, 1, 2), PRINTS[0])
    assert restamped(mem, verified).head == mem.head
