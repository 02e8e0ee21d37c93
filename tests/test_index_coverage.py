"""Coverage finds, by searching a text for the query's stems, what cutting it into words
finds: the share of the query's terms whose first five letters start a word of it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from brain.index.coverage import coverage, reward_coverage
from brain.index.query import words
from brain.index.rank import Candidate


def by_words(text: str, terms: tuple[str, ...]) -> float:
    """Coverage as it is defined: the text cut into lower-cased words, compared by stem."""
    if not terms:
        return 0.0
    present = {w[:5] for w in words(text)}
    return sum(1 for t in terms if t[:5] in present) / len(terms)


# Letters that lower-case to themselves, to others or to two characters, a final sigma,
# word joiners ('_', digits) and separators, so words start and end everywhere.
_CHARS = st.sampled_from(list("abcdeDEFxyz019_ .-'\n\tÉéΣσςİßﬁ日本"))
_TEXTS = st.text(_CHARS, max_size=60)
_WORDS = st.text(st.sampled_from(list("abcdexyz019éσß")), min_size=1, max_size=8)


@given(_TEXTS, st.lists(_WORDS, max_size=5))
def test_coverage_is_the_share_of_stems_starting_a_word(text: str, asked: list[str]) -> None:
    terms = tuple(w.lower() for w in asked)
    assert coverage(text, terms) == by_words(text, terms)


@given(_TEXTS)
def test_the_words_of_the_text_are_each_covered(text: str) -> None:
    terms = tuple(words(text))
    # Each of its own words, whole or cut short, is found (a word's first letters too).
    terms += tuple(w[:3] for w in terms) + tuple(w[:5] + "zz" for w in terms)
    assert coverage(text, terms) == by_words(text, terms)


def test_a_stem_counts_only_at_the_start_of_a_word() -> None:
    assert coverage("Deploys need node", ("deploying", "eed", "nod", "node")) == 0.5
    assert coverage("re-deploy_staging", ("deplo", "stagi", "re")) == 1.0
    assert coverage("ΣΟΦΊΑ deploys", ("σοφία",)) == 1.0  # beyond ASCII: word by word


def test_reward_coverage_scales_each_relevance_by_its_share() -> None:
    found = [Candidate(1, 2.0, "record", "", 0, ""), Candidate(2, 2.0, "team", "", 0, "")]
    texts = {1: "staging resets on sunday", 2: "the staging database"}
    rewarded = reward_coverage(found, texts, ("staging", "sunday"), weight=0.5)
    assert [c.relevance for c in rewarded] == [3.0, 2.5]
    assert rewarded[1] == found[1].with_relevance(2.5)
