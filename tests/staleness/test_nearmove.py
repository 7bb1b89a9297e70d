"""Code that moved and changed a little on the way is `moved`, with where it went."""

from __future__ import annotations

from pathlib import Path

from memkit.staleness import check_store
from memkit.staleness.nearmove import Candidate, best, similarity
from memkit.store import Store
from tests.conftest import Invoke, git
from tests.staleness.test_staleness_languages import TODAY, commit_all, remember, write

SESSION = '''class Session:
    """A connection pool with retries."""

    def __init__(self, pool_size=10, retries=3):
        self.pool_size = pool_size
        self.retries = retries
        self.adapters = {}

    def send(self, request, timeout=None):
        adapter = self.get_adapter(request.url)
        for attempt in range(self.retries):
            response = adapter.send(request, timeout=timeout)
            if response.ok:
                return response
        raise ConnectionError(request.url)

    def get_adapter(self, url):
        for prefix, adapter in self.adapters.items():
            if url.startswith(prefix):
                return adapter
        raise KeyError(url)
'''

BIG = "import os\n\n\ndef helper():\n    return os.sep\n\n\n" + SESSION


def links(store: Store) -> list[tuple[str, str | None, tuple[str, ...], str | None]]:
    [status] = check_store(store, today=TODAY)
    return [(x.state, x.moved_to, x.candidates, x.change) for x in status.links]


def test_class_split_out_with_small_edits_is_moved(repo: Path, store: Store) -> None:
    write(repo, "big.py", BIG)
    commit_all(repo, "code")
    remember(repo, store, ["big.py::Session.send", "big.py::Session"])
    write(repo, "big.py", "import os\n\n\ndef helper():\n    return os.sep\n")
    edited = SESSION.replace("raise ConnectionError(request.url)", "raise IOError(request.url)")
    write(repo, "sessions.py", "import io\n\n\n" + edited.replace("Session", "HTTPSession"))
    commit_all(repo, "split")
    assert links(store) == [
        ("moved", "sessions.py::HTTPSession.send", (), "body"),
        ("moved", "sessions.py::HTTPSession", (), "body"),
    ]


def test_equally_good_targets_are_reported_not_guessed(repo: Path, store: Store) -> None:
    write(repo, "big.py", BIG)
    commit_all(repo, "code")
    remember(repo, store, ["big.py::Session.send"])
    write(repo, "big.py", "import os\n")
    edited = SESSION.replace("raise ConnectionError", "raise OSError")
    write(repo, "a.py", edited.replace("class Session", "class Alpha"))
    write(repo, "b.py", edited.replace("class Session", "class Beta"))
    commit_all(repo, "copies")
    assert links(store) == [("moved", None, ("a.py::Alpha.send", "b.py::Beta.send"), None)]


def test_unlike_code_is_removed(repo: Path, store: Store) -> None:
    write(repo, "big.py", BIG)
    commit_all(repo, "code")
    remember(repo, store, ["big.py::Session.send"])
    write(repo, "big.py", "import os\n")
    write(repo, "other.py", "def send(request):\n    return request.retry(3, backoff=2)\n")
    commit_all(repo, "rewrite")
    assert links(store) == [("removed", None, (), None)]


def test_follow_rewrites_a_near_move(run: Invoke, repo: Path, store: Store) -> None:
    write(repo, "big.py", BIG)
    commit_all(repo, "code")
    remember(repo, store, ["big.py::Session.get_adapter"])
    write(repo, "big.py", "import os\n")
    write(repo, "net.py", SESSION.replace("raise KeyError(url)", "raise LookupError(url)"))
    commit_all(repo, "move")
    out = run("check", code=1).stdout
    assert "big.py::Session.get_adapter: moved to net.py::Session.get_adapter (body changed)" in out
    head = git(repo, "rev-parse", "HEAD").strip()
    assert run("verify", "--all", "--follow").stdout == f"verified m at {head[:12]}\n"
    assert store.get("m").links == ("net.py::Session.get_adapter",)


def test_similarity_and_ties() -> None:
    a = tuple("abcdefghij" * 3)
    assert similarity(a, a) == 1.0
    assert similarity(a, a[:-3]) < 0.95
    assert similarity(a, ()) == 0.0
    one, none = best([Candidate("x.py", "f", 0.95), Candidate("y.py", "g", 0.92)], "f")
    assert one == Candidate("x.py", "f", 0.95) and none == ()
    tie = [Candidate("x.py", "f", 0.95), Candidate("y.py", "g", 0.95)]
    assert best(tie, "f") == (tie[0], ())  # only one keeps the name
    assert best(tie, "h") == (None, ("x.py::f", "y.py::g"))


def test_similarity_with_kept_bags_is_the_same() -> None:
    from collections import Counter

    base = [f"t{i % 7}" for i in range(40)]
    for other in (base, [*base[:-3], "x", "y", "z"], base[::-1], base[:10], []):
        bags = (Counter(base), Counter(other))
        assert similarity(base, other, bags) == similarity(base, other)
