"""The credential shapes :mod:`brain.home.secrets.redact` knows beyond its core rules.

Three groups, each a tuple of ``(kind, pattern)``:

* ``PREFIXED``: tokens a provider marks with a fixed prefix (``dop_v1_``, ``lin_api_``,
  ``AGE-SECRET-KEY-1``). The prefix makes them safe to find anywhere, in any text.
* ``IN_CONTEXT``: secrets that only have a shape next to what carries them: a Sentry
  DSN's key before ``@...sentry.io``, Docker's ``"auth":`` blob, a ``mysql -p`` or
  ``sshpass -p`` flag, Azure's ``AccountKey=``. Only the named group ``secret`` is
  replaced, so the text still says what was there.
* ``PROSE``: credentials announced in words (``the staging db password is hunter2``,
  ``log in as admin / Sup3rS3cretPw``, ``AWS secret: <40 characters>``). Their value
  must look like a credential (see :func:`looks_secret`): ``the token is expired`` or
  ``the password is stored in the vault`` say nothing secret.

The shapes follow the providers' documented formats and the public gitleaks rule set;
a ``PREFIXED`` pattern starts with a literal character (or has in ``HEADS`` a regex
led by one that every match holds) and the others with a rare word, so
:mod:`brain.home.secrets.prefilter` can tell in a few passes which rules a long transcript
needs at all (measured by ``benchmarks/redact.py``).
"""

from __future__ import annotations

from typing import NamedTuple

from brain.home.patterns import lazy

__all__ = [
    "HEADS",
    "IN_CONTEXT",
    "KEY_HINTS",
    "KEY_WORDS",
    "PREFIXED",
    "PROSE",
    "Shape",
    "is_placeholder",
    "looks_secret",
]

_B64 = r"[A-Za-z0-9+/]"
# A head (see :mod:`brain.home.secrets.prefilter`) for each shape whose regex does not start with
# a literal character: a regex led by one that every match holds, with what comes
# before it checked by a lookbehind. The rule runs only on a text where it matches, so a
# rule that must try every offset costs nothing on a text without such a token.
HEADS = {
    "telegram_bot_token": r":(?<=\d:)AA[A-Za-z0-9_-]{32,34}(?![A-Za-z0-9_-])",
    "mailchimp_key": r"-(?<=[0-9a-f]{32}-)us\d{1,2}\b",
    "azure_ad_secret": r"Q(?<=[A-Za-z0-9_~.]{3}\dQ)~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_-])",
    "terraform_token": r"\.(?<=[A-Za-z0-9]{14}\.)atlasv1\.[A-Za-z0-9_=-]{60,70}",
    "mapbox_token": r"k(?<=sk)\.eyJ[A-Za-z0-9_-]{30,}\.[A-Za-z0-9_-]{20,}",
    # Discord bot tokens: the base64 of a user id, a 6-character stamp, an HMAC.
    "discord_bot_token": r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])",
    # A .pgpass line, host:port:database:user:password (the port may be *).
    "pgpass": r":(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:[^\s:]",
}
_END = r"(?![A-Za-z0-9_-])"

