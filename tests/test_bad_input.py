"""Bad input never takes a command down: one bad file, line or setting, one clear line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.git import packing
from brain.sessions.harvest import harvest
from tests.helpers import cli, cli_json, git, status
from tests.test_harvest_trees import NOW, age, claude_session


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


@pytest.mark.parametrize("kind", ["dangling", "fifo"])
def test_harvest_skips_a_file_it_cannot_read_and_keeps_the_rest(brain: Brain, kind: str) -> None:
    good = claude_session()
    bad = good.parent / "0badbad0-0000-4000-8000-000000000000.jsonl"
    if kind == "dangling":
        bad.symlink_to(good.parent / "gone.jsonl")
    else:
        os.mkfifo(bad)
    result = harvest(brain, now=NOW)
    assert result.new == 1 and result.commit is not None
    assert [f.split(": ", 1)[0] for f in result.failures] == [str(bad)]
    assert "not a regular file" in result.failures[0]


def test_a_line_nested_too_deep_is_skipped_not_the_session(brain: Brain) -> None:
    good = claude_session()
    with good.open("a") as fh:
        fh.write("[" * 100_000 + "]" * 100_000 + "\n")
    age(good, timedelta(days=2))
    result = harvest(brain, now=NOW)
    assert result.new == 1 and result.failures == ()


def test_binary_import_is_one_clear_error(brain: Brain, home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "brain", "import", "-"],
        input=b"\xff\xfe\x00bin\n",
        capture_output=True,
    )
    assert done.returncode == 1
    assert done.stderr.decode().startswith("Error: <stdin>:1: not UTF-8 text"), done.stderr
    assert status(home) == ""


def test_a_nul_in_an_imported_body_is_not_stored(brain: Brain, home: Path) -> None:
    line = '{"key": "nul", "body": "before\\u0000after"}\n'
    assert cli("import", "-", input=line).exit_code == 0
    assert b"\0" not in (home / "memories" / "nul.md").read_bytes()
    assert "-" not in git(home, "diff", "--numstat", "HEAD~1", "HEAD", "--", "memories").split()[0]


def test_brain_dir_replaced_by_a_file_says_what_to_do(brain: Brain, home: Path) -> None:
    shutil.rmtree(home / ".brain")
    (home / ".brain").write_text("oops")
    result = cli("list")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {home / '.brain'} is a file")


def test_a_home_without_git_can_be_made_whole_again(brain: Brain, home: Path) -> None:
    brain.remember("kept fact", key="kept")
    assert packing.wait_for_background_gc(home)  # a gc the write started ends first
    shutil.rmtree(home / ".git")
    result = cli("list")
    assert result.exit_code == 1
    assert "brain init" in result.stderr
    result = cli("init")
    assert result.exit_code == 0, result.stderr
    assert cli_json("show", "kept")["record"]["body"] == "kept fact"
    assert status(home) == ""


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("max_tokens_per_run", "-5"),
        ("context_max_entries", "-1"),
        ("max_raw_memories_for_consolidation", "0"),
        ("archive_after_days", "1e999"),
    ],
)
def test_settings_out_of_range_are_refused(brain: Brain, name: str, value: str) -> None:
    result = cli("config", "set", "--", name, value)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and name in result.stderr


def test_unchanged_reimport_is_a_no_op(brain: Brain, home: Path) -> None:
    brain.remember("first", key="a")
    brain.remember("second", key="b")
    exported = cli("export").stdout
    before = git(home, "rev-parse", "HEAD")
    result = cli("import", "-", input=exported)
    assert result.exit_code == 0, result.stderr
    assert git(home, "rev-parse", "HEAD") == before
    assert cli_json("show", "a")["record"]["supersedes"] == []
