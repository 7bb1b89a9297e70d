"""Configuration keys: `path::dotted.key` in a TOML, JSON or YAML file, parsed, never grepped.

A key path is dot-separated; a part holding a dot is quoted (`tool."ruff.lint"`), a
list item is its index (`services.web.ports.0`). The fingerprint digests the value as
canonical JSON (keys sorted), so reordering keys, reindenting or changing a file's
quoting leaves it unchanged; a different value is `value`, a key gone is `removed`.
A YAML file with several documents is looked up in its first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from memkit.staleness.fingerprints import digest

if TYPE_CHECKING:
    from memkit.staleness.snapshot import Snapshot

MAX_NODES = 100_000  # values expanded (YAML aliases included) before a value is refused


class ConfigError(ValueError):
    """A config file that does not parse, or a value too large to fingerprint."""


def split_key(key: str) -> tuple[str, ...]:
    """`a."b.c".0` -> ("a", "b.c", "0"), by the grammar links are checked with
    (memkit.memory.links.split_key)."""
    from memkit.memory.links import split_key as split

    try:
        return split(key)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def join_key(parts: tuple[str, ...] | list[str]) -> str:
    return ".".join(f'"{p}"' if "." in p or not p else p for p in parts)


def load(path: str, data: bytes) -> Any:
    """The parsed document (TOML, JSON or YAML by suffix); ConfigError if it does not parse."""
    suffix = PurePosixPath(path).suffix.lower()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text") from None
    try:
        if suffix == ".toml":
            import tomllib

            return tomllib.loads(text)
        if suffix == ".json":
            return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ConfigError(f"{path} does not parse ({' '.join(str(e).split())})") from None
    from memkit.memory.yaml import YAMLLoadError, load_config

    try:
        return load_config(text)
    except YAMLLoadError as e:
        line = "" if e.line is None else f":{e.line + 1}"
        raise ConfigError(f"{path}{line}: {e.message}") from None


def lookup(doc: Any, parts: tuple[str, ...]) -> tuple[bool, Any]:
    """(found, value) of a key path in a parsed document."""
    value = doc
    for part in parts:
        if isinstance(value, dict):
            found = [v for k, v in value.items() if str(k) == part]
            if not found:
                return False, None
            value = found[0]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return False, None
    return True, value


def keys_of(doc: Any, depth: int = 3) -> list[str]:
    """Key paths of a document down to `depth` levels (for suggestions)."""
    out: list[str] = []
    stack: list[tuple[tuple[str, ...], Any]] = [((), doc)]
    while stack and len(out) < 5000:
        prefix, value = stack.pop()
        if isinstance(value, dict) and len(prefix) < depth:
            for k, v in value.items():
                out.append(join_key([*prefix, str(k)]))
                stack.append(((*prefix, str(k)), v))
    return out


def canonical(value: Any) -> str:
    """The value as canonical JSON; ConfigError past MAX_NODES (YAML alias bombs)."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise ConfigError(
                f"the value has over {MAX_NODES:,} items (YAML aliases counted as copies), "
                "memkit's limit; link a key inside it"
            )
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def secret_kind(parts: tuple[str, ...], value: Any) -> str | None:
    """What a key's value looks like if it is a credential, else None.

    A fingerprint is a digest of the value, kept in a memory file git shares: a guess
    list confirms a weak password from it, and a salt would have to be public for every
    clone to agree. So a credential is not fingerprinted at all: a key named like one
    (`password`, `api_key`, `token`...) unless its value is a reference (`${DB_PASS}`),
    or a value the secret scanner flags whatever its name.
    """
    from memkit.secrets import scan
    from memkit.secrets.assign import family
    from memkit.secrets.values import is_reference

    name = next((p for p in reversed(parts) if not p.isdigit()), "")
    text = value if isinstance(value, str) else canonical(value)
    kind = family(name)
    if (
        kind
        and value not in (None, "", [], {})
        and not (isinstance(value, str) and is_reference(value))
    ):
        return kind
    found = scan(f"{name} = {json.dumps(text)}", honour_pragma=False) or scan(
        text, honour_pragma=False
    )
    return found[0].kind if found else None


@dataclass(frozen=True)
class ConfigKey:
    """`path::key`: one key of a TOML, JSON or YAML file."""

    text: str
    path: str
    key: str
    any_source = False

    @classmethod
    def parse(cls, text: str) -> ConfigKey:
        path, _, key = text.partition("::")
        return cls(text, path, key)

    def files(self, recorded: str | None) -> tuple[str, ...]:
        return (self.path,)

    def _doc(self, snap: Snapshot) -> tuple[Any, tuple[str, ...]]:
        """The file's document, parsed once per snapshot, and the key's parts (a
        ConfigError raised each time)."""
        doc = snap.derived(("config", self.path), lambda: _load(snap, self.path))
        if isinstance(doc, ConfigError):
            raise ConfigError(str(doc))
        return doc, split_key(self.key)

    def current(self, snap: Snapshot, recorded: str | None) -> str | None:
        """The value's fingerprint; None when the file or key is gone, or when the file
        does not parse or the value is over a limit (then snap.refusal says why)."""
        try:
            doc, parts = self._doc(snap)
        except ConfigError as e:
            snap.refuse(self.text, f"{e}; fix the file or link another key")
            return None
        found, value = lookup(doc, parts)
        if not found or doc is None:
            return None
        try:
            return f"value:{digest(canonical(value), 6)}"
        except ConfigError as e:
            snap.refuse(self.text, f"{self.path}: {self.key}: {e}")
            return None

    def compare(self, recorded: str, now: str | None) -> str:
        if now is None:
            return "removed"
        return "unchanged" if now == recorded else "value"

    def secret(self, snap: Snapshot) -> str | None:
        """Why this key's value must not be fingerprinted (it looks like a credential)."""
        try:
            doc, parts = self._doc(snap)
        except ConfigError:
            return None
        found, value = lookup(doc, parts)
        kind = secret_kind(parts, value) if found else None
        if kind is None:
            return None
        return (
            f"the value of {self.key} looks like a {kind}, and a recorded digest of it "
            f"can be guessed back; link {self.path} or a key that holds no secret"
        )

    def missing(self, snap: Snapshot) -> str:
        from memkit.staleness.anchors.hints import near

        try:
            doc, parts = self._doc(snap)
        except ConfigError as e:
            return f"{e}; fix the file or the key"
        if doc is None:
            return f"no file {self.path}; write the path relative to the repository root"
        hint = near(self.key, keys_of(doc, max(len(parts), 1)))
        return f"{self.path} has no key {self.key!r}{hint}; write the key path as a.b.c"


def _load(snap: Snapshot, path: str) -> Any:
    data = snap.read(path)
    try:
        return None if data is None else load(path, data)
    except ConfigError as e:
        return e
