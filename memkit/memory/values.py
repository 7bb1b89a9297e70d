"""Front-matter values: each one checked and converted by its field's kind in the registry.

`coerce(name, value)` turns what YAML gave into what `Memory` holds (a tuple for a
list, a date for a date, ...) or raises ValueError with a message for the user.
The checks of one string refuse control characters, paths that could leave the
repository, globs agents' rule files cannot carry, malformed links and ids.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from memkit.controls import refused
from memkit.fields import BY_NAME, NAMES, Field
from memkit.globs import check as check_glob_shape
from memkit.memory.ids import is_valid_id
from memkit.memory.links import check as check_link_shape
from memkit.memory.links import normalise
from memkit.memory.model import Verification

COMMIT_RE = re.compile(r"[0-9a-f]{4,64}")


_SEEN: dict[tuple[Any, ...], Any] = {}  # (name, value, its types) -> coerced, for lists and dates
_MAX_SEEN = 50_000


def coerce(name: str, value: Any) -> Any:
    """The value a `Memory` holds for front-matter field `name`; ValueError if it is wrong.

    Lists and dates are checked once per process for each distinct value (a store
    repeats its tags, paths and dates; True and 1 are told apart by their types);
    what they give is immutable.
    """
    f, check, memo = _PLAN[name]
    if not memo:
        return check(f, value)
    t = type(value)
    if t is list:
        try:
            key: tuple[Any, ...] = (name, tuple(value), tuple(map(type, value)))
            got = _SEEN.get(key)
        except TypeError:  # an unhashable item: checked (and refused) below
            return check(f, value)
    elif t is str or t is dt.date:
        key = (name, value, t)
        got = _SEEN.get(key)
    else:
        return check(f, value)
    if got is None:
        got = check(f, value)  # raises for a wrong value: never remembered
        if len(_SEEN) >= _MAX_SEEN:
            _SEEN.clear()
        _SEEN[key] = got
    return got


def coerce_all(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every managed field present in `data`, coerced; ValueError at the first wrong one."""
    return {name: coerce(name, data[name]) for name in NAMES if name in data}


def _list(f: Field, value: Any) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) and i for i in items):
        raise ValueError("must be a list of non-empty strings (one `- item` per line)")
    if f.item == "link":  # one form for every reader: `./src//x.py` is `src/x.py`
        return written_links(items)
    for item in items:
        _ITEM[f.item](item)
    return tuple(items)


def _text(f: Field, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be a string (got {type(value).__name__}); quote it")
    # A required one-line field (the title) gets its own message for line breaks: see parse.
    check_line(value.replace("\n", " ") if f.required else value)
    return value


def _choice(f: Field, value: Any) -> str:
    if value not in f.choices:
        raise ValueError(f"unknown value {value!r}; use one of: {', '.join(f.choices)}")
    return str(value)


def _int(f: Field, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be a whole number (got {value!r})")
    return value


def _bool(f: Field, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false (got {value!r})")
    return value


def _ref(f: Field, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be the id of {f.description}")
    check_ref(value)
    return value


def coerce_date(value: Any) -> dt.date:
    """A date from YAML's date or a `YYYY-MM-DD` string; a timestamp is refused."""
    if isinstance(value, dt.datetime):
        raise ValueError(f"must be a date like 2026-01-31, not a timestamp ({value})")
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return dt.date.fromisoformat(value.strip())
    raise ValueError(f"invalid date {value!r}; write it as YYYY-MM-DD")


def _verified(f: Field, value: Any) -> Verification:
    if not isinstance(value, dict):
        raise ValueError("must be a mapping with `commit`, `date` and `links`")
    commit = value.get("commit")
    if commit is not None and (not isinstance(commit, str) or not COMMIT_RE.fullmatch(commit)):
        raise ValueError(f"commit {commit!r} is not a git commit id")
    date = coerce_date(value["date"]) if value.get("date") is not None else None
    links = value.get("links") or {}
    if not isinstance(links, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in links.items()
    ):
        raise ValueError("`links` must map each link to its fingerprint string")
    if any(normalise(k) != k for k in links):
        links = {normalise(k): v for k, v in links.items()}
    return Verification(commit, date, links)


def check_line(value: str, what: str = "value") -> None:
    """Refuse control characters: escapes, cursor moves, hidden reordering (bidi), line breaks."""
    bad = refused(value)
    if bad is not None:
        raise ValueError(
            f"{what} {value!r} contains control characters (first {bad}); terminal escapes, "
            "line breaks and bidi overrides are not allowed here: remove them"
        )


def check_ref(mid: str) -> None:
    if not is_valid_id(mid):
        raise ValueError(f"{mid!r} is not a memory id")


def check_relpath(p: str, what: str) -> None:
    """Refuse a path that could leave the repository."""
    check_line(p, what)
    if p.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", p):
        raise ValueError(f"{what} {p!r} is absolute; write it relative to the repository root")
    if "\\" in p:
        raise ValueError(f"{what} {p!r} uses backslashes; use forward slashes")
    if ".." in p.split("/"):
        raise ValueError(f"{what} {p!r} escapes the repository ('..'); remove the '..'")


def check_glob(glob: str) -> None:
    check_relpath(glob, "path glob")
    check_glob_shape(glob)  # what agents' rule files can carry (memkit.globs)


def check_link(link: str) -> None:
    """Refuse a link that could leave the repository or can never resolve
    (memkit.memory.links.check says what to write instead)."""
    check_line(link, "link")
    file = link.partition("::")[0]
    if file:
        check_relpath(file, "link")
    check_link_shape(link)
    if any(c in file for c in "*?[{"):
        raise ValueError(f"link {link!r} is a glob; links name one file (use `paths` for globs)")


def written_links(links: Iterable[str]) -> tuple[str, ...]:
    """Links as a write keeps them: each checked (ValueError at the first bad one, saying
    what to write instead), normalised as git names its paths. Every write path uses it
    (parse through `coerce`, `memkit link`, the MCP tools)."""
    out = []
    for link in links:
        if not isinstance(link, str) or not link:
            raise ValueError("a link must be a non-empty string")
        check_link(link)
        out.append(normalise(link))
    return tuple(out)


_COERCE: dict[str, Callable[[Field, Any], Any]] = {
    "text": _text,
    "list": _list,
    "date": lambda f, value: coerce_date(value),
    "int": _int,
    "bool": _bool,
    "choice": _choice,
    "ref": _ref,
    "verified": _verified,
}
_PLAN = {f.name: (f, _COERCE[f.kind], f.kind in ("list", "date")) for f in BY_NAME.values()}
_ITEM: dict[str, Callable[[str], None]] = {
    "": lambda item: None,
    "tag": lambda tag: check_line(tag, "tag"),
    "glob": check_glob,
    "link": check_link,
    "id": check_ref,
}
