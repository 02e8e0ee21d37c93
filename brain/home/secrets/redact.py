"""Find and mask secrets before text reaches a model or the disk.

Every secret pattern brain knows lives in this module's ``_RULES`` table: the core
rules below, then the provider tokens, context shapes, command-line flags and
credentials announced in prose of :mod:`brain.home.secrets.rules` and
:mod:`brain.home.secrets.spoken`, then gitleaks' maintained rule set
(:mod:`brain.home.secrets.gitleaks`). brain's rules come first, so a secret both find
is named by brain's kind.
``redact`` replaces each secret with ``[REDACTED:<kind>]``; for ``key = value`` shapes
(assignments, ``Authorization`` headers, ``user:pass@`` in URLs) only the value is
replaced so the text still says *what* was there.

Choices worth knowing:

* Redaction is idempotent: the marker never matches a rule, and an assignment whose
  value is already a marker is left alone, so ``redact(redact(t)) == redact(t)``.
* Assignment values that are clearly not secrets are left as they are: empty values,
  ``None``/``null``/``true``/``false``, ``<placeholder>``, ``${VAR}``/``$VAR``,
  ``{{ template }}``, masks such as ``****`` or ``xxxx``, code references such as
  ``os.environ["X"]``, ``get_token()`` or a bare name that itself names a secret
  (``token: csrfToken``, ``password=self.password``), values with no letter or digit,
  and a ``PWD=/some/path`` working directory.
  Everything else after a secret-looking key is redacted, short or not: a false
  positive costs a few characters of memory, a false negative leaks a credential.
* Keys must *end* in a secret word (``DB_PASSWORD``, ``api_key``, ``GITHUB_TOKEN``),
  so ``password_reset_url`` or ``token_count`` are not secrets.
* Entropy counts only where a credential's name announces a value: hex ids, git shas,
  UUIDs and digests are hit only right after such a name (``heroku api key <uuid>``,
  ``DD_APP_KEY=<hex>``, ``"routing_key": "<hex>"``, ``master.key holds <hex>``), and
  then only a value of 16+ characters, letters and digits, over 3 bits a character.
  A long token is redacted without a known prefix only when a secret word names it a
  few words before, and only if it mixes letters, digits and case.
* A placeholder in a provider's shape is no secret: ``ghp_xxxx…``, AWS's documented
  ``AKIAIOSFODNN7EXAMPLE``, ``xoxb-your-token``, ``Bearer {{ api_token }}``; nor is the
  ``secret:`` of an ARN, which names a secret in AWS Secrets Manager.
* A gitleaks rule runs only on a text holding one of its keywords, and a match counts
  only within :data:`NEAR` characters of one. A rule whose every match starts with a
  keyword is tried only where one starts; one whose every match holds a keyword is
  searched only around them (:mod:`brain.home.secrets.windows`), finding the same.
* Idempotence holds for prose too: a marker is never a credential-shaped value.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

from brain.home.patterns import compiled, source
from brain.home.patterns import lazy as _lazy
from brain.home.secrets import gitleaks, windows
from brain.home.secrets.gitleaks import Allow, GitleaksRule
from brain.home.secrets.literals import Literals
from brain.home.secrets.prefilter import Keywords, Words, matches_at
from brain.home.secrets.rules import (
    COMMANDS,
    HEADS,
    IN_CONTEXT,
    KEY_HINTS,
    KEY_WORDS,
    NAMED,
    PREFIXED,
    PROSE,
    high_entropy,
    is_placeholder,
    looks_secret,
)
from brain.home.secrets.spoken import SPOKEN, plain_password

__all__ = ["KINDS", "Finding", "find_secrets", "redact"]

_MARKER_PREFIX = "[REDACTED:"


class Finding(NamedTuple):
    """One secret found in a text.

    Attributes:
        kind: which rule matched, one of ``KINDS``.
        start: offset of the first secret character.
        end: offset just past the last secret character.
    """

    kind: str
    start: int
    end: int


class _Rule(NamedTuple):
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
        the first time a text holds a keyword (parsing all of them costs an import 10 ms)."""
        return self.group >= 0 and not windows.starts_with_keyword(source(self.pattern), self.hints)


_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_WORD = _ALNUM + "_"
_TOKEN = _WORD + "-"

# A value after ``key =`` / ``key:``: double-quoted, single-quoted or bare. A bare value
# is bounded: on one long line of ``a=1&token=...&token=...`` an unbounded one scans to
# the end of the line from every key, which is quadratic.
_VALUE = (
    r"""(?:(?P<tpl>\{\{[^\n]*?\}\}|\$\{[^}\n]*\})"""  # {{ template }} or ${VAR}
    r"""|"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>(?:[^'\\\n]|\\.)*)'"""
    r"""|(?P<bare>[^\s"'`,;)}\]]{1,4096}))"""
)

