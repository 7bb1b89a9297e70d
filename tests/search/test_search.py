"""memkit.search.search, in memkit/search/__init__.py: which memories a search may return."""

from __future__ import annotations

import pytest

from memkit.search import search
from memkit.store import Store
from tests.search.helpers import TODAY, ids, mem


def test_states_filtered_unless_asked(store: Store) -> None:
    mem(store, "live", "Cache keys carry the tenant", "cache")
    mem(store, "draft", "Cache draft", "cache", status="draft")
    mem(store, "old", "Cache archive", "cache", status="archived")
    mem(store, "gone", "Cache expired", "cache", expires="2026-01-01")
    assert ids(store, "cache") == ["live"]
    assert sorted(ids(store, "cache", include_all=True)) == ["draft", "gone", "live", "old"]
    assert ids(store, "cache", status=["draft", "archived"]) == ["draft", "old"]
    assert ids(store, "cache", status=["expired"]) == ["gone"]
    assert ids(store, "cache status:draft") == ["draft"]
    states = {h.id: h.state for h in search(store, "cache", today=TODAY, include_all=True)}
    assert states == {"live": "active", "draft": "draft", "old": "archived", "gone": "expired"}
    assert ids(store, "cache", types=["gotcha"]) == []
    with pytest.raises(Exception, match="unknown status 'nope'"):
        ids(store, "cache", status=["nope"])


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("cafe", ["cafe"]),
        ("café", ["cafe"]),
        ("CAFÉ", ["cafe"]),
        ("resume", ["resume"]),
        ("résumé", ["resume"]),
        ("日本語", ["ja"]),
        ("メモ", ["ja"]),
        ("東京", ["ja"]),
        ("語", ["ja"]),  # one character: it starts a pair or ends a run
        ('"日本語のメモ"', ["ja"]),
        ("title:日本語", ["ja"]),
        ("数据库", ["zh"]),
        ("连接池", ["zh"]),
        ("说明", ["zh"]),
        ("ภาษา", ["th"]),
        ("京都", []),  # both characters, never side by side
        ("库连池", []),  # every pair must be there, in order
    ],
)
def test_accents_fold_and_unspaced_scripts_are_found(
    store: Store, query: str, found: list[str]
) -> None:
    mem(store, "cafe", "Le café du coin", "On boit un CAFÉ.")
    mem(store, "resume", "Resume parsing", "The resume parser.")
    mem(store, "ja", "日本語のメモ", "これは東京の設定です。京は都ではない。")
    mem(store, "zh", "中文笔记", "数据库连接池的配置说明。")
    mem(store, "th", "ภาษาไทย", "บันทึกภาษาไทย")
    assert ids(store, query) == found


def test_a_run_excluded_or_in_a_phrase_is_matched_whole(store: Store) -> None:
    mem(store, "ja", "日本語のメモ", "設定")
    mem(store, "zh", "日本的笔记", "设置")
    assert sorted(ids(store, "日本")) == ["ja", "zh"]
    assert ids(store, "日本 -日本語") == ["zh"]
    assert ids(store, '"日本的"') == ["zh"]
    assert ids(store, '"笔记 设置"') == []  # a phrase does not cross the title into the body
