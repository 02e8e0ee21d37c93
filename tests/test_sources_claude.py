"""Claude Code adapter, on real recorded transcripts (tests/fixtures/transcripts/claude-code)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from brain.sessions.sources import claude

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "claude-code"
MAROT = FIXTURES / "marot-spotter"
SUBAGENT_DIR = MAROT / "258c7280-ae70-4798-800f-63464d01a85d" / "subagents"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_short_session_turns_by_hand_count() -> None:
    result = claude.parse(MAROT / "short.jsonl")
    t = result.transcript
    # Hand count of short.jsonl (15 lines): line 4 user prompt; lines 5-8,10 are one
    # API response (msg_01MKH…): blank text, thinking, text, tool_use Bash, tool_use
    # Glob -> 1 assistant + 2 tool turns; lines 11-12 two tool_results; line 13
    # "[Request interrupted…]"; lines 14-15 /model command + its stdout. Lines 1-3, 9
    # are a snapshot and progress records. 9 turns.
    assert [turn.role for turn in t.turns] == [
        "user",
        "assistant",
        "tool",
        "tool",
        "tool",
        "tool",
        "user",
        "user",
        "user",
    ]
    assert [turn.injected for turn in t.turns] == [False] * 6 + [True] * 3
    assert t.turns[0].text == "mix phx.server doesnt seem to start"
    assert t.turns[2].tool == "Bash" and '"command":"mix phx.server' in t.turns[2].text
    assert t.turns[4].tool == "Bash" and t.turns[5].tool == "Glob"  # results know their call
    assert t.project == "/home/marco/projects/spotter"
    assert t.git_branch == "master"
    assert t.session_id == "short"
    assert t.started is not None and t.started.isoformat() == "2026-02-10T21:11:52.438000+00:00"
    assert result.last_timestamp == t.last_activity
    assert t.last_activity is not None and t.last_activity.isoformat().startswith(
        "2026-02-10T21:16:12"
    )
    assert result.offset == (MAROT / "short.jsonl").stat().st_size
    assert (result.malformed, result.unknown, result.lines_read) == (0, 0, 15)


def test_split_api_response_becomes_one_assistant_turn() -> None:
    records = _lines(MAROT / "short.jsonl")
    ids = [r["message"]["id"] for r in records if r.get("type") == "assistant"]
    assert ids.count("msg_01MKH1ccEGrZGNPvu8pYiiQa") == 5  # the fixture really is split
    turns = claude.parse(MAROT / "short.jsonl").transcript.turns
    assistant = [turn for turn in turns if turn.role == "assistant"]
    assert len(assistant) == 1
    assert assistant[0].text.startswith("Let me check the project structure")


def test_counts_match_an_independent_count_of_the_big_fixtures() -> None:
    for name in ("subagent.jsonl", "tool_heavy.jsonl"):
        records = _lines(MAROT / name)
        text_ids = {
            r["message"]["id"]
            for r in records
            if r.get("type") == "assistant"
            for b in r["message"]["content"]
            if b.get("type") == "text" and b["text"].strip()
        }
        tool_blocks = sum(
            1
            for r in records
            if r.get("type") in ("user", "assistant") and isinstance(r["message"]["content"], list)
            for b in r["message"]["content"]
            if b.get("type") in ("tool_use", "tool_result")
        )
        turns = claude.parse(MAROT / name).transcript.turns
        assert sum(t.role == "assistant" for t in turns) == len(text_ids), name
        assert sum(t.role == "tool" for t in turns) == tool_blocks, name


def test_compaction_summary_and_injected_notification() -> None:
    t = claude.parse(MAROT / "258c7280-compaction-and-stop-excerpt.jsonl").transcript
    summaries = [turn for turn in t.turns if turn.summary]
    assert len(summaries) == 1 and summaries[0].lines == (7, 7)
    assert summaries[0].text.startswith("This session is being continued")
    notes = [turn for turn in t.turns if turn.text.startswith("<task-notification>")]
    assert len(notes) == 1 and notes[0].injected
    typed = [turn.text for turn in t.turns if turn.role == "user" and not turn.injected]
    assert typed == [summaries[0].text, "did you push?"]
    assert t.project == "/home/USER/projects/spotter-worktrees/spotter-gqc"
    assert t.git_branch == "spotter-gqc"


def test_meta_reminders_are_injected_in_a_subagent_file() -> None:
    result = claude.parse(SUBAGENT_DIR / "agent-acompact-fffbd0.jsonl")
    t = result.transcript
    assert (t.session_id, t.subagent) == ("258c7280-ae70-4798-800f-63464d01a85d", "acompact-fffbd0")
    assert [(turn.role, turn.injected) for turn in t.turns] == [
        ("user", True),
        ("user", True),
        ("user", False),
        ("assistant", False),
    ]


def test_newer_version_census_parses_and_counts_unknown_types() -> None:
    # small.jsonl mixes shapes from 2.1.80 to 2.1.220 (tuned on 2.1.38): one line per
    # record type. Unknown to the adapter: atis-latch, started, result.
    result = claude.parse(FIXTURES / "agent-sessions-stage0" / "small.jsonl")
    assert result.malformed == 0 and result.unknown == 3
    t = result.transcript
    assert t.title == "Stage0 small fixture"  # custom-title beats ai-title and summary
    assert t.project == "/tmp"
    assert any(turn.summary for turn in t.turns)
    assert t.turns[0].role == "user" and t.turns[0].text == "Hello"
    assert all(turn.tool is None for turn in t.turns if turn.role == "assistant")


def test_handcrafted_future_records_and_fields(tmp_path: Path) -> None:
    lines = [
        {"type": "hologram-state", "sessionId": "s", "beam": {"x": 1}},
        {
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "cwd": "/srv/app",
            "gitBranch": "",
            "timestamp": "2031-01-01T00:00:00Z",
            "brandNewField": [1, 2],
            "message": {
                "role": "user",
                "content": [
                    {"type": "text", "text": "deploy it"},
                    {"type": "quantum_block", "payload": "??"},
                ],
            },
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "parentUuid": "u1",
            "timestamp": "2031-01-01T00:00:01Z",
            "message": {
                "id": "m1",
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Deploying."},
                    {"type": "future_tool", "x": 1},
                ],
                "newUsageShape": {"a": 1},
            },
        },
        {"type": "ai-title", "aiTitle": "Deploy"},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = claude.parse(path)
    assert result.unknown == 1
    assert [(t.role, t.text) for t in result.transcript.turns] == [
        ("user", "deploy it"),
        ("assistant", "Deploying."),
    ]
    assert result.transcript.git_branch is None  # "" means outside git
    assert result.transcript.title == "Deploy"


def test_reminder_inside_typed_text_is_split_out(tmp_path: Path) -> None:
    text = "fix the bug<system-reminder>\nfile changed\n</system-reminder>\nplease"
    record = {"type": "user", "uuid": "u", "message": {"role": "user", "content": text}}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(record) + "\n")
    turns = claude.parse(path).transcript.turns
    assert [(t.text, t.injected) for t in turns] == [
        ("fix the bug", False),
        ("<system-reminder>\nfile changed\n</system-reminder>", True),
        ("please", False),
    ]


def test_replayed_uuids_are_dropped_and_split_text_is_joined(tmp_path: Path) -> None:
    user = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}}
    part1 = {
        "type": "assistant",
        "uuid": "a1",
        "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": "first"}]},
    }
    part2 = {
        "type": "assistant",
        "uuid": "a2",
        "message": {
            "id": "m",
            "role": "assistant",
            "content": [{"type": "text", "text": "second"}],
        },
    }
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (user, part1, part2, user, part1)))
    turns = claude.parse(path).transcript.turns
    assert [(t.role, t.text, t.lines) for t in turns] == [
        ("user", "hi", (1, 1)),
        ("assistant", "first\n\nsecond", (2, 3)),
    ]


def test_discover_groups_subagents_with_their_session(tmp_path: Path) -> None:
    files = list(claude.discover(FIXTURES))
    # Main transcripts sit at <root>/<slug>/<id>.jsonl: 4 in marot-spotter plus
    # small.jsonl (the 0a1b… main file is one level deeper, so not a main transcript);
    # 3 subagent files (2 under 258c7280…, 1 under 0a1b…). Sessions: 5 + 2 parents.
    assert len(files) == 8
    assert len({f.session_id for f in files}) == 7
    subs = {f.subagent: f.session_id for f in files if f.subagent}
    assert subs == {
        "a881341": "258c7280-ae70-4798-800f-63464d01a85d",
        "acompact-fffbd0": "258c7280-ae70-4798-800f-63464d01a85d",
        "a0ad4f44468bdf20d": "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f",
    }
    assert list(claude.discover(tmp_path / "missing")) == []


def test_roots_follow_claude_config_dir(tmp_path: Path, monkeypatch) -> None:
    assert claude.roots() == [Path.home() / ".claude" / "projects"]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert claude.roots() == [tmp_path / "cc" / "projects"]
    project = tmp_path / "cc" / "projects" / "-srv-app"
    project.mkdir(parents=True)
    shutil.copy(MAROT / "short.jsonl", project / "abc.jsonl")
    [found] = list(claude.discover(claude.roots()[0]))
    assert (found.session_id, found.size) == ("abc", (MAROT / "short.jsonl").stat().st_size)


def test_shell_mode_and_ide_blocks_are_not_typed_and_every_count_agrees(tmp_path: Path) -> None:
    from brain.models.builtin.model import _summary
    from brain.sessions.conversation import typed_turns

    def user(text: str, **extra: object) -> dict:
        return {"type": "user", "message": {"role": "user", "content": text}, **extra}

    records = [
        user("Please convert the checkout tests to pytest."),
        user("<bash-input>ls tests</bash-input>"),
        user("<bash-stdout>test_cart.py</bash-stdout><bash-stderr></bash-stderr>"),
        user("<ide_selection>The user selected lines 1-9 of cart.py</ide_selection>"),
        user("<ide_opened_file>The user opened cart.py</ide_opened_file>"),
        user('<context ref="file:///src/cart.py">\ndef total(items): ...\n</context>'),
        user("Summary of the conversation so far.", isCompactSummary=True),
        user("Use fixtures for the cart, please."),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    transcript = claude.parse(path).transcript
    typed = [t.text for t in typed_turns(transcript)]
    assert typed == [
        "Please convert the checkout tests to pytest.",
        "Use fixtures for the cart, please.",
    ]
    assert "2 typed by the user" in _summary(transcript)


# A line read through the adapter's shape (the fields it reads, the rest skipped) reads as
# the same line read whole, every field decoded, then cut to those fields: what a shape's
# decoder refuses, or could not check, is read the whole way.
SHAPED_LINES = [
    b'{"type": "user", "uuid": "u1", "message": {"content": "hi"}, "toolUseResult": "a\xe9b"}',
    b'{"type": "user", "uuid": "u2", "message": {"content": "caf\xe9"}, "cwd": "/p"}',
    b'{"type": "progress", "data": {"n": NaN, "big": 1e400}, "timestamp": "2026-01-01T00:00:00Z"}',
    b'{"type": "user", "message": {"content": "\\ud800 half a pair"}}',
    b'{"type": "user", "toolUseResult": "\\ud800 half", "message": {"content": "whole"}}',
    b'{"type": 7, "uuid": 12, "message": "a string", "isMeta": "yes", "gitBranch": null}',
    b'{"type": "assistant", "message": {"id": "m", "content": [{"type": "text", "text": "x"}]}}',
    b'{"type": "user", "type": "assistant", "message": {"content": "dup"}}',
    b'{"type": "custom-title", "customTitle": "T", "aiTitle": "A", "summary": "S"}',
    b'\xef\xbb\xbf{"type": "user", "message": {"content": "bom"}}',
    b'["not", "an", "object"]',
    b'{"type": "user", "message": {"content": [1, 2,}}',
    b"plain text",
    '{"type": "user", "message": {"content": "wide"}}'.encode("utf-16"),
]


def test_a_line_read_through_the_shape_reads_as_the_whole_line(tmp_path: Path) -> None:
    from brain.sessions.sources.base import JsonLines, shaped

    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"\n".join(SHAPED_LINES) + b"\n")
    whole, through = JsonLines(path), JsonLines(path, shape=claude._Record)
    expected = [(n, shaped(record, claude._Record)) for n, record in whole]
    assert list(through) == expected and len(expected) == 10
    assert (through.malformed, through.replaced, through.offset, through.lines) == (
        whole.malformed,
        whole.replaced,
        whole.offset,
        whole.lines,
    )
    assert whole.replaced == 2 and whole.malformed == 4


def test_every_recorded_transcript_reads_as_every_field_decoded(tmp_path: Path) -> None:
    from brain.sessions.sources.base import JsonLines, shaped

    for path in sorted(FIXTURES.rglob("*.jsonl")):
        whole, through = JsonLines(path), JsonLines(path, shape=claude._Record)
        assert list(through) == [(n, shaped(r, claude._Record)) for n, r in whole], path
        assert (through.malformed, through.replaced) == (whole.malformed, whole.replaced)


def test_what_the_person_typed_turning_a_tool_call_down_is_theirs(tmp_path: Path) -> None:
    said = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected "
        "(eg. if it was a file edit, the new_string was NOT written to the file). To tell "
        "you how to proceed, the user said:\nNo 'what' comments"
    )
    records = [
        {
            "type": "assistant",
            "uuid": "a",
            "message": {
                "id": "m1",
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {}}],
            },
        },
        {
            "type": "user",
            "uuid": "u",
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content": said}
                ],
            },
        },
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    turns = claude.parse(path).transcript.turns
    assert [(t.role, t.injected) for t in turns][-2:] == [("tool", False), ("user", False)]
    assert turns[-1].text == "No 'what' comments"
    assert turns[-2].text.startswith("[error] The user doesn't want to proceed")
    assert "No 'what'" not in turns[-2].text


def test_claude_codes_own_api_error_is_no_assistant_turn(tmp_path: Path) -> None:
    records = [
        {"type": "user", "uuid": "u", "message": {"role": "user", "content": "refactor the chat"}},
        {
            "type": "assistant",
            "uuid": "a",
            "error": "invalid_request",
            "isApiErrorMessage": True,
            "message": {
                "id": "m1",
                "model": "<synthetic>",
                "role": "assistant",
                "content": [{"type": "text", "text": "Prompt is too long"}],
            },
        },
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert [t.text for t in claude.parse(path).transcript.turns] == ["refactor the chat"]


def test_a_cwd_with_its_home_written_as_a_tilde_is_still_the_project(tmp_path: Path) -> None:
    """A session copied out of ~/.claude with the home hidden (``"cwd": "~/src/shop"``)
    names the same folder here: its memories stay in its project."""
    path = tmp_path / "s.jsonl"
    record = {"type": "user", "uuid": "u1", "cwd": "~/src/shop", "message": {"content": "hi"}}
    path.write_text(json.dumps(record) + "\n")
    transcript = claude.parse(path).transcript
    assert transcript.project == str(Path.home() / "src" / "shop")
    record["cwd"] = "shop"  # a bare name is no folder
    path.write_text(json.dumps(record) + "\n")
    assert claude.parse(path).transcript.project is None
