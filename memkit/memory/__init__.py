"""One memory: YAML front matter plus a markdown body. Parsing and writing, no I/O.

`parse()` validates at the edge and returns a frozen `Memory`; `dumps()` writes it
back. A memory read and written unchanged keeps every byte: the original head
(front matter with its delimiters, comments and key order) is kept and reused
whenever the fields it encodes did not change.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.controls import refused
from memkit.errors import InvalidMemoryError
from memkit.globs import check as check_glob_shape
from memkit.vocab import CONFIDENCES as CONFIDENCES
from memkit.vocab import STATUSES as STATUSES
from memkit.vocab import TYPES as TYPES

MAX_BYTES = 1_000_000
MAX_ID = 64
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SYMBOL_RE = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$")
_OPEN_RE = re.compile(r"\A(\ufeff?)---[ \t]*(\r?\n)")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.MULTILINE)
# Field order for newly written front matter.
FIELDS = (
    "title",
    "type",
    "status",
    "tags",
    "paths",
    "links",
    "source",
    "confidence",
    "created",
    "updated",
    "review_after",
    "expires",
    "priority",
    "pin",
    "supersedes",
    "superseded_by",
    "revises",
    "verified",
)
_LIST_FIELDS = ("tags", "paths", "links", "supersedes")
_DATE_FIELDS = ("created", "updated", "review_after", "expires")


@dataclass(frozen=True)
class Verification:
    """When a memory's links were last checked against the code, and their fingerprints."""

    commit: str | None
    date: dt.date | None
    fingerprints: Mapping[str, str] = field(default_factory=dict)

    def to_yaml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"commit": self.commit, "date": self.date}
        if self.fingerprints:
            out["links"] = dict(self.fingerprints)
        return out


@dataclass(frozen=True)
class Memory:
    id: str
    title: str
    body: str = "\n"
    type: str = "note"
    status: str = "active"
    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    source: str | None = None
    confidence: str | None = None
    created: dt.date | None = None
    updated: dt.date | None = None
    review_after: dt.date | None = None
    expires: dt.date | None = None
    priority: int = 0
    pin: bool = False
    supersedes: tuple[str, ...] = ()
    superseded_by: str | None = None
    revises: str | None = None  # a proposed revision of that memory (see memkit.agents.proposals)
    verified: Verification | None = None
    # Where the memory lives, relative to the project root ("" before it is saved).
    path: str = ""
    # The exact original head (opening delimiter through closing delimiter line).
    head: str = ""

    @property
    def text(self) -> str:
        """The body without surrounding blank lines."""
        return self.body.strip("\n")

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and today > self.expires

    def review_due(self, today: dt.date) -> bool:
        return self.review_after is not None and today > self.review_after

    def fields(self) -> dict[str, Any]:
        """The front-matter values memkit manages, in canonical order, defaults left out."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            if value is None or value == () or (name == "priority" and value == 0):
                continue
            if name == "pin" and value is False:
                continue
            if name in _LIST_FIELDS:
                value = list(value)
            elif name == "verified":
                value = value.to_yaml()
            out[name] = value
        return out

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready dict: the documented, stable `--json` schema."""
        v = self.verified
        return {
            "id": self.id,
            "path": self.path,
            "title": self.title,
            "type": self.type,
            "status": self.status,
            "tags": list(self.tags),
            "paths": list(self.paths),
            "links": list(self.links),
            "source": self.source,
            "confidence": self.confidence,
            "created": _iso(self.created),
            "updated": _iso(self.updated),
            "review_after": _iso(self.review_after),
            "expires": _iso(self.expires),
            "priority": self.priority,
            "pin": self.pin,
            "supersedes": list(self.supersedes),
            "superseded_by": self.superseded_by,
            "revises": self.revises,
            "verified": None
            if v is None
            else {"commit": v.commit, "date": _iso(v.date), "links": dict(v.fingerprints)},
            "body": self.text,
        }

    @classmethod
    def from_record(
        cls, rec: Mapping[str, Any], *, head: str = "", body: str | None = None
    ) -> Memory:
        """Inverse of to_record (used by the parse cache); trusts its input."""
        v = rec.get("verified")
        return cls(
            id=rec["id"],
            title=rec["title"],
            body=body if body is not None else rec["body"],
            type=rec["type"],
            status=rec["status"],
            tags=tuple(rec["tags"]),
            paths=tuple(rec["paths"]),
            links=tuple(rec["links"]),
            source=rec["source"],
            confidence=rec["confidence"],
            created=_date_or_none(rec["created"]),
            updated=_date_or_none(rec["updated"]),
            review_after=_date_or_none(rec["review_after"]),
            expires=_date_or_none(rec["expires"]),
            priority=rec["priority"],
            pin=rec["pin"],
            supersedes=tuple(rec["supersedes"]),
            superseded_by=rec["superseded_by"],
            revises=rec.get("revises"),
            verified=None
            if v is None
            else Verification(v["commit"], _date_or_none(v["date"]), dict(v["links"])),
            path=rec["path"],
            head=head,
        )


