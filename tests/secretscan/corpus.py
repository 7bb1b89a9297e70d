"""Real-shaped fake secrets, built from pieces at run time, and text that must not be flagged.

Nothing in this file looks like a secret to a scanner: each token is assembled from a
prefix split in two and characters from a seeded generator, so the repository itself
holds no secret-looking literal. tests/secretscan/test_secrets.py and benchmarks/secrets_eval.py
share it.
"""

from __future__ import annotations

import base64
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
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


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
    return p(
        "-----BEGIN ",
        label,
        "PRIV",
        "ATE KEY-----\n",
        body,
        "\n-----END ",
        label,
        "PRIV",
        "ATE KEY-----",
    )


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
        *_cloud_and_developer_tools(),
        *_chat_payment_and_ai(),
        *_keys_urls_and_commands(),
    ]


def _uuid() -> str:
    h = r(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _b64(raw: str) -> str:
    return base64.b64encode(raw.encode()).decode()


def _cloud_and_developer_tools() -> list[tuple[str, str]]:
    return [
        ("AWS Bedrock API key", p("AB", "SK", r(B64, 132))),
        ("Google OAuth client secret", p("client_secret: ", "GOC", "SPX-", r(URLSAFE, 28))),
        ("Google OAuth token", p("gcloud token ", "ya", "29.", r(URLSAFE, 120))),
        ("Google OAuth refresh token", p("refresh with ", "1//", "0", r(URLSAFE, 60))),
        (
            "Azure shared access key",
            p(
                "Endpoint=sb://bus.servicebus.windows.net/;",
                "SharedAccess",
                "Key=",
                r(B64, 43),
                "=",
            ),
        ),
        (
            "Azure AD client secret",
            p("AZURE_CLIENT_SECRET=", r(ALNUM, 3), r(DIG, 1), "Q", "~", r(ALNUM + "_~.-", 34)),
        ),
        (
            "signed URL signature",
            p(
                "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&",
                "si",
                "g=",
                r(ALNUM, 43),
                "%3D",
            ),
        ),
        ("Alibaba access key id", p("LT", "AI", r(ALNUM, 20))),
        ("Heroku API key v2", p("HR", "KU-AA", r(URLSAFE, 58))),
        ("Cloudflare origin CA key", p("v1", ".0-", r(HEX, 24), "-", r(HEX, 146))),
        ("Fly.io token", p("FLY_API_TOKEN=", "fo", "1_", r(URLSAFE, 43))),
        ("Vault token", p("export VAULT_TOKEN=", "hv", "s.", r(URLSAFE, 95))),
        ("Terraform Cloud token", p(r(ALNUM, 14), ".atlas", "v1.", r(URLSAFE, 67))),
        ("Doppler token", p("dp", ".pt.", r(ALNUM, 43))),
        ("Yandex API key", p("AQ", "VN", r(URLSAFE, 36))),
        ("Scalingo token", p("tk", "-us-", r(URLSAFE, 48))),
        ("GitLab runner token", p("gl", "rt-", r(URLSAFE, 20))),
        ("GitLab session cookie", p("_gitlab_", "session=", r(LOW + DIG, 32))),
        ("Bitbucket app password", p("AT", "BB", r(ALNUM, 32))),
        ("Sourcegraph token", p("sg", "p_", r(HEX, 16), "_", r(HEX, 40))),
        ("JFrog token", p("AK", "Cp", r(ALNUM, 69))),
        ("CircleCI token", p("CCI", "PAT_", r(ALNUM, 22), "_", r(HEX, 40))),
        ("Buildkite token", p("bk", "ua_", r(HEX, 40))),
        ("Harness token", p("pa", "t.", r(URLSAFE, 22), ".", r(ALNUM, 24), ".", r(ALNUM, 20))),
        ("Octopus Deploy key", p("AP", "I-", r(UP + DIG, 26))),
        ("Pulumi token", p("pu", "l-", r(HEX, 40))),
        ("Prefect token", p("pn", "u_", r(ALNUM, 36))),
        ("Infracost token", p("ic", "o-", r(ALNUM, 32))),
        ("SonarQube token", p("sq", "u_", r(HEX, 40))),
        ("Dynatrace token", p("dt0", "c01.", r(UP + DIG, 24), ".", r(ALNUM, 64))),
        ("Grafana token", p("gl", "sa_", r(ALNUM, 32), "_", r(HEX, 8))),
        ("Sentry token", p("sntr", "yu_", r(HEX, 64))),
        ("New Relic key", p("NR", "AK-", r(UP + DIG, 27))),
        ("Linear API key", p("lin", "_api_", r(ALNUM, 40))),
        ("Notion token", p("nt", "n_", r(DIG, 11), r(ALNUM, 35))),
        ("Postman API key", p("PM", "AK-", r(HEX, 24), "-", r(HEX, 34))),
        ("ReadMe API key", p("rd", "me_", r(LOW + DIG, 70))),
        (
            "1Password secret key",
            p(
                "A",
                "3-",
                r(UP + DIG, 6),
                "-",
                r(UP + DIG, 6),
                "-",
                r(UP + DIG, 5),
                "-",
                r(UP + DIG, 5),
                "-",
                r(UP + DIG, 5),
                "-",
                r(UP + DIG, 5),
            ),
        ),
        ("1Password service account token", p("ops", "_eyJ", r(ALNUM + "+/", 300))),
        ("age secret key", p("AGE-SECRET", "-KEY-1", r(BECH32, 58))),
        ("PlanetScale token", p("pscale", "_tkn_", r(URLSAFE, 43))),
        ("Frame.io token", p("fio", "-u-", r(URLSAFE, 64))),
        ("MaxMind license key", p(r(ALNUM, 6), "_", r(ALNUM, 29), "_m", "mk")),
        ("ClickHouse Cloud key", p("4b", "1d", r(ALNUM, 38))),
        ("Mapbox secret token", p("sk.", "eyJ", r(URLSAFE, 80), ".", r(URLSAFE, 22))),
        # a short user name and id: `{"u":"abcde","a":"..."}` in base64, 45 after eyJ
        (
            "Mapbox secret token",
            p("sk.", "eyJ1Ijoi", r(LOW, 8), "IiwiYSI6I", r(URLSAFE, 20), "In0.", r(URLSAFE, 22)),
        ),
        ("Typeform token", p("tf", "p_", r(ALNUM, 59))),
        ("RubyGems key", p("ruby", "gems_", r(HEX, 48))),
        ("NuGet API key", p("oy", "2", r(LOW + DIG, 43))),
        ("crates.io token", p("ci", "o", r(ALNUM, 32))),
        ("Docker Hub token", p("dck", "r_pat_", r(URLSAFE, 27))),
        ("Clojars token", p("CLOJ", "ARS_", r(LOW + DIG, 60))),
    ]


def _chat_payment_and_ai() -> list[tuple[str, str]]:
    return [
        (
            "Slack app-level token",
            p(
                "SLACK_APP_TOKEN=",
                "xa",
                "pp-1-A",
                r(UP + DIG, 10),
                "-",
                r(DIG, 13),
                "-",
                r(HEX, 64),
            ),
        ),
        ("Discord bot token", p("M", r(ALNUM, 25), ".", r(URLSAFE, 6), ".", r(URLSAFE, 38))),
        (
            "Microsoft Teams webhook",
            p(
                "https://acme.webhook.office.com/web",
                "hookb2/",
                _uuid(),
                "@",
                _uuid(),
                "/IncomingWebhook/",
                r(HEX, 32),
                "/",
                _uuid(),
            ),
        ),
        ("Brevo API key", p("xkey", "sib-", r(HEX, 64), "-", r(ALNUM, 16))),
        ("Mailchimp API key", p(r(HEX, 32), "-u", "s21")),
        ("Stripe test key", p("sk", "_test_", r(ALNUM, 24))),
        ("Stripe webhook secret", p("wh", "sec_", r(ALNUM, 32))),
        ("Square access token", p("EA", "AA", r(URLSAFE, 60))),
        (
            "Braintree access token",
            p("access_token$produc", "tion$", r(LOW + DIG, 16), "$", r(HEX, 32)),
        ),
        ("Plaid access token", p("access-sand", "box-", _uuid())),
        ("Flutterwave key", p("FLWSECK", "_TEST-", r(HEX, 32), "-X")),
        ("Duffel token", p("duffel", "_live_", r(URLSAFE, 43))),
        ("EasyPost key", p("EZ", "AK", r(ALNUM, 54))),
        ("Shippo token", p("shippo", "_live_", r(HEX, 40))),
        ("Facebook access token", p("EA", "AC", r(ALNUM, 120))),
        (
            "OpenAI project key without marker",
            p("OPENAI_API_KEY=", "sk", "-proj-", r(URLSAFE, 156)),
        ),
        ("OpenAI legacy key", p("sk", "-", r(ALNUM, 48))),
        ("DeepSeek API key", p("sk", "-", r(HEX, 32))),
        ("Groq API key", p("gs", "k_", r(ALNUM, 52))),
        ("Perplexity API key", p("pp", "lx-", r(ALNUM, 48))),
        ("Replicate token", p("r", "8_", r(ALNUM, 37))),
        ("xAI API key", p("xa", "i-", r(ALNUM, 80))),
        ("LangSmith key", p("lsv", "2_pt_", r(HEX, 32), "_", r(HEX, 10))),
        ("Pinecone key", p("pc", "sk_", r(ALNUM, 60))),
        ("Hugging Face org token", p("api", "_org_", r(UP + LOW, 34))),
    ]


def _pgp() -> str:
    body = "\n".join(r(B64, 64) for _ in range(5))
    return p(
        "-----BEGIN PGP PRIV",
        "ATE KEY BLOCK-----\nComment: release key\n\n",
        body,
        "\n=",
        r(B64, 4),
        "\n-----END PGP PRIV",
        "ATE KEY BLOCK-----",
    )


def _putty() -> str:
    private = "\n".join(r(B64, 64) for _ in range(4))
    return p(
        "PuTTY-User-Key-",
        "File-3: ssh-ed25519\nEncryption: none\nComment: deploy\n",
        "Public-Lines: 1\n",
        r(B64, 60),
        "\nPrivate-Lines: 4\n",
        private,
        "\nPrivate-MAC: ",
        r(HEX, 64),
    )


def _ssh2() -> str:
    body = "\n".join(r(B64, 64) for _ in range(4))
    return p(
        "---- BEGIN SSH2 ENCRYPTED PRIV",
        'ATE KEY ----\nComment: "deploy"\n',
        body,
        "\n---- END SSH2 ENCRYPTED PRIV",
        "ATE KEY ----",
    )


def _json_key() -> str:
    return '{"private_key": "' + _pem("").replace("\n", "\\n") + '\\n"}'


def _keys_urls_and_commands() -> list[tuple[str, str]]:
    pw = r(ALNUM, 10) + "!" + r(ALNUM, 5)
    return [
        ("PGP private key", _pgp()),
        ("PuTTY private key", _putty()),
        ("SSH2 encrypted private key", _ssh2()),
        ("encrypted PKCS8 private key", _pem("ENCRYPTED")),
        ("DSA private key", _pem("DSA")),
        ("private key in JSON", _json_key()),
        ("YAML title with doubled quotes", p("title: 'token: ''", "gh", "p_", r(ALNUM, 36), "'''")),
        ("Redis URL, empty user", p("redis://:", r(ALNUM, 16), "@cache.internal:6379/0")),
        ("MongoDB URL", p("mongodb+srv://svc:", r(ALNUM, 16), "@cluster0.example.net/prod")),
        ("JDBC URL", p("jdbc:postgresql://db:5432/app?user=app&password=", r(ALNUM, 14))),
        (".netrc line", p("machine api.example.com login deploy pass", "word ", r(ALNUM, 14))),
        (".netrc entry", p("machine api.example.com\n  login deploy\n  pass", "word ", pw)),
        ("sshpass", p("ssh", "pass -p ", "secret ssh deploy@10.0.0.7")),
        ("curl -u", p("curl -u ", "user:pass", " https://ci.example.com/api/json")),
        ("mysql -p", p("mysql -h db -u root -p", r(ALNUM, 12), " shop")),
        ("docker login -p", p("docker login -u ci -p ", r(ALNUM, 16), " registry.example.com")),
        ("token flag", p("deploy --api-token ", r(ALNUM, 24))),
        ("exported password", p("export DB_PASS", "WORD=hunter2", "hunter2")),
        ("exported GitHub token", p("export GITHUB_TOKEN=", "gh", "p_", r(ALNUM, 36))),
        ("token Authorization header", p("Authorization: token ", r(HEX, 40))),
        ("API key in prose", p("API key: ", r(ALNUM, 32))),
        ("password in XML", p("<pass", "word>", pw, "</password>")),
        ("NuGet ClearTextPassword", p('<add key="ClearTextPass', 'word" value="', pw, '" />')),
        ("npmrc _auth", p("_au", "th=", _b64("deploy:" + pw))),
        ("Kubernetes secret data", p("kind: Secret\ndata:\n  pass", "word: ", _b64(pw))),
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
    # Code, references and placeholders given to credential names.
    "NAMED_CREDENTIAL = 'callout:External_API'",
    "const apiKey = process.env.API_KEY!;",
    'token = os.environ["TOKEN"]',
    "password: ${DB_PASSWORD}",
    'api_key="<your-key>"',
    "secret: xxxxxxxxxxxxxxxx",
    'password = "changeme"',
    "AUTH_TOKEN=your_token_here",
    "  secret: {{ .Values.secret }}",
    "password: {{ .Values.password | b64enc }}",
    "SECRET_KEY = get_random_secret_key()",
    "token = b64encode(user_and_pass).decode()",
    "auth = RetryingAuth(attempts=3)",
    "password: PasswordFlowSettings | None = None",
    "creds = (self.login + ':' + self.secret).encode('utf-8')",
    "password_hash = pwd_context.hash(password)",
    "hashed_password: str",
    "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
    "x-api-key: <API_KEY>",
    "Authorization: Basic dXNlcjpwYXNzd29yZA==",
    "docker run -e MYSQL_ROOT_PASSWORD=my-secret-pw -d mysql:8",
    "DATABASE_URL=postgres://user:password@localhost:5432/app",
    "amqp://guest:guest@localhost:5672/",
    # Commands that take a password from elsewhere, or prompt for it.
    "curl -u user:$API_PASSWORD https://example.com/api",
    'sshpass -p "$SSHPASS" ssh deploy@host',
    "mysql -u root -p shop < dump.sql",
    "docker login --password-stdin < token.txt",
    "Use `--token TOKEN` to pass the token, or set GITHUB_TOKEN.",
    "--proxy.tls.allowCheckByPass=false",
    # Identifiers, digests and prose.
    "test_digest_auth_incorrect_credentials",
    "tests/test_auth.py::test_digest_auth_incorrect_credentials: sig:3f9a1c2b body:77e1d0aa doc:0",
    "memkit/secrets.py::scan: sig:9911c7b4 body:3728f2f1 doc:3eda1d0e",
    "config/secrets.yaml: file:1a2b3c4d5e6f",
    "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed the token refresh",
    "The tokenizer splits on whitespace; max_tokens: 4096 is the default.",
    "Bearer tokens are sent in the Authorization header.",
    "Ein „Bearer“-Token reicht hier nicht aus.",
    "password rotation.",
    "The monkey_key and the keyboard shortcut are unrelated.",
]
