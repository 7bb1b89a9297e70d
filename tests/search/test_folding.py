"""Text that is not ASCII: folded, cut into words and unspaced runs, offsets mapped back."""

from __future__ import annotations

from memkit.search.folding import end_in, fold, folded_offsets, parts


def test_fold_drops_accents_and_compatibility_forms() -> None:
    assert fold("Café ﬁle") == "Cafe file"
    assert fold("plain") == "plain"


def test_parts_cut_unspaced_runs_out_of_words() -> None:
    folded = fold("UTC时间 naïve")
    assert list(parts(folded)) == [(False, "UTC", 0), (True, "时间", 3), (False, "naive", 6)]


def test_folded_offsets_map_back_past_the_marks() -> None:
    text = "cafe\u0301 bar"  # an e with a combining accent
    folded, at = folded_offsets(text)
    assert folded == "cafe bar"
    assert at[folded.index("bar")] == text.index("bar")
    assert end_in(text, at, 4) == 5  # the accent belongs to the word
