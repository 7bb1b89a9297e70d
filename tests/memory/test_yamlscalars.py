"""memkit's copy of PyYAML's plain-scalar resolver and constructors agrees with PyYAML.

The table is compared with the installed PyYAML's own, pattern for pattern; tags and
values are compared with PyYAML's resolver and memkit's Loader on a corpus of tricky
scalars and on fuzzed ones. A constructor may decline (raise) only where the full
loader is then asked; whatever it builds must be what the loader builds.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.memory.yaml import loader
from memkit.memory.yamlscalars import CONSTRUCTORS, STR, TABLE, tag
from tests.conftest import examples

CORPUS = [
    "", "~", "null", "Null", "NULL", "nULL", "yes", "Yes", "YES", "yEs", "no", "NO", "on",
    "Off", "true", "True", "FALSE", "y", "n", "0", "-0", "+0", "00", "007", "08", "0o7",
    "0b101", "-0b1_0", "0x1F", "0xg", "+0x_a", "1_000", "12", "-12", "+12", "1:30", "1:30:00",
    "190:20:30", "1:60", "1.5", "-1.5", "1.", ".5", "1e5", "1.0e+5", "1.0E-5", "1_0.2_5",
    "1:30.5", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "-.nan", ".", "..", "-", "+", "2026-01-31",
    "2026-02-30", "0000-01-01", "2026-1-5", "2026-01-31T10:20:30Z", "2026-01-31 10:20:30.5 +02:00",
    "2026-01-31t1:02:03", "2026-13-01", "9999-12-31", "20260131", "2026-01-31x", "<<", "=", "!",
    "&", "*", "abc", "a1", "Ñ", "ñ", "1a", "0x", "0b", "-.5", "+.5e-3", "1__0", "1:2:3.4.5",
    "12345678901234567890123", "9f87c70e9d34e0ac8b7b2eabfa9bc48aa5fff472",
    "4098765432109876543210987654321098765432", "sig:34392c47",
]  # fmt: skip


def pyyaml_tag(value: str) -> str:
    resolver: Any = yaml.resolver.Resolver()
    return str(resolver.resolve(yaml.ScalarNode, value, (True, False)))


def pyyaml_value(value: str) -> Any:
    """What memkit's Loader builds for `value` as a plain scalar; "<error>" if it refuses."""
    built = loader()("")
    try:
        return built.construct_object(yaml.ScalarNode(pyyaml_tag(value), value))
    except Exception:
        return "<error>"


def same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def agrees(value: str) -> bool:
    """tag() is PyYAML's; the constructor builds PyYAML's value or declines."""
    got = tag(value)
    assert got == pyyaml_tag(value), value
    if got == STR:
        return True
    construct = CONSTRUCTORS.get(got)
    if construct is None:
        return False  # merge and value: left to the full loader
    try:
        built = construct(value)
    except Exception:
        return False
    assert same(built, pyyaml_value(value)), value
    return True


def test_the_table_is_pyyamls() -> None:
    theirs = yaml.resolver.Resolver.yaml_implicit_resolvers
    ours: dict[str | None, list[tuple[str, str, int]]] = {}
    for name, pattern, flags, firsts in TABLE:
        for ch in firsts:
            ours.setdefault(ch, []).append((name, pattern, flags))
    assert sorted(ours, key=str) == sorted(theirs, key=str)
    for ch, entries in theirs.items():
        assert [(t, p.pattern, p.flags & ~32) for t, p in entries] == ours[ch], ch  # ~re.UNICODE


def test_corpus() -> None:
    built = [value for value in CORPUS if agrees(value)]
    # the common shapes are built here, not left to the loader
    for value in ("null", "yes", "0x1F", "1:30", "-1.5", ".nan", "2026-01-31", "2026-02-30"):
        assert value in built, value
    assert CONSTRUCTORS[tag("2026-02-30")]("2026-02-30") == "2026-02-30"
    assert CONSTRUCTORS[tag("2026-01-31")]("2026-01-31") == dt.date(2026, 1, 31)


SCALAR = st.text(alphabet="0123456789-+._:xbeEoOnNyYtTfF~ aZ", max_size=12)


@settings(max_examples=examples(600), deadline=None)
@given(SCALAR)
def test_fuzzed_scalars(value: str) -> None:
    value = value.strip(" ")
    agrees(value)


def test_reading_memkits_front_matter_imports_no_yaml_library() -> None:
    code = (
        "import sys\n"
        "from memkit.memory.parse import parse\n"
        "m = parse('---\\ntitle: A\\ntype: decision\\ncreated: 2026-01-02\\n"
        "tags:\\n- x\\n---\\nBody.\\n', mid='a', path='a.md')\n"
        "assert m.title == 'A'\n"
        "print('yaml' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("value", ["2026-01-31T10:20:30Z", "<<", "="])
def test_shapes_left_to_the_full_loader(value: str) -> None:
    assert not agrees(value)
