"""Work shared with forked workers: results in order, failures cost only time, and
workers only where fork is safe."""

from __future__ import annotations

import os
import threading

import pytest

from memkit import workers


def test_results_come_back_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMKIT_JOBS", "3")
    pids: list[int] = []

    def work(share: list[int]) -> dict[str, object]:
        pids.append(os.getpid())  # seen here only for this process's own share
        return {"pid": os.getpid(), "squares": [x * x for x in share]}

    shares = workers.split(list(range(10)), 3, lambda x: 1)
    results = workers.run(work, shares)
    assert [r["squares"] for r in results] == [[x * x for x in s] for s in shares]  # type: ignore[index]
    assert pids == [os.getpid()]
    others = {r["pid"] for r in results[1:]}  # type: ignore[index]
    assert len(others) == 2 and os.getpid() not in others


def test_a_failing_worker_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()

    def work(share: list[int]) -> object:
        if os.getpid() != parent and share[0] == 1:
            raise RuntimeError("this worker fails")
        if os.getpid() != parent and share[0] == 2:
            return {1, 2}  # not JSON: that worker's result is lost too
        return share

    assert workers.run(work, [[0], [1], [2], [3]]) == [[0], None, None, [3]]


def test_an_error_here_stops_the_workers() -> None:
    parent = os.getpid()

    def work(share: list[int]) -> object:
        if os.getpid() == parent:
            raise KeyError("here")
        import time

        time.sleep(30)
        return share

    with pytest.raises(KeyError):
        workers.run(work, [[0], [1]])
    with pytest.raises(ChildProcessError):  # reaped: no worker is left behind
        os.waitpid(-1, os.WNOHANG)


def test_how_many_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "_cpus", lambda: 4)
    assert workers.jobs(1000, 10) == 4
    assert workers.jobs(20, 10) == 2  # not more than the work pays for
    assert workers.jobs(19, 10) == 1
    monkeypatch.setattr(workers, "_cpus", lambda: 64)
    assert workers.jobs(1000, 10) == workers.MAX_JOBS
    for value, count in (("1", 1), ("0", 1), ("two", 1), ("3", 3), (" ", workers.MAX_JOBS)):
        monkeypatch.setenv("MEMKIT_JOBS", value)
        assert workers.jobs(1000, 10) == count, value
    monkeypatch.setenv("MEMKIT_JOBS", "3")
    done = threading.Event()
    other = threading.Thread(target=done.wait)
    other.start()
    try:  # another thread may hold a lock a forked worker would wait on forever
        assert workers.jobs(1000, 10) == 1
    finally:
        done.set()
        other.join()
    monkeypatch.setattr(workers.sys, "platform", "darwin")
    assert workers.jobs(1000, 10) == 1


def test_split_shares_by_weight() -> None:
    items = [9, 1, 5, 4, 3]
    shares = workers.split(items, 2, lambda x: x)
    assert shares == [[9, 3], [5, 4, 1]]  # heaviest first, each to the lightest share
    assert workers.split(items[:1], 3, lambda x: x) == [[9]]  # no empty share


def test_a_worker_that_cannot_start_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError(11, "Resource temporarily unavailable")  # a process limit, say

    monkeypatch.setattr(workers.os, "fork", no_fork)
    assert workers.run(lambda share: share, [[0], [1], [2]]) == [[0], None, None]
    if os.path.isdir("/proc/self/fd"):  # no pipe is left open
        before = len(os.listdir("/proc/self/fd"))
        workers.run(lambda share: share, [[0], [1]])
        assert len(os.listdir("/proc/self/fd")) == before
