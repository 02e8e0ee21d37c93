"""Small helpers shared by tests: run the real CLI, read git state."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from brain.cli import main


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
