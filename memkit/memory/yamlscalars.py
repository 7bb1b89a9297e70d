"""YAML 1.1 plain scalars as PyYAML reads them, without importing PyYAML.

The front-matter fast path (memkit.memory.frontfast) needs two things from the
loader: the tag PyYAML's resolver gives a plain scalar (`tag`), and the value its
safe constructor builds for that tag (`CONSTRUCTORS`). Importing PyYAML for them
costs more than reading a memory (its reader and resolver compile large regular
expressions at import), so both are here:

- `tag` is PyYAML's implicit resolver table (yaml/resolver.py, `Resolver`), copied
  pattern for pattern and in the same order; each pattern is compiled the first
  time a scalar with one of its first characters is met.
- the constructors copy SafeConstructor's for null, bool, int and float, and build
  timestamps of the one shape memkit writes (`2026-01-31`; with memkit's rule that
  a date that does not exist stays a string). Any other timestamp raises
  ValueError, which the fast path reads as "ask the full loader".

tests/memory/test_yamlscalars.py compares the table with the installed PyYAML's and
every constructor with PyYAML's on a corpus and on fuzzed scalars.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

STR = "tag:yaml.org,2002:str"
_Y = "tag:yaml.org,2002:"

# (tag, pattern, flags, first characters): yaml.resolver.Resolver's implicit resolvers
# in the order PyYAML adds them. The last one never matches a plain scalar (they cannot
# start with ! & *) and is kept only so the table is PyYAML's, whole.
TABLE: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    (
        _Y + "bool",
        r"""^(?:yes|Yes|YES|no|No|NO
                    |true|True|TRUE|false|False|FALSE
                    |on|On|ON|off|Off|OFF)$""",
        re.X,
        tuple("yYnNtTfFoO"),
    ),
    (
        _Y + "float",
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""",
        re.X,
        tuple("-+0123456789."),
    ),
    (
        _Y + "int",
        r"""^(?:[-+]?0b[0-1_]+
                    |[-+]?0[0-7_]+
                    |[-+]?(?:0|[1-9][0-9_]*)
                    |[-+]?0x[0-9a-fA-F_]+
                    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""",
        re.X,
        tuple("-+0123456789"),
    ),
    (_Y + "merge", r"^(?:<<)$", 0, ("<",)),
    (
        _Y + "null",
        r"""^(?: ~
                    |null|Null|NULL
                    | )$""",
        re.X,
        ("~", "n", "N", ""),
    ),
    (
        _Y + "timestamp",
        r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
                    |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
                     (?:[Tt]|[ \t]+)[0-9][0-9]?
                     :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
                     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
        re.X,
        tuple("0123456789"),
    ),
    (_Y + "value", r"^(?:=)$", 0, ("=",)),
    (_Y + "yaml", r"^(?:!|&|\*)$", 0, tuple("!&*")),
)

# first character -> the indexes into TABLE to try, in order
_BY_FIRST: dict[str, list[int]] = {}
for _i, (_tag, _pattern, _flags, _firsts) in enumerate(TABLE):
    for _ch in _firsts:
        _BY_FIRST.setdefault(_ch, []).append(_i)
_COMPILED: list[re.Pattern[str] | None] = [None] * len(TABLE)


def tag(value: str) -> str:
    """The tag PyYAML's resolver gives the plain scalar `value` (yaml.resolver.Resolver)."""
    tried = _BY_FIRST.get(value[0] if value else "")
    if tried is None:
        return STR
    for i in tried:
        pattern = _COMPILED[i]
        if pattern is None:
            pattern = _COMPILED[i] = re.compile(TABLE[i][1], TABLE[i][2])
        if pattern.match(value):
            return TABLE[i][0]
    return STR


_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def _int(value: str) -> int:
    value = value.replace("_", "")
    sign = -1 if value[0] == "-" else +1
    if value[0] in "+-":
        value = value[1:]
    if value == "0":
        return 0
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value[0] == "0":
        return sign * int(value, 8)
    if ":" in value:
        return sign * int(_base60([int(part) for part in value.split(":")], 0))
    return sign * int(value)


_INF = 1e300
while _INF != _INF * _INF:
    _INF *= _INF
_NAN = -_INF / _INF  # PyYAML's own NaN


def _float(value: str) -> float:
    value = value.replace("_", "").lower()
    sign = -1 if value[0] == "-" else +1
    if value[0] in "+-":
        value = value[1:]
    if value == ".inf":
        return sign * _INF
    if value == ".nan":
        return _NAN
    if ":" in value:
        return sign * _base60([float(part) for part in value.split(":")], 0.0)
    return sign * float(value)


def _base60(digits: list[int] | list[float], total: float) -> float:
    """`1:30:00` read as PyYAML does: base 60, summed from the last part onto `total`
    (0 for ints, which keeps the sum an int; 0.0 for floats)."""
    base = 1
    for digit in reversed(digits):
        total += digit * base
        base *= 60
    return total


_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")


def _timestamp(value: str) -> dt.date | str:
    """A date written YYYY-MM-DD; a date that does not exist stays a string (memkit's
    Loader does the same). Times and other layouts raise ValueError: the full loader
    reads them."""
    m = _DATE.match(value)
    if m is None:
        raise ValueError(f"{value!r}: left to the full loader")
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return value


# What the fast path may build: the tags PyYAML's resolver gives plain scalars (not `<<`, `=`).
CONSTRUCTORS: dict[str, Callable[[str], Any]] = {
    _Y + "null": lambda value: None,
    _Y + "bool": lambda value: _BOOLS[value.lower()],
    _Y + "int": _int,
    _Y + "float": _float,
    _Y + "timestamp": _timestamp,
}
