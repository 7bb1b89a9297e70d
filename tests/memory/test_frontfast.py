"""The front-matter fast path gives exactly what the full YAML loader gives, or steps aside.

Compared with memkit.memory.yaml.load_full (PyYAML with memkit's Loader), value for
value and type for type (True is not 1, a date is not a string), on every front
matter of this repository's .memory/, on stores the benchmarks generate, and on
tricky values and layouts; where the loader refuses a text, the fast path must be
UNSURE.
"""

from __future__ import annotations

import datetime as dt
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.memfile import split
from memkit.memory.frontfast import UNSURE, FrontParser
from memkit.memory.yaml import YAMLLoadError, _fast, load, load_full
from memkit.memory.yamlscalars import CONSTRUCTORS, tag
from tests.conftest import examples

ROOT = Path(__file__).resolve().parents[2]


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (and keys in the same order)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def full(text: str) -> Any:
    try:
        return load_full(text)
    except YAMLLoadError:
        return "<refused>"


def check(texts: list[str], parser: FrontParser | None = None) -> int:
    """Compare every text; the number the fast path read itself."""
    parser = parser or FrontParser(tag, CONSTRUCTORS)
    read = 0
    for text in texts:
        fast = parser.load(text)
        if fast is UNSURE:
            continue
        read += 1
        assert same(fast, full(text)), text
    return read


def fronts(texts: list[str]) -> list[str]:
    return [split(t, "x.md")[1] for t in texts]


def test_every_front_matter_of_this_repository() -> None:
    texts = fronts([p.read_text("utf-8") for p in sorted((ROOT / ".memory").rglob("*.md"))])
    assert len(texts) > 20
    assert check(texts) == len(texts)  # memkit's own writes never need the full loader


def _bench(name: str) -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_generated_store() -> None:
    gen = _bench("gen_store")
    gen.random.seed(3)
    sources = [gen._module(gen.AREAS[i % len(gen.AREAS)], i) for i in range(50)]
    sources = [(f"src/mod_{i}.py", symbols) for i, (_, symbols) in enumerate(sources)]
    texts = fronts([gen._memory(i, sources, dt.date(2026, 11, 1))[1] for i in range(2000)])
    assert check(texts) == len(texts)


def test_store_grown_from_this_repository_history() -> None:
    real = _bench("real_store")
    git_dir = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    found = real.commits(Path(git_dir), "HEAD") if git_dir else []
    if len(found) < 20:
        pytest.skip("no history to grow memories from (shallow clone)")
    present = set(
        subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    )
    texts = [
        real.memory_text(c, i, p, b, present) for i, (c, p, b) in enumerate(real.plan(found, 3000))
    ]
    assert check(fronts(texts)) == len(texts)


# Plain scalars PyYAML's resolver types, or trips on, and other tricky one-line values.
TRICKY = [
    "yes", "No", "ON", "off", "y", "n", "Y", "True", "FALSE", "~", "null", "Null", "NULL",
    "0", "-1", "+7", "012", "0o17", "0x1F", "0b101", "1_000", "1:30", "190:20:30", "08", "09",
    "1.5", ".5", "-.5e3", "1e3", "1.0e+3", "6.8523015e+5", ".inf", "-.Inf", ".NaN", "1__0",
    "2026-01-31", "2026-1-3", "2026-13-01", "2026-02-30", "0000-01-01", "2026-01-31T10:00:00Z",
    "2026-01-31 10:00:00 +02:00", "2026-01-31t10:00:00.5-05", "=", "<<", "-", "-a", "- a",
    "?a", "? a", ":a", ":", "a:b", "a: b", "a:", "a #b", "a#b", "a  b ", "'q'", "'it''s'",
    "'a", "\"dq\"", '"e\\x41\\u00e9\\/\\t\\N\\_ \\\\ \\" \\0"', '"\\q"', '"\\uD800"', '"\\x4"',
    '"a" b', "'a' #c", '"a"#c', "é", "a\u00a0", "\u00a0a", "a\u2003", "a\tb", "[a]", "{a: b}",
    "!!str 1", "!x y", "&a x", "*a", "|", ">", "%x", "@x", "`x`", ",a", "a,b", "a]b", "#x",
    "x\u2028y", "\ufeffx", "a\x07", "\x85", "\x7f", "\U0001f600", "\ufffe", "999" * 1500,
    "memkit/a.py::f", "sig:1 body:2", "src/**/*.py", "https://x.org/a?b=c#d", "---", "...",
]  # fmt: skip
KEYS = ["title", "type", "tags", "on", "yes", "1", "null", "-k", "a b", "'q k'", '"d k"',
        "k ", "?k", "k" * 1100, "<<", "=", "a::b", "é"]  # fmt: skip


