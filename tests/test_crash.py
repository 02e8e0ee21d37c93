"""A brain process killed mid-write: the next command puts its leftovers right.

The writer here is a real process that kills itself with SIGKILL at a chosen step, so
no ``finally`` of its own runs; the loops of random kills are in benchmarks/crash.py.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import cli, cli_json, git, status

_SCRIPT = """
import os, signal, sys
from pathlib import Path
from brain.home.home import Home
from brain.home.records import Record
home = Home.open(Path(sys.argv[1]))
step = sys.argv[2]
with home.transaction() as tx:
    for n in range(5):
        tx.stage(Record(id=f"id-{n}", key=f"k{n}", type="fact", description="d", body=f"b{n}"))
    tx.stage(Record(id="id-x", key="kept", type="fact", description="d", body="rewritten"))
    if step == "staged":
        os.kill(os.getpid(), signal.SIGKILL)
    if step == "journaled":
        from brain.home import journal
        journal.append(home.path, "consolidate", raw_ids=["r1"])
        os.kill(os.getpid(), signal.SIGKILL)
    paths = sorted(tx.written)
    tx.repo._git("update-index", "--add", "--remove", "--", *paths)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_writer(home: Path, step: str) -> None:
    code = textwrap.dedent(_SCRIPT)
    done = subprocess.run([sys.executable, "-c", code, str(home), step], capture_output=True)
    assert done.returncode == -9, done.stderr


@pytest.fixture
def brain_home(home: Path) -> Path:
    Brain.init(home)
    assert cli("remember", "kept fact", "--key", "kept").exit_code == 0
    return home


@pytest.mark.parametrize("step", ["staged", "indexed"])
def test_a_killed_write_is_rolled_back_by_the_next_write(brain_home: Path, step: str) -> None:
    _killed_writer(brain_home, step)
    assert (brain_home / ".brain" / "pending").exists()
    result = cli("remember", "the fifth fact", "--key", "k4")
    assert result.exit_code == 0, result.stderr
    assert status(brain_home) == ""
    assert sorted(p.name for p in (brain_home / "memories").glob("*.md")) == ["k4.md", "kept.md"]
    assert cli_json("show", "kept")["record"]["body"] == "kept fact"
    assert not (brain_home / ".brain" / "pending").exists()


def test_reads_never_serve_a_dead_writers_records(brain_home: Path) -> None:
    _killed_writer(brain_home, "indexed")
    keys = [r["key"] for r in cli_json("list")]
    assert keys == ["kept"]
    assert status(brain_home) == ""


def test_a_read_drops_a_dead_writers_journal_line(brain_home: Path) -> None:
    _killed_writer(brain_home, "journaled")
    assert cli("list").exit_code == 0
    assert (brain_home / "journal.jsonl").read_text() == git(
        brain_home, "show", "HEAD:journal.jsonl"
    )
    assert status(brain_home) == ""


def test_a_hand_edit_is_not_a_leftover(brain_home: Path) -> None:
    _killed_writer(brain_home, "staged")
    (brain_home / "memories" / "mine.md").write_text("---\nkey: mine\n---\nby hand\n")
    assert cli("remember", "another", "--key", "other").exit_code == 0
    assert (brain_home / "memories" / "mine.md").read_text().endswith("by hand\n")
    assert status(brain_home) == "?? memories/mine.md\n"


def test_stray_temporary_files_go(brain_home: Path) -> None:
    stray = brain_home / ".brain" / ".kept.md.abc123.tmp"
    stray.write_text("half")
    (brain_home / ".brain" / "pending").write_text('{"head": "x", "kind": "write"}\n')
    cli("list")
    assert not stray.exists()


def test_a_killed_pull_leaves_no_half_merge(tmp_path: Path, brain_home: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--bare", "-q", str(remote))
    assert cli("remote", "add", str(remote)).exit_code == 0
    assert cli("push").exit_code == 0
    other = tmp_path / "other"
    assert cli("clone", str(remote), "--home", str(other)).exit_code == 0
    assert cli("--home", str(other), "remember", "there", "--key", "kept").exit_code == 0
    assert cli("--home", str(other), "push").exit_code == 0
    assert cli("remember", "here", "--key", "kept").exit_code == 0
    git(brain_home, "fetch", "-q", "origin")
    subprocess.run(["git", "-C", str(brain_home), "merge", "origin/main"], capture_output=True)
    assert (brain_home / ".git" / "MERGE_HEAD").exists()
    (brain_home / ".brain" / "pending").write_text('{"head": "x", "kind": "merge"}\n')
    result = cli("remember", "after", "--key", "after")
    assert result.exit_code == 0, result.stderr
    assert not (brain_home / ".git" / "MERGE_HEAD").exists()
    assert status(brain_home) == ""


def test_a_read_beside_a_live_writer_sees_only_committed_records(brain_home: Path) -> None:
    code = textwrap.dedent(
        """
        import sys, time
        from pathlib import Path
        from brain.home.home import Home
        from brain.home.records import Record
        home = Home.open(Path(sys.argv[1]))
        with home.transaction() as tx:
            tx.stage(Record(id="id-new", key="new", type="fact", description="d", body="b"))
            tx.stage(Record(id="id-x", key="kept", type="fact", description="d", body="changed"))
            (home.state / "staged").touch()
            time.sleep(30)
        """
    )
    writer = subprocess.Popen([sys.executable, "-c", code, str(brain_home)])
    try:
        while not (brain_home / ".brain" / "staged").exists():
            time.sleep(0.02)
        listed = cli_json("list")
        assert [(r["key"], r["body"]) for r in listed] == [("kept", "kept fact")]
    finally:
        writer.kill()
        writer.wait()