_RULES: tuple[_Rule, ...] = (
    # PEM / OpenSSH / PGP private key blocks, whole. A block cut off before its END line
    # (transcripts get truncated) is redacted through its base64 body.
    _Rule(
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
    _Rule("aws_access_key_id", _lazy(r"A(?:KI|SI)A[A-Z0-9]{16}(?![A-Za-z0-9])"), _ALNUM),
    # AWS secret access keys only have a recognisable shape next to their name.
    _Rule(
        "aws_secret_access_key",
        _lazy(
            r"(?i:secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
            r"(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        hints=("secret",),
    ),
    # GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens.
    _Rule("github_token", _lazy(r"gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9])"), _WORD),
    # GitHub fine-grained personal access tokens.
    _Rule(
        "github_token", _lazy(r"github_pat_(?=[A-Za-z0-9_]{0,254}\d)[A-Za-z0-9_]{22,255}"), _WORD
    ),
    # GitLab personal/project/group access tokens.
    _Rule("gitlab_token", _lazy(r"glpat-[A-Za-z0-9_-]{20,}"), _TOKEN),
    # Anthropic API and admin keys; listed before OpenAI, whose shape also fits them.
    _Rule("anthropic_key", _lazy(r"sk-ant-[A-Za-z0-9_-]{20,}"), _TOKEN),
    # OpenAI project/service-account/admin keys, then legacy keys (no hyphen in the
    # body, so hyphenated words such as sk-learn-compatible are not hit).
    _Rule("openai_key", _lazy(r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}"), _TOKEN),
    _Rule("openai_key", _lazy(r"sk-[A-Za-z0-9]{32,}"), _TOKEN),
    # Google API keys (Maps, Gemini, Firebase...).
    _Rule("google_api_key", _lazy(r"AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])"), _WORD),
    # Slack bot/user/app-level/refresh tokens.
    # (a real one has numbered parts: "xoxb-your-token" is a placeholder)
    _Rule("slack_token", _lazy(r"xox[baprse]-(?=[A-Za-z-]{0,40}\d)[A-Za-z0-9-]{10,}"), _WORD),
    _Rule("slack_token", _lazy(r"xapp-\d-[A-Za-z0-9-]{10,}"), _WORD),
    # Slack incoming webhooks: the URL path is the credential.
    _Rule(
        "slack_webhook",
        _lazy(r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
        _WORD,
    ),
    # Stripe secret and restricted keys, live and test.
    _Rule("stripe_key", _lazy(r"sk_(?:live|test)_[A-Za-z0-9]{16,}"), _WORD),
    _Rule("stripe_key", _lazy(r"rk_(?:live|test)_[A-Za-z0-9]{16,}"), _WORD),
    # npm automation/publish tokens.
    _Rule("npm_token", _lazy(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), _WORD),
    # Hugging Face user access tokens.
    _Rule("huggingface_token", _lazy(r"hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])"), _WORD),
    # JSON Web Tokens: base64url header and payload (both JSON, so "eyJ"), signature.
    _Rule(
        "jwt",
        # A JWT cut before its signature is still one (a summary cuts long lines).
        _lazy(r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}(?:\.[A-Za-z0-9_-]*)?"),
        _TOKEN,
    ),
    # HTTP Authorization headers (and a bare "Bearer <token>"): keep the scheme.
    _Rule(
        "auth_header",
        _lazy(
            r"(?:(?i:authorization)[\"']?\s*[:=]\s*[\"']?(?:(?i:bearer|basic|token|bot)\s+)?"
            r"|(?i:bearer)\s+(?=[A-Za-z0-9._~+/-]{16}))"
            r"(?!(?i:bearer|basic|token|bot)\s)"  # the scheme is no secret: what follows it is
            # (":" inside: Asana's 1/<id>:<hex>)
            r"(?P<secret>[A-Za-z0-9._~+/=-][A-Za-z0-9._~+/=:-]*|\$\{?\w+\}?|<[^>\n]*>"
            r"|\{\{[^}\n]*\}\}"
            r"|\[REDACTED[:\]][^\]\n]*\]?)"
        ),
        hints=("authorization", "bearer"),
    ),
    # user:password@ in any scheme://; only the password is replaced.
    _Rule(
        "url_credentials",
        _lazy(r"://[^\s/:@\"'<>\[\]]{0,256}:(?P<secret>[^\s/\"'<>]+)@"),
    ),
    # key = value / key: value / "key": "value" for keys ending in a secret word. The
    # regex starts at the secret word (a prefix such as DB_ may precede it) because a
    # leading [\w.-]* would be retried at every offset of every word.
    _Rule(
        "secret_assignment",
        _lazy(
            r"(?P<key>(?i:" + KEY_WORDS + r"))(?![A-Za-z0-9])"
            r"[\"']?[ \t]*(?::=|=>|[:=])[ \t]*" + _VALUE
        ),
        hints=KEY_HINTS,
    ),
    # Command-line flags: --password hunter2, --api-key=... is the rule above.
    _Rule(
        "secret_assignment",
        _lazy(r"--(?:[a-z]+-)*(?P<key>password|passwd|pass|token|secret|api-key) +" + _VALUE),
        check="loose",  # "instead of --password so the value ..." is prose
    ),
)


_RULES += tuple(
    _Rule(
        kind,
        _lazy(pattern),
        "" if pattern.startswith("(?<") else _TOKEN,  # its own lookbehind decides
        heads=(HEADS[kind],) if kind in HEADS else (),
    )
    for kind, pattern in PREFIXED
)
_RULES += tuple(
    _Rule(s.kind, _lazy(s.pattern, re.IGNORECASE if s.hints else 0), "", s.hints, s.check)
    for s in IN_CONTEXT + COMMANDS + PROSE + SPOKEN + NAMED
)


def _gitleaks_rule(rule: GitleaksRule) -> _Rule:
    return _Rule(
        rule.kind,
        # re skips ahead to a literal start; a leading \b would have it try every offset
        _lazy(gitleaks.literal_lead(rule.regex)),
        hints=rule.keywords,
        group=rule.group,
        entropy=rule.entropy,
        allows=rule.allows,
    )


# gitleaks' rules after brain's: brain's kind names a secret both find.
_GITLEAKS, _GITLEAKS_ALLOWS = gitleaks.load()
_RULES += tuple(_gitleaks_rule(rule) for rule in _GITLEAKS)

KINDS: tuple[str, ...] = tuple(dict.fromkeys(rule.kind for rule in _RULES))
# The kinds of brain's own rules (the others are gitleaks', tested as gitleaks tests them).
OWN_KINDS: tuple[str, ...] = tuple(dict.fromkeys(r.kind for r in _RULES if r.group < 0))
_PRIORITY = {kind: i for i, kind in enumerate(KINDS)}


def _secret_span(rule: _Rule, match: re.Match[str]) -> tuple[int, int] | None:
    """The span to redact for one match, or None when the match is not a secret."""
    if rule.group >= 0:
        return _gitleaks_span(rule, match)
    groups = match.groupdict()
    if "secret" in groups:
        value = groups["secret"]
        if is_placeholder("", value):
            return None
        if rule.check == "entropy":
            if not high_entropy(value) or _names_public(match):
                return None
        elif rule.check == "plain":
            said = match.string[match.start() : match.start("secret")].rstrip()
            if not plain_password(value, after_verb=not said.endswith((":", "="))):
                return None
        elif rule.check and not looks_secret(value, strict=rule.check == "strict"):
            return None
        return match.span("secret")
    if "key" in groups:
        if groups["tpl"] is not None:
            return None
        name = next(g for g in ("dq", "sq", "bare") if groups[g] is not None)
        if is_placeholder(groups["key"], groups[name], bare=name == "bare"):
            return None
        if rule.check and name == "bare" and not looks_secret(groups[name]):
            return None
        if rule.kind == "secret_assignment" and _in_arn(match):
            return None
        return match.span(name)
    if is_placeholder("", match[0]):  # ghp_xxxx…, AKIAIOSFODNN7EXAMPLE
        return None
    return match.span()


def _names_public(match: re.Match[str]) -> bool:
    """Whether the name before a value says it is public (``public_key``, ``pub_key``,
    ``publishable_key``): an address or a public key is no secret however random."""
    before = match.string[max(0, match.start() - 24) : match.start()].lower()
    return "pub" in before.rsplit(None, 1)[-1] if before.strip() else False


def _in_arn(match: re.Match[str]) -> bool:
    """Whether an assignment's key is a part of an ARN (``…:secret:prod/db-AbCdEf``
    names a secret in AWS Secrets Manager, it holds none)."""
    text, start = match.string, match.start()
    before = text[max(0, start - 120) : start]
    at = before.rfind("arn:")
    return at >= 0 and not any(c.isspace() for c in before[at:])


def _gitleaks_span(rule: _Rule, match: re.Match[str]) -> tuple[int, int] | None:
    """A gitleaks rule's secret: its group, above its entropy, no allowlist's and no
    placeholder (``ghp_xxxx…``, ``${TOKEN}``)."""
    group = rule.group
    if group == 0:
        group = next((g for g in range(1, (match.re.groups or 0) + 1) if match.group(g)), 0)
    start, end = match.span(group)
    secret = match.string[start:end]
    if not secret or is_placeholder("", secret):
        return None
    if rule.entropy and gitleaks.entropy(secret) <= rule.entropy:
        return None
    for allow in rule.allows + _GITLEAKS_ALLOWS:
        if _allowed(allow, secret, match):
            return None
    return start, end


def _allowed(allow: Allow, secret: str, match: re.Match[str]) -> bool:
    if allow.stopwords and any(word in secret.lower() for word in allow.stopwords):
        return True
    if not allow.regexes:
        return False
    if allow.target == "match":
        target = match[0]
    elif allow.target == "line":
        text = match.string
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        target = text[line_start : line_end if line_end >= 0 else len(text)]
    else:
        target = secret
    return any(_allow_regex(r).search(target) for r in allow.regexes)


@cache
def _allow_regex(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def _heads(rule: _Rule) -> tuple[str, ...]:
    """A rule's heads: its own, or its whole regex (named groups made plain, since the
    heads of a group share one regex)."""
    if rule.heads or rule.hints:
        return rule.heads
    return (re.sub(r"\(\?P<\w+>", "(?:", source(rule.pattern)),)


class _Plan(NamedTuple):
    """What a scan needs, built once, on first use. A rule's own regex is compiled when
    a text first passes its heads or hints: a short text compiles a few of the hundred
    (compiling them all costs a ``remember`` more than its git commands)."""

    # the rules' heads, brain's rules' hints and gitleaks' rules' keywords
    literals: Literals
    # Which rules (indices into ``_RULES``) each head, or each hint word, lets run.
    by_head: tuple[int, ...]
    by_hint: dict[str, tuple[int, ...]]


@cache
def _plan() -> _Plan:
    heads = [(n, head) for n, rule in enumerate(_RULES) for head in _heads(rule)]
    by_hint: dict[str, list[int]] = {}
    for n, rule in enumerate(_RULES):
        for hint in rule.hints:
            by_hint.setdefault(hint, []).append(n)
    hinted = {hint: tuple(ns) for hint, ns in by_hint.items()}
    own = (h for rule in _RULES if rule.group < 0 for h in rule.hints)
    keywords = (h for rule in _RULES if rule.group >= 0 for h in rule.hints)
    return _Plan(
        Literals([h for _, h in heads], Words(own), Keywords(keywords)),
        tuple(n for n, _ in heads),
        hinted,
    )


def _raw_findings(text: str) -> list[Finding]:
    plan = _plan()
    # str.lower() keeps offsets unless a character lower-cases to several (U+0130);
    # then the rules with hint words fall back to a plain regex scan.
    present, hinted = plan.literals.scan(text, text.lower())
    if hinted is None:
        tried = {n for n, rule in enumerate(_RULES) if rule.hints}
    else:
        tried = {n for hint in hinted for n in plan.by_hint[hint]}
    tried.update(plan.by_head[i] for i in present)
    found: list[Finding] = []
    # Whether the text holds a character re's case-insensitive matching takes for one of a
    # keyword's that the keyword search does not (CO_APı_KEY): then a gitleaks rule's
    # matches need not start, nor stand in a window, where the search found a keyword.
    apart = hinted is not None and windows.folds_apart(text)
    for n in sorted(tried):  # in the rules' order, as if every rule ran
        rule = _RULES[n]
        regex = compiled(rule.pattern)
        near = None
        if hinted is not None and rule.group >= 0 and (apart or _anywhere(n)):
            near = sorted(pos for hint in rule.hints for pos in hinted.get(hint, ()))
            matches: Iterator[re.Match[str]] = _near_keywords(rule, regex, text, near, whole=apart)
        elif rule.hints and hinted is not None:
            matches = matches_at(regex, text, rule.hints, hinted)
        else:
            matches = regex.finditer(text)
        for match in matches:
            start = match.start()
            if near is not None and not is_near(near, start, match.end()):
                continue
            if rule.not_after and start > 0 and text[start - 1] in rule.not_after:
                continue
            span = _secret_span(rule, match)
            if span is not None and span[0] < span[1]:
                found.append(Finding(rule.kind, span[0], span[1]))
    return found


@cache
def _anywhere(n: int) -> bool:
    """``_RULES[n].anywhere``, read once: a 2 KB message asks it of each rule it tries."""
    return _RULES[n].anywhere


def _near_keywords(
    rule: _Rule, regex: re.Pattern[str], text: str, near: list[int], *, whole: bool
) -> Iterator[re.Match[str]]:
    """The matches of a gitleaks rule that need not start at its keyword: searched for
    only around its keywords' places ``near`` where that finds what a whole-text search
    does (see windows.py), else, or when ``whole``, over the whole text."""
    win = None if whole else windows.window(source(rule.pattern), rule.hints)
    if win is None:
        return regex.finditer(text)
    return windows.search(regex, text, near, win)


# How far from its keyword a match of a gitleaks rule may be, in characters: a keyword
# anywhere in a long transcript (``sourcegraph``) says nothing of a 40-hex commit id
# far from it.
NEAR = 200


def is_near(offsets: list[int], start: int, end: int) -> bool:
    """Whether one of the sorted ``offsets`` lies within :data:`NEAR` of ``start:end``."""
    i = bisect.bisect_left(offsets, start - NEAR)
    return i < len(offsets) and offsets[i] <= end + NEAR


def find_secrets(text: str) -> list[Finding]:
    """Find every secret in a text.

    Overlapping matches (a GitHub token that is also an assignment's value) are merged
    into one finding, named after the most specific rule, so spans never overlap.

    Args:
        text: any text; it is not modified.

    Returns:
        Non-overlapping findings sorted by start offset.
    """
    return _merge(_raw_findings(text))


def _merge(findings: list[Finding]) -> list[Finding]:
    merged: list[Finding] = []
    for f in sorted(findings, key=lambda f: (f.start, -f.end)):
        if merged and f.start < merged[-1].end:
            last = merged[-1]
            kind = min(last.kind, f.kind, key=_PRIORITY.__getitem__)
            merged[-1] = Finding(kind, last.start, max(last.end, f.end))
        else:
            merged.append(f)
    return merged


def redact_fields(value: Any) -> Any:
    """``value`` with :func:`redact` applied to every string in it (lists, dicts too).

    For the small fields around a text (tags, source, a reason, a config value), which
    reach records, commit messages and the journal as they are.
    """
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (list, tuple)):
        return type(value)(redact_fields(v) for v in value)
    if isinstance(value, dict):
        return {k: redact_fields(v) for k, v in value.items()}
    return value


def redact(text: str) -> str:
    """Replace every secret in a text with ``[REDACTED:<kind>]``.

    Args:
        text: any text.

    Returns:
        The text with each secret replaced; unchanged when it holds none. Applying
        ``redact`` again to the result returns it unchanged.
    """
    findings = find_secrets(text)
    return replace_findings(text, findings) if findings else text


def replace_findings(text: str, findings: Sequence[Finding]) -> str:
    """``text`` with each finding's span replaced by its marker; overlapping findings
    (from several searches) become one marker, the first's."""
    parts: list[str] = []
    pos = 0
    for f in sorted(findings, key=lambda f: (f.start, -f.end)):
        if f.end <= pos:
            continue
        parts.append(text[pos : max(pos, f.start)])
        if f.start >= pos:
            parts.append(f"{_MARKER_PREFIX}{f.kind}]")
        pos = f.end
    parts.append(text[pos:])
    return "".join(parts)


def redact_slice(text: str, start: int, end: int, margin: int = 2_000) -> str:
    """``text[start:end]`` with its secrets replaced, judged in context.

    A secret is recognised in ``margin`` characters around the slice, and a secret that
    crosses either end of the slice is replaced whole, marker inside: a cut through a
    secret never leaves a piece of it, and the cut is made in the original text, so
    redaction shrinking the text never moves it.

    Args:
        text: the whole text.
        start, end: the slice to keep (clamped to the text).
        margin: how much context on each side the redactor sees.
    """
    start, end = max(0, start), min(len(text), end)
    if start >= end:
        return ""
    lo, hi = max(0, start - margin), min(len(text), end + margin)
    parts: list[str] = []
    pos = start
    for f in find_secrets(text[lo:hi]):
        a, b = f.start + lo, f.end + lo
        if b <= start or a >= end:
            continue
        parts.append(text[pos:a] if a > pos else "")
        parts.append(f"{_MARKER_PREFIX}{f.kind}]")
        pos = max(pos, b)
    if pos < end:
        parts.append(text[pos:end])
    return "".join(parts)
