"""Realistic fake secrets for benchmarks/adversarial.py, built from pieces at run time.

Each token is assembled from a split prefix and seeded random characters, so this file
holds no secret-looking literal. Every secret comes with its *tells*: the random pieces
(and their ends), any of which found in a file means the secret, or part of it, got there.
"""

from __future__ import annotations

import base64
import random
import string
from dataclasses import dataclass

UP, LOW, DIG = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALNUM = UP + LOW + DIG
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


@dataclass(frozen=True)
class Secret:
    kind: str
    text: str
    tells: tuple[str, ...]


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.pieces: list[str] = []

    def r(self, chars: str, n: int) -> str:
        """n random characters from `chars` (mixing letters and digits when both are there)."""
        while True:
            s = "".join(self.rng.choice(chars) for _ in range(n))
            if (
                n < 8
                or not (set(chars) & set(DIG))
                or not (set(chars) - set(DIG))
                or (any(c.isdigit() for c in s) and any(c.isalpha() for c in s))
            ):
                self.pieces.append(s)
                return s

    def take(self) -> tuple[str, ...]:
        tells = set()
        for piece in self.pieces:
            if len(piece) >= 10:
                tells.add(piece)
            if len(piece) >= 24:
                tells.update((piece[:12], piece[-12:]))
        self.pieces = []
        return tuple(sorted(tells))


def p(*parts: str) -> str:
    return "".join(parts)


def _block(g: _Gen, begin: str, lines: int = 5) -> str:
    body = "\n".join(g.r(B64, 64) for _ in range(lines))
    return p("-----BEGIN ", begin, "-----\n", body, "\n-----END ", begin, "-----")


def _key(label: str) -> str:
    return p(label, "PRIV", "ATE KEY")


