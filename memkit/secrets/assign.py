"""`name = value` where the name says credential: `DB_PASSWORD=…`, `"apiKey": "…"`, `--token …`.

Keyword first: a few lower-case roots (`pass`, `secret`, `token`, `key`, …) are found with
`str.find`, the name around each is read over at most MAX_NAME characters either side, and an
anchored pattern with bounded quantifiers reads the operator and value after it. Nothing
scans backwards without a bound, so the whole pass is linear in the text's length.

The name decides how random the value must be (values.py): a password-like name takes any
password-like value, a token-like name only a random-looking one; a command-line flag
(`--password x`) takes any literal. Names that merely mention a credential (`token_type`,
`MAX_PASSWORD_LENGTH`, `password_field`) are not credentials, and neither is anything after
`::` (a symbol, as in memkit's fingerprint records `file.py::test_bad_credentials: sig:…`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from memkit.secrets import values
from memkit.secrets.hit import CONTEXT, Hit

MAX_NAME = 64
_ROOTS = ("pass", "pwd", "secret", "token", "key", "auth", "cred", "bearer")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_TAIL = re.compile(r"[A-Za-z0-9_.-]{0,64}")
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_OP = re.compile(
    r"""(?P<close>["'\])]{0,3})[ \t]{0,16}
    (?P<op>:=|=>|\?=|=(?!=)|:(?!:)|(?<=[ \t])is(?=[ \t])|(?<=["'])[ \t]{0,4}value=|>|[ \t])
    [ \t]{0,16}(?P<q>(?:\\?["'`]){0,3})""",
    re.VERBOSE,
)
_QUOTED = re.compile(r"[^\s\"'`]{1,200}")  # up to the closing quote
_BARE = re.compile(r"[^\s\"'`,;<>]{1,200}")
_QUERY = re.compile(r"[^\s\"'`,;<>&#]{1,200}")  # `?user=x&password=y&…`
_SCHEME_VALUE = re.compile(r"[ \t]{1,4}(?P<v>[^\s\"'`,;<>]{1,1000})")
_PREV_WORD = re.compile(r"([A-Za-z]{2,20})[ \t]{1,3}$")
_SCHEMES = {"bearer", "basic", "token", "digest", "apikey", "key", "sso-key"}

_PASSWORD = {"password", "passwd", "passphrase", "pass", "pwd", "pw", "passwords"}
_SECRET = {
    "secret", "secrets", "token", "apikey", "credential", "credentials", "creds", "cred",
    "auth", "authtoken", "bearer", "authorization",
}  # fmt: skip
_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey")
_KEY_QUALIFIERS = {
    "api", "access", "secret", "private", "signing", "sign", "encryption", "encrypt", "enc",
    "master", "auth", "account", "client", "app", "application", "service", "license",
    "licence", "session", "shared", "webhook", "consumer", "subscription", "admin", "deploy",
    "storage", "sas", "hmac", "jwt", "crypto", "cipher", "aes", "ssh", "gpg", "pgp", "rsa",
    "root", "ingest", "server", "write", "cookie",
}  # fmt: skip
_NEUTRAL = {
    "prod", "production", "dev", "development", "staging", "stage", "test", "testing", "live",
    "sandbox", "local", "old", "new", "current", "prev", "previous", "primary", "secondary",
    "backup", "b64", "base64", "hex", "raw", "value", "val", "str", "string", "base", "enc",
    "encrypted", "plain", "plaintext", "default", "v",
}  # fmt: skip


@functools.lru_cache(maxsize=4096)
def family(name: str) -> str | None:
    """`password`, `secret` or None: what a name says about the value given to it."""
    parts = [p.lower() for p in _WORDS.findall(name)]
    while parts and (parts[-1] in _NEUTRAL or parts[-1].isdigit()):
        parts.pop()
    if not parts:
        return None
    last = parts[-1]
    if last == "pass" and len(parts) > 1 and parts[-2] == "by":  # ByPass: bypass
        return None
    if last in _PASSWORD or last.endswith(_SUFFIXES[:3]):
        return "password"
    if last in _SECRET or last.endswith(_SUFFIXES[3:]):
        return "secret"
    if last.endswith("key"):
        qualifier = last[:-3] or (parts[-2] if len(parts) > 1 else "")
        return "secret" if qualifier in _KEY_QUALIFIERS else None
    return None


def find(text: str, lowered: str) -> Iterator[Hit]:
    """Every credential-named assignment of a secret-looking value in `text`."""
    seen: set[int] = set()
    for root in _ROOTS:
        pos = lowered.find(root)
        while pos != -1:
            tail = _TAIL.match(text, pos)  # always matches: it may match nothing
            end = tail.end() if tail else pos
            if end not in seen:
                seen.add(end)
                if hit := _judge(text, pos, end):
                    yield hit
            pos = lowered.find(root, max(end, pos + 1))


def _name_start(text: str, pos: int) -> int:
    stop = max(0, pos - MAX_NAME)
    while pos > stop and text[pos - 1] in _NAME_CHARS:
        pos -= 1
    return pos


def _judge(text: str, pos: int, end: int) -> Hit | None:
    m = _OP.match(text, end)
    if not m:
        return None
    start = _name_start(text, pos)
    name, fam = _named(text, start, end)
    op = m.group("op")
    flag = _is_flag(text, start)
    if fam is None or text[max(0, start - 2) : start] == "::":  # `file.py::symbol: …`
        return None
    if op == ">" and text[start - 1 : start] != "<":  # only `<password>…</password>`
        return None
    if op in (" ", "\t") and (m.group("close") or not (flag or name.lower() == "bearer")):
        return None
    query = text[start - 1 : start] in ("?", "&")
    code = not (m.group("q") or query)  # a quoted value or a query parameter is data
    v = (_QUOTED if m.group("q") else _QUERY if query else _BARE).match(text, m.end())
    if not v:
        return None
    value, vstart, vend = v.group().rstrip(".)]}"), v.start(), v.end()
    if value.lower() in _SCHEMES:  # `Authorization: Bearer …`
        s = _SCHEME_VALUE.match(text, vend)
        if not s:
            return None
        if value.lower() == "basic":
            return _basic(s.group("v"), *s.span("v"))
        (vstart, vend), value, fam = s.span("v"), s.group("v"), "secret"
    if "%" in value:
        value = _percent_decoded(value, query)
    kind = _kind(name, value, fam, flag, code)
    return Hit(kind, vstart, vend, CONTEXT) if kind else None


def _percent_decoded(value: str, query: bool) -> str:
    """A URL-encoded value decoded (always in a query string, elsewhere when it decodes
    cleanly: a password like `a%03b` keeps its `%`)."""
    from urllib.parse import unquote

    if query:
        return unquote(value)
    try:
        decoded = unquote(value, errors="strict")
    except UnicodeDecodeError:
        return value
    return value if any(not c.isprintable() for c in decoded) else decoded


def _named(text: str, start: int, end: int) -> tuple[str, str | None]:
    """The name read at text[start:end] and its family; `API key` counts its qualifier."""
    name = text[start:end].strip(".-")
    fam = family(name) if name else None
    if fam is None and name.lower() == "key":  # a label in prose: `API key: …`
        prev = _PREV_WORD.search(text, max(0, start - 24), start)
        if prev and prev.group(1).lower() in _KEY_QUALIFIERS:
            return f"{prev.group(1)} {name}", "secret"
    return name, fam


def _is_flag(text: str, start: int) -> bool:
    """`--password …` or ` -Dpassword=…`: an option on a command line, not `**-Token`."""
    if not text.startswith("-", start) or (start and text[start - 1] not in " \t\"'="):
        return False
    return text.startswith("--", start) or text[start + 1 : start + 2].isalpha()


def _kind(name: str, value: str, fam: str | None, flag: bool, code: bool) -> str | None:
    if values.is_random(value, code=code):
        return f"high-entropy value assigned to {name!r}"
    if flag and values.is_literal(value):
        return f"password given to {name}"
    if fam == "password" and values.is_password(value, code=code):
        return f"password assigned to {name!r}"
    return None


def _basic(value: str, start: int, end: int) -> Hit | None:
    """`Authorization: Basic base64(user:password)`: judge the decoded password."""
    import base64
    import binascii

    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        decoded = ""
    _, sep, password = decoded.partition(":")
    if (sep and values.is_password(password, code=False)) or (
        not sep and values.is_random(value, code=False)
    ):
        return Hit("credential in an Authorization header", start, end, CONTEXT)
    return None
