"""brain's own JSONL transcript format: reading, discovery, and a write/read round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.sessions.sources import claude, native
from brain.sessions.sources.base import Transcript, Turn

SAMPLE = Path(__file__).parent / "fixtures" / "transcripts" / "native" / "session.jsonl"
CLAUDE_SHORT = (
    Path(__file__).parent
    / "fixtures"
    / "transcripts"
    / "claude-code"
    / "marot-spotter"
    / "short.jsonl"
)


def test_reads_header_events_eviction_and_title() -> None:
    result = native.parse(SAMPLE)
    t = result.transcript
    assert (t.source, t.session_id, t.project) == (
        "aster",
        "aster-20260822-01",
        "/src/damage-control",
    )
    assert t.title == "Webhook retry cap"  # a title event overrides the header's null
    assert t.evicted == 12
    assert [(turn.role, turn.summary, turn.injected, turn.tool) for turn in t.turns] == [
        ("user", True, False, None),
        ("user", False, False, None),
        ("tool", False, False, "edit"),
        ("user", False, True, None),
        ("assistant", False, False, None),
    ]
    assert t.started is not None and t.started.isoformat() == "2026-08-22T19:40:00+00:00"
    assert result.last_timestamp is not None
    assert result.last_timestamp.isoformat() == "2026-08-22T19:42:00+00:00"
    assert (result.malformed, result.unknown, result.lines_read) == (0, 0, 8)


def test_resume_rereads_the_header(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(SAMPLE.read_bytes())
    first = native.parse(path)
    with path.open("a") as fh:
        fh.write(json.dumps({"type": "message", "role": "user", "text": "and log it"}) + "\n")
        fh.write(json.dumps({"type": "reaction", "emoji": "+1"}) + "\n")
    second = native.parse(path, start=first.offset)
    assert second.transcript.session_id == "aster-20260822-01"
    assert [t.text for t in second.transcript.turns] == ["and log it"]
    assert second.unknown == 1


def test_round_trip_of_a_claude_transcript(tmp_path: Path) -> None:
    original = claude.parse(CLAUDE_SHORT).transcript
    out = native.write_native(original, tmp_path / "export" / "short.jsonl")
    header = json.loads(out.read_text().splitlines()[0])
    assert header["format"] == "brain-transcript" and header["version"] == 1
    back = native.parse(out).transcript
    assert back.source == "claude" and back.session_id == original.session_id
    assert (back.project, back.git_branch, back.started) == (
        original.project,
        original.git_branch,
        original.started,
    )
    strip = [(t.role, t.text, t.tool, t.injected, t.summary, t.timestamp) for t in original.turns]
    assert [
        (t.role, t.text, t.tool, t.injected, t.summary, t.timestamp) for t in back.turns
    ] == strip
    assert [f.session_id for f in native.discover(tmp_path)] == ["short"]


def test_write_with_eviction_and_summary(tmp_path: Path) -> None:
    transcript = Transcript(
        source="brain",
        session_id="x",
        path="",
        evicted=3,
        turns=(Turn("user", "so far", summary=True), Turn("user", "next")),
    )
    back = native.parse(native.write_native(transcript, tmp_path / "x.jsonl")).transcript
    assert back.evicted == 3 and [t.summary for t in back.turns] == [True, False]


def test_write_failure_is_a_brain_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(native.TranscriptWriteError, match="cannot write transcript"):
        native.write_native(Transcript("brain", "x", ""), blocker / "x.jsonl")


def test_discover_ignores_other_jsonl(tmp_path: Path) -> None:
    (tmp_path / "other.jsonl").write_text('{"type":"user"}\n')
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "n.jsonl").write_bytes(SAMPLE.read_bytes())
    assert [f.path.name for f in native.discover(tmp_path)] == ["n.jsonl"]
    assert native.roots() == []
