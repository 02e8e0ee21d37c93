"""Antigravity CLI adapter, on a published fixture and on the format as published (the
program is closed source and not run here)."""

from __future__ import annotations

import json
from pathlib import Path

from brain.sessions import sources
from brain.sessions.sources import antigravity
from brain.sessions.sources.sniff import sniff

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "antigravity"
SMALL = FIXTURES / "agent-sessions-stage0" / "cli_small.jsonl"


def _write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_published_conversation() -> None:
    result = antigravity.parse(SMALL)
    t = result.transcript
    assert [(turn.role, turn.tool) for turn in t.turns] == [
        ("user", None),
        ("tool", "list_dir"),
        ("tool", "list_directory"),
        ("tool", "view_file"),
        ("tool", "run_command"),
        ("assistant", None),
        ("user", None),
        ("tool", "write_file"),
        ("tool", "code_action"),
        ("tool", "search_web"),
    ]
    typed = t.turns[0]
    # The request alone: Antigravity's note of a settings change beside it is not the person's.
    assert typed.text == "List the files." and not typed.injected
    assert json.loads(t.turns[1].text) == {
        "DirectoryPath": "/tmp/repo",
        "toolSummary": "Listing contents",
    }
    assert t.turns[5].text == "The directory contains a.txt and b.txt."
    assert not any("Summarizing the result" in turn.text for turn in t.turns)  # thinking
    assert t.turns[6].summary and t.turns[6].injected
    assert not any("SYSTEM_MESSAGE" in turn.text for turn in t.turns)
    assert t.session_id == "cli_small" and result.unknown == 0
    assert t.started is not None and t.started.isoformat().startswith("2026-06-26T21:16:16")


def test_sniffed_by_content() -> None:
    assert sniff(SMALL) == "antigravity"


def test_hindsights_plainer_shapes_and_unknown_lines(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "t.jsonl",
        [
            {"role": "user", "content": "Fix the retry bug", "timestamp": "2026-01-01T00:00:00Z"},
            {"message": {"role": "assistant", "text": "I will inspect it."}},
            {"type": "USER_INPUT", "source": "SYSTEM", "content": "continue"},
            {"something": "else"},
        ],
    )
    result = antigravity.parse(path)
    assert [(t.role, t.text, t.injected) for t in result.transcript.turns] == [
        ("user", "Fix the retry bug", False),
        ("assistant", "I will inspect it.", False),
        ("user", "continue", True),
    ]
    assert result.unknown == 1


def test_discovery_under_the_conversations_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    root = tmp_path / ".gemini" / "antigravity-cli" / "brain"
    step = {"step_index": 0, "type": "USER_INPUT", "content": "hi"}
    logs = root / "c1" / ".system_generated" / "logs"
    _write(logs / "transcript.jsonl", [step])
    _write(logs / "transcript_full.jsonl", [step])
    _write(root / "c2" / ".system_generated" / "logs" / "transcript.jsonl", [step])
    (root / "c3").mkdir()  # artifacts only, no transcript yet
    adapter = sources.get("antigravity")
    assert adapter.roots() == [root]
    found = [(f.session_id, f.path.name) for f in adapter.discover(root)]
    assert found == [("c1", "transcript_full.jsonl"), ("c2", "transcript.jsonl")]
    assert adapter.parse(logs / "transcript.jsonl").transcript.session_id == "c1"
