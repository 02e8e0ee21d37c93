"""Properties over the parsers and formats brain reads back: records, import/export,
transcript tails and settings. Each runs a modest number of examples to stay fast."""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from brain.api import Brain
from brain.errors import BrainError
from brain.home import config, configedit
from brain.home.import_export import export_records, import_records
from brain.home.records import FIELDS, Record, parse, render
from brain.home.secrets.redact import find_secrets
from brain.sessions import sources
from brain.sessions.sources.base import Turn
from tests.helpers import examples

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "transcripts"
FAST = settings(max_examples=50, deadline=None)

# Text a person or a tool writes in a record: no control characters (which import
# refuses) and no surrogates (which cannot be encoded).
plain = st.text(
    st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\u2028\u2029\x85"),
    max_size=40,
)
line = plain.map(str.strip).filter(bool)
scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12), plain, st.lists(plain, max_size=3)
)
# python-frontmatter's loads passes the metadata to Post(content, handler, **metadata), so
# these two names are the ones that once broke reading a record.
extra_key = st.one_of(st.sampled_from(["content", "handler", "metadata", "body"]), line).filter(
    lambda k: k not in FIELDS
)
slug = st.from_regex(r"[a-z0-9][a-z0-9-]{0,20}[a-z0-9]", fullmatch=True)


@st.composite
def records(draw: st.DrawFn) -> Record:
    return Record(
        id=draw(st.from_regex(r"2026[0-9]{4}-[0-9]{9}-[0-9a-f]{6}", fullmatch=True)),
        key=draw(slug),
        type=draw(st.sampled_from(["fact", "preference", "lesson"])),
        description=draw(line),
        body=draw(line),
        tags=tuple(draw(st.lists(line, max_size=3))),
        profile=draw(st.none() | line),
        source=draw(st.none() | line),
        created="2026-01-02T03:04:05Z",
        updated="2026-01-02T03:04:05Z",
        confidence=draw(st.floats(0, 1)),
        supersedes=tuple(draw(st.lists(slug, max_size=2))),
        extra=draw(st.dictionaries(extra_key, scalar, max_size=4)),
    )


# -- records ----------------------------------------------------------------------


@FAST
@given(records())
def test_a_record_survives_its_file_with_any_extra_keys(record: Record) -> None:
    back = parse(render(record), Path(f"memories/{record.key}.md"))
    assert back == record
    assert back.extra == record.extra  # Record equality leaves extra out


def test_content_and_handler_keys_are_kept() -> None:
    text = "---\nid: 1\ntype: fact\ncontent: a\nhandler: b\n---\nbody\n"
    record = parse(text, Path("memories/x.md"))
    assert record.extra == {"content": "a", "handler": "b"} and record.body == "body"


# -- export and import ------------------------------------------------------------


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(records(), min_size=1, max_size=4, unique_by=lambda r: r.key))
def test_export_then_import_keeps_every_record(batch: list[Record]) -> None:
    # An extra ``body`` key cannot live beside the body in an export line.
    batch = [r.evolve(extra={k: v for k, v in r.extra.items() if k != "body"}) for r in batch]
    with tempfile.TemporaryDirectory() as tmp:
        first = Brain.init(Path(tmp) / "a")[0]
        import_records(first, (json.dumps(r.to_dict()) for r in batch))
        exported = export_records(first)
        second = Brain.init(Path(tmp) / "b")[0]
        import_records(second, (json.dumps(item) for item in exported))
        again = export_records(second)
    assert sorted(exported, key=lambda r: r["key"]) == sorted(again, key=lambda r: r["key"])
    assert {r["key"]: r for r in again} == {r.key: r.to_dict() for r in batch}


# -- transcript adapters ----------------------------------------------------------

TRANSCRIPTS = [
    ("claude", "claude-code/agent-sessions-stage0/small.jsonl"),
    ("claude", "claude-code/marot-spotter/tool_heavy.jsonl"),
    ("claude", "claude-code/marot-spotter/258c7280-compaction-and-stop-excerpt.jsonl"),
    ("codex", "codex/agent-sessions-stage0/small.jsonl"),
    ("codex", "codex/simonw-claude-code-transcripts/sample_codex_session.jsonl"),
    ("gemini", "gemini/agent-sessions-stage0/jsonl_v040.jsonl"),
    ("brain", "native/session.jsonl"),
]


def _comparable(turn: Turn, lines: int) -> Turn:
    """``turn`` with its line numbers counted from ``lines`` on, for comparing. A tool
    result's name comes from its call, which may lie before the cut: the parse from the
    cut must still know it."""
    first, last = turn.lines
    return replace(turn, lines=(first - lines, last - lines))


