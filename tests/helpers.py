"""Small helpers shared by tests: run the real CLI, read git state."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from brain.cli import main

# A deeper run of the property tests draws this many times their examples
# (``BRAIN_TEST_DEPTH=10 make test``); ``make test`` draws enough to catch a regression.
DEPTH = max(1, int(os.environ.get("BRAIN_TEST_DEPTH") or 1))


def examples(n: int) -> int:
    """How many examples a property test draws: ``n``, times ``BRAIN_TEST_DEPTH``."""
    return n * DEPTH


def cli(*args: str, input: str | None = None) -> Result:
    """Run brain in-process with click's runner (stderr kept apart)."""
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def cli_json(*args: str) -> Any:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


def run_brain(
    *args: str, env: dict[str, str] | None = None, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """Run brain as a real subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "brain", *args], capture_output=True, text=True, env=env, **kw
    )


def git(home: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(home), *args], capture_output=True, text=True, check=True
    ).stdout


def commit_count(home: Path) -> int:
    return int(git(home, "rev-list", "--count", "HEAD").strip())


def status(home: Path) -> str:
    return git(home, "status", "--porcelain")


def older_index(path: Path, migrations: int) -> sqlite3.Connection:
    """An index file made by older code: only its first ``migrations`` applied."""
    from brain.index.db import MIGRATIONS

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied TEXT)")
    for name, sql in MIGRATIONS[:migrations]:
        conn.executescript(sql)
        conn.execute("INSERT INTO migrations VALUES (?, '')", (name,))
    return conn


def claude_transcript(path: Path, *said: tuple[str, str], cwd: str = "/src/shop") -> Path:
    """A Claude Code transcript at ``path`` of ``said`` (role, text) turns, one a line."""
    records = []
    for n, (role, text) in enumerate(said):
        message: dict[str, Any] = {"role": role, "content": text}
        if role == "assistant":
            message |= {"id": f"m{n}", "content": [{"type": "text", "text": text}]}
        records.append(
            {"type": role, "sessionId": "s-1", "cwd": cwd, "uuid": f"u{n}",
             "timestamp": f"2026-01-02T03:04:{n % 60:02d}Z", "message": message}
        )  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path
