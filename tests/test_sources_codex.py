"""Codex CLI adapter, on recorded and synthetic rollouts (tests/fixtures/transcripts/codex)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import zstandard

from brain.sessions.sources import codex, sniff

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "codex"
SYNTHETIC = (
    FIXTURES
    / "claude-code-log-synthetic"
    / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
)
MALFORMED = (
    FIXTURES
    / "claude-code-log-synthetic"
    / "malformed-rollout-66666666-6666-4666-8666-666666666666.jsonl"
)
SIMONW = FIXTURES / "simonw-claude-code-transcripts" / "sample_codex_session.jsonl"
CENSUS = FIXTURES / "agent-sessions-stage0" / "small.jsonl"


def test_synthetic_rollout_turns_by_hand_count() -> None:
    result = codex.parse(SYNTHETIC)
    t = result.transcript
    # 14 lines: user_message event (dup of line 4), user item, reasoning (dropped),
    # 3 calls + 3 outputs, agent_message event (dup of line 13), assistant item,
    # one future_synthetic_record (unknown). 1 user + 6 tool + 1 assistant = 8 turns.
    assert [(turn.role, turn.tool) for turn in t.turns] == [
        ("user", None),
        ("tool", "exec_command"),
        ("tool", "exec_command"),
        ("tool", "apply_patch"),
        ("tool", "apply_patch"),
        ("tool", "mcp__synthetic__lookup"),
        ("tool", "mcp__synthetic__lookup"),
        ("assistant", None),
    ]
    assert t.turns[0].lines == (4, 4)  # the response_item copy, not the event_msg one
    assert t.turns[-1].lines == (13, 13)
    assert t.turns[4].text == "Done!"
    assert t.session_id == "11111111-1111-4111-8111-111111111111"
    assert t.project == "/workspace/synthetic-project"
    assert (result.unknown, result.malformed, result.lines_read) == (1, 0, 14)
    assert t.started is not None and t.started.isoformat() == "2026-01-02T03:04:05+00:00"
    assert result.last_timestamp is not None
    assert result.last_timestamp.isoformat() == "2026-01-02T03:04:16+00:00"
    assert all("SYNTHETIC_ENCRYPTED" not in turn.text for turn in t.turns)


def test_real_0_77_session_marks_injected_context() -> None:
    t = codex.parse(SIMONW).transcript
    # 3 user response_items (AGENTS.md, environment_context, the prompt) and an
    # event_msg copy of the prompt, which is dropped.
    assert [(turn.role, turn.injected) for turn in t.turns] == [
        ("user", True),
        ("user", True),
        ("user", False),
    ]
    assert t.turns[0].text.startswith("# AGENTS.md instructions for")
    assert t.turns[2].text.startswith("can you analyse the MD files")
    assert t.project == "/Users/macmini/Code/homelab-migration"
    assert t.session_id == "019b64e5-57fa-7463-b644-fba7e456f905"


def test_malformed_line_is_counted_and_event_only_message_kept() -> None:
    result = codex.parse(MALFORMED)
    assert result.malformed == 1
    assert [turn.text for turn in result.transcript.turns] == ["Safe line before malformed input."]
    assert result.transcript.skipped == 1


def test_census_through_0_146_parses() -> None:
    result = codex.parse(CENSUS)
    t = result.transcript
    assert result.malformed == 0 and result.unknown == 0
    assert t.session_id == "019fc8be-3658-7ca3-9e29-000000000000"  # the first session_meta
    assert t.git_branch == "main"
    user_texts = [turn.text for turn in t.turns if turn.role == "user" and not turn.summary]
    assert user_texts.count("List the files") == 1  # event_msg copy dropped
    assert sum(turn.summary for turn in t.turns) >= 1  # compacted records


def test_citation_blocks_are_stripped(tmp_path: Path) -> None:
    path = tmp_path / "rollout-x.jsonl"
    text = 'Use six retries.<oai-mem-citation>\n{"rolloutIds":["a"]}\n</oai-mem-citation>'
    path.write_text(
        '{"type":"response_item","payload":{"type":"message","role":"assistant",'
        f'"content":[{{"type":"output_text","text":{__import__("json").dumps(text)}}}]}}}}\n'
    )
    assert [turn.text for turn in codex.parse(path).transcript.turns] == ["Use six retries."]


def test_an_exec_document_is_read_as_what_the_command_printed(tmp_path: Path) -> None:
    import json

    printed = "service,env,secret\nmux,prod,Qm8xT2vR9kLp4WzN7cJd3Hs6\n"
    lines = [
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell",
         "arguments": '{"command": ["cat", "keys.csv"]}', "call_id": "c1"}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
         "output": json.dumps({"output": printed, "metadata": {"exit_code": 0}})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
         "output": json.dumps({"output": "no such file", "metadata": {"exit_code": 1}})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
         "output": '{"output": not json'}},
    ]  # fmt: skip
    path = tmp_path / "rollout-x.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    texts = [turn.text for turn in codex.parse(path).transcript.turns]
    assert texts[1] == printed.rstrip()
    assert texts[2] == "no such file\n[exit code 1]"
    assert texts[3] == '{"output": not json'


def _codex_home(tmp_path: Path) -> Path:
    home = tmp_path / "codex-home"
    day = home / "sessions" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    shutil.copy(SYNTHETIC, day / SYNTHETIC.name)
    cold = day / "rollout-2025-12-28T12-18-30-019b64e5-57fa-7463-b644-fba7e456f905.jsonl.zst"
    cold.write_bytes(zstandard.ZstdCompressor().compress(SIMONW.read_bytes()))
    # A .zst next to its still-present plain file is shadowed by it.
    twin = day / (SYNTHETIC.name + ".zst")
    twin.write_bytes(zstandard.ZstdCompressor().compress(SYNTHETIC.read_bytes()))
    archived = home / "archived_sessions"
    archived.mkdir()
    shutil.copy(MALFORMED, archived / MALFORMED.name.removeprefix("malformed-"))
    return home


def test_discover_sessions_archived_and_zst(tmp_path: Path, monkeypatch) -> None:
    home = _codex_home(tmp_path)
    monkeypatch.setenv("CODEX_HOME", str(home))
    roots = codex.roots()
    assert roots == [home / "sessions", home / "archived_sessions"]
    found = [f for root in roots for f in codex.discover(root)]
    assert sorted(f.session_id for f in found) == [
        "019b64e5-57fa-7463-b644-fba7e456f905",
        "11111111-1111-4111-8111-111111111111",
        "66666666-6666-4666-8666-666666666666",
    ]
    assert not any(f.path.name == SYNTHETIC.name + ".zst" for f in found)


def test_zst_parses_like_the_plain_file_and_resumes(tmp_path: Path) -> None:
    home = _codex_home(tmp_path)
    [cold] = list((home / "sessions").rglob("rollout-2025-*.jsonl.zst"))
    plain = codex.parse(SIMONW)
    packed = codex.parse(cold)
    assert [t.text for t in packed.transcript.turns] == [t.text for t in plain.transcript.turns]
    assert packed.offset == SIMONW.stat().st_size  # decompressed bytes
    again = codex.parse(cold, start=packed.offset)
    assert again.transcript.turns == () and again.offset == packed.offset


def test_a_spec_kit_commands_template_is_not_what_the_person_typed(tmp_path: Path) -> None:
    template = (
        "You **MUST** consider the user input before proceeding (if not empty).\n\n"
        "## Outline\n\n" + "Create a new feature branch before writing the spec. " * 12
    )
    said = "UC-17: tighten FR wording only, no new scope"
    text = f"\n## User Input\n\n```text\n{said}\n```\n\n{template}"
    record = {
        "timestamp": "2026-02-03T04:32:15.650Z",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": text}],
        },
    }
    path = tmp_path / "rollout-2026-02-03T04-32-15-019c21c5-96df-7190-8b06-bf33093260dc.jsonl"
    path.write_text(json.dumps(record) + "\n")
    turns = codex.parse(path).transcript.turns
    typed = [t.text for t in turns if t.role == "user" and not t.injected]
    assert typed == [said]
    assert any(t.injected and "Create a new feature branch" in t.text for t in turns)
    # A person's own message with such a heading and a few words after it is theirs.
    short = "## User Input\n\n```text\nuse uv\n```\n\nthanks"
    record["payload"]["content"][0]["text"] = short  # type: ignore[index]
    path.write_text(json.dumps(record) + "\n")
    assert [t.text for t in codex.parse(path).transcript.turns] == [short]


def test_codexs_own_warning_in_the_users_role_is_not_typed(tmp_path: Path) -> None:
    def item(text: str) -> dict[str, object]:
        content = [{"type": "input_text", "text": text}]
        message = {"type": "message", "role": "user", "content": content}
        return {"type": "response_item", "payload": message}

    warning = (
        "Warning: apply_patch was requested via exec_command. "
        "Use the apply_patch tool instead of exec_command."
    )
    records = [item("keep the CLI flags stable"), item(warning)]
    path = tmp_path / "rollout-2026-03-26T13-38-12-019d29b9-24ab-7bc3-9fb4-aab0924487f9.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    turns = codex.parse(path).transcript.turns
    assert [t.text for t in turns if not t.injected] == ["keep the CLI flags stable"]
    assert [t.text for t in turns if t.injected] == [warning]


def test_a_rollout_of_the_older_form_is_read(tmp_path: Path) -> None:
    # Codex until the autumn of 2025: the session's own first line, bare items between
    # record_type lines, the working folder only in the environment context.
    lines = [
        {"id": "d916f056-bee1-4299-b4ab-15a8c65220f4", "timestamp": "2025-09-11T15:57:10.103Z",
         "instructions": None, "git": {"branch": "main"}},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text",
         "text": "<environment_context>\n  <cwd>c:\\Users\\PC\\Vitrine</cwd>\n"
                 "</environment_context>"}]},
        {"type": "message", "role": "user",
         "content": [{"type": "input_text", "text": "x = twitter, keep that name"}]},
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"},
        {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}",
         "call_id": "call_1"},
        {"type": "function_call_output", "call_id": "call_1",
         "output": "{\"output\":\"backend.js\\n\",\"metadata\":{\"exit_code\":0}}"},
        {"record_type": "state"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Renamed."}]},
    ]  # fmt: skip
    path = tmp_path / "rollout-2025-09-11T12-57-10-d916f056-bee1-4299-b4ab-15a8c65220f4.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    assert sniff.sniff(path) == "codex"
    result = codex.parse(path)
    t = result.transcript
    assert [(turn.role, turn.injected, turn.tool) for turn in t.turns] == [
        ("user", True, None),
        ("user", False, None),
        ("tool", False, "shell"),
        ("tool", False, "shell"),
        ("assistant", False, None),
    ]
    assert t.turns[1].text == "x = twitter, keep that name" and t.turns[1].lines == (4, 4)
    assert t.turns[3].text.strip() == "backend.js"
    assert t.session_id == "d916f056-bee1-4299-b4ab-15a8c65220f4"
    assert t.project == "c:\\Users\\PC\\Vitrine"
    assert t.git_branch == "main"
    assert result.unknown == 0
    assert t.started is not None and t.started.isoformat() == "2025-09-11T15:57:10.103000+00:00"


def test_what_codexs_editor_shows_before_the_request_is_not_typed(tmp_path: Path) -> None:
    said = "rename x to twitter in the feed"
    shown = (
        "# Context from my IDE setup:\n\n## Active file: backend.js\n\n"
        "## Active selection of the file:\nalways push straight to main\n"
        "## Open tabs:\n- backend.js: backend.js\n\n## My request for Codex:\n"
    )
    line = {
        "timestamp": "2026-01-02T03:04:05Z",
        "type": "response_item",
        "payload": {"type": "message", "role": "user",
                    "content": [{"type": "input_text", "text": shown + said}]},
    }  # fmt: skip
    path = tmp_path / "rollout-2026-01-02T03-04-05-22222222-2222-4222-8222-222222222222.jsonl"
    path.write_text(json.dumps(line) + "\n")
    turns = codex.parse(path).transcript.turns
    assert [(turn.text, turn.injected) for turn in turns] == [
        (shown.strip(), True),
        (said, False),
    ]
