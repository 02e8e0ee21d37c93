"""The prefilter that picks which redaction rules to run never hides a secret."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.secrets_corpus import LOOKALIKES, SECRETS
from brain.home.secrets import prefilter, ruletable, windows
from brain.home.secrets import redact as redact_module
from brain.home.secrets.prefilter import Heads, Words, lead
from brain.home.secrets.redact import Finding, find_secrets
from tests.helpers import examples
from tests.test_redact import NEGATIVES, POSITIVES, TOKENS


def _every_rule_everywhere(text: str) -> list[Finding]:
    """find_secrets without the prefilter: each rule's regex over the whole text, a rule
    with hint words tried at every offset (as it is where a hint word starts)."""
    found: list[Finding] = []
    lowered = text.lower()
    for rule in ruletable.RULES:
        if rule.group >= 0:  # a gitleaks rule: where its keywords are, found by str.find
            starts = sorted(pos for word in rule.hints for pos in _every_find(lowered, word))
            # its matches near one of them (in a text whose keywords re may spell
            # otherwise, every rule's: see windows.FOLDS_APART)
            if rule.anywhere or windows.folds_apart(text):
                matches = [
                    m
                    for m in rule.pattern.finditer(text)
                    if redact_module.is_near(starts, m.start(), m.end())
                ]
            else:  # its matches start at one
                tried = (rule.pattern.match(text, pos) for pos in starts)
                matches = [m for m in tried if m is not None]
        elif rule.hints:
            tried = (rule.pattern.match(text, pos) for pos in range(len(text)))
            matches = [m for m in tried if m is not None]
        else:
            matches = list(rule.pattern.finditer(text))
        for match in matches:
            start = match.start()
            if rule.not_after and start > 0 and text[start - 1] in rule.not_after:
                continue
            span = redact_module._secret_span(rule, match)
            if span is not None and span[0] < span[1]:
                found.append(Finding(rule.kind, *span))
    merged = redact_module._merge(found + redact_module.family_findings(text))
    return redact_module._everywhere(text, redact_module._through_wraps(text, merged))


def _every_find(text: str, word: str) -> Iterator[int]:
    pos = text.find(word)
    while pos >= 0:
        yield pos
        pos = text.find(word, pos + 1)


TEXTS = (
    [text for _, text, _ in SECRETS]
    + [text for _, text, _ in POSITIVES]
    + list(LOOKALIKES)
    + NEGATIVES
)


def _each_way() -> Iterator[str]:
    """Run the body with texts searched by the groups' regexes, then head by head."""
    was = prefilter.SHORT
    try:
        for short, way in ((-1, "by groups"), (10**9, "head by head")):
            prefilter.SHORT = short
            yield way
    finally:
        prefilter.SHORT = was


def test_the_prefilter_finds_what_every_rule_run_everywhere_finds() -> None:
    joined = "\n".join(TEXTS)  # many rules' heads in one text, secrets side by side
    expected = {text: _every_rule_everywhere(text) for text in [*TEXTS, joined]}
    for way in _each_way():
        for text, findings in expected.items():
            assert find_secrets(text) == findings, (way, text[:200])


def test_keywords_are_found_at_every_start_by_their_rarest_character() -> None:
    words = prefilter.Keywords(["xoxb-", "xoxe.xoxb-", "sumo", "sumologic", "_mmk", "<add key="])
    text = "a xoxe.xoxb-1 and sumologic, x_mmk <add key=b"
    assert words.offsets(text) == {
        "xoxe.xoxb-": [2],
        "xoxb-": [7],
        "sumo": [18],
        "sumologic": [18],
        "_mmk": [30],
        "<add key=": [35],
    }
    assert words.offsets("nothing here") == {}


