"""Passwords that their place gives away: URLs, command lines and .netrc files.

- `scheme://user:password@host` (also `redis://:password@host`, with no user);
- `curl -u user:<password>`, `sshpass -p <password>`, `mysql -p<password>`,
  `docker login -p <password>`;
- `.netrc`: `machine <host> login <user> password <password>`, on one line or one per line.

Each starts from a literal (`://`, a command's name, `password`) found with `str.find` or a
pattern with a literal prefix and reads a bounded window after it (options after a command's
name, up to the end of its line or _WINDOW characters); windows that overlap are read once,
so the whole pass is linear in the text's length.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memkit.secrets import values
from memkit.secrets.hit import CONTEXT, Hit

_WINDOW = 300  # how far after a command's name its options may be
_MAX_VALUE = 220
_LOGIN = re.compile(
    r"(?i)\b(?:docker|podman|nerdctl|buildah|skopeo|registry|oras|crane)[ \t]+login\b"
)
# userinfo may not hold `[`, `]`, `/`, `?`, `#` or `@` unencoded (RFC 3986).
_USERINFO = re.compile(
    r"(?P<user>[^\s:/@?#\"'<>\[\]]{0,100}):(?P<v>[^\s/@?#\"'<>\[\]\\]{1,200})@[\w\[]"
)
_DASH_U = re.compile(
    r"(?<![^\s])(?:-u|--user)(?:[ \t]{1,4}|=)?(?P<q>[\"']?)"
    r"(?P<user>[^\s:\"'`\\]{0,100}):(?P<v>[^\s\"'`\\]{1,200})"
)
_DASH_P = re.compile(r"(?<![^\s])-p(?P<space>[ \t]{0,4})[\"']?(?P<v>[^\s\"'`\\]{1,200})")
_COMMANDS = (
    ("curl", "-u", _DASH_U),
    ("sshpass", "-p", _DASH_P),
    ("mysql", "-p", _DASH_P),
    ("login", "-p", _DASH_P),
)
_LINE_END = re.compile(r"[\n\r]")
_NETRC_NEAR = re.compile(r"\b(?:machine|login|default)\b")
_NETRC_PASSWORD = re.compile(r"\bpassword[ \t]{1,8}(?P<v>[^\s`\\]{1,200})")
_NETRC_LOGIN = re.compile(r"\blogin[ \t]{1,8}\S{1,100}[ \t]{1,8}\Z")  # just before `password`
# the end of the line, or a comment after the value (`# ...`, `<!-- ... -->`)
_BLANK_TO_EOL = re.compile(r"[ \t]{0,100}(?:(?:#|<!--)[^\r\n]{0,500})?(?:\r?\n|\Z)")


def find(text: str, lowered: str) -> Iterator[Hit]:
    yield from _urls(text)
    for command, option, pattern in _COMMANDS:
        if option in text and command in lowered:
            yield from _after(text, lowered, command, pattern)
    if "password" in text:
        yield from _netrc(text, lowered)


def _netrc(text: str, lowered: str) -> Iterator[Hit]:
    """`login <user> password <pw>` on a line, or `password <pw>` alone on a line of an entry."""
    for m in _NETRC_PASSWORD.finditer(text):
        start = m.start()
        lo = max(0, start - 120)
        newline = max(text.rfind("\n", lo, start), text.rfind("\r", lo, start))
        line_start = newline + 1 if newline != -1 else lo  # at most 120 characters back
        if _NETRC_LOGIN.search(text, line_start, start):
            pass
        elif not text[line_start:start].strip() and _BLANK_TO_EOL.match(text, m.end()):
            if not _NETRC_NEAR.search(lowered, max(0, start - 200), start):
                continue  # a lone `password x` line counts only in a .netrc entry
        else:
            continue
        if hit := _literal(".netrc password", m):
            yield hit


def _literal(kind: str, m: re.Match[str]) -> Hit | None:
    """A hit for the group `v` if it holds a literal password (trailing punctuation dropped)."""
    value = m.group("v").rstrip(".,;:)]}")
    if not values.is_literal(value):
        return None
    return Hit(kind, m.start("v"), m.start("v") + len(value), CONTEXT)


def _urls(text: str) -> Iterator[Hit]:
    pos = text.find("://")
    while pos != -1:
        m = _USERINFO.match(text, pos + 3)
        if m and values.is_password(_unquote(m.group("v")), 6, code=False):
            yield Hit("password in URL", *m.span("v"), CONTEXT)
        pos = text.find("://", pos + 3)


def _unquote(value: str) -> str:
    from urllib.parse import unquote

    return unquote(value) if "%" in value else value


def _after(text: str, lowered: str, command: str, pattern: re.Pattern[str]) -> Iterator[Hit]:
    """Options after each `command` on its line (at most _WINDOW characters of it).

    Windows are walked once each: one starting inside the previous one continues it.
    """
    done = 0
    pos = lowered.find(command)
    while pos != -1:
        start = max(pos, done)
        stop = min(len(text), pos + _WINDOW)
        newline = _LINE_END.search(text, start, stop)
        end = newline.start() if newline else stop
        for m in pattern.finditer(text, start, min(len(text), end + _MAX_VALUE)):
            if m.start() >= end:  # the value may run past the window, the option may not
                break
            if hit := _option(command, m):
                yield hit
        done = max(done, end)
        pos = lowered.find(command, pos + len(command))


def _option(command: str, m: re.Match[str]) -> Hit | None:
    if command == "curl":
        return _literal("password in a curl -u option", m)
    spaced = bool(m.group("space"))
    if command == "sshpass":
        return _literal("password on an sshpass command line", m)
    if command == "mysql" and not spaced:
        return _literal("password on a mysql command line", m)
    if (
        command == "login"
        and spaced
        and _LOGIN.search(m.string, max(0, m.start() - _WINDOW), m.start())
    ):
        return _literal("password given to login", m)
    return None