def test_tricky_values_keys_and_layouts() -> None:
    texts = []
    for v in TRICKY:
        texts += [f"k: {v}\n", f"k: {v} # c\n", f"l:\n- {v}\n", f"l:\n  - {v}\n- x\n"]
        texts += [f"v:\n  links:\n    {v}: {v}\n", f"m:\n  a: {v}\n  b: 1\nz: 2\n"]
    for k in KEYS:
        texts += [f"{k}: 1\n", f"{k}:\n- a\n", f"x: 1\n{k}: 2\n"]
    texts += [
        "",
        "# only a comment\n",
        "\n\n",
        "a: 1\na: 2\n",
        "a: 1\n b\n",
        "a:\n  b\n",
        "a: x\n  # c\n",
        "a: x\n  # c\n  y\n",
        "l:\n- a\n  b\n",
        "l:\n- a\n -b\n",
        " a: 1\n",
        "a:\n  b: 1\n c: 2\n",
        "a:\n-\n",
        "a:\n- - b\n",
        "a:\n- b: c\n",
        "a: 'x\n  y'\n",
        'a: "x\n  y"\n',
        "a: |\n  x\n",
        "a:\n\n- x\n\n# c\n- y\n",
        "a:   b   \n",
        "a:\n  b:\n    c: 1\n",
        "a: 1\r\nb: 2\r\n",
        "- a\n",
        "a\n",
        "1: x\n",
        "a:\n    - x\n    - y\nb: z\n",
        "a:\n- x\nb:\n- y\n",
        "a: &x 1\nb: *x\n",
    ]
    assert check(texts) > len(texts) // 3


LAYOUTS = ["{k}: {v}\n", "{k}:\n- {v}\n", "{k}:\n  - {v}\n  - {v}\n", "{k}:\n  a: {v}\n  {v}: b\n"]
LAYOUTS += ["# {v}\n", "\n", "{k}: {v} #c\n", "  {v}\n", "- {v}\n", "{k}: '{v}'\n", '{k}: "{v}"\n']
LAYOUT = st.sampled_from(LAYOUTS)
PIECE = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.sampled_from("ab:#-'\" \\é\u00a0\t!&*[]{},?|>%@`=~.0119eE+_xT"), max_size=8),
)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.tuples(LAYOUT, st.sampled_from(KEYS), PIECE), max_size=6))
def test_fuzzed_front_matter(parts: list[tuple[str, str, str]]) -> None:
    text = "".join(layout.format(k=k, v=v) for layout, k, v in parts)
    check([text])


def test_cached_lines_give_the_same_values_to_every_memory() -> None:
    parser = FrontParser(tag, CONSTRUCTORS)
    rng = random.Random(5)
    texts = [
        "".join(
            rng.choice(
                [
                    "type: note\n",
                    "created: 2026-01-02\n",
                    "pin: yes\n",
                    "tags:\n- a\n- 'b'\n",
                    "priority: 0x10\n",
                    "x: ~\n",
                ]
            )
            for _ in range(3)
        )
        for _ in range(300)
    ]
    check(texts, parser)
    check(texts, parser)


@pytest.mark.parametrize("n", [2000, 4999, 5001])
def test_front_matter_past_the_loaders_node_limit_is_left_to_it(n: int) -> None:
    text = "".join(f"k{i}: v\n" for i in range(n))  # 2n + 1 nodes
    assert check([text]) == (1 if n == 2000 else 0)


def test_load_uses_the_fast_path_and_falls_back() -> None:
    assert load("title: x\ncreated: 2026-01-02\n") == {"title": "x", "created": dt.date(2026, 1, 2)}
    assert _fast().load("tags: [a, b]\n") is UNSURE
    assert load("tags: [a, b]\n") == {"tags": ["a", "b"]}
    with pytest.raises(YAMLLoadError, match="duplicate key"):
        load("a: 1\na: 2\n")