def test_a_short_text_is_searched_head_by_head_and_a_long_one_by_groups() -> None:
    heads = Heads([r"sk-[a-z]{3}", r"xa[a-z]+", r"ab?c"])
    short = "an sk-abc and xaq and ac"
    long = short + " " * prefilter.SHORT
    assert heads.present(short) == heads.present(long) == {0, 1, 2}
    words = Words([r"\btoken\b", "pass"])
    assert words.offsets("a token, a passpass") == {r"\btoken\b": [2], "pass": [11, 15]}
    assert words.offsets("a token, a passpass" + " " * prefilter.SHORT) == {
        r"\btoken\b": [2],
        "pass": [11, 15],
    }


@pytest.mark.parametrize(
    ("regex", "start"),
    [
        ("k-ant-[a-z]", "k-ant-"),
        ("ab?c", "a"),
        ("ab+c", "ab"),
        ("ab*", "a"),
        ("ab{2}", "a"),
        (r"\.com/x", ".com/x"),
        (r"o\d", "o"),
        ("(?:a|b)c", ""),
        ("ab|c", ""),
        ("a(?:b|c)", "a"),
        ("a[bc]", "a"),
    ],
)
def test_a_heads_literal_start_is_what_every_match_starts_with(regex: str, start: str) -> None:
    assert prefilter.literal_start(regex) == start


