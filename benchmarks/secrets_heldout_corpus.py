"""Held-out secrets for benchmarks/secrets_heldout.py: realistic formats in realistic surroundings.

The rules in memkit/secrets/ were never tuned on this file: its format list and surroundings were
written down (and committed) before the rules were changed, from the providers' published token
formats, and it shares no surrounding text with tests/secretscan/corpus.py. Surroundings are what
developers paste into notes: config snippets (.env, YAML, TOML, JSON, XML), shell history,
connection URLs, code and chat messages, with names in several casings.

Every token is assembled at run time from split prefixes and seeded random characters, so this
file holds no secret-looking literal.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

UP = string.ascii_uppercase
LOW = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LOW + DIG
LOWNUM = LOW + DIG
UPNUM = UP + DIG
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
B32 = UP + "234567"
SYMBOLS = "!#%&*+-=?@^_~"
WORDS = (
    "orbit",
    "maple",
    "copper",
    "lantern",
    "velvet",
    "harbor",
    "pepper",
    "quartz",
    "meadow",
    "tundra",
    "falcon",
    "cobalt",
    "saddle",
    "ember",
    "willow",
    "canyon",
    "glacier",
    "thistle",
    "marble",
    "beacon",
    "juniper",
    "raven",
    "sable",
    "cinder",
    "prairie",
)


@dataclass(frozen=True)
class Sample:
    format: str
    text: str  # the secret in its surroundings
    secret: str  # the part that must not survive redaction


class Gen:
    """Seeded random pieces."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def s(self, chars: str, n: int) -> str:
        return "".join(self.rng.choice(chars) for _ in range(n))

    def pick(self, options: tuple[str, ...] | list[str]) -> str:
        return self.rng.choice(list(options))

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def password(self) -> str:
        """Passwords people choose or generate: word+digits+symbol, or a generator's output."""
        style = self.rng.randrange(3)
        if style == 0:
            word = self.pick(WORDS).capitalize()
            return f"{word}{self.s(DIG, self.rng.randint(2, 4))}{self.pick(tuple(SYMBOLS))}"
        if style == 1:
            return self.s(ALNUM, 4) + self.s(SYMBOLS, 1) + self.s(ALNUM + SYMBOLS, 11)
        return self.pick(WORDS) + self.s(DIG, 2) + self.pick(WORDS) + self.s(DIG, 2)

    def pem_body(self, lines: int) -> list[str]:
        return [self.s(B64, 64) for _ in range(lines)] + [self.s(B64, 20) + "=="]


def j(*parts: str) -> str:
    return "".join(parts)


# ---------------------------------------------------------------- surroundings


# Names in the casing each surrounding uses: env NAME, yaml name, jsonName, Title.
def _casings(name: str) -> dict[str, str]:
    words = name.lower().split("_")
    return {
        "env": name.upper(),
        "yaml": "_".join(words),
        "kebab": "-".join(words),
        "json": words[0] + "".join(w.capitalize() for w in words[1:]),
        "title": " ".join(words).capitalize(),
    }


def _token_contexts(g: Gen, name: str, label: str, tok: str) -> str:
    c = _casings(name)
    service = label.split()[0]
    templates = (
        f"{c['env']}={tok}",
        f'{c["env"]}="{tok}"',
        f"  {c['yaml']}: {tok}",
        f"{c['kebab']}: '{tok}'",
        f'  "{c["json"]}": "{tok}",',
        f'{c["yaml"]} = "{tok}"  # TODO move to vault',
        f"$ export {c['env']}='{tok}'",
        f"  501  {c['env']}={tok} ./scripts/deploy.sh --env staging",
        f"docker run --rm -e {c['env']}={tok} ghcr.io/acme/worker:1.4",
        f"client = {service.capitalize()}Client({c['yaml']}='{tok}')",
        f"const {c['json']} = '{tok}';",
        f'[{service.lower()}]\n{c["yaml"]} = "{tok}"',
        f'- name: {c["env"]}\n  value: "{tok}"',
        f"hey, the {label} for staging is {tok}, rotate it after the demo",
        f"@sam try {tok} — the old {label} got revoked this morning",
        f"- staging {label}: `{tok}`",
        f"{c['title']}: {tok}",
        f"setx {c['env']} {tok}",
    )
    return g.pick(templates)