def _iso(d: dt.date | None) -> str | None:
    return None if d is None else d.isoformat()


def _date_or_none(s: str | None) -> dt.date | None:
    return None if s is None else dt.date.fromisoformat(s)


# --------------------------------------------------------------------------- ids


def is_valid_id(mid: str) -> bool:
    return len(mid) <= MAX_ID and bool(ID_RE.match(mid))


def slugify(title: str) -> str:
    """A valid id from a title: lowercase ASCII words joined by dashes, at most 64 chars."""
    import unicodedata

    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_title.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > MAX_ID - 4:  # leave room for a "-NNN" suffix
            break
        slug = candidate
    return slug or (words[0][: MAX_ID - 4] if words else "memory")


# ---------------------------------------------------------------------- parsing


def split(text: str, path: str) -> tuple[str, str, str, int]:
    """Split a memory file into (head, front-matter text, body, body start line)."""
    m = _OPEN_RE.match(text)
    if not m:
        raise InvalidMemoryError(
            path,
            1,
            "front matter",
            "no front matter: the file must start with a '---' line, "
            "then YAML fields (at least `title:`), then a closing '---' line",
        )
    close = _CLOSE_RE.search(text, m.end())
    if not close:
        raise InvalidMemoryError(
            path,
            1,
            "front matter",
            "unterminated front matter: add a closing '---' line after the YAML fields",
        )
    head = text[: close.end()]
    front = text[m.end() : close.start()]
    return head, front, text[close.end() :], head.count("\n") + 1


def field_line(front: str, name: str) -> int:
    """The file line (1-based) of a top-level front-matter key, or 1 if absent."""
    m = re.search(rf"^{re.escape(name)}[ \t]*:", front, re.MULTILINE)
    return 2 + front.count("\n", 0, m.start()) if m else 1


