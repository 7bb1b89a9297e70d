"""Token formats with a distinctive prefix or shape, one rule each.

Written for memkit from the providers' published formats, with gitleaks' default rules and
detect-secrets' plugins as the checklist of what to cover. Each rule names literal needles
(cheap `in` tests over the whole text decide whether its pattern runs at all) and a pattern
that starts at a literal or a narrow class and has only bounded quantifiers, so a match
attempt costs at most a few hundred steps and a scan is linear in the text's length.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from memkit.secrets.hit import FORMAT, Hit
from memkit.secrets.values import mixed

_ALNUM = "A-Za-z0-9"
_URLSAFE = "A-Za-z0-9_-"
_END = r"(?![A-Za-z0-9_-])"


@dataclass(frozen=True)
class Rule:
    kind: str
    needles: tuple[str, ...]  # any of them must occur; () runs the pattern on every text
    pattern: str  # the group `s`, if any, is the secret; else the whole match
    mixed: bool = False  # the secret must mix letters and digits (cuts words and identifiers)


def _r(kind: str, needles: str, pattern: str, *, mixed: bool = False) -> Rule:
    return Rule(kind, tuple(needles.split()), pattern, mixed)


RULES: tuple[Rule, ...] = (
    # cloud providers
    _r("AWS access key id", "AKIA ASIA ABIA ACCA A3T",
       r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b"),
    _r("AWS secret access key", "aws AWS Aws",
       r"(?i:aws_?secret_?(?:access_?)?key)[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']{0,3}"
       r"(?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"),
    _r("AWS Bedrock API key", "ABSK", r"\bABSK[A-Za-z0-9+/]{109,269}={0,2}"),
    _r("Google API key", "AIza", rf"\bAIza[{_URLSAFE}]{{35}}{_END}"),
    _r("Google OAuth client secret", "GOCSPX-", rf"\bGOCSPX-[{_URLSAFE}]{{24,40}}{_END}"),
    _r("Google OAuth token", "ya29.", rf"\bya29\.[{_URLSAFE}]{{30,1000}}"),
    _r("Google OAuth refresh token", "1//0", rf"(?<![\w/])1//0[{_URLSAFE}]{{40,500}}"),
    _r("Azure storage key", "AccountKey=", r"AccountKey=(?P<s>[A-Za-z0-9+/]{86}==)"),
    _r("Azure shared access key", "SharedAccessKey=",
       r"SharedAccessKey=(?P<s>[A-Za-z0-9+/]{42,44}=?)"),
    _r("Azure AD client secret", "Q~",
       r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])"),
    _r("signed URL signature", "sig=", r"[?&]sig=(?P<s>[A-Za-z0-9%+/_-]{40,120})", mixed=True),
    _r("Alibaba access key id", "LTAI", rf"\bLTAI[{_ALNUM}]{{20}}\b", mixed=True),
    _r("DigitalOcean token", "_v1_", r"\bdo[opr]_v1_[0-9a-f]{64}\b"),
    _r("Heroku API key", "HRKU-", rf"\bHRKU-AA[{_URLSAFE}]{{58}}{_END}"),
    _r("Cloudflare origin CA key", "v1.0-", r"\bv1\.0-[0-9a-f]{24}-[0-9a-f]{146}\b"),
    _r("Fly.io token", "fo1_ fm1 fm2_",
       rf"\b(?:fo1_[{_URLSAFE}]{{43}}|fm1[ar]_[A-Za-z0-9+/]{{100,2000}}={{0,3}}"
       r"|fm2_[A-Za-z0-9+/]{100,2000}={0,3})"),
    _r("HashiCorp Vault token", "hvs. hvb. hvr.", rf"\bhv[sbr]\.[{_URLSAFE}]{{24,300}}{_END}",
       mixed=True),
    _r("Terraform Cloud token", ".atlasv1.",
       rf"\b[{_ALNUM}]{{14}}\.atlasv1\.[A-Za-z0-9_=-]{{60,70}}"),
    _r("Doppler token", "dp.",
       r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}\b"),
    _r("Yandex API key", "AQVN", rf"\bAQVN[{_URLSAFE}]{{35,38}}{_END}"),
    _r("Scalingo token", "tk-us-", rf"\btk-us-[{_URLSAFE}]{{48}}{_END}"),
    # version control hosts
    _r("GitHub token", "ghp_ gho_ ghu_ ghs_ ghr_", r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b"),
    _r("GitHub fine-grained token", "github_pat_", r"\bgithub_pat_[A-Za-z0-9_]{60,255}\b"),
    _r("GitLab token", "glpat- gldt- glptt- glrt- glcbt- gloas- glsoat- glft- glimt- glagent- "
       "glffct- GR1348941",
       r"\b(?:gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_.-]{20,300}"
       r"|GR1348941[A-Za-z0-9_-]{20,100})"),
    _r("GitLab session cookie", "_gitlab_session=", r"_gitlab_session=(?P<s>[0-9a-z]{32})"),
    _r("Bitbucket app password", "ATBB", r"\bATBB[A-Za-z0-9_=.-]{28,40}\b", mixed=True),
    _r("Atlassian API token", "ATATT3 ATCTT3", r"\bAT[AC]TT3[A-Za-z0-9_=-]{150,300}"),
    _r("Sourcegraph token", "sgp_", r"\bsgp_(?:(?:[0-9a-f]{16}|local)_)?[0-9a-f]{40}\b"),
    _r("JFrog token", "AKCp cmVmd", r"\b(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})\b"),
    # CI, deployment and developer services
    _r("CircleCI token", "CCIPAT_", r"\bCCIPAT_[A-Za-z0-9_]{20,100}\b", mixed=True),
    _r("Buildkite token", "bkua_", r"\bbkua_[0-9a-f]{40}\b"),
    _r("Harness token", "pat. sat.",
       rf"\b(?:pat|sat)\.[{_URLSAFE}]{{22}}\.[{_ALNUM}]{{24}}\.[{_ALNUM}]{{20}}\b"),
    _r("Octopus Deploy key", "API-", r"\bAPI-[A-Z0-9]{26}\b", mixed=True),
    _r("Pulumi token", "pul-", r"\bpul-[0-9a-f]{40}\b"),
    _r("Prefect token", "pnu_", r"\bpnu_[A-Za-z0-9]{36}\b"),
    _r("Infracost token", "ico-", r"\bico-[A-Za-z0-9]{32}\b"),
    _r("SonarQube token", "squ_ sqp_ sqa_", r"\bsq[upa]_[0-9a-f]{40}\b"),
    _r("Dynatrace token", "dt0c01.", r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b"),
    _r("Grafana token", "glc_ glsa_ eyJrIjoi",
       r"\b(?:glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[0-9a-fA-F]{8}\b"
       r"|eyJrIjoi[A-Za-z0-9]{70,400}={0,3})"),
    _r("Sentry token", "sntryu_ sntrys_",
       r"\b(?:sntryu_[0-9a-f]{64}\b|sntrys_eyJ[A-Za-z0-9+/=_]{50,600})"),
    _r("New Relic key", "NRAK- NRII- NRJS-",
       r"\b(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_-]{32}|NRJS-[0-9a-f]{19})\b"),
    _r("Linear API key", "lin_api_", r"\blin_api_[A-Za-z0-9]{40}\b"),
    _r("Notion token", "ntn_ secret_",
       r"\b(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})\b", mixed=True),
    _r("Postman API key", "PMAK-", r"\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}\b"),
    _r("ReadMe API key", "rdme_", r"\brdme_[a-z0-9]{70}\b"),
    _r("1Password secret key", "A3-",
       r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}"
       r"-[A-Z0-9]{5}\b"),
    _r("1Password service account token", "ops_eyJ", r"\bops_eyJ[A-Za-z0-9+/]{250,5000}={0,3}"),
    _r("age secret key", "AGE-SECRET-KEY-1",
       r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    _r("Databricks token", "dapi", r"\bdapi[0-9a-f]{32}(?:-[0-9])?\b"),
    _r("PlanetScale token", "pscale_", r"\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}"),
    _r("Frame.io token", "fio-u-", r"\bfio-u-[A-Za-z0-9_=-]{64}"),
    _r("MaxMind license key", "_mmk", r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b"),
    _r("ClickHouse Cloud key", "4b1d", r"\b4b1d[A-Za-z0-9]{38}\b", mixed=True),
    _r("Mapbox secret token", "sk.eyJ", rf"\bsk\.eyJ[{_URLSAFE}]{{30,300}}\.[{_URLSAFE}]{{20,40}}"),
    _r("Typeform token", "tfp_", r"\btfp_[A-Za-z0-9_.=-]{59}", mixed=True),
    # package registries
    _r("npm token", "npm_", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _r("PyPI token", "pypi-AgE", rf"\bpypi-AgE[{_URLSAFE}]{{50,1000}}"),
    _r("RubyGems key", "rubygems_", r"\brubygems_[0-9a-f]{48}\b"),
    _r("NuGet API key", "oy2", r"\boy2[a-z0-9]{43}\b", mixed=True),
    _r("crates.io token", "cio", r"\bcio[A-Za-z0-9]{32}\b", mixed=True),
    _r("Docker Hub token", "dckr_", rf"\bdckr_(?:pat|oat)_[{_URLSAFE}]{{27,80}}"),
    _r("Clojars token", "CLOJARS_", r"\bCLOJARS_[a-z0-9]{60}\b"),
    # chat and messaging
    _r("Slack token", "xox", r"\bxox[abposre]-[A-Za-z0-9-]{10,300}"),
    _r("Slack app-level token", "xapp-",
       r"\bxapp-[0-9]-[A-Za-z0-9]{6,20}-[0-9]{6,20}-[A-Za-z0-9]{20,100}\b"),
    _r("Slack webhook", "hooks.slack.com/",
       r"hooks\.slack\.com/(?:services/T[A-Z0-9]{6,14}/B[A-Z0-9]{6,14}/[A-Za-z0-9]{16,40}"
       r"|(?:workflows|triggers)/[A-Za-z0-9+/]{30,120})"),
    _r("Discord webhook", "discord",
       r"discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/[A-Za-z0-9_-]{60,100}"),
    _r("Discord bot token", "",
       rf"(?<![{_URLSAFE}])[MNO][{_URLSAFE}]{{23,25}}\.[{_URLSAFE}]{{6}}\.[{_URLSAFE}]{{27,38}}{_END}",
       mixed=True),
    _r("Telegram bot token", ":AA", rf"(?<![0-9])[0-9]{{8,10}}:AA[{_URLSAFE}]{{33}}{_END}"),
    _r("Microsoft Teams webhook", ".webhook.office.com/",
       r"\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{50,400}"),
    _r("Twilio API key", "SK", r"\bSK[0-9a-fA-F]{32}\b"),
    _r("SendGrid API key", "SG.", rf"\bSG\.[{_URLSAFE}]{{22}}\.[{_URLSAFE}]{{43}}{_END}"),
    _r("Brevo API key", "xkeysib- xsmtpsib-",
       r"\bx(?:keysib|smtpsib)-[0-9a-f]{64}-[A-Za-z0-9]{16}\b"),
    _r("Mailgun API key", "key-", r"\bkey-[0-9a-f]{32}\b"),
    _r("Mailchimp API key", "-us", r"\b[0-9a-f]{32}-us[0-9]{1,2}\b"),
    # payment
    _r("Stripe secret key", "sk_ rk_", r"\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}\b"),
    _r("Stripe webhook secret", "whsec_", r"\bwhsec_[A-Za-z0-9+/=]{24,100}"),
    _r("Square token", "sq0atp- sq0csp- EAAA",
       rf"\b(?:sq0(?:atp|csp)-[{_URLSAFE}]{{22,60}}|EAAA[{_URLSAFE}]{{56,64}}){_END}"),
    _r("Shopify token", "shpat_ shpca_ shppa_ shpss_", r"\bshp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}\b"),
    _r("Braintree access token", "access_token$",
       r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}"),
    _r("Plaid access token", "access-",
       r"\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}"
       r"-[0-9a-f]{4}-[0-9a-f]{12}\b"),
    _r("Flutterwave key", "FLWSECK", r"\bFLWSECK(?:_TEST)?-[0-9a-fA-F]{32}-X"),
    _r("Duffel token", "duffel_", r"\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}"),
    _r("EasyPost key", "EZAK EZTK", r"\bEZ[AT]K[A-Za-z0-9]{54}\b"),
    _r("Shippo token", "shippo_", r"\bshippo_(?:live|test)_[0-9a-fA-F]{40}\b"),
    _r("Facebook access token", "EAA", r"\bEAA[MC][A-Za-z0-9]{100,500}\b"),
    # AI providers
    _r("OpenAI API key", "sk-",
       r"\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,300}"
       r"|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})(?![A-Za-z0-9_-])"),
    _r("DeepSeek API key", "sk-", r"\bsk-[0-9a-f]{32}\b", mixed=True),
    _r("Anthropic API key", "sk-ant-", rf"\bsk-ant-[a-z]{{3,5}}[0-9]{{2}}-[{_URLSAFE}]{{80,120}}"),
    _r("Groq API key", "gsk_", r"\bgsk_[A-Za-z0-9]{52}\b"),
    _r("Perplexity API key", "pplx-", r"\bpplx-[A-Za-z0-9]{48}\b"),
    _r("Replicate token", "r8_", r"\br8_[A-Za-z0-9]{37}\b"),
    _r("xAI API key", "xai-", r"\bxai-[A-Za-z0-9]{80}\b"),
    _r("LangSmith key", "lsv2_", r"\blsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}\b"),
    _r("Pinecone key", "pcsk_", r"\bpcsk_[A-Za-z0-9_]{40,120}\b", mixed=True),
    _r("Hugging Face token", "hf_ api_org_", r"\b(?:hf_|api_org_)[A-Za-z]{34}\b"),
    # JSON web tokens: header and payload are base64url JSON objects
    _r("JSON web token", "eyJ",
       r"\beyJ[A-Za-z0-9_-]{8,1000}\.eyJ[A-Za-z0-9_-]{8,10000}\.[A-Za-z0-9_-]{8,1000}"),
)  # fmt: skip

_NEEDLES: tuple[tuple[str, int], ...] = tuple(
    (needle, i) for i, rule in enumerate(RULES) for needle in rule.needles
)
_ALWAYS = tuple(i for i, rule in enumerate(RULES) if not rule.needles)


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# Every rule matches at least MIN_RUN characters without white space, needle included
# (tests/secretscan/test_secrets.py checks it), so only such runs need looking at for needles.
MIN_RUN = 12


def find(text: str) -> Iterator[Hit]:
    """Every token of a known format in `text`."""
    runs = " ".join([word for word in text.split() if len(word) >= MIN_RUN])
    if not runs:
        return
    present = {i for needle, i in _NEEDLES if needle in runs}
    for i in sorted(present.union(_ALWAYS)):
        rule = RULES[i]
        for m in _compiled(rule.pattern).finditer(text):
            start, end = m.span("s") if "s" in m.re.groupindex else m.span()
            if rule.mixed and not mixed(text[start:end]):
                continue
            yield Hit(rule.kind, start, end, FORMAT)
