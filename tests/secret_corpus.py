"""Real-shaped fake secrets, built from pieces at run time, and text that must not be flagged.

Nothing in this file looks like a secret to a scanner: each token is assembled from a
prefix split in two and characters from a seeded generator, so the repository itself
holds no secret-looking literal. tests/test_secrets.py and benchmarks/secrets_eval.py
share it.
"""

from __future__ import annotations

import random
import string

_rng = random.Random(2026)
UP = string.ascii_uppercase
LOW = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LOW + DIG
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def r(chars: str, n: int) -> str:
    """n characters from `chars`, always mixing letters and digits like real tokens."""
    while True:
        s = "".join(_rng.choice(chars) for _ in range(n))
        mixed = any(c.isdigit() for c in s) and any(c.isalpha() for c in s)
        if n < 8 or mixed or not (set(chars) & set(DIG) and set(chars) - set(DIG)):
            return s


def p(*parts: str) -> str:
    return "".join(parts)


def _pem(kind: str) -> str:
    label = f"{kind} " if kind else ""
    body = "\n".join(r(B64, 64) for _ in range(4))
    return p("-----BEGIN ", label, "PRIV", "ATE KEY-----\n", body, "\n-----END ", label,
             "PRIV", "ATE KEY-----")  # fmt: skip


def secrets(seed: int = 2026) -> list[tuple[str, str]]:
    """(format, text as it would appear in a memory) for every format."""
    _rng.seed(seed)
    jwt = p("ey", "J", r(URLSAFE, 30), ".", "ey", "J", r(URLSAFE, 60), ".", r(URLSAFE, 43))
    return [
        ("AWS access key id", p("The CI user key is ", "AK", "IA", r(UP + DIG, 16))),
        ("AWS temporary key id", p("aws_access_key_id = ", "AS", "IA", r(UP + DIG, 16))),
        ("AWS secret access key", p("aws_secret_access_key = ", r(B64, 40))),
        ("GitHub personal token", p("export GH_TOKEN=", "gh", "p_", r(ALNUM, 36))),
        ("GitHub OAuth token", p("token: ", "gh", "o_", r(ALNUM, 36))),
        ("GitHub app token", p("use ", "gh", "s_", r(ALNUM, 36), " for the bot")),
        ("GitHub fine-grained token", p("github", "_pat_", r(ALNUM, 22), "_", r(ALNUM, 59))),
        ("GitLab token", p("gl", "pat-", r(URLSAFE, 20))),
        ("Slack bot token", p("xo", "xb-", r(DIG, 12), "-", r(DIG, 13), "-", r(ALNUM, 24))),
        (
            "Slack webhook",
            p(
                "https://hooks.",
                "slack.com/services/T",
                r(UP + DIG, 10),
                "/B",
                r(UP + DIG, 10),
                "/",
                r(ALNUM, 24),
            ),
        ),
        ("Stripe live key", p("STRIPE_KEY=", "sk", "_live_", r(ALNUM, 24))),
        ("Stripe restricted key", p("rk", "_live_", r(ALNUM, 24))),
        ("Google API key", p("maps key ", "AI", "za", r(URLSAFE, 35))),
        ("OpenAI key", p("sk-", "proj-", r(URLSAFE, 58), "T3Blb", "kFJ", r(URLSAFE, 58))),
        ("Anthropic key", p("sk-", "ant-", "api03-", r(URLSAFE, 93), "AA")),
        ("npm token", p("//registry.npmjs.org/:_authToken=", "np", "m_", r(ALNUM, 36))),
        ("PyPI token", p("pypi-", "AgEIcHlwaS5vcmc", r(URLSAFE, 70))),
        ("JSON web token", p("Authorization: Bearer ", jwt)),
        ("RSA private key", _pem("RSA")),
        ("OpenSSH private key", _pem("OPENSSH")),
        ("EC private key", _pem("EC")),
        ("PKCS8 private key", _pem("")),
        (
            "password in URL",
            p("DATABASE_URL=postgres://app:", r(ALNUM, 16), "@db.internal.example.com:5432/app"),
        ),
        ("password assignment", p('DB_PASSWORD = "', r(ALNUM + "!#%", 18), '"')),
        ("api key assignment", p("api_key: ", r(ALNUM, 32))),
        ("client secret in JSON", p('{"client_secret": "', r(ALNUM + "-_", 40), '"}')),
        ("token in YAML", p("  auth_token: ", r(ALNUM, 40))),
        ("SendGrid key", p("SG", ".", r(URLSAFE, 22), ".", r(URLSAFE, 43))),
        ("Twilio API key", p("twilio sid ", "SK", r(HEX, 32))),
        ("Mailgun key", p("mailgun ", "key-", r(HEX, 32))),
        ("Shopify token", p("shp", "at_", r(HEX, 32))),
        ("DigitalOcean token", p("do", "p_v1_", r(HEX, 64))),
        ("Hugging Face token", p("HF_TOKEN=", "h", "f_", r(UP + LOW, 34))),
        ("Databricks token", p("da", "pi", r(HEX, 32))),
        ("Telegram bot token", p("bot", r(DIG, 10), ":", "AA", r(URLSAFE, 33))),
        (
            "Azure storage key",
            p("DefaultEndpointsProtocol=https;AccountName=prod;", "AccountKey=", r(B64, 86), "=="),
        ),
        ("Basic auth header", p("Authorization: Basic ", r(B64, 40), "=")),
        ("Bearer token header", p("curl -H 'Authorization: Bearer ", r(URLSAFE, 40), "'")),
        (
            "Heroku API key",
            p(
                "HEROKU_API_KEY=",
                r(HEX, 8),
                "-",
                r(HEX, 4),
                "-",
                r(HEX, 4),
                "-",
                r(HEX, 4),
                "-",
                r(HEX, 12),
            ),
        ),
        ("Atlassian token", p("ATA", "TT3xFfGF0", r(URLSAFE, 180), "=", r(HEX.upper(), 8))),
        ("Square token", p("sq0", "atp-", r(URLSAFE, 22))),
        (
            "Discord webhook",
            p("https://discord.com/api/", "webhooks/", r(DIG, 18), "/", r(URLSAFE, 68)),
        ),
    ]