def load_yaml(front: str, path: str) -> dict[str, Any]:
    """Load front matter as a mapping, rejecting duplicate keys and aliases."""
    import yaml

    from memkit.memory.yaml import Loader

    try:
        data = yaml.load(front, Loader=Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = 2 + mark.line if mark is not None else 1
        problem = " ".join((e.problem or e.context or "invalid YAML").split())
        raise InvalidMemoryError(
            path, line, "front matter", f"malformed YAML ({problem}); fix the YAML syntax"
        ) from None
    except yaml.reader.ReaderError as e:
        line = 2 + front.count("\n", 0, e.position)
        char = chr(e.character) if isinstance(e.character, int) else e.character
        message = f"character {char!r} is not allowed in YAML; remove it or quote the value"
        raise InvalidMemoryError(path, line, "front matter", message) from None
    except yaml.YAMLError as e:
        one_line = " ".join(str(e).split())
        raise InvalidMemoryError(path, 1, "front matter", f"malformed YAML ({one_line})") from None
    except RecursionError:
        raise InvalidMemoryError(
            path, 1, "front matter", "YAML nested too deeply; flatten it"
        ) from None
    except (ValueError, TypeError, OverflowError) as e:
        problem = str(e).split(";")[0] if "digits" in str(e) else str(e)  # no Python advice
        raise InvalidMemoryError(
            path, 1, "front matter", f"unreadable YAML value ({problem}); quote or shorten it"
        ) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InvalidMemoryError(
            path,
            2,
            "front matter",
            f"front matter must be a mapping of fields like "
            f"`title: ...`, not a {type(data).__name__}",
        )
    return data


def check_size(size: int, path: str) -> None:
    if size > MAX_BYTES:
        raise InvalidMemoryError(
            path,
            1,
            "file",
            f"file is {size:,} bytes, over the 1 MB limit; split it into smaller memories",
        )


def decode(raw: bytes, path: str) -> str:
    check_size(len(raw), path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise InvalidMemoryError(
            path,
            line,
            "file",
            f"not UTF-8 (byte 0x{raw[e.start]:02x} at offset {e.start}); re-save the file as UTF-8",
        ) from None


def parse(text: str | bytes, *, mid: str, path: str = "") -> Memory:
    """Parse and validate one memory; raise InvalidMemoryError on the first problem."""
    mem, problems = parse_all(text, mid=mid, path=path)
    if problems:
        raise problems[0]
    assert mem is not None
    return mem


def parse_all(
    text: str | bytes, *, mid: str, path: str = ""
) -> tuple[Memory | None, list[InvalidMemoryError]]:
    """Parse one memory, collecting every problem instead of stopping at the first."""
    where = path or f"{mid}.md"
    try:
        if isinstance(text, bytes):
            text = decode(text, where)
        elif len(text) > MAX_BYTES:
            text = decode(text.encode("utf-8", "surrogatepass"), where)
        if "\x00" in text:
            raise InvalidMemoryError(
                where, 1, "file", "binary content (NUL bytes); a memory is a UTF-8 markdown file"
            )
        head, front, body, _ = split(text, where)
        data = load_yaml(front, where)
    except InvalidMemoryError as e:
        return None, [e]
    problems: list[InvalidMemoryError] = []
    if not is_valid_id(mid):
        problems.append(
            InvalidMemoryError(
                where,
                1,
                "id",
                f"file name {mid!r} is not a valid id: use lowercase letters, "
                f"digits and dashes, at most {MAX_ID} characters (e.g. {slugify(mid)!r})",
            )
        )
    values = _check_fields(data, front, where, problems)
    if problems:
        return None, problems
    return Memory(id=mid, body=body, path=path, head=head, **values), []


def _check_fields(
    data: Mapping[str, Any], front: str, where: str, problems: list[InvalidMemoryError]
) -> dict[str, Any]:
    values: dict[str, Any] = {}

    def bad(name: str, message: str) -> None:
        problems.append(InvalidMemoryError(where, field_line(front, name), name, message))

    for name in FIELDS:
        if name not in data or name == "verified":
            continue
        try:
            values[name] = _coerce(name, data[name])
        except ValueError as e:
            bad(name, str(e))
    title = values.get("title")
    if not title or not title.strip():
        bad("title", "missing or empty title; add `title: <one line summary>`")
    elif "\n" in title:
        bad("title", "title must be a single line")
    if "verified" in data:
        try:
            values["verified"] = _coerce_verified(data["verified"])
        except ValueError as e:
            bad("verified", str(e))
    if values.get("revises") and values.get("status", "active") == "active":
        bad(
            "status",
            "a proposed revision (`revises`) is never active: set `status: draft`, and "
            "apply it with `memkit approve ID`",
        )
    return values


def _coerce(name: str, value: Any) -> Any:
    if name in _LIST_FIELDS:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str) and i for i in items):
            raise ValueError("must be a list of non-empty strings (one `- item` per line)")
        checker = {"tags": _check_tag, "paths": check_glob, "links": check_link,
                   "supersedes": _check_ref}.get(name)  # fmt: skip
        for item in items:
            if checker:
                checker(item)
        return tuple(items)
    if name in _DATE_FIELDS:
        return _coerce_date(value)
    if name == "type":
        return _choice(value, TYPES)
    if name == "status":
        return _choice(value, STATUSES)
    if name == "confidence":
        return _choice(value, CONFIDENCES)
    if name == "priority":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"must be a whole number (got {value!r})")
        return value
    if name == "pin":
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false (got {value!r})")
        return value
    if name == "superseded_by":
        if not isinstance(value, str):
            raise ValueError("must be the id of the memory that replaces this one")
        _check_ref(value)
        return value
    if name == "revises":
        if not isinstance(value, str):
            raise ValueError("must be the id of the memory this draft proposes to change")
        _check_ref(value)
        return value
    # title, source
    if not isinstance(value, str):
        raise ValueError(f"must be a string (got {type(value).__name__}); quote it")
    _check_line(value.replace("\n", " ") if name == "title" else value)  # see _check_fields
    return value


