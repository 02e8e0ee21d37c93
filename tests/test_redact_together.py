"""A record's fields redacted together: a description cut from the body keeps no piece of
a secret that only the body holds whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brain.api import Brain
from brain.home.secrets.redact import redact
from brain.home.secrets.together import PIECE, redact_together
from brain.models.safety import safe_extraction, safe_operations
from brain.models.schema import Candidate, Extraction, Operation
from tests.helpers import cli, examples
from tests.test_secrets_in_fields import everything_on_disk

# A quoted value that opens with a word and a space: cut before its closing quote, it is
# no assignment any more, and no rule knows its body alone.
VALUE = "Acme1 ak2_Rk9v/x+Tz7Qa=Lm2P/9wXc+Hn4Jd8=Ke1Vb6Yq/Zs3Uo+Gi5Wf0Ea7Nt2Mr"
TEXT = f"DEPLOY_TOKEN='{VALUE}'"
CUT = TEXT[:60]


def pieces_of(secret: str, text: str) -> list[str]:
    """Every run of PIECE characters of ``secret`` that ``text`` holds."""
    runs = {secret[i : i + PIECE] for i in range(len(secret) - PIECE + 1)}
    return sorted(r for r in runs if r in text)


def test_the_cut_alone_keeps_a_piece_that_together_it_does_not() -> None:
    assert pieces_of(VALUE, redact(CUT))  # what redacting the fields apart left
    description, body = redact_together((CUT, TEXT))
    assert description == "DEPLOY_TOKEN='[REDACTED:secret_assignment]"
    assert body == redact(TEXT)


def test_a_text_cut_at_its_start_loses_the_secret_s_end() -> None:
    tail = "kept: " + TEXT[40:]
    assert pieces_of(VALUE, redact(tail))
    assert redact_together((tail, TEXT))[0] == "kept: [REDACTED:secret_assignment]'"


def test_the_secret_whole_without_its_name_goes_too() -> None:
    described = f"the value is {VALUE} now"
    assert redact_together((described, TEXT))[0] == "the value is [REDACTED:secret_assignment] now"


def test_texts_without_a_secret_and_short_pieces_are_left() -> None:
    plain = ("Deploy with make release.", "Run make release from main.")
    assert redact_together(plain) == list(plain)
    assert redact_together(("Acme1 a", TEXT))[0] == "Acme1 a"  # under PIECE after the cut


@settings(max_examples=examples(60), deadline=None)
@given(cut=st.integers(min_value=0, max_value=len(TEXT)))
def test_no_cut_of_the_body_keeps_a_piece_of_its_secret(cut: int) -> None:
    description, body = redact_together((TEXT[:cut], TEXT))
    assert not pieces_of(VALUE, description + body)


def test_an_import_whose_description_is_cut_keeps_no_piece(home: Path) -> None:
    Brain.init(home)
    line = {"key": "deploy-token", "body": TEXT, "description": CUT}
    assert cli("import", "-", input=json.dumps(line) + "\n").exit_code == 0
    assert not pieces_of(VALUE, everything_on_disk(home))


def test_remember_with_a_cut_description_keeps_no_piece(home: Path) -> None:
    Brain.init(home)
    assert cli("remember", TEXT, "--key", "deploy-token", "--description", CUT).exit_code == 0
    assert not pieces_of(VALUE, everything_on_disk(home))


@pytest.mark.parametrize("phase", ["extract", "consolidate"])
def test_a_model_s_cut_description_keeps_no_piece(phase: str) -> None:
    if phase == "extract":
        memory = Candidate("deploy-token", "fact", CUT, TEXT)
        kept = safe_extraction(Extraction(memories=(memory,), summary="s")).memories[0]
        seen = kept.description + kept.body
    else:
        op = Operation("add", "deploy-token", "r", "fact", CUT, TEXT)
        done = safe_operations([op])[0]
        seen = (done.description or "") + (done.body or "")
    assert not pieces_of(VALUE, seen)
