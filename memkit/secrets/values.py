"""Is a value given to a credential-like name a real secret, or a placeholder, reference or code?

Three grades, from strict to lenient:

- `is_random`: token grade, for names like `api_key` or `client_secret`: long enough and
  random-looking (mixed letters and digits, a hex key or a UUID), never an identifier.
- `is_password`: for names like `DB_PASSWORD`: eight or more characters mixing letters with
  digits or symbols (`hunter2hunter2`), or token grade.
- `is_literal`: for command lines that only ever take a password (`sshpass -p`, `curl -u`,
  `.netrc`): anything typed there that is not a reference (`$PASS`, `<password>`), a
  placeholder or an option, even a short word such as `secret` after `sshpass -p`.

All three refuse references (`${DB_PASSWORD}`, `{{ .Values.x }}`, `<your-key>`,
`urn:k8s:secret:…`), placeholders (`xxxxxxxx`, `your_token_here`, `changeme`, `password123`)
and code (`os.environ["TOKEN"]`, `settings.API_KEY`, `b64encode(raw).decode()`). A base64
value that decodes to text is judged by that text (`cGFzc3dvcmQ=` is `password`). Every
function here runs in time linear in the value's length; callers cap values at a few hundred
characters.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter

_REFERENCE_START = ("$", "%(", "%s", "%{", "{", "<", "[", "#{", "@", "*", "\\", "./", "~/")
_REFERENCE_PREFIX = (
    "env:", "env.", "os.", "process.", "secrets.", "vault:", "op://", "arn:", "secretref:",
    "sm://", "ref+", "file:", "http://", "https://", "keyvault:", "projects/", "urn:",
)  # fmt: skip
# Looked for in the lower-cased value.
_PLACEHOLDER_PARTS = (
    "xxxx", "****", "...", "…", "your", "_here", "-here", "example", "placeholder", "changeme",
    "change_me", "change-me", "redacted", "dummy", "sample", "insert", "replace", "fake",
    "password", "passwd", "secret", "{{", "}}", "${",
)  # fmt: skip
_PLACEHOLDER = re.compile("|".join(map(re.escape, _PLACEHOLDER_PARTS)))
# On a command line even `secret` is typed as a password (after `sshpass -p`).
_LITERAL_PLACEHOLDER = re.compile(
    "|".join(re.escape(p) for p in _PLACEHOLDER_PARTS if p != "secret")
)
# Whole values that are words of configuration or documentation, not passwords.
_WORDS = {
    "pwd", "token", "apikey", "api_key", "foo", "bar", "baz", "foobar", "test", "true",
    "false", "none", "null", "nil", "yes", "no", "on", "off", "drop", "keep", "redact", "empty",
    "required", "optional", "string", "str", "bytes", "int",
}  # fmt: skip
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX = re.compile(r"[0-9a-fA-F]+")
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4}){2,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
# `sig:3f9a1c2b`, `sha256:…`: a labelled digest, as in memkit's own fingerprint records.
_DIGEST_LABEL = re.compile(r"[a-z][a-z0-9]{0,15}[:~]([0-9a-f]+)")
# `os.environ[`, `settings.API_KEY`, `getpass.getpass(`, `config['x']`: code, not a value.
_CODE = re.compile(r"\(?[A-Za-z_$][\w$]*(?:(?:\.[A-Za-z_$][\w$]*)+[\[(!;]?|[\[(])")
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# `%APPDATA%\\key`, `/run/secrets/db`: a variable or a path (base64 may start with `/` too).
_WINDOWS_VAR = re.compile(r"%[A-Za-z_][A-Za-z0-9_]*%(?:$|[\\/])")
_PATH = re.compile(r"/[A-Za-z0-9_.-]+/")
# Words, snake_case, kebab-case, dotted names and plain numbers: identifiers, not secrets.
# Token grade also lets a word end in a few digits (`v2`, `sha256`, `build_2024`).
_SEGMENT = re.compile(r"[A-Za-z]+|[0-9]+")
_SEGMENT_DIGITS = re.compile(r"[A-Za-z]+[0-9]{0,4}|[0-9]+")
_SEPARATORS = re.compile(r"[_.\-/: ]+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+(?:[A-Z][a-z]+)*|[A-Z]+")
# `--token TOKEN`, `-p PASSWORD`: a usage line's metavariable; ports, versions, dates.
_METAVAR = re.compile(r"[A-Z][A-Z_]*|[0-9.:/-]+|[a-z]+=.*")


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values()) if n else 0.0


def is_reference(value: str) -> bool:
    """An empty value, or one that points at a secret kept elsewhere."""
    if not value or value.startswith(_REFERENCE_START) or value.startswith(_REFERENCE_PREFIX):
        return True
    return bool(_WINDOWS_VAR.match(value) or _PATH.match(value))


def is_placeholder(value: str) -> bool:
    lowered = value.lower()
    if lowered in _WORDS or _PLACEHOLDER.search(lowered):
        return True
    return len(set(value)) < 4 or value.isdigit()


def is_code(value: str) -> bool:
    """A dotted name, call or subscript made of identifiers (`settings.API_KEY`, `f(`)."""
    m = _CODE.match(value)
    if not m or (m.end() != len(value) and value[m.end() - 1] not in "[(!;"):
        return False
    names = value[: m.end()].strip("[(!;$").split(".")
    return all(_IDENT.fullmatch(n) and _wordlike(re.sub(r"[^A-Za-z]", "", n)) for n in names)


def mixed(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _wordlike(word: str) -> bool:
    """lower, UPPER, Capitalised, camelCase or few case changes: not random (`xKqPzRtV`)."""
    if not word or _CAMEL.fullmatch(word):
        return True
    changes = sum(a.islower() != b.islower() for a, b in itertools.pairwise(word))
    return changes <= len(word) * 0.34


def _identifier(value: str, segment: re.Pattern[str] = _SEGMENT) -> bool:
    """Made of clean words and numbers: `release_2024`, `DB_PASSWORD`, `my-secret-pw`."""
    parts = [p for p in _SEPARATORS.split(value) if p]
    return bool(parts) and all(
        segment.fullmatch(p) and (p.isdigit() or _wordlike(p.rstrip("0123456789"))) for p in parts
    )


def _decoded(value: str) -> str | None:
    """The text a base64 value encodes, if it is printable text (a Kubernetes secret's data)."""
    if len(value) % 4 or not _BASE64.fullmatch(value):
        return None
    import base64
    import binascii

    try:
        text = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return text if text.isprintable() and text.isascii() else None


def _rejected(value: str, code: bool) -> bool:
    if not (value.isascii() and value.isprintable()) or is_reference(value):
        return True
    if is_placeholder(value) or (code and is_code(value)):
        return True
    decoded = _decoded(value)
    return decoded is not None and (is_placeholder(decoded) or is_reference(decoded))


RANDOM, PASSWORD = 2, 1


@functools.lru_cache(maxsize=4096)
def grade(value: str, min_len: int = 8, *, code: bool = True) -> int:
    """RANDOM (a generated key), PASSWORD (a password-like literal) or 0 (neither).

    `code` says the value may be code (unquoted, in a source file); a quoted value, or one
    in a URL, is data. Cached: documents repeat the same values, adversarial ones a lot.
    """
    if len(value) < min(min_len, 12) or _rejected(value, code):
        return 0
    if _random(value):
        return RANDOM
    if len(value) < min_len:
        return 0
    if value.isalpha():  # letters only: a password when their case is random
        return PASSWORD if len(value) >= 10 and not _wordlike(value) else 0
    has_other = any(not c.isalpha() for c in value)
    mixed = has_other and any(c.isalpha() for c in value) and not _identifier(value)
    return PASSWORD if mixed else 0


def _random(value: str) -> bool:
    if len(value) < 12:
        return False
    label = _DIGEST_LABEL.fullmatch(value)
    if label and len(label.group(1)) <= 16:
        return False
    if _UUID.fullmatch(value):
        return True
    if _HEX.fullmatch(value):
        return len(value) >= 20 and mixed(value)
    if _identifier(value, _SEGMENT_DIGITS):
        return False
    if len(value) >= 20 and value.isalpha():  # letters only: random case, like hf_ tokens
        return not _wordlike(value) and entropy(value) >= 3.5
    return len(value) >= 16 and mixed(value) and entropy(value) >= 3.3


def is_random(value: str, *, code: bool = True) -> bool:
    """Token grade: a generated key, not a word, identifier, digest label or placeholder."""
    return grade(value, code=code) == RANDOM


def is_password(value: str, min_len: int = 8, *, code: bool = True) -> bool:
    """Password grade: letters mixed with digits or symbols, or a generated key."""
    return grade(value, min_len, code=code) > 0


@functools.lru_cache(maxsize=4096)
def is_literal(value: str) -> bool:
    """Anything typed where only a password can go, unless it refers to one elsewhere."""
    if len(value) < 3 or not value.isascii() or is_reference(value):
        return False
    if value.isdigit() or value.startswith("-") or _METAVAR.fullmatch(value):
        return False  # a number, the next option, a metavariable
    lowered = value.lower()
    if lowered in _WORDS or _LITERAL_PLACEHOLDER.search(lowered):
        return False
    return len(set(value)) > 1
