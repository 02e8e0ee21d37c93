"""What one real CLI remembers itself reaches a real Codex session's model, once.

Claude Code writes its auto memory with its ``Write`` tool, Gemini CLI its global
``GEMINI.md`` with ``write_file`` (the scripted model asks them to, as a real one does
when told "remember"); the session-end job brain's hooks start mirrors the file into the
home; the next Codex session in the same project is shown the rule in its session-start
context, one line, also when brain keeps the same rule as a record of its own.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain, wait_for_learning
from tests.e2e.servers import ModelServer, Reply

RULE = "Never report a test as passing without running it"
CLAUDE_FILE = f"""---
name: no-fabricated-results
description: {RULE}
metadata:
  type: feedback
---
Run the tests before saying they pass.

**Why:** a claimed pass that was never run hid a regression.
"""
GEMINI_FILE = f"## Gemini Added Memories\n- {RULE}.\n"


def claude_writes(model: ModelServer, project: Path) -> list[str]:
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project))
    memory = Path(os.environ["HOME"]) / ".claude" / "projects" / slug / "memory"
    model.push(
        Reply(
            tool="Write",
            args={
                "file_path": str(memory / "feedback_no-fabricated-results.md"),
                "content": CLAUDE_FILE,
            },
        ),
        Reply(
            tool="Write",
            args={
                "file_path": str(memory / "MEMORY.md"),
                "content": "- [No fabricated results](feedback_no-fabricated-results.md)\n",
            },
        ),
        Reply(text="Saved to memory."),
    )
    return []


def gemini_writes(model: ModelServer, project: Path) -> list[str]:
    path = Path(os.environ["HOME"]) / ".gemini" / "GEMINI.md"
    model.push(
        Reply(tool="write_file", args={"file_path": str(path), "content": GEMINI_FILE}),
        Reply(text="Saved."),
    )
    return ["--approval-mode", "yolo"]


WRITERS = {"claude-code": claude_writes, "gemini": gemini_writes}
TAGS = {"claude-code": "from:claude-memory", "gemini": "from:gemini-memory"}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_rule_one_tool_keeps_reaches_a_codex_session_once(
    writer: str, model: ModelServer, project: Path
) -> None:
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    agent, codex = AGENTS[writer](model), AGENTS["codex"](model)  # their settings first
    for tool in (writer, "codex"):
        installed = brain("hooks", "install", tool)
        assert installed.returncode == 0, installed.stderr
    extra = WRITERS[writer](model, project)
    agent.run(f"Remember: {RULE.lower()}.", project, *extra)
    log = wait_for_learning(home)
    mirrored = [p for p in (home / "memories").glob("*.md") if TAGS[writer] in p.read_text()]
    assert len(mirrored) == 1, log

    # brain has the same rule as a record of its own too (learned, or remembered by hand)
    said = brain("remember", f"{RULE}.", "--tag", f"project:{project.name}")
    assert said.returncode == 0, said.stderr
    model.requests.clear()
    codex.run("What is left to do on the refund flow?", project)
    first = model.turns()[0].text
    start, end = first.index("<brain-memory>"), first.index("</brain-memory>")
    shown = json.loads(f'"{first[start:end]}"')
    assert shown.lower().count(RULE.lower()) == 1, shown