def secrets(seed: int = 7) -> list[Secret]:
    """Every fake secret, (kind, text as it would be written, tells)."""
    g = _Gen(seed)
    out: list[Secret] = []

    def add(kind: str, text: str) -> None:
        out.append(Secret(kind, text, g.take()))

    def b64(text: str, *, url: bool = False) -> str:
        """`text` base64-encoded: its random pieces are hidden, the encoding is the tell."""
        raw = (base64.urlsafe_b64encode if url else base64.b64encode)(text.encode()).decode()
        g.pieces = [p for p in g.pieces if p not in text]
        g.pieces.append(raw.rstrip("="))
        return raw.rstrip("=") if url else raw

    def jwt() -> str:
        head = b64('{"alg":"HS256","typ":"JWT"}', url=True)
        g.pieces = []
        claims = p('{"sub":"', g.r(DIG, 10), '","name":"svc-', g.r(LOW, 8), '","iat":1716239022}')
        return p(head, ".", b64(claims, url=True), ".", g.r(URLSAFE, 43))

    add("AWS access key id", p("The CI user key is ", "AK", "IA", g.r(UP + DIG, 16)))
    add("AWS temporary key id", p("aws_access_key_id = ", "AS", "IA", g.r(UP + DIG, 16)))
    add("AWS secret access key", p("aws_secret_access_key = ", g.r(B64, 40)))
    add("AWS secret in export", p("export AWS_SECRET_ACCESS_KEY=", g.r(B64, 40)))
    for prefix in ("gh" + "p_", "gh" + "o_", "gh" + "s_", "gh" + "u_", "gh" + "r_"):
        add(f"GitHub {prefix} token", p("token: ", prefix, g.r(ALNUM, 36)))
    add("GitHub fine-grained token", p("github", "_pat_", g.r(ALNUM, 22), "_", g.r(ALNUM, 59)))
    add("GitLab personal token", p("gl", "pat-", g.r(URLSAFE, 20)))
    add("GitLab deploy token", p("gl", "dt-", g.r(URLSAFE, 20)))
    add("GitLab runner token", p("gl", "rt-", g.r(URLSAFE, 20)))
    add("Slack bot token", p("xo", "xb-", g.r(DIG, 12), "-", g.r(DIG, 13), "-", g.r(ALNUM, 24)))
    add(
        "Slack user token",
        p("xo", "xp-", g.r(DIG, 12), "-", g.r(DIG, 13), "-", g.r(DIG, 13), "-", g.r(HEX, 32)),
    )
    add(
        "Slack app-level token",
        p("xa", "pp-1-A0", g.r(UP + DIG, 9), "-", g.r(DIG, 13), "-", g.r(HEX, 64)),
    )
    add(
        "Slack webhook",
        p(
            "https://hooks.",
            "slack.com/services/T",
            g.r(UP + DIG, 10),
            "/B",
            g.r(UP + DIG, 10),
            "/",
            g.r(ALNUM, 24),
        ),
    )
    add("Stripe live key", p("STRIPE_KEY=", "sk", "_live_", g.r(ALNUM, 24)))
    add("Stripe restricted key", p("rk", "_live_", g.r(ALNUM, 24)))
    add("Stripe webhook secret", p("STRIPE_WEBHOOK_SECRET=", "wh", "sec_", g.r(ALNUM, 32)))
    add("Stripe webhook secret (prose)", p("the signing secret is ", "wh", "sec_", g.r(ALNUM, 32)))
    add("OpenAI project key", p("sk-", "proj-", g.r(URLSAFE, 58), "T3Blb", "kFJ", g.r(URLSAFE, 58)))
    add(
        "OpenAI service-account key",
        p("sk-", "svcacct-", g.r(URLSAFE, 58), "T3Blb", "kFJ", g.r(URLSAFE, 58)),
    )
    add("OpenAI legacy key", p("sk-", g.r(ALNUM, 20), "T3Blb", "kFJ", g.r(ALNUM, 20)))
    add("Anthropic API key", p("sk-", "ant-", "api03-", g.r(URLSAFE, 93), "AA"))
    add("Anthropic admin key", p("sk-", "ant-", "admin01-", g.r(URLSAFE, 93), "AA"))
    add("Google API key", p("maps key ", "AI", "za", g.r(URLSAFE, 35)))
    add("Google OAuth client secret", p("client secret ", "GOC", "SPX-", g.r(URLSAFE, 28)))
    add(
        "Google service account key",
        p(
            '"private_key": "-----BEGIN ',
            _key(""),
            "-----\\n",
            g.r(B64, 64),
            "\\n",
            g.r(B64, 64),
            '\\n"',
        ),
    )
    add("Vault service token", p("VAULT_TOKEN=", "hv", "s.", g.r(URLSAFE, 90)))
    add("Vault batch token", p("vault login ", "hv", "b.", g.r(URLSAFE, 120)))
    add("Vault legacy token", p("X-Vault-Token: ", "s.", g.r(ALNUM, 24)))
    add("age secret key", p("AGE-SECRET", "-KEY-1", g.r(BECH32, 58)))
    for label in ("RSA ", "EC ", "DSA ", "", "ENCRYPTED "):
        add(f"{label or 'PKCS8 '}private key block", _block(g, _key(label)))
    add("OpenSSH private key", _block(g, _key("OPENSSH "), 7))
    add(
        "PGP private key block",
        p(
            "-----BEGIN PGP ",
            "PRIV",
            "ATE KEY BLOCK-----\n\n",
            g.r(B64, 64),
            "\n",
            g.r(B64, 64),
            "\n=",
            g.r(B64, 4),
            "\n-----END PGP ",
            "PRIV",
            "ATE KEY BLOCK-----",
        ),
    )
    add(".netrc line", p("machine api.example.com login deploy password ", g.r(ALNUM + "!#%", 20)))
    add(".netrc lines", p("machine git.example.com\n  login ci-bot\n  password ", g.r(ALNUM, 24)))
    add(
        "password in postgres URL",
        p("DATABASE_URL=postgres://app:", g.r(ALNUM, 16), "@db.internal.example.com:5432/app"),
    )
    add(
        "password in redis URL, no user",
        p("REDIS_URL=redis://:", g.r(ALNUM, 20), "@cache.internal:6379/0"),
    )
    add(
        "password in rediss URL, default user",
        p("rediss://default:", g.r(ALNUM, 24), "@redis-12345.example.cloud:12345"),
    )
    add(
        "password in MongoDB URL",
        p("mongodb+srv://admin:", g.r(ALNUM, 18), "@cluster0.ab1cd.mongodb.net/prod"),
    )
    add("password in AMQP URL", p("amqp://worker:", g.r(ALNUM, 16), "@rabbit.internal:5672/"))
    add(
        "password in git URL",
        p("git clone https://ci:", g.r(ALNUM, 20), "@git.example.com/team/app.git"),
    )
    add("JSON web token", p("session=", jwt()))
    add("Bearer JWT header", p("Authorization: Bearer ", jwt()))
    add("Bearer token header", p("curl -H 'Authorization: Bearer ", g.r(URLSAFE, 40), "'"))
    add("Basic auth header", p("Authorization: Basic ", b64(p("deploy:", g.r(ALNUM, 18)))))
    add("token auth header", p("Authorization: token ", g.r(HEX, 40)))
    add("export X_TOKEN", p("export X_TOKEN=", g.r(ALNUM, 32)))
    add("export API_KEY", p("export PAYMENTS_API_KEY=", g.r(ALNUM, 32)))
    add("password assignment", p('DB_PASSWORD = "', g.r(ALNUM + "!#%", 18), '"'))
    add("client secret in JSON", p('{"client_secret": "', g.r(URLSAFE, 40), '"}'))
    add("npm token", p("//registry.npmjs.org/:_authToken=", "np", "m_", g.r(ALNUM, 36)))
    add("PyPI token", p("pypi-", "AgEIcHlwaS5vcmc", g.r(URLSAFE, 70)))
    add("SendGrid key", p("SG", ".", g.r(URLSAFE, 22), ".", g.r(URLSAFE, 43)))
    add("Twilio API key", p("twilio sid ", "SK", g.r(HEX, 32)))
    add("Mailgun key", p("mailgun ", "key-", g.r(HEX, 32)))
    add("Shopify token", p("shp", "at_", g.r(HEX, 32)))
    add("DigitalOcean token", p("do", "p_v1_", g.r(HEX, 64)))
    add("Hugging Face token", p("HF_TOKEN=", "h", "f_", g.r(UP + LOW, 34)))
    add("Databricks token", p("da", "pi", g.r(HEX, 32)))
    add("Telegram bot token", p("bot", g.r(DIG, 10), ":", "AA", g.r(URLSAFE, 33)))
    add(
        "Azure storage key",
        p("DefaultEndpointsProtocol=https;AccountName=prod;", "AccountKey=", g.r(B64, 86), "=="),
    )
    add("Atlassian token", p("ATA", "TT3xFfGF0", g.r(URLSAFE, 180), "=", g.r(HEX.upper(), 8)))
    add("Square token", p("sq0", "atp-", g.r(URLSAFE, 22)))
    add(
        "Discord webhook",
        p("https://discord.com/api/", "webhooks/", g.r(DIG, 18), "/", g.r(URLSAFE, 68)),
    )
    add(
        "Heroku API key",
        p(
            "HEROKU_API_KEY=",
            g.r(HEX, 8),
            "-",
            g.r(HEX, 4),
            "-4",
            g.r(HEX, 3),
            "-a",
            g.r(HEX, 3),
            "-",
            g.r(HEX, 12),
        ),
    )
    add(
        "Docker config auth",
        p('"auths": {"registry.example.com": {"auth": "', b64(p("ci:", g.r(ALNUM, 20))), '"}}'),
    )
    add(
        "Mapbox secret token",
        p("sk", ".eyJ1Ijoi", g.r(LOW, 8), "IiwiYSI6I", g.r(URLSAFE, 20), "In0.", g.r(URLSAFE, 22)),
    )
    add("Linear API key", p("lin", "_api_", g.r(ALNUM, 40)))
    add("Notion token", p("NOTION_TOKEN=", "nt", "n_", g.r(ALNUM, 46)))
    add("Doppler token", p("dp", ".st.", "prd.", g.r(ALNUM, 43)))
    add("Grafana service account token", p("gl", "sa_", g.r(ALNUM, 32), "_", g.r(HEX, 8)))
    add("New Relic user key", p("NR", "AK-", g.r(UP + DIG, 27)))
    add("Postman API key", p("PM", "AK-", g.r(HEX, 24), "-", g.r(HEX, 34)))
    add("Sentry auth token", p("SENTRY_AUTH_TOKEN=", "sntr", "ys_", g.r(URLSAFE, 80)))
    return out
