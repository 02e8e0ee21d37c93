"""A run brain starts itself is never learned from, nor hooked."""

from __future__ import annotations

import json
import os
from pathlib import Path

from brain.api import Brain
from brain.sessions.internal import INTERNAL_ENV, INTERNAL_MARK
from tests.helpers import commit_count, run_brain


def _claude_transcript(path: Path, first: str) -> Path:
    records = [
        {"type": "user", "sessionId": "s-1", "cwd": "/src/app", "uuid": "u1",
         "timestamp": "2026-01-02T03:04:05Z", "message": {"role": "user", "content": first}},
        {"type": "assistant", "sessionId": "s-1", "cwd": "/src/app", "uuid": "a1",
         "timestamp": "2026-01-02T03:04:09Z",
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "{}"}]}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_harvest_skips_a_transcript_brain_asked_for(home: Path, tmp_path: Path) -> None:
    brain, _ = Brain.init(home)
    ours = _claude_transcript(tmp_path / "ours.jsonl", f"{INTERNAL_MARK}\n\n## system\n\nExtract")
    theirs = _claude_transcript(tmp_path / "theirs.jsonl", "Always run the tests with pnpm.")
    before = commit_count(home)
    result = brain.harvest(paths=[ours, theirs])
    (counts,) = result.sources
    assert (counts.new, counts.skipped_internal) == (1, 1)
    assert [Path(s.path).name for s in result.sessions] == ["theirs.jsonl"]
    assert commit_count(home) == before + 1


def test_hooks_do_nothing_inside_a_run_brain_started(home: Path, tmp_path: Path) -> None:
    Brain.init(home)[0].remember("Deploys go through the staging gate.", key="deploy-gate")
    env = {**os.environ, INTERNAL_ENV: "1"}
    payload = json.dumps({"session_id": "x", "cwd": str(tmp_path), "transcript_path": "/x"})
    start = run_brain("hook", "session-start", input=payload, env=env, timeout=30)
    assert start.returncode == 0
    assert "deploy-gate" not in start.stdout
    assert json.loads(start.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    end = run_brain("hook", "session-end", input=payload, env=env, timeout=30)
    assert end.returncode == 0
    assert not (home / ".brain" / "logs" / "after-session.log").exists()