def _line_starts(path: Path) -> list[int]:
    starts, offset = [], 0
    for raw in path.read_bytes().splitlines(keepends=True):
        starts.append(offset)
        offset += len(raw)
    return starts


# Gemini CLI's marks are a turn's place in the chat, not its file line, so its tail parse
# is not the full parse's tail shifted by lines.
_BY_LINE = [(s, n) for s, n in TRANSCRIPTS if s != "gemini"]


@pytest.mark.parametrize("source,name", _BY_LINE, ids=[n for _, n in _BY_LINE])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_a_parse_from_a_line_is_the_tail_of_a_full_parse(
    source: str, name: str, data: st.DataObject
) -> None:
    parse_file: Callable[..., Any] = sources.get(source).parse
    path = FIXTURES / name
    full = parse_file(path).transcript.turns
    # One line can hold several turns (text and a tool call); cut before the first.
    firsts = [i for i, t in enumerate(full) if i == 0 or full[i - 1].lines[0] < t.lines[0]]
    assume(firsts)
    index = data.draw(st.sampled_from(firsts))
    skipped = full[index].lines[0] - 1  # Turn.lines count from where the parse started
    tail = parse_file(path, start=_line_starts(path)[skipped]).transcript.turns
    assert [_comparable(t, 0) for t in tail] == [_comparable(t, skipped) for t in full[index:]]


# -- settings ---------------------------------------------------------------------


def _valid(kind: str) -> st.SearchStrategy[Any]:
    if kind == "bool":
        return st.booleans()
    if kind == "int":
        return st.integers(1, 10**9)  # some counts must be more than 0
    if kind == "float":
        return st.floats(0.001, 1e6, allow_nan=False)
    # A value that holds a credential is refused (tests/test_secrets_in_fields.py).
    text = line.filter(lambda s: s.lower() not in {"null", "none"} and not find_secrets(s))
    return text | st.none() if "None" in kind else text


def _raw(value: Any) -> str:
    """How a person types a value on the command line."""
    if isinstance(value, bool):
        return "yes" if value else "off"
    return "null" if value is None else str(value)


@pytest.mark.parametrize("name", sorted(config.KNOWN))
@FAST
@given(data=st.data())
def test_every_setting_coerces_and_round_trips(name: str, data: st.DataObject) -> None:
    value = data.draw(_valid(str(config.KNOWN[name].type)))
    with tempfile.TemporaryDirectory() as home:
        assert configedit.set_value(Path(home), name, _raw(value)) == value
        assert getattr(config.load(Path(home)), name) == value
        # A value written in brain.yaml by hand reads the same as one set by command.
        (Path(home) / config.CONFIG).write_text(
            f"{name}: {json.dumps(value, ensure_ascii=False)}\n"
        )
        assert getattr(config.load(Path(home)), name) == value


def _invalid(kind: str) -> st.SearchStrategy[Any]:
    """Values no setting of ``kind`` accepts, as YAML would hand them over."""
    shapes = st.lists(st.integers(), min_size=1, max_size=2) | st.dictionaries(
        line, st.integers(), min_size=1, max_size=2
    )
    if kind == "bool":
        return shapes | line.filter(
            lambda s: s.lower() not in {"1", "0", "true", "false", "yes", "no", "on", "off"}
        )
    words = line.filter(lambda s: not _is_number(s))
    if kind == "int":
        fractions = st.floats(allow_nan=True).filter(lambda f: not float(f).is_integer())
        return shapes | words | st.booleans() | fractions
    if kind == "float":
        return shapes | words | st.booleans() | st.sampled_from(["nan", "inf", "-inf"])
    return shapes


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


@pytest.mark.parametrize("name", sorted(config.KNOWN))
@FAST
@given(data=st.data())
def test_every_setting_refuses_what_it_cannot_hold(name: str, data: st.DataObject) -> None:
    value = data.draw(_invalid(str(config.KNOWN[name].type)))
    with tempfile.TemporaryDirectory() as home:
        (Path(home) / config.CONFIG).write_text(
            json.dumps({name: value}, ensure_ascii=False) + "\n"
        )
        with pytest.raises(BrainError, match=f": {name} (must be |needs a value)"):
            config.load(Path(home))


@pytest.mark.parametrize("raw", ["0", "-3", "0.0"])
def test_decay_half_life_must_be_positive(raw: str, tmp_path: Path) -> None:
    with pytest.raises(BrainError, match="decay_half_life_days must be more than 0"):
        configedit.set_value(tmp_path, "decay_half_life_days", raw)
