"""GitHub Copilot CLI adapter: a session the real CLI wrote, published fixtures, layout."""

from __future__ import annotations

import json
from pathlib import Path

from brain.sessions import sources
from brain.sessions.sources import copilot
from brain.sessions.sources.sniff import sniff

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "copilot"
RECORDED = FIXTURES / "recorded-1.0.102" / "events.jsonl"
STAGE0 = FIXTURES / "agent-sessions-stage0"


def _write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_session_copilot_1_0_102_wrote() -> None:
    result = copilot.parse(RECORDED)
    t = result.transcript
    assert [(turn.role, turn.tool) for turn in t.turns] == [
        ("user", None),
        ("tool", "bash"),
        ("tool", "bash"),
        ("assistant", None),
    ]
    typed, call, answer, reply = t.turns
    # What the person typed, not the model's copy with the date prepended.
    assert typed.text == "I prefer pnpm over npm. Run echo." and not typed.injected
    assert json.loads(call.text)["command"] == "echo hi-from-tool"
    assert answer.text.startswith("hi-from-tool") and answer.call == call.call == "toolu_1"
    assert reply.text == "I ran it. Use pnpm."
    # The system prompt, usage records and turn marks are bookkeeping, not turns.
    assert not any("You are the GitHub Copilot CLI" in turn.text for turn in t.turns)
    assert t.session_id == "be1fe1ee-6034-40ee-8a1c-abfe5b734e9d"
    assert (t.project, t.git_branch) == ("/tmp/cop-h5/proj", "master")
    assert (result.malformed, result.unknown) == (0, 0)
    assert result.offset == RECORDED.stat().st_size


def test_published_fixtures() -> None:
    small = copilot.parse(STAGE0 / "small.jsonl").transcript
    assert [(turn.role, turn.text) for turn in small.turns] == [
        ("user", "Hello"),
        ("tool", '{"command":"ls"}'),
        ("tool", "file1"),
        ("assistant", "Done"),
    ]
    assert small.session_id == "copilot_stage0_small" and small.project is None
    large = copilot.parse(STAGE0 / "large.jsonl").transcript
    assert [turn.text for turn in large.turns if turn.role == "user"] == [
        "Step 1",
        "Step 2",
        "Step 3",
    ]
    assert "line3" in large.turns[4].text and large.turns[4].tool == "bash"


def test_sniffed_by_content() -> None:
    assert sniff(RECORDED) == "copilot"
    assert sniff(STAGE0 / "small.jsonl") == "copilot"


def test_errors_compaction_injected_messages_and_a_moved_folder(tmp_path: Path) -> None:
    events = [
        {"type": "session.start", "data": {"sessionId": "s1", "context": {"cwd": "/a"}}},
        {"type": "user.message", "data": {"content": "fix the build"}},
        {
            "type": "assistant.message",
            "data": {"content": "", "toolRequests": [{"toolCallId": "c1", "name": "view"}]},
        },
        {
            "type": "tool.execution_complete",
            "data": {"toolCallId": "c1", "error": {"message": "no such file"}},
        },
        {"type": "session.compaction_complete", "data": {"summaryContent": "The build was fixed."}},
        {"type": "user.message", "data": {"content": "go on", "isAutopilotContinuation": True}},
        {"type": "user.message", "data": {"content": "/review", "source": "skill-review"}},
        {"type": "session.context_changed", "data": {"cwd": "/b", "branch": "dev"}},
        {"type": "not-an-event", "data": {}},
        {"type": "user.message"},
    ]
    t = copilot.parse(_write(tmp_path / "s1" / "events.jsonl", events))
    turns = t.transcript.turns
    assert turns[2].text == "[error] no such file" and turns[2].tool == "view"
    assert turns[3].summary and turns[3].injected
    assert [turn.injected for turn in turns if turn.role == "user"] == [False, True, True, True]
    assert (t.transcript.project, t.transcript.git_branch) == ("/b", "dev")
    assert t.unknown == 2


def test_a_resumed_parse_names_the_tool_of_an_earlier_call(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "s" / "events.jsonl",
        [
            {"type": "session.start", "data": {"sessionId": "s"}},
            {"type": "tool.execution_start", "data": {"toolCallId": "c9", "toolName": "web_fetch"}},
        ],
    )
    first = copilot.parse(path)
    with path.open("a") as fh:
        fh.write(
            json.dumps(
                {
                    "type": "tool.execution_complete",
                    "data": {"toolCallId": "c9", "result": {"content": "page"}},
                }
            )
            + "\n"
        )
    resumed = copilot.parse(path, start=first.offset).transcript.turns
    assert [(turn.tool, turn.text) for turn in resumed] == [("web_fetch", "page")]


def test_discovery_under_copilot_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "cp"))
    state = tmp_path / "cp" / "session-state"
    _write(state / "aaa" / "events.jsonl", [{"type": "session.start", "data": {}}])
    _write(state / "old.jsonl", [{"type": "session.start", "data": {}}])
    (state / "bbb").mkdir()  # a session folder with no events yet
    adapter = sources.get("copilot")
    assert adapter.roots() == [state]
    found = [(f.session_id, f.path.name) for f in adapter.discover(state)]
    assert found == [("aaa", "events.jsonl"), ("old", "old.jsonl")]