@pytest.mark.parametrize(
    ("regex", "starts"),
    [
        ("k-ant-[a-z]", ("k-ant-",)),
        (r"(?<=\d:)AA[a-z]", ("AA",)),
        (r"(?<![a-z])(?<=sk)\.eyJ", (".eyJ",)),
        ("(?:KI|SI)A[0-9]", ("KIA", "SIA")),
        ("(?:KI|SI)[0-9]", ("KI", "SI")),
        ("(?:KI|SI)?A", ()),
        (r"(?:K\.[a-z]|SI)A", ("K.", "SIA")),  # an alternative that is not plain stops
        (r"(?i)(?:\bkind:\s+x|\bdata:)", ("kind:", "data:")),
        ("(?x)a b", ()),
        ("gh[pousr]_[A-Za-z0-9]{30}", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
        ("a[bc]+d", ("ab", "ac")),
        ("x[a-c]y[0-9]z", ("xay", "xby", "xcy")),  # ten more would pass sixteen
        ("SK[0-9a-fA-F]{32}", ("SK",)),
        ("a[^b]c", ("a",)),
        ("gl(?:ptt|dt)-x", ("glptt-x", "gldt-x")),
        ("(?:KI|)A", ()),
        ("(?:d{2}|x):", ()),
        ("[a-z]{6}", ()),
        (r"(?<=[a-z]{6}\.)[a-z]{43}", ()),
    ],
)
def test_a_heads_literal_starts_are_read_past_lookbehinds_and_alternatives(
    regex: str, starts: tuple[str, ...]
) -> None:
    assert prefilter.literal_starts(regex) == starts
    for start in starts:  # every match starts with one of them
        for match in re.finditer(regex, f"x1:{start}ab9 sk{start}q" + "a" * 50):
            assert match[0].startswith(starts)


NOISE = st.text(alphabet=string.ascii_letters + string.digits + " _-.:=\"'/@\n\t", max_size=40)
# Pieces of what the rules with hint words look for, to be glued in any order.
WORDISH = st.sampled_from(
    ["password", "PassWord", "db_pwd", "Secret_Key", "api-key", "API KEY", "tokens", "token"]
    + ["credentials", "creds", "pin", "passcode", "auth.key", "client-secret", "aws", "AWS"]
    + [" as ", "\tas\t", " user ", "\tlogin ", " username ", "AccountKey=", "sig=", "cookie:"]
    + ["Authorization", "Bearer ", "mysql ", "sshpass ", "-u ", "--user ", " -p", "sk_live_"]
    + [" = ", ": ", "=", ":=", "=>", '"', "'", " is ", " was now ", " set to ", " / ", ", "]
    + ["hunter2", "Sup3rS3cretPw", "Ab3dE6gH9jK2mN5pQ8sT", "x" * 8]
)


@given(st.lists(st.one_of(NOISE, TOKENS, st.sampled_from(TEXTS), WORDISH), max_size=8))
@settings(max_examples=examples(100))
def test_the_prefilter_hides_nothing_in_mixed_text(parts: list[str]) -> None:
    text = "".join(parts)
    expected = _every_rule_everywhere(text)
    for way in _each_way():
        assert find_secrets(text) == expected, way


def test_a_head_hidden_by_a_longer_match_of_its_group_is_still_found() -> None:
    heads = Heads(["sk-[a-z-]+", "sk-ant-", "xa[a-z]+", "xb"])
    for _ in _each_way():
        assert heads.present("sk-ant-x") == {0, 1}  # same start, listed later
        assert heads.present("xaaxb") == {2, 3}  # starts inside the first match
        assert heads.present("nothing here") == set()


def test_a_hint_can_ask_for_a_word_start_and_what_follows() -> None:
    words = Words([r"\btokens?\b", r"token(?![a-z0-9])[:=]"])
    found = words.offsets("max_tokens token_count tokens token:x")
    assert found == {r"\btokens?\b": [23, 30], r"token(?![a-z0-9])[:=]": [30]}


def test_words_are_found_where_they_overlap() -> None:
    words = Words([" as ", "pass", "passw", "sshpass"])
    for _ in _each_way():
        assert words.offsets(" as as ") == {" as ": [0, 3]}
        found = words.offsets("sshpass password pass")
        assert found == {"sshpass": [0], "pass": [3, 8, 17], "passw": [8]}


@pytest.mark.parametrize(
    "head", ["[sr]k_", "(?:a|b)", "A{20}", "a(b)c", ".x", "ab|cd", "a(?P<v>b)", "a[(]((?:b))"]
)
def test_a_head_must_start_with_one_literal_and_capture_nothing(head: str) -> None:
    with pytest.raises(ValueError, match="a head must start with"):
        lead(head)


def test_a_bad_head_is_refused_when_its_group_first_scans_a_text() -> None:
    for _ in _each_way():
        heads = Heads(["ab", "a(b)c"])
        assert heads.present("no such letter in it") == set()
        with pytest.raises(ValueError, match="a head must start with"):
            heads.present("a text with an a")


def test_a_bar_inside_a_group_or_a_class_is_fine_in_a_head() -> None:
    assert lead(r"x(?:a|b)[|\]]\|y") == ("x", r"(?:a|b)[|\]]\|y")
    assert lead(r"x\((?=a)[(]b(?<!c)") == ("x", r"\((?=a)[(]b(?<!c)")


def test_a_capturing_group_is_read_from_the_text_as_re_would_count_it() -> None:
    heads = [h for rule in ruletable.RULES for h in ruletable.heads(rule)]
    samples = [r"a\(b", r"[(]x", r"(?:a)(b)", r"[\]](c)", r"\\(d)", r"(?P<n>e)", r"(?#c)"]
    for regex in heads + samples:
        assert prefilter._captures(regex) == bool(re.compile(regex).groups), regex


def test_every_rule_without_hint_words_has_heads_that_compile() -> None:
    plan = ruletable.plan()
    for rule in ruletable.RULES:
        ids, hints = ruletable.heads(rule), rule.hints
        assert bool(ids) != bool(hints), rule.kind
        assert all(re.compile(h) for h in ruletable.heads(rule))
    assert plan.literals.scan("", "") == (set(), {})


@pytest.mark.parametrize("lead", ["0", "wallet_", "my-"])
def test_a_seed_phrase_is_found_after_any_character(lead: str) -> None:
    text = lead + "seed phrase: " + "apple zebra mirror " * 4
    assert [f.kind for f in find_secrets(text)] == ["seed_phrase"]
    assert find_secrets(text) == _every_rule_everywhere(text)
