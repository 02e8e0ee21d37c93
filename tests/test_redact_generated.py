"""Redaction on the generated corpus (``tests/secrets/generated.py``), by family.

A fixed seed, not the one the rules were tuned on (``benchmarks/secrets_generated.py``
prints both): the credentials of every form are caught, whole, and the look-alikes of
every kind are left as they are, within a margin for what the families still miss.
"""

from __future__ import annotations

from collections import Counter

import pytest

from brain.home.secrets.redact import redact
from tests.secrets.generated import LOOKALIKE_FORMS, NAMED_FORMS, POSITION_FORMS, corpus, leaked

SEED = 3  # neither the tuned seed (1) nor the one reported as unseen (2)


@pytest.fixture(scope="module")
def outcomes() -> tuple[Counter[str], Counter[str]]:
    total: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for case in corpus(SEED, per_form=10):
        out = redact(case.text)
        total[case.family] += 1
        total[case.form] += 1
        failed = leaked(case.secret, out) if case.secret else out != case.text
        wrong[case.family] += failed
        wrong[case.form] += failed
    return total, wrong


def test_the_corpus_has_every_family_and_form() -> None:
    cases = corpus(SEED, per_form=2)
    assert len(NAMED_FORMS) + len(POSITION_FORMS) >= 30
    assert {c.form for c in cases} == {*NAMED_FORMS, *POSITION_FORMS, *LOOKALIKE_FORMS}
    assert all(c.secret in c.text for c in cases if c.secret)
    assert corpus(SEED, per_form=2) == cases  # the seed decides the corpus


def test_credentials_are_caught_by_family(outcomes: tuple[Counter[str], Counter[str]]) -> None:
    total, wrong = outcomes
    for family in ("name", "position"):
        assert wrong[family] <= 0.05 * total[family], family
    for form in (*NAMED_FORMS, *POSITION_FORMS):
        assert wrong[form] <= 2, form  # of 10


def test_look_alikes_are_left_alone(outcomes: tuple[Counter[str], Counter[str]]) -> None:
    total, wrong = outcomes
    assert wrong["lookalike"] <= 0.02 * total["lookalike"]


def test_a_leak_is_any_twelve_characters_of_the_value() -> None:
    secret = "k7Lq2ZxW9mNpR4tY8vBc3D"
    assert leaked(secret, f"x {secret[5:17]} y")
    assert not leaked(secret, f"x {secret[5:16]} y")
    assert leaked("hunter2", "pw hunter2")
