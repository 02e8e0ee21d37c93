"""Every rule brain finds secrets with, in the order they are tried.

:data:`RULES` holds the core rules below, then the provider tokens, context shapes,
command-line flags and credentials announced in prose of
:mod:`brain.home.secrets.rules` and :mod:`brain.home.secrets.spoken`, then gitleaks'
maintained rule set (:mod:`brain.home.secrets.gitleaks`), each made a :class:`Rule`.
brain's rules come first, so a secret both find is named by brain's kind.
:func:`plan` reads, once, the literals that say which rules a text can match (each
rule's heads, hint words or keywords) for :mod:`brain.home.secrets.redact`, which runs
the rules and replaces what they find.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from brain.home.patterns import lazy as _lazy
from brain.home.patterns import source
from brain.home.secrets import families, gitleaks, windows
from brain.home.secrets.gitleaks import Allow, GitleaksRule
from brain.home.secrets.literals import Literals
from brain.home.secrets.prefilter import Keywords, Words
from brain.home.secrets.rules import (
    CJK,
    COMMANDS,
    HEADS,
    IN_CONTEXT,
    KEY_HINTS,
    KEY_WORDS,
    NAMED,
    PREFIXED,
    PROSE,
)
from brain.home.secrets.spoken import SPOKEN

__all__ = [
    "GITLEAKS",
    "GITLEAKS_ALLOWS",
    "KINDS",
    "OWN_KINDS",
    "RULES",
    "Plan",
    "Rule",
    "heads",
    "plan",
]


class Rule(NamedTuple):
    """One rule: a regex, what its match must pass, and what lets it run on a text."""

    kind: str
    pattern: re.Pattern[str]
    # The preceding character must not be one of these: a token glued to a longer word
    # is part of an identifier, not a credential. Checked in Python rather than with a
    # lookbehind so the regex keeps its literal prefix and stays fast to search.
    not_after: str = ""
    # Lower-case words one of which every match starts with. A regex that starts with a
    # case-insensitive word has no literal prefix for the engine to skip ahead with, so
    # the words are found first (one pass per first letter, see prefilter.py) and the
    # regex is tried only there.
    hints: tuple[str, ...] = ()
    # "loose"/"strict": the ``secret`` group must also pass ``looks_secret``.
    check: str = ""
    # For a rule without hints: regexes, each starting with a literal character, one of
    # which every match holds; the rule runs only on a text where one matches. Default:
    # the rule's own regex, which then must start with a literal character.
    heads: tuple[str, ...] = ()
    # A rule of gitleaks' (see gitleaks.py): which group is the secret (0: the first that
    # took part, -1: not such a rule), the entropy the secret must exceed, and the
    # allowlists that let a match pass.
    group: int = -1
    entropy: float = 0.0
    allows: tuple[Allow, ...] = ()

    @property
    def anywhere(self) -> bool:
        """Whether the rule's hints only say it may match somewhere: a gitleaks rule whose
        matches need not start at one of its keywords. Read from its regex's parse tree
        the first time a text holds a keyword (parsing all 213 at import would cost it ~10 ms)."""
        return self.group >= 0 and not windows.starts_with_keyword(source(self.pattern), self.hints)


_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_WORD = _ALNUM + "_"
_TOKEN = _WORD + "-"

# A value after ``key =`` / ``key:``: double-quoted, single-quoted or bare. A bare value
# is bounded: on one long line of ``a=1&token=...&token=...`` an unbounded one scans to
# the end of the line from every key, which is quadratic. A terminal's escape sequences
# (``\x1b[1;3m``, a colour) are formatting, never part of a value: those before it are
# passed over, and one ends a bare value (gitleaks prints ``Secret: \x1b[1;3;mREDACTED``).
_ESCAPE = r"\x1b\[[0-?]*[ -/]*[@-~]"
_VALUE = (
    r"(?:" + _ESCAPE + r"[ \t]*)*"
    r"""(?:(?P<tpl>\{\{[^\n]*?\}\}|\$\{[^}\n]*\})"""  # {{ template }} or ${VAR}
    r"""|"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>(?:[^'\\\n]|\\.)*)'"""
    # (a string inside a JSON string: a notebook cell's os.environ[\"X_TOKEN\"] = \"…\")
    r'|\\"(?P<edq>(?:[^"\\\n]|\\[^"\n])*)\\"'
    r"""|(?P<bare>[^\s"'`,;)}\]\x1b""" + CJK + r"""]{1,4096}))"""
)