# Ordinary technical prose and code, the kind memories are made of: none is a secret.
BENIGN: list[str] = [
    "Always validate the session token on the server; the client copy is only a hint.",
    "The password reset flow sends a one-time link that expires after 30 minutes.",
    "Rotate the API key every 90 days; the reminder lives in the ops calendar.",
    "token = os.environ['GITHUB_TOKEN']",
    "password = getpass.getpass('Password: ')",
    "api_key = settings.STRIPE_API_KEY",
    "secret_key_base = Rails.application.credentials.secret_key_base",
    'DB_PASSWORD: "${DB_PASSWORD}"',
    "client_secret: {{ vault_client_secret }}",
    "access_key = config.get('aws', 'access_key_id')",
    "auth_token = request.headers.get('Authorization', '').removeprefix('Bearer ')",
    "credentials = service_account.Credentials.from_service_account_file(path)",
    "if not token or token.expired(): token = refresh_token(client)",
    "The fix landed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 on main.",
    "Checksum: sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Request id 123e4567-e89b-12d3-a456-426614174000 shows the retry storm.",
    "Clone with git@github.com:memkit/memkit.git and run make test.",
    "Connect to postgres://localhost:5432/app_test in the test suite.",
    "The docs live at https://docs.example.com/guide/setup#install.",
    "Use `pip install -e '.[dev]'` then `pre-commit install`.",
    "Keys in Stripe start with sk_live_ or sk_test_; never paste a live one here.",
    "AWS key ids start with AKIA; ours live in the vault, not in the repository.",
    "GitHub tokens look like ghp_ followed by 36 characters; revoke leaked ones at once.",
    "-----BEGIN CERTIFICATE----- blocks are public: committing a certificate is fine.",
    "ssh-ed25519 public keys may be shared; the private half never leaves the laptop.",
    "The JWT header is base64url JSON; decode it with `jwt.decode(token, verify=False)`.",
    "def get_password_hash(password: str) -> str: return pwd_context.hash(password)",
    "TOKEN_EXPIRY_SECONDS = 3600",
    "MAX_PASSWORD_LENGTH = 128",
    "password_min_length: 12",
    "api_key_header = APIKeyHeader(name='X-API-Key', auto_error=False)",
    "secret = secrets.token_urlsafe(32)  # generated at start-up, never stored",
    "access_token_url: https://github.com/login/oauth/access_token",
    "The billing_service.retry_policy.max_attempts setting defaults to five.",
    "Run `kubectl get secret app-env -o yaml` to see which keys exist (not their values).",
    "hash = hashlib.sha1(content).hexdigest()  # e.g. da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "Base64 of 'hello world' is aGVsbG8gd29ybGQ=, handy when debugging the encoder.",
    "font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif;",
    '<img src="data:image/png;base64,iVBORw0KGgo" alt="logo">',
    "The cache key is f'{tenant_id}:{user_id}:{resource}' and expires after ten minutes.",
    "CSRF_COOKIE_NAME = 'csrftoken'",
    "password_field = forms.CharField(widget=forms.PasswordInput)",
    "jobs.retry_backoff = ExponentialBackoff(base=0.5, cap=30.0)",
    "PYTHONHASHSEED=0 makes the ordering test deterministic.",
    "Set MEMKIT_TODAY=2026-01-31 to pin the clock in tests.",
    "The UUID namespace 6ba7b810-9dad-11d1-80b4-00c04fd430c8 is the DNS one.",
    "Use `openssl rand -hex 32` to make a new signing key and store it in the vault.",
    "token_type: bearer",
    "passwordless login uses magic links; see auth/magic.py::send_link",
    "Our docker image digest is sha256:"
    "4b1c0a8f2d9e7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b.",
    "Authorization: Bearer <token>",
    "export OPENAI_API_KEY=your-key-here",
    "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
    "mysql://root@localhost/test",
    "redis://:@localhost:6379/0",
    "The Sentry DSN is public by design; the auth token for releases is not.",
]
