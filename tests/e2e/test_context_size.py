"""Each tool's session-start context fits what the tool takes whole, degrading by parts.

Claude Code replaces hook context over about 10,000 characters with a preview and a file
path; Codex cuts hook output over 2,500 tokens in the middle. A large memory must reach
the model as whole parts: the summary's sections, then one line per record, then a line
saying to ask ``recall`` for the rest, and the closing fence.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain
from tests.e2e.servers import ModelServer

RECORD = """---
id: 20260101-000000000-{n:06x}
key: fact-{n:03d}
type: fact
description: Fact number {n} about the build, long enough to take a real share of a line here
created: 2026-01-01T00:00:00Z
updated: 2026-01-01T00:00:00Z
---
Body of fact {n}.
"""


def fill(home: Path) -> None:
    """A memory far over every tool's limit: 400 records and a 30-section summary."""
    memories = home / "memories"
    memories.mkdir(exist_ok=True)
    for n in range(400):
        (memories / f"fact-{n:03d}.md").write_text(RECORD.format(n=n))
    sections = [
        f"## Section {i}\n" + " ".join(f"point{i}-{w}" for w in range(60)) + "\n" for i in range(30)
    ]
    (home / "memory_summary.md").write_text("# Summary\n\n" + "\n".join(sections))
    subprocess.run(["git", "-C", str(home), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(home), "commit", "-qm", "fill"], check=True)


@pytest.mark.parametrize("tool", ["claude-code", "codex"])
def test_a_large_memory_reaches_the_model_whole(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    fill(Path(os.environ["BRAIN_HOME"]))
    assert brain("hooks", "install", tool).returncode == 0

    agent.run("hello", project)
    first = model.turns()[0].text
    assert "<brain-memory>" in first and "</brain-memory>" in first
    assert "## Section 0" in first and "- fact-399" in first
    assert "more not shown: ask `recall`" in first
    start = first.index("<brain-memory>")
    shown = json.loads(f'"{first[start : first.index("</brain-memory>")]}"')
    assert len(shown) < 10_000