def _named_contexts(g: Gen, name: str, label: str, value: str) -> str:
    """A value only its name gives away (no distinctive prefix)."""
    c = _casings(name)
    templates = (
        f"{c['env']}={value}",
        f'{c["env"]}="{value}"',
        f"  {c['yaml']}: {value}",
        f'  {c["yaml"]}: "{value}"',
        f'  "{c["json"]}": "{value}"',
        f'{c["yaml"]} = "{value}"',
        f"$ export {c['env']}='{value}'",
        f"docker run -d -e {c['env']}={value} postgres:16",
        f"{c['json']}: '{value}',",
        f"the {label} for the staging box is {value}",
        f"{c['title']}: {value}",
    )
    return g.pick(templates)


def _url_contexts(g: Gen, url: str) -> str:
    templates = (
        f"DATABASE_URL={url}",
        f'  url: "{url}"',
        f'engine = create_engine("{url}")',
        f"$ psql '{url}' -c 'select 1'",
        f"connect with {url} if the pooler is down",
        f"- broker: <{url}>",
    )
    return g.pick(templates)


def _shell(g: Gen, command: str) -> str:
    prompt = g.pick(("$ ", "❯ ", "root@web-3:~# ", "  1042  ", ""))
    return f"{prompt}{command}"


def _block(g: Gen, lines: list[str]) -> str:
    style = g.rng.randrange(3)
    if style == 0:
        return "Server access (do not share):\n\n```\n" + "\n".join(lines) + "\n```\n"
    if style == 1:
        return "tls:\n  key: |\n" + "\n".join("    " + x for x in lines) + "\n"
    return '{"type": "service_account", "private_key": "' + "\\n".join(lines) + '\\n"}'


# ---------------------------------------------------------------- formats

Maker = Callable[[Gen], tuple[str, str]]  # -> (text, secret)


def _tok(name: str, label: str, make: Callable[[Gen], str]) -> Maker:
    def maker(g: Gen) -> tuple[str, str]:
        tok = make(g)
        return _token_contexts(g, name, label, tok), tok

    return maker


def _named(name: str, label: str, make: Callable[[Gen], str]) -> Maker:
    def maker(g: Gen) -> tuple[str, str]:
        value = make(g)
        return _named_contexts(g, name, label, value), value

    return maker


def _url(make: Callable[[Gen], tuple[str, str]]) -> Maker:
    def maker(g: Gen) -> tuple[str, str]:
        url, secret = make(g)
        return _url_contexts(g, url), secret

    return maker


def _pem(label: str) -> Maker:
    def maker(g: Gen) -> tuple[str, str]:
        body = g.pem_body(g.rng.randint(3, 8))
        kind = f"{label} " if label else ""
        head = j("-----BEGIN ", kind, "PRIV", "ATE KEY-----")
        tail = j("-----END ", kind, "PRIV", "ATE KEY-----")
        return _block(g, [head, *body, tail]), body[1]

    return maker


def _pgp(g: Gen) -> tuple[str, str]:
    body = g.pem_body(6)
    lines = [
        j("-----BEGIN PGP PRIV", "ATE KEY BLOCK-----"),
        "Comment: exported for the release box",
        "",
        *body,
        "=" + g.s(B64, 4),
        j("-----END PGP PRIV", "ATE KEY BLOCK-----"),
    ]
    return "Release signing key:\n\n" + "\n".join(lines) + "\n\nImport with gpg --import.", body[2]


def _putty(g: Gen) -> tuple[str, str]:
    private = [g.s(B64, 64) for _ in range(5)]
    lines = [
        j("PuTTY-User-Key-", "File-3: ssh-ed25519"),
        "Encryption: none",
        "Comment: deploy@bastion",
        "Public-Lines: 2",
        g.s(B64, 64),
        g.s(B64, 20),
        "Private-Lines: 5",
        *private,
        "Private-MAC: " + g.s(HEX, 64),
    ]
    return "bastion.ppk:\n\n" + "\n".join(lines) + "\n", private[1]


def _basic(g: Gen) -> str:
    raw = f"{g.pick(WORDS)}:{g.password()}".encode()
    return base64.b64encode(raw).decode()