RULES: tuple[Rule, ...] = (
    # PEM / OpenSSH / PGP private key blocks, whole. A block cut off before its END line
    # (transcripts get truncated) is redacted through its base64 body.
    Rule(
        "private_key",
        _lazy(
            r"-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.{0,65536}?-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----"
            # Cut off: its body, if one follows (a header named in prose is no key).
            r"|(?=(?:[ \t]*(?:\r?\n|\\[nr]))*(?:[A-Za-z-]+:[^\n\\]*(?:\n|\\n)"
            r"(?:[ \t]*(?:\r?\n|\\[nr]))*){0,3}[ \t]*[A-Za-z0-9+/=]{16})"
            r"(?:[A-Za-z0-9+/=:,. \t\r\n-]|\\[nr])*)",
            re.DOTALL,
        ),
        heads=("-----BEGIN",),
    ),
    # AWS access key ids: long-lived (AKIA) and temporary STS (ASIA).
    Rule("aws_access_key_id", _lazy(r"A(?:KI|SI)A[A-Z0-9]{16}(?![A-Za-z0-9])"), _ALNUM),
    # AWS secret access keys only have a recognisable shape next to their name.
    Rule(
        "aws_secret_access_key",
        _lazy(
            r"(?i:secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
            r"(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        hints=("secret",),
    ),
    # GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens.
    Rule("github_token", _lazy(r"gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9])"), _WORD),
    # GitHub fine-grained personal access tokens.
    Rule("github_token", _lazy(r"github_pat_(?=[A-Za-z0-9_]{0,254}\d)[A-Za-z0-9_]{22,255}"), _WORD),
    # GitLab personal/project/group access tokens.
    Rule("gitlab_token", _lazy(r"glpat-[A-Za-z0-9_-]{20,}"), _TOKEN),
    # Anthropic API and admin keys; listed before OpenAI, whose shape also fits them.
    Rule("anthropic_key", _lazy(r"sk-ant-[A-Za-z0-9_-]{20,}"), _TOKEN),
    # OpenAI project/service-account/admin keys, then legacy keys (no hyphen in the
    # body, so hyphenated words such as sk-learn-compatible are not hit).
    Rule("openai_key", _lazy(r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}"), _TOKEN),
    Rule("openai_key", _lazy(r"sk-[A-Za-z0-9]{32,}"), _TOKEN),
    # Google API keys (Maps, Gemini, Firebase...).
    Rule("google_api_key", _lazy(r"AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])"), _WORD),
    # Slack bot/user/app-level/refresh tokens.
    # (a real one has numbered parts: "xoxb-your-token" is a placeholder)
    Rule("slack_token", _lazy(r"xox[baprse]-(?=[A-Za-z-]{0,40}\d)[A-Za-z0-9-]{10,}"), _WORD),
    Rule("slack_token", _lazy(r"xapp-\d-[A-Za-z0-9-]{10,}"), _WORD),
    # Slack incoming webhooks: the URL path is the credential.
    Rule(
        "slack_webhook",
        _lazy(r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
        _WORD,
    ),
    # Stripe secret and restricted keys, live and test.
    Rule("stripe_key", _lazy(r"sk_(?:live|test)_[A-Za-z0-9]{16,}"), _WORD),
    Rule("stripe_key", _lazy(r"rk_(?:live|test)_[A-Za-z0-9]{16,}"), _WORD),
    # npm automation/publish tokens.
    Rule("npm_token", _lazy(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), _WORD),
    # Hugging Face user access tokens.
    Rule("huggingface_token", _lazy(r"hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])"), _WORD),
    # JSON Web Tokens: base64url header and payload (both JSON, so "eyJ"), signature.
    Rule(
        "jwt",
        # A JWT cut before its signature is still one (a summary cuts long lines).
        _lazy(r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}(?:\.[A-Za-z0-9_-]*)?"),
        _TOKEN,
    ),
    # HTTP Authorization headers (and a bare "Bearer <token>"): keep the scheme.
    Rule(
        "auth_header",
        _lazy(
            r"(?:(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?:(?i:bearer|basic|token|bot)\s+)?"
            r"|(?i:bearer)\s+(?=[A-Za-z0-9._~+/-]{16}))"
            r"(?!(?i:bearer|basic|token|bot)\s)"  # the scheme is no secret: what follows it is
            # (":" inside: Asana's 1/<id>:<hex>; "!": Salesforce's 00D…!…)
            r"(?P<secret>[A-Za-z0-9._~+/=-][A-Za-z0-9._~+/=:!-]*|\$\{?\w+\}?|<[^>\n]*>"
            r"|\{\{[^}\n]*\}\}"
            r"|\[REDACTED[:\]][^\]\n]*\]?)"
        ),
        hints=("authorization", "bearer"),
    ),
    # user:password@ in any scheme://; only the password is replaced.
    Rule(
        "url_credentials",
        _lazy(r"://[^\s/:@\"'<>\[\]]{0,256}:(?P<secret>[^\s/\"'<>]+)@"),
    ),
    # key = value / key: value / "key": "value" for keys ending in a secret word. The
    # regex starts at the secret word (a prefix such as DB_ may precede it) because a
    # leading [\w.-]* would be retried at every offset of every word.
    Rule(
        "secret_assignment",
        _lazy(
            r"(?P<key>(?i:" + KEY_WORDS + r"))(?![A-Za-z0-9])"
            # (a name quoted, escaped, or an index's: os.environ["X_TOKEN"], \"X_TOKEN\"];
            # Make's ?= as its = and :=)
            r"(?:\\?[\"'][\])]?)?[ \t]*(?::=|\?=|=>|[:=])[ \t]*" + _VALUE
        ),
        hints=KEY_HINTS,
    ),
    # An age plugin's identity (AGE-PLUGIN-YUBIKEY-1…): the plugin's handle on a private key,
    # bech32 as age's own AGE-SECRET-KEY-1 is.
    Rule(
        "age_secret_key",
        _lazy(r"AGE-PLUGIN-[A-Z0-9]{1,32}-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{20,}"),
        _WORD,
    ),
    # A PIN under its name (ACCOUNT_PIN=4821, "sim-pin": "004912"): 4 to 12 digits; a
    # board's pin (LED_PIN = 13, DATA_PIN = board.D18) is no PIN.
    Rule(
        "secret_assignment",
        _lazy(
            r"[_-](?i:pin)(?:[_-]?(?i:code))?(?![A-Za-z0-9])(?:\\?[\"'][\])]?)?[ \t]*"
            r"(?::=|=>|[:=])[ \t]*(?:\\?[\"'])?(?P<secret>\d{4,12})(?![\w.:/-])"
        ),
        hints=("_pin", "-pin"),
    ),
    # Command-line flags: --password hunter2, --api-key=... is the rule above.
    Rule(
        "secret_assignment",
        _lazy(
            r"--(?:[a-z]+-)*(?P<key>password|passwd|passphrase|pass|token|secret|api-key) +"
            + _VALUE
        ),
        check="loose",  # "instead of --password so the value ..." is prose
        # what every match holds: a "-" before the word, which a turn's "--" seldom is
        heads=(r"-(?:password|passwd|passphrase|pass|token|secret|api-key) +",),
    ),
)


RULES += tuple(
    Rule(
        kind,
        _lazy(pattern),
        "" if pattern.startswith("(?<") else _TOKEN,  # its own lookbehind decides
        heads=(HEADS[kind],) if kind in HEADS else (),
    )
    for kind, pattern in PREFIXED
)
RULES += tuple(
    Rule(s.kind, _lazy(s.pattern, re.IGNORECASE if s.hints else 0), "", s.hints, s.check)
    for s in IN_CONTEXT + COMMANDS + PROSE + SPOKEN + NAMED
)


def _gitleaks_rule(rule: GitleaksRule) -> Rule:
    return Rule(
        rule.kind,
        # re skips ahead to a literal start; a leading \b would have it try every offset
        _lazy(gitleaks.literal_lead(rule.regex)),
        hints=rule.keywords,
        group=rule.group,
        entropy=rule.entropy,
        allows=rule.allows,
    )


# gitleaks' rules after brain's: brain's kind names a secret both find.
GITLEAKS, GITLEAKS_ALLOWS = gitleaks.load()
RULES += tuple(_gitleaks_rule(rule) for rule in GITLEAKS)

KINDS: tuple[str, ...] = tuple(dict.fromkeys(rule.kind for rule in RULES))
# The kinds of brain's own rules (the others are gitleaks', tested as gitleaks tests them).
OWN_KINDS: tuple[str, ...] = tuple(dict.fromkeys(r.kind for r in RULES if r.group < 0))


def heads(rule: Rule) -> tuple[str, ...]:
    """A rule's heads: its own, or its whole regex (named groups made plain, since the
    heads of a group share one regex)."""
    if rule.heads or rule.hints:
        return rule.heads
    return (re.sub(r"\(\?P<\w+>", "(?:", source(rule.pattern)),)


class Plan(NamedTuple):
    """What a scan needs, built once, on first use. A rule's own regex is compiled when
    a text first passes its heads or hints: a short text compiles a few of the hundred
    (compiling them all costs a ``remember`` more than its git commands)."""

    # the rules' heads, brain's rules' hints and gitleaks' rules' keywords
    literals: Literals
    # Which rules (indices into ``RULES``) each head, or each hint word, lets run.
    by_head: tuple[int, ...]
    by_hint: dict[str, tuple[int, ...]]


@cache
def plan() -> Plan:
    """The literals of every rule and which rules each lets run, read on first use."""
    led = [(n, head) for n, rule in enumerate(RULES) for head in heads(rule)]
    by_hint: dict[str, list[int]] = {}
    for n, rule in enumerate(RULES):
        for hint in rule.hints:
            by_hint.setdefault(hint, []).append(n)
    hinted = {hint: tuple(ns) for hint, ns in by_hint.items()}
    own = (h for rule in RULES if rule.group < 0 for h in rule.hints)
    keywords = (h for rule in RULES if rule.group >= 0 for h in rule.hints)
    return Plan(
        Literals([h for _, h in led], Words(own), Keywords(keywords), families.WORDS),
        tuple(n for n, _ in led),
        hinted,
    )
