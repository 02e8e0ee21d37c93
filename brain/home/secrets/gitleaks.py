"""gitleaks' rule set, the maintained base of the provider token shapes.

``data/gitleaks.toml`` is gitleaks' own ``config/gitleaks.toml``, vendored as it is (MIT,
``data/gitleaks.LICENSE``; which commit in ``data/NOTICE.md``). Reading it with
``tomllib`` takes 100-200 ms, which every ``remember`` would pay, so
``data/gitleaks.json`` holds the same rules translated once for Python's ``re``
(``python -m brain.home.secrets.gitleaks`` writes it again; a test checks the two agree).

The translation:

* Go's RE2 takes ``(?i)`` anywhere and applies it to the rest of its group; Python only
  at the start, so ``LTAI(?i)[a-z0-9]{20}`` becomes ``LTAI(?i:[a-z0-9]{20})``. ``\\z``
  is ``\\Z``, ``[[:alnum:]]`` is ``[A-Za-z0-9]``, and any other ``[`` inside a
  character class is escaped.
* A command's rule reads anything up to its flag (``\\bcurl\\b(?:.*|…)[ \\t](?:-u|--user)``);
  greedy, that runs to the line's last flag, so of two ``curl -u`` on a line only the
  second was found, and the first only once the second was redacted (redacting twice
  changed the text). It is made lazy: each command's own flag is found.
* The ``[\\w.-]{0,50}?`` that leads many rules (what may stand before the keyword) only
  widens a match to the left of what is redacted, and costs a try at every offset, so
  it is dropped: the rule is tried where its keyword starts.
* What is redacted is the rule's ``secretGroup``, or its first group that took part,
  or the whole match; it must be above the rule's ``entropy`` (Shannon, bits per
  character), and pass the rule's and the file's allowlists (regexes on the secret, the
  match or the line; stopwords in the secret). Allowlists that name file paths have no
  meaning for a text and are left out.
* A rule runs only on a text that holds one of its ``keywords``.

brain runs each rule with a leading ``\\b`` moved past the literal character after it
(:func:`literal_lead`), which matches the same and lets ``re`` skip ahead to that
character; the JSON keeps the regex as translated.

Left out: the rules brain has its own, better-fitting shape for (``generic-api-key``,
whose name-then-value shape is ``secret_assignment`` and the named-value entropy rule;
``private-key``; ``jwt``; Vault, Twilio and Azure AD tokens and Terraform's
``password``, whose keywords ``s.``, ``sk``, ``q~`` and ``password`` stand in most
texts and would make them run on nearly every one), and rules with no regex (a file
name).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from brain.home.secrets.prefilter import top_level_bar

__all__ = ["Allow", "GitleaksRule", "entropy", "group_end", "literal_lead", "load", "translate"]

_DATA = Path(__file__).with_name("data")
TOML = _DATA / "gitleaks.toml"
JSON = _DATA / "gitleaks.json"

# brain's own rules cover these better (see the module docstring).
SKIPPED = frozenset(
    ("generic-api-key", "private-key", "jwt", "jwt-base64")
    # brain's own shape for the same token, and a keyword found in most texts ("s.",
    # "sk", "q~", "password") that would make the rule run on nearly every one
    + ("vault-service-token", "twilio-api-key", "azure-ad-client-secret", "hashicorp-tf-password")
)


class Allow(NamedTuple):
    """One allowlist: a finding is allowed when any regex or stopword says so."""

    target: str  # "secret", "match" or "line"
    regexes: tuple[str, ...]
    stopwords: tuple[str, ...]


class GitleaksRule(NamedTuple):
    """One rule of gitleaks', translated for Python's ``re``."""

    kind: str
    regex: str
    keywords: tuple[str, ...]
    entropy: float
    group: int  # 0: the first group that took part
    allows: tuple[Allow, ...]


def entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character, as gitleaks counts it."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def group_end(regex: str, start: int) -> int:
    """The index of the ``)`` closing the group ``start`` is in (``len`` at top level)."""
    depth, i, in_class = 0, start, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            i += regex[i + 1 : i + 2] == "^"
            i += regex[i + 1 : i + 2] == "]"
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return len(regex)


_POSIX = re.compile(r"\[:(\w+):\]")
_POSIX_CLASSES = {
    "alnum": "A-Za-z0-9",
    "alpha": "A-Za-z",
    "digit": "0-9",
    "xdigit": "0-9A-Fa-f",
    "lower": "a-z",
    "upper": "A-Z",
    "space": r"\s",
    "word": r"\w",
}


def _class_brackets(regex: str) -> str:
    """``regex`` with RE2's ``[:alnum:]`` classes spelt out and any other ``[`` inside a
    character class escaped (RE2 reads it as a literal; Python warns it may one day open
    a nested set)."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            out.append(regex[i : i + 2])
            i += 2
            continue
        if in_class:
            posix = _POSIX.match(regex, i)
            if posix:
                out.append(_POSIX_CLASSES[posix[1]])
                i = posix.end()
                continue
            if c == "[":
                c = "\\["
            elif c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            out.append(c)
            i += 1
            for lead in ("^", "]"):
                if regex[i : i + 1] == lead:
                    out.append(lead)
                    i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


