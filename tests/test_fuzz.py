"""Brief hypothesis fuzzing: parse -> dumps -> parse, and the compiler over random stores.

benchmarks/fuzz.py runs the same properties for much longer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from pathlib import Path

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from memkit import memory as mm
from memkit.errors import MemkitError

TODAY = dt.date(2026, 3, 1)
FUZZ = settings(
    max_examples=int(os.environ.get("MEMKIT_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Text that exercises the parser's edges: delimiters, YAML syntax, markers, fences, CR.
PIECES = st.sampled_from([
    "---", "...", "\n", "\r\n", "\r", "\ufeff", ": ", "- ", "&a", "*a", "!!str", "#", "'", '"',
    "{", "}", "[", "]", "title", "tags", "created", "2026-01-31", "2026-13-45", "\t", " ",
    "<!-- memkit:end -->", "```", "~~~", "===", "\x00", "\x85", "\u2028", "é", "🙂",
])  # fmt: skip
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=40).map("".join)
LINE = st.text(
    st.characters(blacklist_categories=["Cs", "Cc", "Zl", "Zp"], blacklist_characters="\x85"),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip())
WORD = st.from_regex(r"[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,5}){0,2}", fullmatch=True)
GLOB = st.from_regex(r"(src|lib|docs)/[a-z*]{1,6}(/\*\*)?(\.py)?", fullmatch=True)
BODY = st.one_of(TEXT, st.text(max_size=300))
DATE = st.dates(dt.date(2000, 1, 1), dt.date(2100, 1, 1))


def _check_parse(raw: str | bytes) -> None:
    mem, problems = mm.parse_all(raw, mid="fuzz", path=".memory/fuzz.md")
    assert (mem is None) == bool(problems)
    for p in problems:
        assert "\n" not in str(p)  # every problem is one line
    if mem is None:
        return
    text = mm.dumps(mem)  # unchanged: every byte kept
    assert text == (raw if isinstance(raw, str) else raw.decode("utf-8"))
    again = mm.parse(text, mid="fuzz", path=".memory/fuzz.md")
    assert again == mem


@FUZZ
@given(TEXT)
def test_parse_never_crashes_and_round_trips(text: str) -> None:
    _check_parse(text)


@FUZZ
@given(st.binary(max_size=200))
def test_parse_bytes_never_crashes(raw: bytes) -> None:
    _check_parse(b"---\ntitle: x\n" + raw)


@FUZZ
@given(TEXT, TEXT)
def test_front_matter_with_fuzzed_values(key_text: str, value: str) -> None:
    _check_parse(f"---\ntitle: T\n{key_text}: {value}\n---\n{value}\n")


@st.composite
def memories(draw: st.DrawFn) -> mm.Memory:
    fields = {
        "type": draw(st.sampled_from(mm.TYPES)),
        "status": draw(st.sampled_from(mm.STATUSES)),
        "tags": draw(st.lists(WORD, max_size=3, unique=True)),
        "paths": draw(st.lists(GLOB, max_size=2, unique=True)),
        "source": draw(st.none() | LINE),
        "confidence": draw(st.none() | st.sampled_from(mm.CONFIDENCES)),
        "review_after": draw(st.none() | DATE),
        "priority": draw(st.none() | st.integers(-5, 5)),
        "pin": draw(st.none() | st.just(True)),
    }
    try:
        return mm.new(draw(LINE), draw(BODY), mid=draw(WORD), today=TODAY, **fields)
    except MemkitError:  # e.g. a NUL byte in the body: refused, as `memkit add` does
        reject()


@FUZZ
@given(memories(), memories(), st.booleans())
def test_new_dumps_parse_and_change(mem: mm.Memory, other: mm.Memory, crlf: bool) -> None:
    text = mm.dumps(mem)
    if crlf:
        text = text.replace("\n", "\r\n")
    parsed = mm.parse(text, mid=mem.id, path="")
    assert parsed.fields() == mem.fields()
    assert mm.dumps(parsed) == text
    changed = dataclasses.replace(parsed, **{k: getattr(other, k) for k in ("tags", "type",
                                  "status", "source", "title")})  # fmt: skip
    out = mm.dumps(changed)
    assert mm.parse(out, mid=mem.id, path="").fields() == changed.fields()
    head = mm.split(out, "")[0]
    assert ("\r\n" in head) == crlf  # the file's line endings are kept


@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 5))  # each example writes a store
@given(st.lists(memories(), min_size=1, max_size=6))
def test_compiler_over_random_stores(tmp_path_factory: object, mems: list[mm.Memory]) -> None:
    from memkit.compile import plan as compiler
    from memkit.store import Store, init

    root: Path = tmp_path_factory.mktemp("fuzz")  # type: ignore[attr-defined]
    init(root)
    store = Store(root)
    for mem in mems:
        try:
            store.add(mem, allow_secret=True)
        except MemkitError:
            continue
    plan = compiler.build(store, today=TODAY)
    compiler.apply(plan)
    for f in plan.files:
        if f.new is None:
            continue
        text = f.new.decode("utf-8")
        assert text.count("<!-- memkit:begin -->") == text.count("<!-- memkit:end -->") <= 1
        if text.startswith("---\n"):
            import yaml

            assert isinstance(yaml.safe_load(text.split("---\n")[1]), dict)
    again = compiler.build(store, today=TODAY)
    assert again.changes == ()  # compiling twice is a no-op: deterministic
