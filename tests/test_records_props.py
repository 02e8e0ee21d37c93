"""Property tests: key validation, slugs, ids, and the record file round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brain.errors import BrainError
from brain.home.keys import KEY_MAX, validate_key
from brain.home.records import Record, new_id, parse, render, slugify


@given(st.text(max_size=300))
def test_validate_key_accepts_only_safe_slugs(key: str) -> None:
    try:
        validate_key(key)
    except BrainError:
        return
    assert 0 < len(key) <= KEY_MAX
    assert "/" not in key and "\\" not in key and ".." not in key
    assert not key.startswith(".") and key == key.lower()
    assert Path("memories", f"{key}.md").parent == Path("memories")


@given(st.text(max_size=500))
def test_slugify_always_gives_a_valid_key(text: str) -> None:
    assert validate_key(slugify(text))


def test_ids_are_time_ordered_and_distinct() -> None:
    ids = [new_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert [i[:18] for i in ids] == sorted(i[:18] for i in ids)


printable = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc"), blacklist_characters="\r\x85\u2028\u2029"
    ),
    min_size=1,
    max_size=80,
)


@given(
    description=printable,
    body=printable.filter(lambda s: s.strip() and "---" not in s),
    tags=st.lists(printable, max_size=4),
)
def test_render_then_parse_round_trips(description: str, body: str, tags: list[str]) -> None:
    record = Record(
        id=new_id(),
        key="k",
        type="fact",
        description=description,
        body=body.strip("\n"),
        tags=tuple(tags),
        created="2026-01-01T00:00:00Z",
        updated="2026-01-01T00:00:00Z",
    )
    again = parse(render(record), Path("memories/k.md"))
    assert again.description == record.description
    assert again.tags == record.tags
    assert again.body.strip() == record.body.strip()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Use Playwright for e2e tests, not Cypress", "use-playwright-e2e-tests-not-cypress"),
        (
            "Use Playwright for end-to-end tests, not Cypress",
            "use-playwright-end-to-end-tests-not-cypress",
        ),
        ("Never push directly to main here", "never-push-directly-main-here"),
        ("Don't use npm in this repo", "do-not-use-npm-repo"),
        ("Deploy without the VPN", "deploy-without-vpn"),
        ("Use ruff instead of black", "use-ruff-instead-black"),
        ("No emojis in commit messages", "no-emojis-commit-messages"),
        # The first sentence only: the next one is another fact.
        ("Use pnpm, never npm. CI runs on Fridays.", "use-pnpm-never-npm"),
        # A negation is never the last word while the word it turns around follows.
        ("Run the unit tests with make, not pytest directly", "run-unit-tests-make-not-pytest"),
        ("e.g. prefer small commits", "e-g-prefer-small-commits"),
    ],
)
def test_a_derived_key_keeps_its_negations_and_its_sentence(text: str, key: str) -> None:
    assert slugify(text) == key


@given(st.lists(st.from_regex(r"[a-z]{3,8}", fullmatch=True), min_size=2, max_size=8))
def test_a_key_never_ends_on_a_negation_a_word_follows(words: list[str]) -> None:
    text = " ".join([*words[:5], "not", *words[5:]])
    key = slugify(text)
    if "not" in text.split()[: text.split().index("not")] or text.split()[-1] == "not":
        return
    assert not key.endswith("-not")
