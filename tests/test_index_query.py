"""Query parsing: safe terms, stopwords, recency intent; and the LoCoMo evidence parser."""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from brain.index.query import parse

_BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "locomo.py"


def _locomo():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("locomo_bench", _BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["locomo_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_terms_drop_stopwords_and_duplicates() -> None:
    parsed = parse("When did Caroline go to the LGBTQ support group? Caroline!")
    assert parsed.terms == ("caroline", "go", "lgbtq", "support", "group")
    assert parsed.match == '"caroline" OR "go" OR "lgbtq" OR "support" OR "group"'
    assert not parsed.recent


def test_recency_intent_is_detected_and_not_searched_for() -> None:
    assert parse("latest deploy notes").terms == ("deploy", "notes")
    assert parse("latest deploy notes").recent
    assert parse("what broke this week").recent
    assert parse("what broke this week").terms == ("broke",)
    assert parse("deploy yesterday").recent
    assert not parse("weekly deploy").recent


@given(st.text())
def test_any_text_gives_a_valid_match_expression(text: str) -> None:
    parsed = parse(text)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    conn.execute("INSERT INTO t VALUES ('some text')")
    if parsed.terms:
        conn.execute("SELECT * FROM t WHERE t MATCH ?", (parsed.match,)).fetchall()
    else:
        assert parsed.match == ""


def test_locomo_evidence_ids_are_parsed_tolerantly() -> None:
    locomo = _locomo()
    got = locomo.evidence_ids(["D8:6; D9:17", "D:11:26", "D30:05", "D1:3"])
    assert got == {"D8:6", "D9:17", "D11:26", "D30:5", "D1:3"}


def test_locomo_session_time_parses_the_dataset_format() -> None:
    locomo = _locomo()
    when = locomo.session_time("1:56 pm on 8 May, 2023")
    assert when is not None and when.isoformat() == "2023-05-08T13:56:00+00:00"
    assert locomo.session_time("not a date") is None
