"""A gitleaks rule searched only around its keywords finds what the whole-text search
finds: the same matches in the same order, and so the same redaction."""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterator

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.redact import synthetic
from brain.home.patterns import compiled, source
from brain.home.secrets import prefilter, ruletable, windows
from brain.home.secrets import redact as redact_module
from brain.home.secrets.redact import redact
from brain.home.secrets.windows import Window, search, spans, window
from tests.helpers import examples
from tests.test_redact_literals import CORPORA

# gitleaks' rules whose matches need not start at a keyword.
ANYWHERE = [r for r in ruletable.RULES if r.group >= 0 and r.anywhere]
WINDOWED = [r for r in ANYWHERE if window(source(r.pattern), r.hints) is not None]
GITLEAKS = {rule.kind: rule.regex for rule in ruletable.GITLEAKS}


def test_the_rules_searched_around_their_keywords_are_all_but_these() -> None:
    whole = {r.kind for r in ANYWHERE if r not in WINDOWED}
    assert whole == {
        # a match may hold no keyword
        "airtable_personnal_access_token",  # airtable; matches start pat
        "facebook_access_token",  # facebook; matches are digits | token
        "sourcegraph_access_token",  # sourcegraph, sgp_; or 40 hex alone
        # a "." in the regex where the keyword has one: any character
        "sidekiq_sensitive_url",
        "slack_config_access_token",
        "slack_webhook_url",
        # a match of unbounded width
        "freemius_secret_key",
        "kubernetes_secret_yaml",
        "microsoft_teams_webhook",
    }
    assert "hashicorp_tf_api_token" in {r.kind for r in WINDOWED}  # atlasv1 in its middle
    assert len(WINDOWED) == 9


def test_a_gitleaks_rule_whose_matches_start_at_its_keyword_is_tried_only_there() -> None:
    starting = {r.kind for r in ruletable.RULES if r.group >= 0 and not r.anywhere}
    assert {
        "gitlab_pat",  # glpat-: a "-" the regex spells as it is
        "anthropic_api_key",  # sk-ant-api03
        "age_secret_key",  # age-secret-key-1
        "cloudflare_origin_ca_key",  # v1.0-, spelt v1\.0-
        "slack_user_token",  # xoxp-, xoxe-: spelt xox[pe]-
        "atlassian_api_token",  # jira: spelt (?-i:JIRA|[Jj]ira)
        "stripe_access_token",  # sk_test...: spelt (?:sk|rk)_(?:test|live|prod)_
    } <= starting
    assert len(ANYWHERE) == 18


@pytest.mark.parametrize(
    ("regex", "keywords", "expected"),
    [
        (r"glpat-[\w-]{20}", ("glpat-",), True),
        (r"\b(sk-ant-api03-[a-z]{4})", ("sk-ant-api03",), True),
        (r"v1\.0-[a-f0-9]{24}", ("v1.0-",), True),
        (r"xox[pe]-\d", ("xoxp-", "xoxe-"), True),
        (r"(?:sk|rk)_(?:test|live)_\d{4}", ("sk_test", "sk_live", "rk_test", "rk_live"), True),
        (r"(?i)(?:(?-i:JIRA|[Jj]ira)|okta)=x", ("jira", "okta"), True),
        (r"p(?<!\w[\s\S])ul-[a-f0-9]{4}", ("pul-",), True),  # a lookbehind reads no character
        (r"((HRKU-AA[0-9a-z]{4}))", ("hrku-aa",), True),
        # a match that may start otherwise
        (r"(?:sk|rk)_(?:test|live)_\d{4}", ("sk_test", "sk_live"), False),
        (r"glpat-?x", ("glpat-",), False),  # the "-" may be absent
        (r"glpat.x", ("glpat-",), False),  # "." is any character
        (r"(?:jira)?=x", ("jira",), False),
        (r"jira|x", ("jira",), False),
        (r"[a-z]{0,5}jira", ("jira",), False),
        (r"\d{15}\|jira", ("jira",), False),
    ],
)
def test_a_regex_starts_with_a_keyword_when_every_literal_text_it_starts_with_does(
    regex: str, keywords: tuple[str, ...], expected: bool
) -> None:
    assert windows.starts_with_keyword(regex, keywords) is expected


def test_keyword_places_a_match_could_join_are_one_window() -> None:
    assert list(spans([], 50)) == []
    assert list(spans([10, 30, 500], 50)) == [(0, 30), (450, 500)]
    assert list(spans([200, 299], 50)) == [(150, 299)]  # 299 - 50 < 200 + 50
    assert list(spans([200, 300], 50)) == [(150, 200), (250, 300)]


def _hits(text: str, keywords: tuple[str, ...]) -> list[int]:
    """Every place a keyword starts in the text lower-cased, overlapping ones too."""
    lowered = text.lower()
    return sorted(at for k in keywords for at in range(len(lowered)) if lowered.startswith(k, at))


