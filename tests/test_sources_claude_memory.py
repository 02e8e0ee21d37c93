"""Reader of Claude Code's auto-memory files (both frontmatter generations)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from brain.sessions.sources.claude_memory import discover_memory_dirs, read_memory_dir

LEGACY = """---
name: No fabricated results
description: Never report a test as passing without running it
type: feedback
originSessionId: 3f1c2a9e-0000-4000-8000-000000000001
---
Run the tests before saying they pass.

**Why:** a claimed pass that was never run hid a regression.
**How to apply:** paste the pytest summary line.
"""
CURRENT = """---
name: staging-deploy-window
description: Staging deploys only between 09:00 and 16:00 UTC
metadata:
  type: project
  pinned: false
modified: 2026-08-20T10:00:00Z
---
Deploys to staging are frozen outside 09:00-16:00 UTC. See [[release-checklist]].
"""
INDEX = "# Memory index\n\n- [No fabricated results](feedback_no-fabrication.md) — run tests\n"


def _memory_dir(claude_root: Path) -> Path:
    directory = claude_root / "projects" / "-src-app" / "memory"
    (directory / "team").mkdir(parents=True)
    (directory / "MEMORY.md").write_text(INDEX)
    (directory / "feedback_no-fabrication.md").write_text(LEGACY)
    (directory / "staging-deploy-window.md").write_text(CURRENT)
    (directory / "team" / "shared.md").write_text("---\nname: shared\n---\nTeam fact.\n")
    (directory / "broken.md").write_text("---\nname: [unclosed\n---\nStill worth keeping.\n")
    return directory


def test_reads_both_generations_and_skips_the_index(tmp_path: Path) -> None:
    directory = _memory_dir(tmp_path / "claude")
    files = {m.path.name: m for m in read_memory_dir(directory)}
    assert sorted(files) == [
        "broken.md",
        "feedback_no-fabrication.md",
        "shared.md",
        "staging-deploy-window.md",
    ]
    legacy = files["feedback_no-fabrication.md"]
    assert (legacy.name, legacy.type) == ("No fabricated results", "feedback")
    assert legacy.description == "Never report a test as passing without running it"
    assert legacy.body.startswith("Run the tests") and "---" not in legacy.body
    assert legacy.sha256 == hashlib.sha256(LEGACY.encode()).hexdigest()
    assert legacy.mtime == legacy.path.stat().st_mtime
    current = files["staging-deploy-window.md"]
    assert (current.name, current.type) == ("staging-deploy-window", "project")
    assert files["shared.md"].type is None and files["shared.md"].description == ""
    broken = files["broken.md"]
    assert broken.name == "broken" and "Still worth keeping." in broken.body


def test_discover_memory_dirs(tmp_path: Path) -> None:
    root = tmp_path / "claude"
    directory = _memory_dir(root)
    (root / "projects" / "-src-other").mkdir()
    assert discover_memory_dirs(root) == [directory]
    assert discover_memory_dirs(tmp_path / "nothing") == []
    assert read_memory_dir(tmp_path / "nothing") == []