def _pg(g: Gen) -> tuple[str, str]:
    from urllib.parse import quote

    pw = quote(g.password(), safe="")
    host = g.pick(("db.internal", "10.0.4.12", "pg-prod.acme.io"))
    return f"postgresql://app_rw:{pw}@{host}:5432/orders?sslmode=require", pw


def _safe_pw(g: Gen) -> str:
    return g.s(ALNUM, 10) + g.s("-_.~", 1) + g.s(ALNUM, 7)


FORMATS: dict[str, Maker] = {
    # cloud providers
    "AWS access key id": _tok("aws_access_key_id", "AWS key id",
                              lambda g: j("AK", "IA", g.s(B32, 16))),
    "AWS secret access key": _named("aws_secret_access_key", "AWS secret",
                                    lambda g: g.s(B64, 40)),
    "Google API key": _tok("google_maps_key", "maps key",
                           lambda g: j("AI", "za", g.s(URLSAFE, 35))),
    "Google OAuth client secret": _tok("google_client_secret", "google oauth secret",
                                       lambda g: j("GOC", "SPX-", g.s(URLSAFE, 28))),
    "Google OAuth access token": _tok("gcp_access_token", "gcloud token",
                                      lambda g: j("ya", "29.", g.s(URLSAFE, 150))),
    "GCP service account private key": _pem(""),
    "Azure storage account key": lambda g: (
        lambda k: (j("DefaultEndpointsProtocol=https;AccountName=acmelogs;Account", "Key=", k,
                     ";EndpointSuffix=core.windows.net"), k)
    )(g.s(B64, 86) + "=="),
    "Azure AD client secret": _tok("azure_client_secret", "azure app secret",
                                   lambda g: j(g.s(ALNUM, 3), g.s(DIG, 1), "Q", "~",
                                               g.s(ALNUM + "_~.-", 34))),
    "Alibaba access key id": _tok("alibaba_access_key", "aliyun key",
                                  lambda g: j("LT", "AI", g.s(ALNUM, 20))),
    "DigitalOcean token": _tok("digitalocean_token", "DO token",
                               lambda g: j("do", "p_v1_", g.s(HEX, 64))),
    "Heroku API key": _tok("heroku_api_key", "heroku key",
                           lambda g: j("HR", "KU-AA", g.s(URLSAFE, 58))),
    "Cloudflare API token": _named("cloudflare_api_token", "cloudflare token",
                                   lambda g: g.s(URLSAFE, 40)),
    "Vault token": _tok("vault_token", "vault token", lambda g: j("hv", "s.", g.s(URLSAFE, 92))),
    "Terraform Cloud token": _tok("tfe_token", "terraform token",
                                  lambda g: j(g.s(ALNUM, 14), ".atlas", "v1.", g.s(URLSAFE, 67))),
    "Doppler token": _tok("doppler_token", "doppler token",
                          lambda g: j("dp", ".pt.", g.s(ALNUM, 43))),
    "Fly.io token": _tok("fly_api_token", "fly token", lambda g: j("fo", "1_", g.s(URLSAFE, 43))),
    # version control and CI
    "GitHub classic token": _tok("github_token", "github token",
                                 lambda g: j("gh", "p_", g.s(ALNUM, 36))),
    "GitHub fine-grained token": _tok("gh_pat", "github PAT",
                                      lambda g: j("github", "_pat_", g.s(ALNUM, 22), "_",
                                                  g.s(ALNUM, 59))),
    "GitHub app token": _tok("gh_installation_token", "app token",
                             lambda g: j("gh", "s_", g.s(ALNUM, 36))),
    "GitLab personal token": _tok("gitlab_token", "gitlab token",
                                  lambda g: j("gl", "pat-", g.s(URLSAFE, 20))),
    "GitLab runner token": _tok("runner_token", "runner token",
                                lambda g: j("gl", "rt-", g.s(URLSAFE, 20))),
    "Atlassian API token": _tok("jira_api_token", "jira token",
                                lambda g: j("ATA", "TT3xFfGF0", g.s(URLSAFE, 183), "=",
                                            g.s(HEX.upper(), 8))),
    "npm token": _tok("npm_token", "npm token", lambda g: j("np", "m_", g.s(ALNUM, 36))),
    "PyPI token": _tok("twine_password", "pypi token",
                       lambda g: j("py", "pi-AgEIcHlwaS5vcmc", g.s(URLSAFE, 150))),
    "RubyGems key": _tok("gem_host_api_key", "rubygems key",
                         lambda g: j("ruby", "gems_", g.s(HEX, 48))),
    "NuGet API key": _tok("nuget_api_key", "nuget key", lambda g: j("oy", "2", g.s(LOWNUM, 43))),
    "Docker Hub token": _tok("docker_hub_token", "docker hub PAT",
                             lambda g: j("dck", "r_pat_", g.s(URLSAFE, 27))),
    "JFrog API key": _tok("artifactory_api_key", "artifactory key",
                          lambda g: j("AK", "Cp", g.s(ALNUM, 69))),
    "Buildkite token": _tok("buildkite_token", "buildkite token",
                            lambda g: j("bku", "a_", g.s(HEX, 40))),
    "Sentry user token": _tok("sentry_auth_token", "sentry token",
                              lambda g: j("sntr", "yu_", g.s(HEX, 64))),
    "Grafana service account token": _tok("grafana_token", "grafana token",
                                          lambda g: j("gl", "sa_", g.s(ALNUM, 32), "_",
                                                      g.s(HEX, 8))),
    "New Relic user key": _tok("new_relic_api_key", "newrelic key",
                               lambda g: j("NR", "AK-", g.s(UPNUM, 27))),
    "Postman API key": _tok("postman_api_key", "postman key",
                            lambda g: j("PM", "AK-", g.s(HEX, 24), "-", g.s(HEX, 34))),
    "Linear API key": _tok("linear_api_key", "linear key",
                           lambda g: j("lin", "_api_", g.s(ALNUM, 40))),
    "Pulumi token": _tok("pulumi_access_token", "pulumi token",
                         lambda g: j("pu", "l-", g.s(HEX, 40))),
    "Databricks token": _tok("databricks_token", "databricks token",
                             lambda g: j("da", "pi", g.s(HEX, 32))),
    "SonarQube token": _tok("sonar_token", "sonar token", lambda g: j("sq", "u_", g.s(HEX, 40))),
    "Datadog API key": _named("dd_api_key", "datadog key", lambda g: g.s(HEX, 32)),
    # chat and messaging
    "Slack bot token": _tok("slack_bot_token", "slack bot token",
                            lambda g: j("xo", "xb-", g.s(DIG, 12), "-", g.s(DIG, 13), "-",
                                        g.s(ALNUM, 24))),
    "Slack user token": _tok("slack_user_token", "slack token",
                             lambda g: j("xo", "xp-", g.s(DIG, 12), "-", g.s(DIG, 12), "-",
                                         g.s(DIG, 13), "-", g.s(HEX, 32))),
    "Slack app-level token": _tok("slack_app_token", "slack app token",
                                  lambda g: j("xa", "pp-1-A", g.s(UPNUM, 10), "-", g.s(DIG, 13),
                                              "-", g.s(HEX, 64))),
    "Slack webhook": _tok("slack_webhook_url", "slack webhook",
                          lambda g: j("https://hooks.sl", "ack.com/services/T", g.s(UPNUM, 10),
                                      "/B", g.s(UPNUM, 10), "/", g.s(ALNUM, 24))),
    "Discord webhook": _tok("discord_webhook", "discord webhook",
                            lambda g: j("https://discord.com/api/web", "hooks/", g.s(DIG, 19), "/",
                                        g.s(URLSAFE, 68))),
    "Discord bot token": _tok("discord_bot_token", "discord bot token",
                              lambda g: j(g.pick(("M", "N")), g.s(ALNUM, 25), ".", g.s(URLSAFE, 6),
                                          ".", g.s(URLSAFE, 38))),
    "Telegram bot token": _tok("telegram_bot_token", "telegram token",
                               lambda g: j(g.s(DIG, 10), ":", "AA", g.s(URLSAFE, 33))),
    "Microsoft Teams webhook": _tok("teams_webhook_url", "teams webhook",
                                    lambda g: j("https://acme.webhook.office.com/web", "hookb2/",
                                                g.uuid(), "@", g.uuid(), "/IncomingWebhook/",
                                                g.s(HEX, 32), "/", g.uuid())),
    "Twilio API key": _tok("twilio_api_key", "twilio key", lambda g: j("S", "K", g.s(HEX, 32))),
    "SendGrid API key": _tok("sendgrid_api_key", "sendgrid key",
                             lambda g: j("S", "G.", g.s(URLSAFE, 22), ".", g.s(URLSAFE, 43))),
    "Mailgun API key": _tok("mailgun_api_key", "mailgun key",
                            lambda g: j("ke", "y-", g.s(HEX, 32))),
    "Mailchimp API key": _tok("mailchimp_api_key", "mailchimp key",
                              lambda g: j(g.s(HEX, 32), "-u", "s", g.s(DIG, 2))),
    "Brevo API key": _tok("brevo_api_key", "brevo key",
                          lambda g: j("xkey", "sib-", g.s(HEX, 64), "-", g.s(ALNUM, 16))),
    # payment
    "Stripe secret key": _tok("stripe_secret_key", "stripe key",
                              lambda g: j("sk", "_live_", g.s(ALNUM, 99))),
    "Stripe restricted key": _tok("stripe_restricted_key", "stripe key",
                                  lambda g: j("rk", "_live_", g.s(ALNUM, 24))),
    "Stripe webhook secret": _tok("stripe_webhook_secret", "webhook signing secret",
                                  lambda g: j("wh", "sec_", g.s(ALNUM, 32))),
    "Square access token": _tok("square_access_token", "square token",
                                lambda g: j("EA", "AA", g.s(URLSAFE, 60))),
    "Shopify access token": _tok("shopify_access_token", "shopify token",
                                 lambda g: j("shp", "at_", g.s(HEX, 32))),
    "Braintree access token": _tok("braintree_access_token", "paypal token",
                                   lambda g: j("access_token$produc", "tion$", g.s(LOWNUM, 16), "$",
                                               g.s(HEX, 32))),
    # AI providers
    "OpenAI project key": _tok("openai_api_key", "openai key",
                               lambda g: j("sk", "-proj-", g.s(URLSAFE, 156))),
    "OpenAI service account key": _tok("openai_api_key", "openai key",
                                       lambda g: j("sk", "-svcacct-", g.s(URLSAFE, 156))),
    "Anthropic API key": _tok("anthropic_api_key", "claude key",
                              lambda g: j("sk", "-ant-api03-", g.s(URLSAFE, 93), "AA")),
    "Hugging Face token": _tok("hf_token", "hugging face token",
                               lambda g: j("h", "f_", g.s(UP + LOW, 34))),
    "Groq API key": _tok("groq_api_key", "groq key", lambda g: j("gs", "k_", g.s(ALNUM, 52))),
    "Perplexity API key": _tok("pplx_api_key", "perplexity key",
                               lambda g: j("pp", "lx-", g.s(ALNUM, 48))),
    "Replicate token": _tok("replicate_api_token", "replicate token",
                            lambda g: j("r", "8_", g.s(ALNUM, 37))),
    "xAI API key": _tok("xai_api_key", "grok key", lambda g: j("xa", "i-", g.s(ALNUM, 80))),
    # keys and key files
    "age secret key": _tok("sops_age_key", "age key",
                           lambda g: j("AGE-SECRET", "-KEY-1", g.s(BECH32, 58))),
    "1Password secret key": _tok("op_secret_key", "1password secret key",
                                 lambda g: j("A", "3-", g.s(UPNUM, 6), "-", g.s(UPNUM, 6), "-",
                                             g.s(UPNUM, 5), "-", g.s(UPNUM, 5), "-",
                                             g.s(UPNUM, 5), "-", g.s(UPNUM, 5))),
    "JSON web token": lambda g: (
        lambda t: (_shell(g, f'curl -H "Authorization: Bearer {t}" https://api.acme.io/me'), t)
    )(j("ey", "J", g.s(URLSAFE, 34), ".ey", "J", g.s(URLSAFE, 120), ".", g.s(URLSAFE, 43))),
    "RSA private key": _pem("RSA"),
    "OpenSSH private key": _pem("OPENSSH"),
    "EC private key": _pem("EC"),
    "encrypted PKCS8 key": _pem("ENCRYPTED"),
    "PGP private key": _pgp,
    "PuTTY private key": _putty,
    # connection strings
    "PostgreSQL URL": _url(_pg),
    "MySQL URL": _url(lambda g: (lambda p: (f"mysql://root:{p}@127.0.0.1:3306/shop", p))(
        _safe_pw(g))),
    "MongoDB URL": _url(lambda g: (lambda p: (
        f"mongodb+srv://svc-api:{p}@cluster0.ab12c.mongodb.net/prod?retryWrites=true", p))(
        _safe_pw(g))),
    "Redis URL, empty user": _url(lambda g: (lambda p: (f"redis://:{p}@cache.internal:6379/2", p))(
        _safe_pw(g))),
    "AMQP URL": _url(lambda g: (lambda p: (f"amqps://billing:{p}@mq.acme.io/vhost", p))(
        _safe_pw(g))),
    "git URL with token": _url(lambda g: (lambda p: (
        f"https://oauth2:{p}@gitlab.acme.io/platform/infra.git", p))(g.s(URLSAFE, 20))),
    "JDBC URL": lambda g: (lambda p: (
        f"spring.datasource.url=jdbc:mysql://db:3306/app?user=app&password={p}&useSSL=true", p))(
        _safe_pw(g)),
    "ADO.NET connection string": lambda g: (lambda p: (
        f'"Server=tcp:acme.database.windows.net,1433;User ID=sa;Password={p};Encrypt=True;"', p))(
        g.password()),
    # shell and config lines
    ".netrc line": lambda g: (lambda p: (
        f"machine api.heroku.com login ops@acme.io password {p}", p))(g.password()),
    "sshpass": lambda g: (lambda p: (_shell(g, f"sshpass -p '{p}' ssh deploy@10.0.0.7"), p))(
        g.password()),
    "curl -u": lambda g: (lambda p: (
        _shell(g, f"curl -u admin:{p} https://jenkins.acme.io/api/json"), p))(_safe_pw(g)),
    "mysql -p": lambda g: (lambda p: (_shell(g, f"mysql -h db -u root -p{p} shop < dump.sql"), p))(
        _safe_pw(g)),
    "password flag": lambda g: (lambda p: (
        _shell(g, f"docker login registry.acme.io --username ci --password {p}"), p))(g.password()),
    "exported password": _named("db_password", "db password", lambda g: g.password()),
    "password in YAML": lambda g: (lambda p: (
        f"spring:\n  datasource:\n    username: app\n    password: \"{p}\"\n", p))(g.password()),
    "Django SECRET_KEY": _named("secret_key", "django secret key",
                                lambda g: g.s(LOWNUM + "!@#%^&*(-_=+)", 50)),
    "JSON apiKey": lambda g: (lambda k: (f'{{"endpoint": "https://api.acme.io", "apiKey": "{k}"}}',
                                         k))(g.s(ALNUM, 32)),
    "client secret in code": lambda g: (lambda k: (f'CLIENT_SECRET = "{k}"', k))(
        g.s(URLSAFE, 40)),
    "Basic auth header": lambda g: (lambda k: (f"Authorization: Basic {k}", k))(_basic(g)),
    "token auth header": lambda g: (lambda k: (
        _shell(g, f"curl -H 'Authorization: token {k}' https://ci.acme.io/api"), k))(
        g.s(HEX, 40)),
    "API key header": lambda g: (lambda k: (
        _shell(g, f'http GET https://api.acme.io/v2/orders "X-API-Key: {k}"'), k))(
        g.s(ALNUM, 32)),
    "Kubernetes secret value": lambda g: (lambda k: (
        f"apiVersion: v1\nkind: Secret\ndata:\n  password: {k}\n", k))(
        base64.b64encode(g.password().encode()).decode()),
    "NuGet config password": lambda g: (lambda p: (
        f'<add key="ClearTextPassword" value="{p}" />', p))(g.password()),
    "Maven settings password": lambda g: (lambda p: (
        f"<server>\n  <id>nexus</id>\n  <username>ci</username>\n  <password>{p}</password>\n"
        "</server>", p))(g.password()),
    "npmrc _auth": lambda g: (lambda k: (f"_auth={k}\nalways-auth=true", k))(_basic(g)),
    "diceware passphrase": _named("backup_passphrase", "backup passphrase",
                                  lambda g: "-".join(g.rng.sample(WORDS, 4))),
}  # fmt: skip


def samples(seed: int) -> list[Sample]:
    """One sample per format, surroundings and random parts chosen by `seed`."""
    g = Gen(seed)
    out = []
    for name, make in FORMATS.items():
        text, secret = make(g)
        out.append(Sample(name, text, secret))
    return out