def _spans(matches: Iterator[re.Match[str]]) -> list[tuple[tuple[int, int], tuple[str, ...]]]:
    return [(m.span(), m.groups()) for m in matches]


# Small regexes at the edges: word boundaries and $ at a window's end, lookbehinds before
# its start, lookaheads past it, lazy and greedy repeats, and matches that a whole-text
# search chains (one ending where the next could start).
EDGES = [
    (r"jira[a-z=]{0,6}", ("jira",)),
    (r"\bjira\b=?[a-z]{2,4}$", ("jira",)),
    (r"(?<![a-z])[a-z]{0,3}jira(?=[a-z]{2})", ("jira",)),
    (r"(?i)[a-z]{0,5}?jira[=a-z]{1,5}?(?:x|$)", ("jira",)),
    (r"(?:ji|jira)[a-z]{3}(?!a)", ("ji",)),
    (r"a?jira(?:a|aj){0,3}", ("jira",)),
    (r"[ij]{0,4}(?:JIRA|[Jj]ira)[ij]{0,4}\b", ("jira",)),
    (r"(?m)^[a-z]{0,2}jira[a-z ]{0,3}\Z", ("jira",)),
    (r"jira(?=[a-z =]{0,30}$)", ("jira",)),
]


@given(st.sampled_from(EDGES), st.text(alphabet="jiraJ=x \n", max_size=60))
@settings(max_examples=examples(300))
def test_the_windows_find_what_the_whole_text_search_finds_at_the_edges(
    rule: tuple[str, tuple[str, ...]], text: str
) -> None:
    regex, keywords = rule
    win = window(regex, keywords)
    assert win is not None
    pattern = re.compile(regex)
    hits = _hits(text, keywords)
    assert _spans(search(pattern, text, hits, win)) == _spans(pattern.finditer(text))


def test_a_window_reads_past_its_last_start_as_far_as_a_match_attempt_does() -> None:
    # cut at the match's width, "$", "\b" or a lookahead would see the text end there
    for regex, text in [
        (r"jira=[a-z]{4}\b", "jira=abcde"),
        (r"jira=[a-z]{4}$", "jira=abcd\nx"),
        (r"jira=[a-z]{4}(?!.{0,10}!)", "jira=abcd" + "x" * 9 + "!"),
        # the first window's cut makes a false match at the second keyword: past the
        # first window's last start, so left to the second window, which reads on
        (r"jira(?=.{0,30}$)", "jira" + "x" * 10 + "jira" + "y" * 40),
    ]:
        pattern, win = re.compile(regex), window(regex, ("jira",))
        assert win is not None
        hits = _hits(text, ("jira",))
        assert list(pattern.finditer(text)) == list(search(pattern, text, hits, win)) == []


def _keyword_variants(rule: ruletable.Rule) -> st.SearchStrategy[str]:
    words = [k for k in rule.hints]
    return st.sampled_from(words + [k.upper() for k in words] + [k.title() for k in words])


FILLER = st.text(alphabet=string.ascii_letters + string.digits + " =:'\"\n\t_-./", max_size=300)


@st.composite
def _rule_and_text(draw: st.DrawFn) -> tuple[ruletable.Rule, str]:
    """A rule searched by windows and a text with its keywords at random distances from
    values of its shape, whole or cut."""
    rule = draw(st.sampled_from(WINDOWED))
    shaped = st.from_regex(GITLEAKS[rule.kind], fullmatch=True)
    cut = st.tuples(shaped, st.integers(0, 40)).map(lambda v: v[0][v[1] :])
    piece = st.one_of(FILLER, _keyword_variants(rule), shaped, cut)
    return rule, "".join(draw(st.lists(piece, min_size=1, max_size=8)))


Found = tuple[list[redact_module.Finding], str]


