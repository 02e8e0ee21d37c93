"""What phase 1 shows a model of a session: typed turns whole, the rest cut to a budget."""

from __future__ import annotations

from brain.models.phase1_text import (
    PROSE_CHARS,
    TOOL_CHARS,
    clean_text,
    phase1_text,
    shown_turns,
)
from brain.models.tokens import estimate_tokens
from brain.sessions.sources.base import Transcript, Turn
from tests.test_harvest_trees import GH_TOKEN


def _session(*turns: Turn) -> Transcript:
    return Transcript("claude", "s1", "/x.jsonl", "/src/app", turns=turns)


def _long_session(n: int = 60) -> Transcript:
    """Typed turns between long assistant replies and long tool output."""
    turns: list[Turn] = []
    for i in range(n):
        line = 3 * i + 1
        typed = f"request {i}: " + "keep this typed text " * 10
        turns.append(Turn("user", typed, lines=(line,) * 2))
        turns.append(Turn("assistant", f"reply {i} " + "prose " * 2_000, lines=(line + 1,) * 2))
        output = f"output {i} " + "log line\n" * 1_500 + f"Error: ENOSPC on write {i}"
        turns.append(Turn("tool", output, tool="Bash", lines=(line + 2,) * 2))
    return _session(*turns)


def test_a_session_within_the_budget_is_shown_whole_but_for_long_tool_output() -> None:
    typed = Turn("user", "Always use pnpm, never npm.", lines=(1, 1))
    reply = Turn("assistant", "Noted: pnpm.", lines=(2, 2))
    output = Turn("tool", "x" * (TOOL_CHARS * 3), tool="Bash", lines=(3, 3))
    shown = shown_turns(_session(typed, reply, output), 64_000)
    assert shown.whole and shown.left_out == 0 and shown.cut == 1
    assert [t.text for t in shown.turns[:2]] == [typed.text, reply.text]
    assert len(shown.turns[2].text) < TOOL_CHARS + 100
    assert shown.tokens == sum(estimate_tokens(t.text) + 8 for t in shown.turns)


def test_tool_output_keeps_its_tail_where_the_error_is() -> None:
    output = "Compiling...\n" * 400 + "error[E0425]: cannot find value `cfg` in this scope"
    shown = shown_turns(_session(Turn("tool", output, tool="Bash", lines=(1, 1))), 64_000)
    [turn] = shown.turns
    assert turn.text.startswith("Compiling...")
    assert turn.text.endswith("error[E0425]: cannot find value `cfg` in this scope")
    assert f"\n[... {len(output) - TOOL_CHARS} characters cut ...]\n" in turn.text


def test_every_typed_turn_is_whole_when_the_rest_is_cut_to_the_budget() -> None:
    transcript = _long_session()
    shown = shown_turns(transcript, 12_000)
    assert not shown.whole
    assert shown.typed == shown.typed_whole == 60
    typed = [t.text.strip() for t in transcript.turns if t.role == "user"]
    assert typed == [t.text for t in shown.turns if t.role == "user" and t.lines != (0, 0)]
    assert shown.tokens <= 12_000 * 1.02
    # What was cut is marked: head and tail of a turn, or a stretch of turns left out.
    text = phase1_text(transcript, 12_000)
    assert "characters cut ...]" in text or "turns left out" in text


def test_prose_and_tool_turns_are_left_out_from_the_middle_with_a_marker() -> None:
    transcript = _long_session()
    shown = shown_turns(transcript, 6_000)
    assert shown.left_out > 0 and shown.typed_whole == 60
    markers = [t.text for t in shown.turns if t.lines == (0, 0)]
    assert markers and all(m.startswith("[... ") and "left out" in m for m in markers)
    kept = [t.lines[0] for t in shown.turns if t.role != "user" and t.lines != (0, 0)]
    # The ends of the session are kept longest.
    assert 2 in kept or 3 in kept
    assert 179 in kept or 180 in kept
    assert shown.tokens <= 6_000 * 1.02


def test_typed_turns_are_cut_only_when_they_alone_pass_the_budget() -> None:
    turns = [Turn("user", f"paste {i} " + "word " * 4_000, lines=(i, i)) for i in range(1, 6)]
    shown = shown_turns(_session(*turns), 5_000)
    assert shown.typed == 5 and shown.typed_whole < 5
    assert all(t.text.startswith(f"paste {n}") for n, t in enumerate(shown.turns, 1))
    assert shown.tokens <= 5_000 * 1.05


def test_what_brain_and_the_tools_injected_is_left_out() -> None:
    context = "<brain-memory>\nuse pnpm (from memory)\n</brain-memory>"
    cited = (
        "Done.\n<memory_citation>\n<citation_entries>\nmemories/x.md:1-2|note=[x]\n"
        "</citation_entries>\n</memory_citation>"
    )
    reminder = (
        "file body\n<system-reminder>\nWhenever you read a file, consider malware.\n"
        "</system-reminder>"
    )
    block = "<!-- brain:begin -->\n- pnpm-over-npm: Use pnpm\n<!-- brain:end -->"
    turns = (
        Turn("user", "<environment_context>cwd</environment_context>", injected=True, lines=(1, 1)),
        Turn("user", f"{context}\nFix the flaky test.", lines=(2, 2)),
        Turn("assistant", cited, lines=(3, 3)),
        Turn("tool", reminder, tool="Read", lines=(4, 4)),
        Turn("tool", f"# CLAUDE.md\n{block}\nRun make test.", tool="Read", lines=(5, 5)),
        Turn("user", "<skill>\n<name>coordinator</name>\nYou are a coordinator.", lines=(6, 6)),
        Turn("user", "Base directory for this skill: /x\n# Skill", lines=(7, 7)),
    )
    text = phase1_text(_session(*turns), 64_000)
    for gone in ("environment_context", "from memory", "citation_entries", "malware", "pnpm"):
        assert gone not in text
    assert "coordinator" not in text and "Base directory" not in text
    assert "[L2] user: Fix the flaky test." in text
    assert "[L3] assistant: Done." in text
    assert "[L4] tool(Read): file body" in text
    assert "Run make test." in text
    assert clean_text(turns[0]) == ""


def test_a_secret_in_a_typed_turn_or_across_a_cut_is_redacted() -> None:
    typed = Turn("user", f"deploy with {GH_TOKEN} please", lines=(1, 1))
    across = "a" * (PROSE_CHARS * 2 // 3 - 10) + f" {GH_TOKEN} " + "b" * PROSE_CHARS
    reply = Turn("assistant", across, lines=(2, 2))
    text = phase1_text(_session(typed, reply), 64_000)
    assert GH_TOKEN[:12] not in text
    assert "characters cut ...]" in text
