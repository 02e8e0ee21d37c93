"""Qwen Code adapter: a session the real CLI wrote, published fixtures, layout."""

from __future__ import annotations

import json
from pathlib import Path

from brain.sessions import sources
from brain.sessions.sources import qwen
from brain.sessions.sources.sniff import sniff

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "qwen"
RECORDED = FIXTURES / "recorded-0.24.4" / "8161f17e-efa6-4136-89ad-680a714c9311.jsonl"
STAGE0 = FIXTURES / "agent-sessions-stage0"


def _write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _record(kind: str, parts: list[dict] | None = None, **extra: object) -> dict:
    record: dict = {"uuid": "u", "sessionId": "s1", "type": kind, "cwd": "/a", **extra}
    if parts is not None:
        role = "model" if kind == "assistant" else "user"
        record["message"] = {"role": role, "parts": parts}
    return record


def test_a_session_qwen_code_0_24_4_wrote() -> None:
    result = qwen.parse(RECORDED)
    t = result.transcript
    assert [(turn.role, turn.tool) for turn in t.turns] == [
        ("user", None),
        ("tool", "run_shell_command"),
        ("tool", "run_shell_command"),
        ("assistant", None),
    ]
    typed, call, answer, reply = t.turns
    assert typed.text == "list this folder; and always indent with tabs in this repo"
    assert not typed.injected
    assert json.loads(call.text)["command"] == "ls -a"
    assert answer.text.startswith("Command: ls -a") and answer.call == call.call == "call_1"
    assert reply.text == "The folder is empty. I will use tabs."
    # Telemetry and snapshots are bookkeeping, not turns.
    assert t.session_id == RECORDED.stem
    assert (t.project, t.git_branch) == ("/tmp/qh/proj", "master")
    assert (result.malformed, result.unknown) == (0, 0)
    assert result.offset == RECORDED.stat().st_size


def test_published_fixtures() -> None:
    old = qwen.parse(STAGE0 / "019f0000-0000-7000-8000-000000000002.jsonl").transcript
    # 0.21 wrote no provenance: a user record with no subtype was typed.
    assert [(turn.role, turn.injected) for turn in old.turns] == [("user", False)]
    assert old.session_id == "019f0000-0000-7000-8000-000000000002"  # the file's, as Qwen names it
    assert old.project == "/tmp/as-qwen-fixture/project"
    forked = qwen.parse(STAGE0 / "019f0000-0000-7000-8000-000000000006.jsonl")
    assert [turn.text for turn in forked.transcript.turns] == [
        "synthetic forked prompt",
        "synthetic reply",
    ]
    assert forked.unknown == 1  # the session_checkpoint record no Qwen Code writes


def test_sniffed_by_content_not_taken_for_claude() -> None:
    assert sniff(RECORDED) == "qwen"
    for path in STAGE0.glob("*.jsonl"):
        assert sniff(path) == "qwen"
    claude = Path(__file__).parent / "fixtures" / "transcripts" / "claude-code"
    assert sniff(claude / "marot-spotter" / "short.jsonl") == "claude"


def test_thoughts_errors_injected_prompts_compaction_and_title(tmp_path: Path) -> None:
    records = [
        _record("user", [{"text": "fix the build"}], provenance="real_user"),
        _record(
            "assistant",
            [
                {"text": "thinking it over", "thought": True},
                {"text": "Looking."},
                {"functionCall": {"id": "c1", "name": "read_file", "args": {"path": "x"}}},
            ],
        ),
        _record(
            "tool_result",
            [
                {
                    "functionResponse": {
                        "id": "c1",
                        "name": "read_file",
                        "response": {"error": "gone"},
                    }
                }
            ],
        ),
        _record("user", [{"text": "a hook's note"}], provenance="system", subtype="notification"),
        _record(
            "system",
            subtype="chat_compression",
            systemPayload={
                "compressedHistory": [
                    {"role": "user", "parts": [{"text": "<state_snapshot>built</state_snapshot>"}]},
                    {"role": "model", "parts": [{"text": "Got it."}]},
                ]
            },
        ),
        _record("system", subtype="custom_title", systemPayload={"customTitle": "Build fix"}),
        _record("system", subtype="ui_telemetry", systemPayload={"uiEvent": {}}),
        _record("user", [{"text": "go on"}], cwd="/b", gitBranch="dev", provenance="real_user"),
        _record("session_checkpoint"),
    ]
    result = qwen.parse(_write(tmp_path / "not-a-uuid.jsonl", records))
    t = result.transcript
    assert [(turn.role, turn.text) for turn in t.turns] == [
        ("user", "fix the build"),
        ("assistant", "Looking."),
        ("tool", '{"path":"x"}'),
        ("tool", "[error] gone"),
        ("user", "a hook's note"),
        ("user", "<state_snapshot>built</state_snapshot>"),
        ("user", "go on"),
    ]
    assert [turn.injected for turn in t.turns if turn.role == "user"] == [False, True, True, False]
    assert t.turns[5].summary and t.turns[3].tool == "read_file"
    assert (t.session_id, t.title) == ("s1", "Build fix")
    assert (t.project, t.git_branch) == ("/b", "dev")
    assert result.unknown == 1


def test_a_resumed_parse_names_the_tool_of_an_earlier_call(tmp_path: Path) -> None:
    call = {"functionCall": {"id": "c9", "name": "web_fetch", "args": {}}}
    path = _write(tmp_path / "s.jsonl", [_record("assistant", [call])])
    first = qwen.parse(path)
    answer = {"functionResponse": {"id": "c9", "response": {"output": "page"}}}
    with path.open("a") as fh:
        fh.write(json.dumps(_record("tool_result", [answer])) + "\n")
    resumed = qwen.parse(path, start=first.offset).transcript.turns
    assert [(turn.tool, turn.text) for turn in resumed] == [("web_fetch", "page")]


def test_discovery_under_qwen_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("QWEN_HOME", str(tmp_path / "q"))
    projects = tmp_path / "q" / "projects"
    _write(projects / "-home-me-app" / "chats" / "aaa.jsonl", [_record("user", [])])
    _write(projects / "-home-me-app" / "memory" / "MEMORY.md", [])
    (projects / "-home-me-web" / "chats").mkdir(parents=True)
    adapter = sources.get("qwen")
    assert adapter.roots() == [projects]
    assert [(f.session_id, f.path.name) for f in adapter.discover(projects)] == [
        ("aaa", "aaa.jsonl")
    ]