def _both_ways(text: str) -> tuple[Found, Found]:
    """What every rule finds (in the order found, before overlapping findings merge) and
    the text redacted: with windows, and with every rule searched over the whole text."""
    windowed = redact_module._raw_findings(text), redact(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(windows, "window", lambda regex, keywords: None)
        return windowed, (redact_module._raw_findings(text), redact(text))


@given(_rule_and_text())
@settings(max_examples=examples(200), deadline=None)
def test_each_rule_finds_the_same_around_its_keywords_in_random_text(
    drawn: tuple[ruletable.Rule, str],
) -> None:
    rule, text = drawn
    assume(not windows.folds_apart(text))
    win = window(source(rule.pattern), rule.hints)
    assert win is not None
    pattern = compiled(rule.pattern)
    _, hinted = ruletable.plan().literals.scan(text, text.lower())
    assume(hinted is not None)
    hits = sorted(at for k in rule.hints for at in hinted.get(k, ()))
    assert hits == _hits(text, rule.hints)
    assert _spans(search(pattern, text, hits, win)) == _spans(pattern.finditer(text))
    windowed, whole = _both_ways(text)
    assert windowed == whole


STARTING = [r for r in ruletable.RULES if r.group >= 0 and not r.anywhere]


@st.composite
def _starting_rule_and_text(draw: st.DrawFn) -> tuple[ruletable.Rule, str]:
    """A gitleaks rule tried only where its keywords start, and a text of its shapes."""
    rule = draw(st.sampled_from(STARTING))
    shaped = st.from_regex(GITLEAKS[rule.kind], fullmatch=True)
    piece = st.one_of(FILLER, _keyword_variants(rule), shaped)
    return rule, "".join(draw(st.lists(piece, min_size=1, max_size=6)))


@given(_starting_rule_and_text())
@settings(max_examples=examples(200), deadline=None)
def test_a_rule_tried_where_its_keywords_start_has_no_match_elsewhere(
    drawn: tuple[ruletable.Rule, str],
) -> None:
    rule, text = drawn
    assume(not windows.folds_apart(text))
    hits = set(_hits(text, rule.hints))
    assert all(m.start() in hits for m in compiled(rule.pattern).finditer(text))


@pytest.mark.parametrize(
    ("regex", "keywords", "expected"),
    [
        (r"(?i)(?:jira|atlassian)[ \t]{0,3}=([a-z0-9]{24})", ("jira", "atlassian"), (37, 37)),
        (r"(?-i:JIRA|[Jj]ira)=[a-z]{4}", ("jira",), (9, 9)),  # [Jj] lower-cases to j
        (r"linked[_-]?in=x", ("linkedin", "linked_in", "linked-in"), (11, 11)),
        (r"(?:sk|rk)_(?:test|live)_\d{4}", ("sk_test", "sk_live", "rk_test", "rk_live"), (12, 12)),
        (r"p(?<!\w[\s\S])ul-[a-f0-9]{4}", ("pul-",), (8, 10)),  # a lookbehind reads 2
        (r"jira=[a-z]{4}(?=[a-z]{0,10}!)", ("jira",), (9, 20)),  # a lookahead reads on
        (r"[a-z]{0,5}?\.(?-i:atlasv1)\.", ("atlasv1",), (14, 14)),
        # a match without any keyword, or of unbounded width, or a back-reference
        (r"linked[_-]?in=x", ("linkedin",), None),
        (r"(?:sk|rk)_(?:test|live)_\d{4}", ("sk_test", "sk_live"), None),
        (r"(?:jira)?=[a-z]{4}", ("jira",), None),
        (r"x(?=.{0,5}jira)", ("jira",), None),  # the keyword only looked ahead for
        (r"hooks.slack.com/x", ("hooks.slack.com",), None),  # "." is any character
        (r"jira=[a-z]+", ("jira",), None),
        (r"jira=(?=[a-z]+!)", ("jira",), None),
        (r"(jira)=\1", ("jira",), None),
        (r"jira|x", ("jira",), None),
    ],
)
def test_a_rule_is_searched_around_its_keywords_when_every_match_holds_one(
    regex: str, keywords: tuple[str, ...], expected: tuple[int, int] | None
) -> None:
    win = window(regex, keywords)
    assert win == (None if expected is None else Window(*expected))


def test_the_corpora_are_redacted_the_same_with_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    joined = "\n".join(CORPORA)
    texts = [*CORPORA, joined]
    for short in (prefilter.SHORT, -1):  # re's passes, then the automaton for every text
        monkeypatch.setattr(prefilter, "SHORT", short)
        for text in texts:
            windowed, whole = _both_ways(text)
            assert windowed == whole, text[:200]
    # found by the windows, though brain's own rules name most of them
    assert any(f.kind in {r.kind for r in WINDOWED} for f in redact_module._raw_findings(joined))


def test_a_long_text_with_keywords_sprinkled_is_redacted_the_same() -> None:
    words = [k for rule in WINDOWED for k in rule.hints]
    lines = synthetic(1).split("\n")
    for i in range(0, len(lines), 97):  # a keyword every few KB, beside a secret or not
        lines[i] = f"{words[i % len(words)]} = {lines[i]}"
    text = "\n".join(lines)
    windowed, whole = _both_ways(text)
    assert windowed == whole
    assert windowed[1] != text


def test_a_character_re_folds_to_ascii_and_lower_does_not_keeps_the_whole_text() -> None:
    every = "".join(chr(c) for c in range(128, sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    lowered_apart = (c for c in re.findall(r"(?i)[\x00-\x7f]", every) if not c.lower().isascii())
    folding = set(lowered_apart)
    assert folding == set(windows.FOLDS_APART)
    # CO_APı_KEY is cohere's CO_API_KEY to re, not to the keyword search, which finds the
    # "cohere" 150 characters before it: near enough to count, too far for its window
    value = "Ab3dE6gH9jK2mN5pQ8sTAb3dE6gH9jK2mN5pQ8sT"
    text = "cohere is the provider\n" + "x " * 75 + f"CO_AP\u0131_KEY={value}\n"
    windowed, whole = _both_ways(text)
    assert windowed == whole
    assert "cohere_api_token" in {f.kind for f in windowed[0]}


K8S = (
    "apiVersion: v1\nKind: Secret\nmetadata:\n  name: db\ntype: Opaque\n"
    "data:\n  password: " + "c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==" + "\n"
)


def test_a_rule_re_cannot_skip_ahead_in_is_tried_where_its_literal_starts_stand() -> None:
    # (?i)(?:\bkind:…|\bdata:…) starts with a group: re tries it at every offset
    n = next(n for n, r in enumerate(ruletable.RULES) if r.kind == "kubernetes_secret_yaml")
    assert redact_module._starts(n) == ("kind:", "data:")
    long = "\n".join([*CORPORA, K8S, synthetic(1)[:200_000], K8S.upper()])
    tried = 0
    for n, rule in enumerate(ruletable.RULES):
        if not redact_module._starts(n):
            continue
        regex = compiled(rule.pattern)
        for text in (long, K8S, K8S.upper()):
            found = list(redact_module._whole(n, regex, text, text.lower()))
            assert [m.span() for m in found] == [m.span() for m in regex.finditer(text)]
            tried += bool(found)
    assert tried >= 10
    found = redact_module._raw_findings(K8S + synthetic(1)[:5_000])
    assert "kubernetes_secret_yaml" in {f.kind for f in found}


PGPASS = "db.prod.internal:5432:app:admin:" + "Tr0ub4dor-horse" + "\n*:*:*:replica:" + "x" * 4


def test_a_rule_whose_matches_stand_within_a_line_is_searched_in_its_heads_lines() -> None:
    lined = [n for n in range(len(ruletable.RULES)) if redact_module._line_heads(n)]
    assert "pgpass" in {ruletable.RULES[n].kind for n in lined}
    long = "\n".join([*CORPORA, PGPASS, synthetic(1)[:50_000], PGPASS + "end"])
    tried = 0
    for n in lined:
        regex = compiled(ruletable.RULES[n].pattern)
        heads = redact_module._line_heads(n)
        assert heads is not None
        for text in (long, PGPASS, "a:1:b:c:d:e " + PGPASS):
            found = [m.span() for m in windows.lines(regex, text, heads)]
            assert found == [m.span() for m in regex.finditer(text)]
            tried += bool(found)
    assert tried >= 3


@pytest.mark.parametrize(
    ("regex", "within"),
    [
        (r"[\w.-]+:\d+:[^\s:]+(?!\S)", True),
        (r"\bkey\b[^\n]{0,9}", True),
        (r"a\sb", False),  # \s holds the break
        (r"a.b", True),
        (r"(?s)a.b", False),
        (r"a(?s:.)b", False),
        (r"a[^x]", False),
        (r"a\D", False),
        (r"a$", False),
        (r"a(?=\n)", False),
    ],
)
def test_a_regex_within_a_line_is_read_from_its_parse_tree(regex: str, within: bool) -> None:
    assert windows.within_line(regex) is within


@pytest.mark.parametrize(
    ("regex", "needed"),
    [
        (r"gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9])", 34),
        (r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}", 27),  # the dot ends the first run
        (r":(?<=[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{6}:)[A-Za-z0-9_-]{43}", 43),  # past a lookbehind
        (r"A(?:KI|SI)A[A-Z0-9]{16}", 17),  # a group ends a run: what is known of it counts
        (r"--(?:[a-z]+-)*(?:password|token) +\S+", 2),
        (r"\d{40}", 0),  # \d matches digits beyond ASCII
        (r"(?i)sk_[a-z0-9]{32}", 0),  # (?i) takes K for k
        (r"[^ ]{40}", 0),
    ],
)
def test_the_run_a_regex_needs_is_read_from_it(regex: str, needed: int) -> None:
    assert windows.run_needed(regex) == needed


def test_every_match_of_a_head_in_the_corpora_holds_the_run_it_needs() -> None:
    # what run_needed reads lets a head be skipped in a text without as long a run
    heads = [h for rule in ruletable.RULES for h in ruletable.heads(rule)]
    tried = 0
    for text in CORPORA:
        for head in heads:
            for m in prefilter.compile_head(*prefilter.lead(head)).finditer(text):
                held = max(map(len, re.findall(r"[A-Za-z0-9_-]+", m.group())), default=0)
                assert windows.run_needed(head) <= held, (head, m.group())
                tried += 1
    assert tried > 100
