"""Fake agent trees under the isolated HOME, built from the recorded transcript fixtures.

Shared by the harvest, mirror and sessions tests (it holds no tests itself).
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CLAUDE_ID = "55604662-cf2a-4331-851a-ec234028f8ca"
CODEX_ID = "11111111-1111-4111-8111-111111111111"
GEMINI_ID = "gemini_stage0_jsonl"
AWS_KEY = "AKIAZ7Q4M2XK9PLW3RTV"
GH_TOKEN = "ghp_Zk3Lm9Qx2Wv7Rt5Yp8Nb4Hc6Jd1Fg0Se2Ua3"


def user_home() -> Path:
    return Path(os.environ["HOME"])


def age(path: Path, delta: timedelta) -> Path:
    """Set ``path``'s mtime to ``NOW - delta``."""
    stamp = (NOW - delta).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def claude_session(name: str = "short.jsonl", session_id: str = CLAUDE_ID) -> Path:
    folder = user_home() / ".claude" / "projects" / "-home-marco-projects-spotter"
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{session_id}.jsonl"
    shutil.copy(FIXTURES / "claude-code" / "marot-spotter" / name, dest)
    return age(dest, timedelta(days=2))


def codex_session() -> Path:
    name = f"rollout-2026-01-02T03-04-05-{CODEX_ID}.jsonl"
    folder = user_home() / ".codex" / "sessions" / "2026" / "01" / "02"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / "codex" / "claude-code-log-synthetic" / name, folder / name)
    return age(folder / name, timedelta(days=2))


def gemini_session() -> Path:
    chats = user_home() / ".gemini" / "tmp" / "proj" / "chats"
    chats.mkdir(parents=True, exist_ok=True)
    dest = chats / "session-2026-04-29T21-39-gemini_s.jsonl"
    shutil.copy(FIXTURES / "gemini" / "agent-sessions-stage0" / "jsonl_v040.jsonl", dest)
    return age(dest, timedelta(days=2))


def claude_line(text: str, uuid: str, when: datetime | None = None, **extra: object) -> str:
    """One Claude Code user record, as a JSONL line."""
    record = {
        "type": "user",
        "uuid": uuid,
        "timestamp": (when or NOW - timedelta(days=2)).isoformat().replace("+00:00", "Z"),
        "cwd": "/home/marco/projects/spotter",
        "sessionId": CLAUDE_ID,
        "message": {"role": "user", "content": text},
        **extra,
    }
    return json.dumps(record) + "\n"


def append(path: Path, text: str, delta: timedelta = timedelta(days=1)) -> int:
    """Append ``text`` and age the file; return the bytes appended."""
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)
    age(path, delta)
    return len(text.encode())


def secret_session() -> Path:
    """A Claude session whose user, tool and title records carry planted secrets."""
    path = claude_session(session_id="5ec2e700-0000-4000-8000-000000000001")
    tool_use = {
        "type": "assistant",
        "uuid": "a-secret",
        "timestamp": "2026-11-28T10:00:01Z",
        "message": {
            "id": "msg-secret",
            "role": "assistant",
            "content": [
                {"type": "text", "text": f"Using the token {GH_TOKEN} to push."},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"cmd": GH_TOKEN}},
            ],
        },
    }
    title = {"type": "custom-title", "customTitle": f"deploy with {AWS_KEY}"}
    lines = claude_line(f"my aws key is {AWS_KEY}, secret in env", "u-secret") + (
        json.dumps(tool_use) + "\n" + json.dumps(title) + "\n"
    )
    append(path, lines, timedelta(days=2))
    return path