def _check_tag(tag: str) -> None:
    _check_line(tag, "tag")


def _check_line(value: str, what: str = "value") -> None:
    """Refuse control characters: escapes, cursor moves, hidden reordering (bidi), line breaks."""
    bad = refused(value)
    if bad is not None:
        raise ValueError(
            f"{what} {value!r} contains control characters (first {bad}); terminal escapes, "
            "line breaks and bidi overrides are not allowed here: remove them"
        )


def _choice(value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"unknown value {value!r}; use one of: {', '.join(allowed)}")
    return str(value)


def _coerce_date(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        raise ValueError(f"must be a date like 2026-01-31, not a timestamp ({value})")
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise ValueError(f"invalid date {value!r}; write it as YYYY-MM-DD")


def _coerce_verified(value: Any) -> Verification:
    if not isinstance(value, dict):
        raise ValueError("must be a mapping with `commit`, `date` and `links`")
    commit = value.get("commit")
    if commit is not None and (
        not isinstance(commit, str) or not re.fullmatch(r"[0-9a-f]{4,64}", commit)
    ):
        raise ValueError(f"commit {commit!r} is not a git commit id")
    date = _coerce_date(value["date"]) if value.get("date") is not None else None
    links = value.get("links") or {}
    if not isinstance(links, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in links.items()
    ):
        raise ValueError("`links` must map each link to its fingerprint string")
    return Verification(commit, date, links)


def _check_ref(mid: str) -> None:
    if not is_valid_id(mid):
        raise ValueError(f"{mid!r} is not a memory id")


def check_relpath(p: str, what: str) -> None:
    """Refuse a path that could leave the repository."""
    _check_line(p, what)
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
    file, sep, symbol = link.partition("::")
    if not file:
        raise ValueError(f"link {link!r} names no file; write `path/to/file.py::Symbol`")
    check_relpath(file, "link")
    if any(c in file for c in "*?[{"):
        raise ValueError(f"link {link!r} is a glob; links name one file (use `paths` for globs)")
    if sep and not SYMBOL_RE.match(symbol):
        raise ValueError(f"link {link!r}: {symbol!r} is not a symbol name like `Class.method`")


# ---------------------------------------------------------------------- writing


def dumps(mem: Memory) -> str:
    """The file text for a memory; bytes of fields that did not change are kept as they were.

    Changed fields are rewritten in place (their own lines only), so comments, key
    order, quoting and unknown keys elsewhere in the front matter survive.
    """
    if not mem.head:
        return f"---\n{_dump_yaml(mem.fields(), chr(10))}---\n{mem.body}"
    _, front, _, _ = split(mem.head, mem.path)
    original = load_yaml(front, mem.path)
    old = _known_values(original)
    if old is not None and _as_memory(old, mem) == mem:
        return mem.head + mem.body
    nl = "\r\n" if mem.head.endswith("\r\n") else "\n"
    start = mem.head.index("\n") + 1
    new_fields = mem.fields()
    if old is not None:
        patched = _patch(front.replace("\r\n", "\n"), old, new_fields)
        if patched is not None:
            text = mem.head[:start] + patched.replace("\n", nl) + mem.head[start + len(front) :]
            check = _known_values(load_yaml(split(text, mem.path)[1], mem.path))
            if check is not None and _as_memory(check, mem) == mem:
                return text + mem.body
    data = _merge(original, new_fields)
    return f"{mem.head[:start]}{_dump_yaml(data, nl)}---{nl}{mem.body}"


def _known_values(original: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        values = {n: _coerce(n, original[n]) for n in FIELDS if n in original and n != "verified"}
        if "verified" in original:
            values["verified"] = _coerce_verified(original["verified"])
    except (ValueError, KeyError):
        return None
    return values


def _as_memory(values: Mapping[str, Any], mem: Memory) -> Memory:
    values = dict(values)
    base = Memory(id=mem.id, title=values.pop("title", ""), **values)
    return dataclasses.replace(base, body=mem.body, path=mem.path, head=mem.head)


def _patch(front: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """Rewrite only the top-level blocks of fields whose values changed."""
    lines = front.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    old_fields = Memory(id="x", **{"title": "", **old}).fields()  # defaults normalised
    for name in FIELDS:
        before, after = old_fields.get(name), new.get(name)
        if before == after:
            continue
        block = _block(lines, name)
        text = _dump_yaml({name: after}, "\n") if after is not None else ""
        if block is None:
            if after is None:
                continue
            lines.append(text)
        else:
            lines[block[0] : block[1]] = [text] if text else []
    return "".join(lines)


def _block(lines: list[str], name: str) -> tuple[int, int] | None:
    key = re.compile(rf"^{re.escape(name)}[ \t]*:")
    for i, line in enumerate(lines):
        if key.match(line):
            j = i + 1
            while j < len(lines) and lines[j][:1] in (" ", "\t", "-"):
                j += 1
            return i, j
    return None


def _merge(original: Mapping[str, Any], known: Mapping[str, Any]) -> dict[str, Any]:
    """Original key order and unknown keys, with memkit's fields updated."""
    out: dict[str, Any] = {}
    for key, value in original.items():
        if key in FIELDS:
            if key in known:
                out[key] = known[key]
        else:
            out[key] = value
    for key, value in known.items():
        out.setdefault(key, value)
    return out


def _dump_yaml(data: Mapping[str, Any], nl: str) -> str:
    import frontmatter.default_handlers

    from memkit.memory.yaml import Dumper

    text: str = frontmatter.default_handlers.YAMLHandler().export(
        dict(data), Dumper=Dumper, sort_keys=False, width=10_000, default_flow_style=False
    )
    text = text + "\n" if text else ""
    return text.replace("\n", nl) if nl != "\n" else text


def new(
    title: str,
    body: str,
    *,
    mid: str,
    today: dt.date,
    **fields: Any,
) -> Memory:
    """Build and validate a memory from user input, as `memkit add` does."""
    data: dict[str, Any] = {"title": title, **{k: v for k, v in fields.items() if v is not None}}
    for k in _LIST_FIELDS:
        if k in data:
            data[k] = list(data[k])
    data.setdefault("created", today)
    data.setdefault("updated", today)
    data = {k: data[k] for k in FIELDS if k in data}
    text = "---\n" + _dump_yaml(data, "\n") + "---\n" + format_body(body)
    return parse(text, mid=mid, path="")


def format_body(body: str) -> str:
    text = body.replace("\r\n", "\n").strip("\n")
    return f"\n{text}\n" if text else "\n"


def unknown_keys(mem: Memory) -> list[str]:
    """Front-matter keys memkit does not manage (kept as they are)."""
    if not mem.head:
        return []
    _, front, _, _ = split(mem.head, mem.path)
    return [k for k in load_yaml(front, mem.path) if k not in FIELDS]
