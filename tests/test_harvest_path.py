"""brain harvest --path: a file is read as the format its content shows, whatever its name.

The files are the recorded fixtures, copied under names that say nothing of the tool.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.journal import machine_id
from brain.sessions.sources import codex
from brain.sessions.sources.sniff import sniff
from tests.helpers import cli, commit_count, git
from tests.test_harvest_trees import CODEX_ID, FIXTURES, GEMINI_ID
from tests.test_sources_common import ALL_FIXTURES

CODEX_ROLLOUT = (
    FIXTURES
    / "codex"
    / "claude-code-log-synthetic"
    / f"rollout-2026-01-02T03-04-05-{CODEX_ID}.jsonl"
)
GEMINI_CHAT = FIXTURES / "gemini" / "agent-sessions-stage0" / "jsonl_v040.jsonl"
GEMINI_LEGACY = FIXTURES / "gemini" / "agent-sessions-stage0" / "large.json"


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def _copy(src: Path, dest: Path) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(src, dest)
    stamp = (datetime.now(UTC) - timedelta(days=1)).timestamp()
    os.utime(dest, (stamp, stamp))
    return dest


def _marks(home: Path, source: str) -> list[dict[str, object]]:
    path = home / "harvest" / f"{machine_id()}-{source}.json"
    return json.loads(path.read_text())["sessions"] if path.exists() else []


@pytest.mark.parametrize(("source", "path"), ALL_FIXTURES, ids=lambda v: getattr(v, "name", v))
def test_every_fixture_is_told_by_its_content(source: str, path: Path) -> None:
    assert sniff(path) == source


def test_brain_format_and_other_files(tmp_path: Path) -> None:
    assert sniff(FIXTURES / "native" / "session.jsonl") == "brain"
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"a": 1}\n{"b": 2}\n')
    assert sniff(notes) is None
    (tmp_path / "empty.jsonl").write_text("")
    assert sniff(tmp_path / "empty.jsonl") is None
    (tmp_path / "text.md").write_text("# a heading\nsome words\n")
    assert sniff(tmp_path / "text.md") is None


def test_a_codex_line_too_long_to_parse_is_told_by_its_keys(tmp_path: Path) -> None:
    meta = {"timestamp": "2026-01-02T03:04:05Z", "type": "session_meta", "payload": {}}
    meta["payload"] = {"id": CODEX_ID, "instructions": "x" * (5 * 1024 * 1024)}
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps(meta) + "\n")
    assert sniff(path) == "codex"


def test_a_renamed_codex_rollout_is_read_as_codex(brain: Brain, home: Path, tmp_path: Path) -> None:
    path = _copy(CODEX_ROLLOUT, tmp_path / "exports" / "codex-session.jsonl")
    result = cli("harvest", "--path", str(path))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "codex: 1 found, 1 new" in result.stdout
    assert "harvest: 1 new session, 0 grown (codex 1)" in result.stdout
    [mark] = _marks(home, "codex")
    assert mark["session_id"] == CODEX_ID
    assert mark["turns"] == len(codex.parse(CODEX_ROLLOUT).transcript.turns) == 8
    assert mark["project"] == "/workspace/synthetic-project"
    assert _marks(home, "claude") == []
    assert git(home, "log", "-1", "--format=%s").strip() == (
        "harvest: 1 new session, 0 grown (codex 1)"
    )


def test_a_gemini_chat_saved_elsewhere_is_read_as_gemini(
    brain: Brain, home: Path, tmp_path: Path
) -> None:
    chat = _copy(GEMINI_CHAT, tmp_path / "saved" / "chat.jsonl")
    legacy = _copy(GEMINI_LEGACY, tmp_path / "saved" / "old-chat.txt")
    result = cli("harvest", "--path", str(chat), "--path", str(legacy))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "gemini: 2 found, 2 new" in result.stdout
    marks = {m["session_id"]: m for m in _marks(home, "gemini")}
    assert set(marks) == {GEMINI_ID, "session-2025-12-16T23-47-b4f17607"}
    assert all(int(str(m["turns"])) > 0 for m in marks.values())
    listed = cli("sessions", "show", GEMINI_ID)
    assert listed.exit_code == 0 and "Say hello and list files." in listed.stdout


def test_source_is_honoured_with_path(brain: Brain, home: Path, tmp_path: Path) -> None:
    path = _copy(CODEX_ROLLOUT, tmp_path / "codex-session.jsonl")
    wrong = cli("harvest", "--source", "gemini", "--path", str(path))
    assert wrong.exit_code == 0
    assert wrong.stderr == (
        f"warning: {path}: no turns found, nothing recorded; read as Gemini CLI "
        "(--source gemini), but it looks like a Codex CLI transcript: run it again without "
        "--source\n"
    )
    assert "nothing new" in wrong.stdout and commit_count(home) == 1
    assert _marks(home, "gemini") == []
    right = cli("harvest", "--source", "codex", "--path", str(path))
    assert right.exit_code == 0 and right.stderr == ""
    assert [m["session_id"] for m in _marks(home, "codex")] == [CODEX_ID]


def test_a_file_that_is_no_transcript_is_said_and_not_recorded(
    brain: Brain, home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"note": "not a transcript"}\n')
    result = cli("harvest", "--path", str(path))
    assert result.exit_code == 0
    assert result.stderr == (
        f"warning: {path}: no turns found, nothing recorded; it is not a transcript brain "
        "can read (a session file of Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen "
        "Code or Antigravity CLI, brain's copy of an OpenCode or Crush session, what "
        "'opencode export' prints, or brain's own format, docs/transcript-format.md); if one "
        "of those tools wrote it, say which with "
        "--source claude|codex|gemini|copilot|opencode|qwen|antigravity|crush\n"
    )
    assert result.stdout.endswith("nothing new\n") and commit_count(home) == 1
    forced = cli("harvest", "--source", "codex", "--path", str(path))
    assert forced.stderr == (
        f"warning: {path}: no turns found, nothing recorded; read as a Codex CLI transcript "
        "(--source codex), but it does not look like one: check the file, or give the "
        "--source of the tool that wrote it\n"
    )
    assert commit_count(home) == 1


def test_a_transcript_with_no_messages_yet_is_said(
    brain: Brain, home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "started.jsonl"
    path.write_text(GEMINI_CHAT.read_text().splitlines()[0] + "\n")  # the metadata line only
    result = cli("harvest", "--path", str(path))
    assert result.stderr == (
        f"warning: {path}: no turns found, nothing recorded; it is a Gemini CLI transcript "
        "with no messages in it yet\n"
    )
    assert commit_count(home) == 1 and _marks(home, "gemini") == []


def test_a_turn_with_bytes_that_are_not_utf8_is_kept_and_counted(
    brain: Brain, tmp_path: Path
) -> None:
    from tests.helpers import claude_transcript

    path = claude_transcript(
        tmp_path / "s.jsonl",
        ("user", "Use pnpm for the frontend, not npm"),
        ("assistant", "Noted."),
        ("user", "CAFE_MENU"),
        ("assistant", "Read it."),
    )
    # The person pasted a Latin-1 file: its é is one byte, 0xE9, no UTF-8.
    path.write_bytes(path.read_bytes().replace(b"CAFE_MENU", b"caf\xe9 cr\xe8me"))
    done = cli("harvest", "--path", str(path))
    assert done.exit_code == 0, done.output
    assert "claude: 1 found, 1 new, 0 grown, 0 unchanged" in done.output
    assert ", 2 bytes not UTF-8 (read as \ufffd)" in done.output
    shown = cli("sessions", "show", "s")
    assert shown.exit_code == 0, shown.output
    assert "caf\ufffd cr\ufffdme" in shown.output
    assert "Use pnpm for the frontend" in shown.output


def test_a_session_id_that_starts_with_a_dash_is_shown_after_two_dashes(
    brain: Brain, tmp_path: Path
) -> None:
    """Claude Code names some files after their folder (``-home-me-shop``): click takes
    such an id for an option, so its error says how to pass it."""
    from tests.helpers import claude_transcript

    path = claude_transcript(
        tmp_path / "-home-me-shop.jsonl",
        ("user", "Use pnpm for the frontend, not npm"),
        ("assistant", "Noted."),
    )
    assert cli("harvest", "--path", str(path)).exit_code == 0
    taken = cli("sessions", "show", "-home-me-shop")
    assert taken.exit_code == 2
    assert "goes after '--': brain sessions show -- -home-me-shop" in taken.output
    renamed = cli("sessions", "rename", "-home-me-shop", "The shop")
    assert "brain sessions rename -- -home-me-shop The shop" in renamed.output
    shown = cli("sessions", "show", "--", "-home-me-shop")
    assert shown.exit_code == 0, shown.output
    assert "Use pnpm for the frontend" in shown.output
