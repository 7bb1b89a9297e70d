"""Find likely secrets in text before it is written to a store that git keeps forever.

Patterns cover the formats that leak most often; a line holding
`memkit: allow-secret` is skipped (for documented, fake example values).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

ALLOW_PRAGMA = "memkit: allow-secret"

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(rx))
    for kind, rx in (
        ("private key block", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
        ("AWS access key id", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
        (
            "AWS secret access key",
            r"(?i)aws_?secret_?(?:access_?)?key\s*[:=]\s*[\"']?[A-Za-z0-9/+]{40}\b",
        ),
        ("GitHub token", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b"),
        ("GitHub fine-grained token", r"\bgithub_pat_[A-Za-z0-9_]{60,255}\b"),
        ("GitLab token", r"\bgl(?:pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_\-]{20,}"),
        ("Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
        ("Slack webhook", r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]+"),
        ("Stripe secret key", r"\b[sr]k_live_[A-Za-z0-9]{20,}\b"),
        ("Google API key", r"\bAIza[0-9A-Za-z_\-]{35}"),
        (
            "OpenAI API key",
            r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}T3BlbkFJ[A-Za-z0-9_\-]{20,}\b",
        ),
        ("Anthropic API key", r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_\-]{80,}\b"),
        ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
        ("PyPI token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}\b"),
        ("SendGrid API key", r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"),
        ("Twilio API key", r"\bSK[0-9a-f]{32}\b"),
        ("Mailgun API key", r"\bkey-[0-9a-f]{32}\b"),
        ("Shopify token", r"\bshp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}\b"),
        ("DigitalOcean token", r"\bdo[opr]_v1_[0-9a-f]{64}\b"),
        ("Hugging Face token", r"\bhf_[A-Za-z]{34}\b"),
        ("Databricks token", r"\bdapi[0-9a-f]{32}(?:-\d)?\b"),
        ("Telegram bot token", r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_\-]{33}"),
        ("Azure storage key", r"AccountKey=[A-Za-z0-9+/]{86}=="),
        ("Atlassian API token", r"\bATATT3[A-Za-z0-9_\-=]{150,}"),
        ("Square token", r"\bsq0(?:atp|csp)-[A-Za-z0-9_\-]{22,43}"),
        (
            "Discord webhook",
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w\-]{60,}",
        ),
        ("JSON web token", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
        (
            "password in URL",
            r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:([^\s:/@]{6,})@[\w.\-]+",
        ),
    )
)
_KEY_BLOCK = re.compile(
    r"-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----.*?(?:-----END \1PRIVATE KEY-----|\Z)", re.DOTALL
)
# name = value, where name says it is a credential and value looks random.
_ASSIGN = re.compile(
    r"(?i)\b([\w.\-]*(?:password|passwd|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key|"
    r"private[_\-]?key|client[_\-]?secret|auth[_\-]?key|credentials?))[\"']?\s*(?::=|=>|[:=])\s*"
    r"[\"']?([^\s\"'`,;]{8,})"
)


# An HTTP Authorization header with a literal credential (not `<token>` or `$TOKEN`).
_HEADER = re.compile(r"(?i)\bauthorization:\s*(?:basic|bearer|token)\s+([A-Za-z0-9+/_\-.~]{16,}=*)")
# Dotted names and calls (`settings.API_KEY`, `Manager()`) are code, not values.
_CODE = re.compile(r"[A-Za-z_]\w*(?:(?:\.[A-Za-z_]\w*)+(?:\(.*)?|\(.*)")


@dataclass(frozen=True)
class Finding:
    kind: str
    line: int  # 1-based, within the scanned text

    def describe(self) -> str:
        return f"line {self.line}: looks like a {self.kind}"


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(value: str) -> bool:
    if len(value) < 12 or value.startswith(("$", "{", "<", "%(", "%s", "os.", "env")):
        return False
    if re.fullmatch(r"[0-9a-fA-F]{32,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", value):
        return True  # a hex key or a UUID given to a credential name
    if re.fullmatch(r"[a-z_]+(\.[a-z_]+)*(\(\))?", value):  # identifiers, attribute access
        return False
    if _CODE.fullmatch(value) and not re.search(r"\d{4}", value):
        return False
    classes = sum(
        bool(re.search(rx, value)) for rx in (r"[a-z]", r"[A-Z]", r"[0-9]", r"[^A-Za-z0-9]")
    )
    return classes >= 3 and entropy(value) >= 3.5


def scan(text: str) -> list[Finding]:
    """Every likely secret in `text`, one finding per line at most, in line order."""
    findings: list[Finding] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if ALLOW_PRAGMA in line:
            continue
        kind = _line_kind(line)
        if kind:
            findings.append(Finding(kind, lineno))
    return findings


def _line_kind(line: str) -> str | None:
    for kind, rx in _PATTERNS:
        if rx.search(line):
            return kind
    for m in _ASSIGN.finditer(line):
        if _looks_random(m.group(2)):
            return f"high-entropy value assigned to {m.group(1)!r}"
    for m in _HEADER.finditer(line):
        if _looks_random(m.group(1)):
            return "credential in an Authorization header"
    return None


def redact(text: str) -> str:
    """Replace every likely secret in `text` with `[REDACTED]` (for agent drafts)."""
    text = _KEY_BLOCK.sub("[REDACTED]", text)
    for _, rx in _PATTERNS:
        text = rx.sub("[REDACTED]", text)

    def _sub(m: re.Match[str]) -> str:
        if _looks_random(m.group(2)):
            return m.group(0).replace(m.group(2), "[REDACTED]")
        return m.group(0)

    text = _ASSIGN.sub(_sub, text)

    def _sub_header(m: re.Match[str]) -> str:
        if _looks_random(m.group(1)):
            return m.group(0).replace(m.group(1), "[REDACTED]")
        return m.group(0)

    return _HEADER.sub(_sub_header, text)