# Anything up to a command's flag, on its line or the next five (see the module docstring).
_UP_TO_FLAG = r"(?:.*|.*(?:[\r\n]{1,2}.*){1,5})"
_UP_TO_OWN_FLAG = r"(?:.*?|.*?(?:[\r\n]{1,2}.*?){1,5}?)"


def translate(regex: str) -> str:
    """An RE2 regex of gitleaks' as Python's ``re`` reads it the same way."""
    regex = regex.replace(r"[\w.-]{0,50}?", "").replace(r"\z", r"\Z")
    regex = regex.replace(_UP_TO_FLAG, _UP_TO_OWN_FLAG)
    regex = _class_brackets(regex)
    while True:
        at = regex.find("(?i)", 1)
        if at < 0:
            return regex
        end = group_end(regex, at + 4)
        regex = regex[:at] + "(?i:" + regex[at + 4 : end] + ")" + regex[end:]


# A leading \b, the groups opened after it, and the literal word character they start with.
_LEADING_BOUNDARY = re.compile(r"\\b((?:\((?:\?:)?)*)(\w)(?![?*+{])")


def literal_lead(regex: str) -> str:
    """``regex`` with a leading ``\\b`` moved past the literal word character after it:
    ``\\b(pul-[a-f0-9]{40})`` becomes ``(p(?<!\\w[\\s\\S])ul-[a-f0-9]{40})``, which
    matches the same. Python's ``re`` skips ahead to a literal start in C and tries a
    regex that starts with ``\\b`` at every offset: a rule run over a whole long text
    (its matches need only be near a keyword) costs thirty times as much so. A group
    with an alternative (``\\b(?:EAAA|sq0atp-)``) keeps its ``\\b``: the character leads
    only the first."""
    lead = _LEADING_BOUNDARY.match(regex)
    if lead is None or not lead[2].isascii():
        return regex
    opened = [i + 1 + 2 * (regex[i + 1] == "?") for i in range(*lead.span(1)) if regex[i] == "("]
    if any(top_level_bar(regex[i : group_end(regex, i)]) for i in opened):
        return regex
    return lead[1] + lead[2] + r"(?<!\w[\s\S])" + regex[lead.end() :]


def _allows(entries: list[dict[str, Any]]) -> tuple[Allow, ...]:
    allows = []
    for entry in entries:
        if entry.get("paths") and entry.get("condition", "OR").upper() == "AND":
            continue  # true only for a file of that name: never for a text
        regexes = tuple(translate(r) for r in entry.get("regexes", ()))
        stopwords = tuple(w.lower() for w in entry.get("stopwords", ()))
        if regexes or stopwords:
            allows.append(Allow(entry.get("regexTarget", "secret"), regexes, stopwords))
    return tuple(allows)


def build(toml: Path = TOML) -> dict[str, Any]:
    """The translated rules of gitleaks' TOML file, as ``data/gitleaks.json`` holds them."""
    import tomllib  # ~4 ms, which every redaction would pay: only making the JSON needs it

    with toml.open("rb") as f:
        config = tomllib.load(f)
    rules = []
    for rule in config["rules"]:
        if rule["id"] in SKIPPED or not rule.get("regex"):
            continue
        rules.append(
            GitleaksRule(
                kind=rule["id"].replace("-", "_"),
                regex=translate(rule["regex"]),
                keywords=tuple(k.lower() for k in rule.get("keywords", ())),
                entropy=float(rule.get("entropy", 0.0)),
                group=int(rule.get("secretGroup", 0)),
                allows=_allows(rule.get("allowlists", [])),
            )
        )
    return {
        "about": "Made from gitleaks.toml by python -m brain.home.secrets.gitleaks; do not edit.",
        "allows": _allows([config.get("allowlist", {})]),
        "rules": rules,
    }


def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=0, ensure_ascii=False) + "\n"


@cache
def load() -> tuple[tuple[GitleaksRule, ...], tuple[Allow, ...]]:
    """The rules of ``data/gitleaks.json`` and the allowlists every rule shares."""
    doc = json.loads(JSON.read_text(encoding="utf-8"))
    rules = tuple(
        GitleaksRule(
            kind,
            regex,
            tuple(keywords),
            entropy,
            group,
            tuple(Allow(t, tuple(r), tuple(s)) for t, r, s in allows),
        )
        for kind, regex, keywords, entropy, group, allows in doc["rules"]
    )
    return rules, tuple(Allow(t, tuple(r), tuple(s)) for t, r, s in doc["allows"])


def main() -> None:
    doc = build()
    JSON.write_text(_dump(doc), encoding="utf-8")
    print(f"{len(doc['rules'])} rules -> {JSON}")


if __name__ == "__main__":
    main()
