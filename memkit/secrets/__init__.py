"""Find likely secrets in text before it is written to a store that git keeps forever.

What is found (each module says how):

- formats.py: about a hundred token formats with a distinctive prefix or shape (cloud
  providers, git hosts, CI, chat, payment, AI providers, package registries, JWTs);
- blocks.py: whole private key blocks (PEM, OpenSSH, PGP, SSH2, PuTTY);
- assign.py: credential-named assignments (`DB_PASSWORD=…`, `"apiKey": "…"`, `--token …`,
  `Authorization: Bearer …`) whose value looks like a real secret, not a placeholder,
  a reference (`${DB_PASSWORD}`, `os.environ["TOKEN"]`) or code;
- commands.py: passwords in URLs, `curl -u`, `sshpass -p`, `mysql -p`, `.netrc` lines.

Every rule runs in time linear in the text's length (literal needles first, bounded
quantifiers, bounded look-around), so a 1 MB line of `a-a-a-…` scans in milliseconds.
A line holding `memkit: allow-secret` is skipped by `scan` unless the caller passes
`honour_pragma=False` (agents' writes do); `redact` ignores the pragma.

Why our own rules rather than detect-secrets (Yelp) as a library: it would add requests and
its plugin machinery to every install, its keyword plugin backtracks on long lines the way
the old `_ASSIGN` pattern did, it runs each plugin over each line (a memory write would cost
milliseconds, validate over 10,000 memories many seconds), and it covers about 25 formats.
gitleaks' default rules and detect-secrets' plugins served as the checklist of formats to
cover; the patterns here are memkit's own. benchmarks/secrets_heldout.py measures recall
and false positives on text the rules were not tuned on.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from memkit.secrets import assign, blocks, commands, formats
from memkit.secrets.hit import Hit
from memkit.secrets.values import entropy

__all__ = [
    "ALLOW_PRAGMA",
    "REDACTED",
    "Finding",
    "Hit",
    "entropy",
    "hits",
    "redact",
    "scan",
    "scan_values",
]

ALLOW_PRAGMA = "memkit: allow-secret"
REDACTED = "[REDACTED]"
# The line breaks str.splitlines() knows, so line numbers match it.
_BREAK = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9+/=_.~-]*")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Finding:
    kind: str
    line: int  # 1-based, within the scanned text

    def describe(self) -> str:
        return f"line {self.line}: looks like a {self.kind}"


def _lower(text: str) -> str:
    """Lower-cased with every index kept (str.lower can change the length: 'İ')."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


# Values a vendor publishes in its documentation as fakes: never a secret anyone holds.
DOCUMENTED_EXAMPLES = (
    "AKIAIOSFODNN7EXAMPLE",  # AWS's example access key id
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # and its secret access key
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",  # the variant in some AWS guides
)


def hits(text: str) -> list[Hit]:
    """Every likely secret in `text`, as character spans, in no particular order.

    A hit that lies within a documented example value (DOCUMENTED_EXAMPLES) is none."""
    lowered = _lower(text)
    found = [
        *blocks.find(text),
        *formats.find(text),
        *assign.find(text, lowered),
        *commands.find(text, lowered),
    ]
    fakes = [(i, i + len(fake)) for fake in DOCUMENTED_EXAMPLES for i in _occurrences(text, fake)]
    return [h for h in found if not any(a <= h.start and h.end <= b for a, b in fakes)]


def _occurrences(text: str, needle: str) -> list[int]:
    out, i = [], text.find(needle)
    while i >= 0:
        out.append(i)
        i = text.find(needle, i + 1)
    return out


_SEPARATORS = str.maketrans("/.#_:-", "      ")


def _path_like(word: str) -> bool:
    """A path, anchor or slug (`tests/AGENTS.md#testing-part-6`): separators between
    pieces that are each all letters or all digits; a token mixes them within a piece."""
    pieces = word.translate(_SEPARATORS).split()
    return len(pieces) > 1 and all(p.isalpha() or p.isdigit() for p in pieces)


def bare_values(value: str) -> list[Finding]:
    """A value given on its own with no label (a tag, a word of a title) that looks like a
    random token: 20 or more characters of mixed letters and digits, not a hex digest
    or a UUID."""
    from memkit.secrets.values import is_random

    for word in value.split():
        word = word.strip("\"'`()[]<>,;")
        if (
            len(word) >= 20
            and word not in DOCUMENTED_EXAMPLES
            and not all(c in "0123456789abcdefABCDEF-" for c in word)  # digests, UUIDs
            and not _path_like(word)
            and is_random(word, code=False)
        ):
            return [Finding("bare token (a secret without its label)", 1)]
    return []


def scan(text: str, *, honour_pragma: bool = True) -> list[Finding]:
    """Every likely secret in `text`, one finding per line at most, in line order.

    With `honour_pragma` a line holding `memkit: allow-secret` is skipped (a documented fake
    example); pass False for text from agents, which must not wave their own secrets through.
    """
    found = hits(text)
    if not found:
        return []
    starts = [0, *(m.end() for m in _BREAK.finditer(text))]
    best: dict[int, Hit] = {}
    for hit in found:
        line = bisect.bisect_right(starts, hit.start)
        old = best.get(line)
        if old is None or (hit.rank, hit.start) < (old.rank, old.start):
            best[line] = hit
    findings = []
    for line in sorted(best):
        if honour_pragma:
            end = starts[line] if line < len(starts) else len(text)
            if ALLOW_PRAGMA in text[starts[line - 1] : end]:
                continue
        findings.append(Finding(best[line].kind, line))
    return findings


def scan_values(
    pairs: Iterable[tuple[str, str]], *, honour_pragma: bool = True
) -> list[tuple[str, Finding]]:
    """Scan decoded field values (front matter: title, tags, source, paths, links, …).

    `pairs` are (field name, value) with the value already decoded from YAML, so quoting
    (`'token: ''ghp_…'''`) or folding cannot hide a secret. Lines are counted within each value.
    """
    return [
        (field, finding)
        for field, value in pairs
        if value  # an empty value (no source, say) holds nothing
        for finding in scan(value, honour_pragma=honour_pragma)
    ]


def redact(text: str) -> str:
    """Replace every likely secret in `text` with `[REDACTED]` (for agent drafts).

    Whole private key blocks go, and only the value of `name = value` (the name stays); a
    token longer than its rule reads is removed to its end. The pragma is ignored: what
    `scan(…, honour_pragma=False)` finds is always removed.
    """
    for _ in range(4):  # a replacement can complete no new secret; the loop is a safety net
        spans = sorted((h.start, h.end) for h in hits(text))
        if not spans:
            return text
        parts = []
        pos = 0
        for start, end in spans:
            if end <= pos:
                continue
            if start >= pos:
                parts += [text[pos:start], REDACTED]
            tail = _TOKEN_TAIL.match(text, end)  # spans are sorted: each character once
            pos = tail.end() if tail else end
        parts.append(text[pos:])
        text = "".join(parts)
    return text
