"""Gemini CLI adapter: JSONL edit log semantics, legacy JSON, project lookup."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from brain.sessions.sources import gemini

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "gemini" / "agent-sessions-stage0"


def _write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_jsonl_v040_fixture() -> None:
    result = gemini.parse(FIXTURES / "jsonl_v040.jsonl")
    t = result.transcript
    # user message; a gemini message with empty text and one tool call (call + result);
    # a gemini reply. The metadata line and $set carry no turns: 4 turns.
    assert [(turn.role, turn.tool) for turn in t.turns] == [
        ("user", None),
        ("tool", "run_shell_command"),
        ("tool", "run_shell_command"),
        ("assistant", None),
    ]
    assert "README.md" in t.turns[2].text
    assert t.session_id == "gemini_stage0_jsonl"
    assert t.started is not None and t.started.isoformat() == "2026-04-29T21:39:22.319000+00:00"
    assert result.last_timestamp is not None
    assert result.last_timestamp.isoformat() == "2026-04-29T21:39:45.996000+00:00"
    assert (result.malformed, result.unknown, result.lines_read) == (0, 0, 5)


def test_legacy_json_fixture() -> None:
    result = gemini.parse(FIXTURES / "large.json")
    t = result.transcript
    # m1 user, m2 and m2b one tool call each (2 turns apiece, no text), m3 info
    # (skipped), m4 model, m5 user, m6 model: 1 + 2 + 2 + 1 + 1 + 1 = 8 turns.
    assert [turn.role for turn in t.turns] == [
        "user",
        "tool",
        "tool",
        "tool",
        "tool",
        "assistant",
        "user",
        "assistant",
    ]
    assert t.session_id == "session-2025-12-16T23-47-b4f17607"
    assert result.offset == (FIXTURES / "large.json").stat().st_size


def test_last_copy_wins_in_first_position_and_rewind(tmp_path: Path) -> None:
    meta = {"sessionId": "s1", "projectHash": "h", "startTime": "2026-05-01T00:00:00Z"}
    path = _write(
        tmp_path / "chat.jsonl",
        [
            meta,
            {"id": "u1", "type": "user", "content": [{"text": "first question"}]},
            {"id": "g1", "type": "gemini", "content": "draft"},
            {"$set": {"lastUpdated": "2026-05-01T00:01:00Z"}},
            {"id": "g1", "type": "gemini", "content": "final answer"},
            {"id": "u2", "type": "user", "content": "second question"},
            {"id": "g2", "type": "gemini", "content": "second answer"},
            {"$rewindTo": "u2"},
            {"id": "u3", "type": "user", "content": "<session_context>cwd</session_context>"},
        ],
    )
    turns = gemini.parse(path).transcript.turns
    assert [(t.role, t.text, t.injected) for t in turns] == [
        ("user", "first question", False),
        ("assistant", "final answer", False),
        ("user", "<session_context>cwd</session_context>", True),
    ]


def test_set_messages_replaces_and_unknown_rewind_clears(tmp_path: Path) -> None:
    records = [
        {"sessionId": "s1", "projectHash": "h", "summary": "Fix login"},
        {"id": "a", "type": "user", "content": "old"},
        {"$set": {"messages": [{"id": "b", "type": "user", "content": "restored"}]}},
        {
            "id": "c",
            "type": "gemini",
            "content": [{"text": "hmm", "thought": True}, {"inlineData": {"data": "QUJD" * 200}}],
        },
        {"novel": "record"},
    ]
    result = gemini.parse(_write(tmp_path / "a.jsonl", records))
    assert [t.text for t in result.transcript.turns] == ["restored"]
    assert result.transcript.title == "Fix login"
    assert result.unknown == 1
    cleared = gemini.parse(_write(tmp_path / "b.jsonl", [*records, {"$rewindTo": "zzz"}]))
    assert cleared.transcript.turns == ()


def test_discover_and_project_root(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path))
    [root] = gemini.roots()
    assert root == tmp_path / ".gemini" / "tmp"
    chats = root / "my-repo" / "chats"
    chats.mkdir(parents=True)
    (root / "my-repo" / ".project_root").write_text("/src/my-repo\n")
    shutil.copy(FIXTURES / "jsonl_v040.jsonl", chats / "session-2026-04-29T21-39-gemini_s.jsonl")
    shutil.copy(FIXTURES / "large.json", chats / "session-2025-12-16T23-47-b4f17607.json")
    shutil.copy(FIXTURES / "large.json", chats / "session-2026-04-29T21-39-gemini_s.json")
    sub = chats / "gemini_stage0_jsonl" / "child-1.jsonl"
    _write(sub, [{"sessionId": "child-1", "projectHash": "h", "kind": "subagent"}])
    hashed = root / hashlib.sha256(b"/src/old").hexdigest() / "chats"
    hashed.mkdir(parents=True)
    shutil.copy(FIXTURES / "jsonl_v040.jsonl", hashed / "session-2026-01-01T00-00-aaaa.jsonl")
    (tmp_path / ".gemini" / "projects.json").write_text(
        json.dumps({"projects": {"/src/old": "old"}})
    )
    found = list(gemini.discover(root))
    # 2 main sessions in my-repo (the .json twin of a .jsonl is skipped), 1 subagent,
    # 1 session in an old sha256-named directory.
    assert len(found) == 4
    by_name = {f.path.name: f for f in found}
    assert by_name["child-1.jsonl"].session_id == "gemini_stage0_jsonl"
    assert by_name["child-1.jsonl"].subagent == "child-1"
    assert gemini.parse(chats / "session-2026-04-29T21-39-gemini_s.jsonl").transcript.project == (
        "/src/my-repo"
    )
    old = gemini.parse(hashed / "session-2026-01-01T00-00-aaaa.jsonl").transcript
    assert old.project == "/src/old"
    child = gemini.parse(sub).transcript
    assert (child.session_id, child.subagent) == ("gemini_stage0_jsonl", "child-1")


def test_headless_hook_context_is_split_from_the_typed_prompt(tmp_path: Path) -> None:
    # gemini -p sends the SessionStart context and the prompt as one message, escaped.
    hook = "&lt;brain-memory&gt;\nsummary &amp; index\n&lt;/brain-memory&gt;\n"
    text = f"<hook_context>{hook}</hook_context>\n\nI prefer pnpm over npm & yarn."
    meta = {"sessionId": "s1", "projectHash": "h", "startTime": "2026-05-01T00:00:00Z"}
    path = _write(
        tmp_path / "chat.jsonl",
        [meta, {"id": "u1", "type": "user", "content": [{"text": text}]}],
    )
    turns = gemini.parse(path).transcript.turns
    assert [(t.text, t.injected) for t in turns] == [
        ("<brain-memory>\nsummary & index\n</brain-memory>", True),
        ("I prefer pnpm over npm & yarn.", False),
    ]


def test_each_turn_has_a_mark_of_its_own_though_the_chat_is_one_document() -> None:
    # A legacy chat is one JSON document: every turn came from its one "line".
    turns = gemini.parse(FIXTURES / "large.json").transcript.turns
    assert [t.lines for t in turns] == [(n, n) for n in range(1, 9)]
    # JSONL: a message's tool call and its result share the message's file line.
    turns = gemini.parse(FIXTURES / "jsonl_v040.jsonl").transcript.turns
    assert [(t.lines, t.role) for t in turns] == [
        ((1, 1), "user"),
        ((2, 2), "tool"),
        ((3, 3), "tool"),
        ((4, 4), "assistant"),
    ]


def test_phase_one_shows_a_gemini_turn_under_its_own_mark() -> None:
    from brain.models.phase1_text import phase1_text

    text = phase1_text(gemini.parse(FIXTURES / "large.json").transcript, 64_000)
    marks = [line.split("]", 1)[0] for line in text.splitlines() if line.startswith("[L")]
    assert len(marks) == len(set(marks)) == 8
    assert "[L7] user: Step 1" in text.splitlines()


def test_marks_of_turns_a_rewind_kept_stay(tmp_path: Path) -> None:
    meta = {"sessionId": "s1", "projectHash": "h", "startTime": "2026-05-01T00:00:00Z"}
    said = [
        {"id": "u1", "type": "user", "content": "Use uv."},
        {"id": "a1", "type": "gemini", "content": "Done."},
        {"id": "u2", "type": "user", "content": "Now pip."},
    ]
    chat = _write(tmp_path / "chat.jsonl", [meta, *said, {"$rewindTo": "u2"}])
    before = [(t.lines, t.text) for t in gemini.parse(chat).transcript.turns]
    with chat.open("a") as fh:
        fh.write(json.dumps({"id": "u3", "type": "user", "content": "Keep uv."}) + "\n")
    after = [(t.lines, t.text) for t in gemini.parse(chat).transcript.turns]
    assert before == [((1, 1), "Use uv."), ((2, 2), "Done.")]
    assert after == [*before, ((3, 3), "Keep uv.")]