# Each pattern starts with one literal character common to all its matches (no
# top-level |, no quantifier on it), unless HEADS names a head for it.
PREFIXED: tuple[tuple[str, str], ...] = (
    ("twilio_key", r"SK[0-9a-fA-F]{32}" + _END),
    ("mailgun_key", r"key-[0-9a-zA-Z]{32}" + _END),
    ("digitalocean_token", r"do[opr]_v1_[a-f0-9]{64}" + _END),
    ("discord_webhook", r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}"),
    ("linear_key", r"lin_(?:api|oauth)_[A-Za-z0-9]{32,}"),
    ("age_secret_key", r"AGE-SECRET-KEY-1[0-9A-Z]{50,}"),
    ("firebase_fcm_key", r"AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{100,}"),
    ("shopify_token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _END),
    ("sendgrid_key", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}"),
    ("pypi_token", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{30,}"),
    ("telegram_bot_token", r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{32,34}" + _END),
    ("square_token", r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}"),
    ("databricks_token", r"dapi[a-f0-9]{32}(?:-\d)?" + _END),
    ("doppler_token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}"),
    ("pulumi_token", r"pul-[a-f0-9]{40}" + _END),
    ("postman_key", r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),
    ("grafana_token", r"glc_[A-Za-z0-9+/]{32,400}={0,2}"),
    ("grafana_token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("newrelic_key", r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}" + _END),
    ("atlassian_token", r"ATATT3[A-Za-z0-9_=-]{60,}"),
    ("vault_token", r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ("terraform_token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}"),
    ("figma_token", r"figd_[A-Za-z0-9_-]{40}"),
    ("dropbox_token", r"sl\.[A-Za-z0-9_=-]{130,}"),
    ("airtable_token", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    ("notion_token", r"secret_[A-Za-z0-9]{43}" + _END),
    ("notion_token", r"ntn_\d{11}[A-Za-z0-9]{35}" + _END),
    ("supabase_token", r"sbp_[a-f0-9]{40}" + _END),
    ("flyio_token", r"fo1_[A-Za-z0-9_-]{43}"),
    ("flyio_token", r"fm[12][ar]?_[A-Za-z0-9+/=]{60,}"),
    ("groq_key", r"gsk_[A-Za-z0-9]{48,56}" + _END),
    ("replicate_token", r"r8_[A-Za-z0-9]{37}" + _END),
    ("perplexity_key", r"pplx-[A-Za-z0-9]{48}" + _END),
    ("xai_key", r"xai-[A-Za-z0-9]{70,90}" + _END),
    ("azure_ad_secret", r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}" + _END),
    ("mapbox_token", r"sk\.eyJ[A-Za-z0-9_-]{30,}\.[A-Za-z0-9_-]{20,}"),
    ("cloudflare_ca_key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("tailscale_key", r"tskey-(?:auth|api|client|webhook)-[A-Za-z0-9_-]{10,}"),
    ("sourcegraph_token", r"sgp_(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}" + _END),
    ("buildkite_token", r"bkua_[a-f0-9]{40}" + _END),
    ("contentful_token", r"CFPAT-[A-Za-z0-9_-]{43}"),
    ("clojars_token", r"CLOJARS_[a-z0-9]{60}"),
    ("rubygems_key", r"rubygems_[a-f0-9]{48}"),
    ("planetscale_token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}"),
    ("prefect_key", r"pnu_[A-Za-z0-9]{36}" + _END),
    ("readme_key", r"rdme_[a-z0-9]{70}"),
    ("dynatrace_token", r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"),
    ("jfrog_key", r"AKCp[A-Za-z0-9]{60,}"),
    ("mailchimp_key", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    ("facebook_token", r"EAA[A-Za-z0-9]{90,}"),
    ("twitter_bearer", "A" * 20 + r"A*[A-Za-z0-9%]{30,}"),  # a literal prefix scans fast
    ("sentry_token", r"sntry[su]_[A-Za-z0-9_=+/]{40,}"),
    ("infracost_key", r"ico-[A-Za-z0-9]{32}" + _END),
    ("typeform_token", r"tfp_[A-Za-z0-9_.=-]{40,60}"),
    ("easypost_key", r"EZ[AT]K[A-Za-z0-9]{54}"),
    ("circleci_token", r"CCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}"),
    ("openrouter_key", r"sk-or-v1-[a-f0-9]{64}"),
    ("langsmith_key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ("render_key", r"rnd_[A-Za-z0-9]{28,}"),
    ("netlify_token", r"nfp_[A-Za-z0-9]{36,}"),
    ("heroku_key", r"HRKU-[A-Za-z0-9_-]{30,}"),
    ("vercel_token", r"vc[pkiar]_[A-Za-z0-9]{40,}"),
    ("gitlab_token", r"gl(?:ptt|dt|rt|cbt|imt|agent|oas|ft|soat|ffct)-[A-Za-z0-9_-]{20,}"),
    ("github_token", r"ghp_[A-Za-z0-9]{36}"),  # a ghp_ token glued to a word
    ("dockerhub_token", r"dckr_pat_[A-Za-z0-9_-]{27,}"),
    (
        "discord_bot_token",
        r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}"
        + _END,
    ),
    # Only the password field of five, the second a port (a line quoted in prose too).
    (
        "pgpass",
        r"(?<![\w.*:-])[\w.*-]{1,253}:(?:\d{2,5}|\*):[^\s:]{1,63}:[^\s:]{1,63}:"
        r"(?P<secret>[^\s:]{4,})(?!\S)",
    ),
)

_SECRET = r"(?P<secret>"


class Shape(NamedTuple):
    """A secret that has a shape only in context; only its ``secret`` group is replaced.

    Attributes:
        kind: the name the marker gives it.
        pattern: the regex, with a named group ``secret``.
        hints: lower-case words one of which every match starts with (the regex is tried
            only where one starts), or empty to scan with the regex.
        check: ``""``, or ``"loose"``/``"strict"`` for :func:`looks_secret`.
    """

    kind: str
    pattern: str
    hints: tuple[str, ...] = ()
    check: str = ""


_ONE_ARG = r"[^\s'\"]+|'[^'\n]+'|\"[^\"\n]+\")"
IN_CONTEXT: tuple[Shape, ...] = (
    # Sentry DSNs: the public key (and the legacy secret) before @ is the credential.
    Shape("sentry_dsn", r"https?://" + _SECRET + r"[0-9a-f]{32}(?::[0-9a-f]{32})?)@[\w.-]*sentry"),
    # Azure storage / service bus connection strings.
    Shape(
        "azure_key",
        r"(?i:AccountKey|SharedAccessKey|SharedAccessSignature)=" + _SECRET + r"[^;\s\"']{8,})",
        ("accountkey", "sharedaccess"),
    ),
    # Azure SAS URLs: the signature is the credential.
    Shape("azure_sas", r"sig=" + _SECRET + r"[A-Za-z0-9%+/=]{20,})", ("sig=",)),
    # Docker / container registry config: "auth": "<base64 user:password>".
    Shape("docker_auth", r"\"auth\"\s*:\s*\"" + _SECRET + _B64 + r"{8,}={0,2})\""),
    # mysql -pPASSWORD (no space: -p alone prompts) and sshpass -p PASSWORD.
    Shape(
        "cli_password",
        r"(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?\s-p"
        + _SECRET
        + _ONE_ARG,
        ("mysql", "mariadb"),
    ),
    Shape("cli_password", r"sshpass\s+-p\s*" + _SECRET + _ONE_ARG, ("sshpass",)),
    # docker/podman/helm login -p PASSWORD, curl -u user:PASSWORD.
    Shape(
        "cli_password",
        r"login\b[^\n|;&]{0,120}?\s(?:-p|--password)\s+" + _SECRET + _ONE_ARG,
        ("login",),
    ),
    Shape(
        "cli_password",
        r"(?:-u|--user)\s+['\"]?[^\s:'\"]{1,64}:" + _SECRET + r"[^\s'\"@]+)",
        ("-u ", "--user "),
    ),
    # Okta's SSWS and other named schemes in an Authorization header.
    Shape(
        "auth_header",
        r"authorization[\"']?\s*[:=]\s*[\"']?[A-Za-z-]{2,20}\s+"
        + _SECRET
        + r"[A-Za-z0-9._~+/=-]{8,})",
        ("authorization",),
    ),
    # Cookies: a session or auth value in a Cookie / Set-Cookie header.
    Shape(
        "cookie",
        r"cookie:[ \t]*(?:[\w.-]+=[^;\s]*;[ \t]*)*?[\w.-]*(?i:sess|sid|auth|token)"
        r"[\w.-]*=" + _SECRET + r"[^;\s]{8,})",
        ("cookie:",),
    ),
)


# The secret words a key of ``redact``'s assignment rule may end with, as a literal word
# and the regex after it. ``pwd`` is here for ``db_pwd``; the shell's ``PWD`` working
# directory is filtered out by value (see ``is_placeholder``).
_KEY_FAMILIES = (
    ("pass", "(?:word|wd|phrase)"),
    ("pwd", ""),
    ("secret", "(?:[_.-]?key)?"),
    ("token", ""),
    ("api", "[_.-]?key"),
    ("access", "[_.-]?key"),
    ("private", "[_.-]?key"),
    ("client", "[_.-]?secret"),
    ("credential", "s?"),
    ("auth", "[_.-]?key"),
    ("client", "[_.-]?key[_.-]data"),  # a kubeconfig's client-key-data
    ("_pat", ""),  # AZURE_DEVOPS_EXT_PAT: a personal access token; "compat" is not
)
KEY_WORDS = "|".join(word + rest for word, rest in _KEY_FAMILIES)
# A rule is tried only where one matches, so each hint spells out its word and what
# must follow a key, and ``api_timeout`` or ``author`` is not a place to try it.
KEY_HINTS = tuple(word + rest + r"(?![a-z0-9])[\"']?[ \t]*[:=]" for word, rest in _KEY_FAMILIES)

# The words that announce a credential in prose, the same way.
_WORD_FAMILIES = (
    ("pass", "(?:word|wd|phrase|code)?s?"),
    ("pwd", ""),
    ("pw", ""),
    ("secret", "(?:[ _-]?key)?s?"),
    ("token", "s?"),
    ("api", "[ _-]?keys?"),
    ("access", "[ _-]?keys?"),
    ("credential", "s?"),
    ("creds", ""),
    ("pin", ""),
)
_WORDS = "(?:" + "|".join(word + rest for word, rest in _WORD_FAMILIES) + ")"
_WORD_HINTS = tuple(rf"\b{word}{rest}\b" for word, rest in _WORD_FAMILIES)
PROSE: tuple[Shape, ...] = (
    # "the staging db password is hunter2", "password set to `x`" (``key: value`` is
    # the assignment rule's).
    Shape(
        "prose_secret",
        r"\b" + _WORDS + r"\b(?:[ \t]*\([^()\n]{1,60}\))?"
        r"(?:[ \t]+(?:for|of|on|to|in)(?:[ \t]+(?!(?:is|was|are)\b)[\w.@/-]{1,40}){1,5}?)?[ \t]*"
        r"\b(?:is|was|are|becomes|set[ \t]+to|changed[ \t]+to)\b"
        r"[ \t]*(?:now[ \t]+)?" + _SECRET + r"`[^`\n]{3,}`|\"[^\"\n]{3,}\"|'[^'\n]{3,}'"
        r"|[^\s`\"',;)]{3,}[^\s`\"',;).!?:])",
        _WORD_HINTS,
        "loose",
    ),
    # "log in as admin / Sup3rS3cretPw", "user admin, password Sup3r".
    Shape(
        "prose_secret",
        r"[ \t](?:as|user(?:name)?|login)[ \t]+[\w.@-]{1,64}[ \t]*(?:/|,|and)[ \t]*"
        r"(?:(?:password|pw|pass)[ \t]+)?" + _SECRET + r"[^\s/,]{6,})",
        tuple(sep + w for sep in " \t" for w in ("as", "user", "login")),
        "loose",
    ),
    # .netrc / .pgpass style, or a label with no verb: "login bob password s3cret".
    Shape(
        "prose_secret",
        r"(?<![=-])\bpassw(?:or)?d[ \t]+" + _SECRET + r"[^\s`\"',;)]{3,}[^\s`\"',;).!?:])",
        (r"\bpassword(?=[ \t])", r"\bpasswd(?=[ \t])"),
        "loose",
    ),
    # A 40-character AWS secret named in words anywhere before it on the line.
    Shape(
        "aws_secret_access_key",
        r"\baws[^\n]{0,40}?secret[^\n]{0,40}?(?:\n[ \t]*)?(?<![A-Za-z0-9/+=])"
        + _SECRET
        + r"[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
        (r"\baws",),
    ),
    # A long token a secret word names, a few words before it.
    Shape(
        "prose_secret",
        r"\b" + _WORDS + r"\b[^\n]{0,30}?(?<![\w/+=.-])" + _SECRET + r"[A-Za-z0-9_+/=-]{16,})",
        _WORD_HINTS,
        "strict",
    ),
)

_WORDISH = lazy(r"[a-z]+(?:-[a-z]+)*|[A-Z][a-z]+|[A-Z]+")
_HEX_OR_ID = lazy(
    r"[0-9a-fA-F]{7,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+"
)


def looks_secret(value: str, *, strict: bool = False) -> bool:
    """Whether a value a secret word announced is credential-shaped.

    A quoted value counts unless it is a placeholder; a bare one needs a digit, a
    symbol or mixed case (``hunter2``, ``Sup3rS3cretPw``), so plain words (``expired``,
    ``stored``) are left. ``strict`` (a long token found near the word, not right after
    it) also needs letters and digits mixed, and is never a hex id, a UUID or a number.
    """
    if value[:1] in "`\"'" and value[-1:] == value[:1]:
        inner = value[1:-1].strip()
        return bool(inner) and " " not in inner.strip() or len(inner) >= 8
    if _WORDISH.fullmatch(value):
        return False
    if strict:
        if _HEX_OR_ID.fullmatch(value):
            return False
        has = (any(c.isdigit() for c in value), any(c.isalpha() for c in value))
        return all(has) and any(c.isupper() for c in value) and any(c.islower() for c in value)
    return any(not c.isalpha() for c in value) or value != value.lower()


# Values after a secret key that are evidently not a secret (see the module docstring).
_PLACEHOLDER = lazy(
    r"""(?ix)
    (?:none|null|nil|true|false|yes|no|on|off|undefined|required|optional|string|str|\.\.\.)
    | <[^<>]*> | \$\{[^}]*\}? | \$\(?[A-Za-z_][\w]*\)? | \{\{.*\}\} | %\(?\w+\)?s?
    | [*x•.#-]{3,} | \[REDACTED[:\]].*
    | [A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*[(\[].*
    | change[_-]?me | change[_-]?it | replace[_-]?me | placeholder
    | your[_-][\w-]* | [\w-]*[_-]here                # YOUR_API_KEY, paste-token-here
    | (?:[A-Za-z0-9]{1,12}[_-]){1,2}(?:x{4,}|\*{3,}|\.{3,}|…)  # sk-xxxx…, ghp_...
    | op://\S+                                       # a 1Password reference
    | pk[._](?:live_|test_)?\S*                      # a publishable key is public
    """
)


# A bare identifier that itself names a secret is code passing a variable along
# (``token: csrfToken``, ``password=self.password``), not a literal secret. Only whole
# name segments count, so ``monkey`` or ``password1`` are still redacted.
_NAME = lazy(r"[A-Za-z_][A-Za-z_.]*")
_NAME_SEGMENT = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_SECRET_SEGMENTS = frozenset(
    ("pass", "password", "passwd", "pwd", "secret", "token", "key", "apikey")
    + ("cred", "creds", "credential", "credentials", "auth")
)


def _names_a_secret(value: str) -> bool:
    if _NAME.fullmatch(value) is None:
        return False
    return any(seg.lower() in _SECRET_SEGMENTS for seg in _NAME_SEGMENT.findall(value))


def is_placeholder(key: str, value: str, *, bare: bool = False) -> bool:
    """Whether an assignment's value is clearly not a secret."""
    if not any(c.isalnum() for c in value):
        return True  # empty, or only punctuation as in ${TOKEN:-}
    if key.lower().endswith("pwd") and value[:1] in ("/", "~"):
        return True
    if bare and _names_a_secret(value):
        return True
    return _PLACEHOLDER.fullmatch(value) is not None
