from __future__ import annotations

from memkit.search import analyze


def test_analyzer_splits_identifiers_and_stems() -> None:
    assert analyze("AuthService.login authenticate_user max_retry HTTPServer") == [
        "auth",
        "servic",
        "login",
        "authent",
        "user",
        "max",
        "retri",
        "http",
        "server",
    ]
    assert analyze("How do we run the retries?") == ["run", "retri"]


def test_accents_and_compatibility_forms_fold_away() -> None:
    assert analyze("café CAFÉ Cafe\u0301 naïveCafé") == ["cafe", "cafe", "cafe", "naiv", "cafe"]
    assert analyze("Straße ﬁle ＡＰＩ") == analyze("strasse file API")
    # a script's own marks change the letter: kana voicing stays (が is not か)
    assert analyze("がっこう") != analyze("かっこう")
    assert analyze("ｶﾞｯｺｳ") == analyze("ガッコウ")


def test_unspaced_scripts_index_overlapping_pairs() -> None:
    assert analyze("日本語のメモ") == ["日本", "本語", "語の", "のメ", "メモ", "モ"]
    assert analyze("数据库") == ["数据", "据库", "库"]
    assert analyze("語") == ["語"]
    assert analyze("使用UTC时间") == ["使用", "用", "utc", "时间", "间"]


def test_words_next_to_unspaced_text_are_split_as_alone() -> None:
    assert analyze("使用UTC时间 HTTPServer") == [
        "使用",
        "用",
        "utc",
        "时间",
        "间",
        "http",
        "server",
    ]
    assert analyze("Tokyo東京") == ["tokyo", "東京", "京"]
    assert analyze("น้ำตก x")[-1] == "x"  # Thai vowel and tone marks stay in their run
    assert "น" not in analyze("น้ำตก")
