"""What one tool remembers reaches the others' context once, and not its own again."""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.sessions.mirror import mirror_native
from tests.helpers import cli
from tests.test_harvest_trees import age, claude_line, user_home

RULE = "Never report a test as passing without running it"
MEMORY = f"""---
name: No fabricated results
description: {RULE}
metadata:
  type: feedback
---
Run the tests before saying they pass.
"""


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def checkout(name: str) -> Path:
    path = user_home() / "src" / name
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def claude_memory(project: Path) -> Path:
    """Claude Code's memory folder for ``project``, with the rule in it."""
    folder = user_home() / ".claude" / "projects" / str(project).replace("/", "-")
    (folder / "memory").mkdir(parents=True)
    line = claude_line("hi", "u1").replace("/home/marco/projects/spotter", str(project))
    (folder / "s1.jsonl").write_text(line)
    age(folder / "s1.jsonl", timedelta(days=2))
    (folder / "memory" / "MEMORY.md").write_text("- [No fabricated results](no-fab.md)\n")
    (folder / "memory" / "no-fab.md").write_text(MEMORY)
    return folder / "memory"


def lines_with(text: str, needle: str) -> list[str]:
    return [line for line in text.splitlines() if needle.lower() in line.lower()]


def context_of(project: Path, tool: str) -> str:
    done = cli("context", "--project", str(project), "--tool", tool)
    assert done.exit_code == 0, done.output
    return done.stdout


def test_a_claude_memory_shows_once_in_a_codex_session_of_its_project(brain: Brain) -> None:
    shop, other = checkout("shop"), checkout("other")
    claude_memory(shop)
    assert mirror_native(brain).added == 1
    assert len(lines_with(context_of(shop, "codex"), RULE)) == 1
    assert len(lines_with(context_of(shop, "gemini"), RULE)) == 1
    assert lines_with(context_of(shop, "claude-code"), RULE) == []  # Claude loads it itself
    assert lines_with(context_of(other, "codex"), RULE) == []  # another project's


def test_once_also_when_brain_had_the_rule_before(brain: Brain) -> None:
    shop = checkout("shop")
    brain.remember("Never report a test as passing without running it.", tags=["project:shop"])
    claude_memory(shop)
    result = mirror_native(brain)
    assert (result.added, result.merged) == (0, 1)
    assert len(lines_with(context_of(shop, "codex"), RULE)) == 1
    # Claude has it in its own memory: brain's record of it is not shown to Claude again.
    assert lines_with(context_of(shop, "claude-code"), RULE) == []


def test_once_also_when_brain_learns_the_rule_after(brain: Brain) -> None:
    shop = checkout("shop")
    claude_memory(shop)
    mirror_native(brain)
    brain.remember(RULE, tags=["project:shop"], key="no-fabricated-results-shop")
    assert len([r for r in brain.list().records]) == 2
    assert len(lines_with(context_of(shop, "codex"), RULE)) == 1


def test_a_qwen_memory_is_not_shown_to_qwen_again(brain: Brain) -> None:
    shop = checkout("shop")
    folder = user_home() / ".qwen" / "projects" / "-src-shop"
    (folder / "memory" / "feedback").mkdir(parents=True)
    (folder / "chats").mkdir()
    (folder / "chats" / "s1.jsonl").write_text(f'{{"cwd": "{shop}"}}\n')
    (folder / "memory" / "feedback" / "no-fab.md").write_text(MEMORY)
    assert mirror_native(brain).added == 1
    assert len(lines_with(context_of(shop, "claude-code"), RULE)) == 1
    assert lines_with(context_of(shop, "qwen"), RULE) == []  # Qwen loads it itself
    assert cli("setup", "qwen").exit_code == 0
    assert cli("sync-instructions", "--project", str(shop)).exit_code == 0
    assert lines_with((shop / "QWEN.md").read_text(), RULE) == []


def test_instruction_files_leave_out_each_tools_own_memory(brain: Brain) -> None:
    shop = checkout("shop")
    claude_memory(shop)
    mirror_native(brain)
    files = "CLAUDE.md,AGENTS.md,GEMINI.md"
    assert cli("sync-instructions", "--project", str(shop), "--files", files).exit_code == 0
    assert lines_with((shop / "AGENTS.md").read_text(), RULE) != []
    assert lines_with((shop / "GEMINI.md").read_text(), RULE) != []
    assert lines_with((shop / "CLAUDE.md").read_text(), RULE) == []


@pytest.mark.parametrize(
    ("tool", "where"),
    [
        ("claude-code", "~/.claude/projects/*/memory"),
        ("codex", "~/.codex/memories"),
        ("gemini", "~/.gemini/GEMINI.md and ~/.gemini/tmp/*/memory"),
    ],
)
def test_setup_says_what_it_does_with_the_tools_own_memory(
    brain: Brain, tool: str, where: str
) -> None:
    done = cli("setup", tool, "--dry-run")
    assert done.exit_code == 0, done.output
    [line] = [line for line in done.stdout.splitlines() if "its own memory" in line]
    assert line == (
        f"note: its own memory ({where}) is read into brain at harvest and session end and "
        "never written to; what the other tools remember reaches it in the context"
    )
