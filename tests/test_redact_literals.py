"""The automaton that finds the rules' literals in one pass finds what re's passes find,
and redaction without the library finds the same."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.secrets_holdout import DATA, load
from brain.home.secrets import families, literals, prefilter, ruletable
from brain.home.secrets.literals import Literals, finditer_at
from brain.home.secrets.names import Span
from brain.home.secrets.prefilter import Heads, Keywords, Words
from brain.home.secrets.redact import find_secrets
from tests.helpers import examples
from tests.secrets import generated
from tests.test_redact import TOKENS
from tests.test_redact_families import CAUGHT, LEFT
from tests.test_redact_prefilter import NOISE, TEXTS, WORDISH, _every_rule_everywhere

BLIND = DATA.with_name("secrets_blind.json")
CORPORA = [x.text for path in (BLIND, DATA) for items in load(path) for x in items]

HEADS = [h for rule in ruletable.RULES for h in ruletable.heads(rule)]
OWN = [h for rule in ruletable.RULES if rule.group < 0 for h in rule.hints]
KEYWORDS = [h for rule in ruletable.RULES if rule.group >= 0 for h in rule.hints]


@functools.cache
def _prefilters() -> tuple[Literals, Heads, Words, Keywords]:
    words, keywords = Words(OWN), Keywords(KEYWORDS)
    return Literals(HEADS, words, keywords), Heads(HEADS), words, keywords


def _by_re(text: str) -> tuple[set[int], dict[str, list[int]] | None]:
    """What the scan tells from re's passes alone (the groups' regexes, as for any long
    text without the automaton)."""
    _, heads, words, keywords = _prefilters()
    lowered = text.lower()
    if len(lowered) != len(text):
        return heads.present(text), None
    return heads.present(text), words.offsets(lowered) | keywords.offsets(lowered)


@pytest.fixture
def every_text_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text is searched as a long one is, however short."""
    monkeypatch.setattr(prefilter, "SHORT", -1)


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text is searched in pieces of 40 characters, a literal standing twice in the
    first counting as dense: a short text crosses pieces and drops literals from the
    automaton as a 50 MB one does."""
    monkeypatch.setattr(literals, "_PIECE", 40)
    monkeypatch.setattr(literals, "_DENSE", 40)


# Common words, each twice in a text's first 40 characters: dense, left to re for the rest.
DENSE = "pat pat token token api api -- -- http http sk sk key key auth auth "


def _scan(text: str) -> tuple[set[int], dict[str, list[int]] | None]:
    return _prefilters()[0].scan(text, text.lower())


@pytest.mark.usefixtures("every_text_long")
def test_the_automaton_finds_what_re_finds_in_the_corpora() -> None:
    texts = [*TEXTS, *CORPORA, "\n".join(TEXTS), "\n".join(CORPORA)]
    for text in texts:
        assert _scan(text) == _by_re(text), text[:200]


@pytest.mark.usefixtures("every_text_long", "small_pieces")
def test_a_text_in_pieces_with_dense_literals_gives_the_same() -> None:
    texts = [*TEXTS, *CORPORA, "\n".join(TEXTS), *(DENSE + text for text in TEXTS + CORPORA)]
    for text in texts:
        assert _scan(text) == _by_re(text), text[:200]
    present, found = _scan(DENSE + "\n".join(TEXTS))
    assert found is not None and found["bearer"]  # found past the first piece


def test_a_dense_literal_whose_places_overlap_is_never_left_to_re(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prefilter, "SHORT", -1)
    monkeypatch.setattr(literals, "_PIECE", 8)
    monkeypatch.setattr(literals, "_DENSE", 8)
    words = Words([" as (?=a)"])  # " as " overlaps itself: re's matches would hide one
    text = " as as a" * 5
    scan = Literals([], words, Keywords([]))
    assert (
        scan.scan(text, text)[1]
        == words.offsets(text)
        == {" as (?=a)": [0, 3, 8, 11, 16, 19, 24, 27, 32, 35]}
    )


def test_a_literal_across_two_pieces_is_found_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prefilter, "SHORT", -1)
    monkeypatch.setattr(literals, "_PIECE", 8)
    for pad in range(12):
        text = "x" * pad + "curl -u bob:pw ghp_" + "a" * 36
        present, found = _scan(text)
        assert found is not None
        assert found["curl"] == [pad]
        assert (present, found) == _by_re(text)


NON_ASCII = st.sampled_from(["contraseña", "パスワード", "é", "ß", "İ", "Σ", "ﬃ", "\u00a0"])


@given(st.lists(st.one_of(NOISE, TOKENS, st.sampled_from(TEXTS), WORDISH, NON_ASCII), max_size=10))
@settings(max_examples=examples(100))
def test_the_automaton_finds_what_re_finds_in_mixed_text(parts: list[str]) -> None:
    text = "".join(parts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prefilter, "SHORT", -1)
        assert _scan(text) == _by_re(text)
        patch.setattr(literals, "_PIECE", 40)
        patch.setattr(literals, "_DENSE", 40)
        assert _scan(text) == _by_re(text)
        assert _scan(DENSE + text) == _by_re(DENSE + text)


def test_a_short_text_takes_re_and_a_long_one_the_automaton() -> None:
    scan = Literals(HEADS, Words(OWN), Keywords(KEYWORDS))
    scan.scan("password=x", "password=x")
    assert scan._automata == {}  # a remember pays neither the import nor the construction
    text = "password=x " + " " * prefilter.SHORT
    scan.scan(text, text.lower())
    assert list(scan._automata) == [frozenset()]


@pytest.fixture
def without_the_library(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """ahocorasick_rs cannot be imported, as in a broken install; the plan is made anew."""
    monkeypatch.setitem(sys.modules, "ahocorasick_rs", None)  # import raises ImportError
    ruletable.plan.cache_clear()
    yield
    ruletable.plan.cache_clear()


def test_redaction_without_the_library_finds_the_same(
    without_the_library: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ImportError):
        import ahocorasick_rs  # noqa: F401
    long = "\n".join(TEXTS)
    assert len(long) > prefilter.SHORT
    for text in [*TEXTS, long]:
        assert find_secrets(text) == _every_rule_everywhere(text), text[:200]
    assert set(ruletable.plan().literals._automata.values()) == {None}
    # Long texts alone, each taken by re's groups as the automaton would have taken it.
    monkeypatch.setattr(prefilter, "SHORT", -1)
    for text in [*TEXTS, *CORPORA[:100]]:
        assert find_secrets(text) == _every_rule_everywhere(text), text[:200]


def test_redaction_with_the_library_and_without_agree_on_the_corpora(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prefilter, "SHORT", -1)
    texts = [*CORPORA, "\n".join(CORPORA)]
    ruletable.plan.cache_clear()
    with_library = [find_secrets(text) for text in texts]
    assert set(ruletable.plan().literals._automata.values()) != {None}
    monkeypatch.setitem(sys.modules, "ahocorasick_rs", None)
    ruletable.plan.cache_clear()
    try:
        assert [find_secrets(text) for text in texts] == with_library
    finally:
        ruletable.plan.cache_clear()


GENERATED = [case.text for seed in (1, 2) for case in generated.corpus(seed, per_form=5)]
FAMILY_TEXTS = [text for text, _ in CAUGHT] + LEFT + GENERATED


def _families_both_ways(text: str) -> tuple[list[Span], list[Span]]:
    """What the families find fed the places of their words by the automaton's pass, and
    by their own regexes."""
    lowered = text.lower()
    scan = ruletable.plan().literals.find(text, lowered)
    assert scan.plain is not None or len(lowered) != len(text)
    return families.find(text, lowered, scan.plain), families.find(text)


@pytest.mark.usefixtures("every_text_long")
def test_the_families_find_from_the_pass_what_their_regexes_find() -> None:
    texts = [*TEXTS, *CORPORA, *FAMILY_TEXTS, "\n".join(FAMILY_TEXTS)]
    # re's case-insensitive matching takes ſ for s, which lower-casing keeps: the words'
    # places are not all the matches then, and the families search by regex.
    texts += [t.replace("s", "ſ", 1) for t in FAMILY_TEXTS] + ["İ" + t for t in FAMILY_TEXTS]
    for text in texts:
        from_pass, alone = _families_both_ways(text)
        assert from_pass == alone, text[:200]
    assert any(_families_both_ways(text)[0] for text in FAMILY_TEXTS)


WORDS = sorted({word for words in families.WORDS.values() for word in words})
FAMILY_WORDS = st.sampled_from(
    [*WORDS, *(w.upper() for w in WORDS), "Authorize-Account ", "ſecret"]
)


@given(st.lists(st.one_of(NOISE, TOKENS, WORDISH, FAMILY_WORDS, NON_ASCII), max_size=12))
@settings(max_examples=examples(100))
def test_the_families_find_the_same_either_way_in_mixed_text(parts: list[str]) -> None:
    text = "".join(parts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prefilter, "SHORT", -1)
        from_pass, alone = _families_both_ways(text)
    assert from_pass == alone


def test_finditer_at_finds_what_finditer_finds_from_the_words_places() -> None:
    # one word is another's start, and a lookahead decides between them
    regex = re.compile(r"(?:authorize|authorize-account|login)(?=[ \t=])")
    words = ("authorize", "authorize-account", "login")
    text = "b2 authorize-account id key; login=x authorize  loginlogin authorize-accounts "
    starts = sorted(m.start() for w in words for m in re.finditer(f"(?={re.escape(w)})", text))
    found = [m.span() for m in finditer_at(regex, text, starts)]
    assert found == [m.span() for m in regex.finditer(text)]
    assert found == [(3, 20), (29, 34), (37, 46), (53, 58)]
    assert list(finditer_at(regex, text, [])) == []


def test_a_group_of_words_is_told_where_any_of_them_starts_each_place_once() -> None:
    text = "b2 authorize-account id; login authorize " + " " * prefilter.SHORT
    words = {"logins": ("authorize", "authorize-account", "login"), "id": ("id",)}
    scan = Literals([], Words([]), Keywords([]), words).find(text, text)
    assert scan.plain == {"logins": [3, 25, 31], "id": [21]}


def test_a_pass_finds_the_runs_of_the_text_not_of_it_lower_cased() -> None:
    # K (KELVIN SIGN) lower-cases to "k", a run's character; in the text it ends a run
    token = "hlPG5J3B4YYaByqfPIaXjRxDFML\u212aGsoJZ5zfKQyb"
    text = "a line of prose. " * 40 + f"pasted: {token} ok"
    scan = ruletable.plan().literals.find(text, text.lower())
    assert scan.runs == families.runs(text) == []
    ascii_text = text.replace("\u212a", "K")
    scan = ruletable.plan().literals.find(ascii_text, ascii_text.lower())
    assert scan.runs == [(ascii_text.index("hlPG"), ascii_text.index(" ok"))]
