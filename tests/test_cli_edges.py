"""Rough edges a daily user meets: JSON errors, remotes, near keys, record types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest

from brain.api import Brain
from brain.home.records import RECORD_TYPES
from brain.models.schema import MemoryType
from tests.helpers import cli, commit_count, git, run_brain


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def test_an_error_under_json_is_json_on_stdout_with_the_same_exit_status(brain: Brain) -> None:
    done = run_brain("show", "nosuch", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "error": "no record 'nosuch' in memory",
        "hint": "see 'brain list'",
    }
    assert done.stderr == ""
    plain = run_brain("show", "nosuch")
    assert (plain.returncode, plain.stdout) == (1, "")
    assert plain.stderr == "Error: no record 'nosuch' in memory; see 'brain list'\n"


def test_show_offers_the_keys_spelled_alike(brain: Brain) -> None:
    brain.remember("Use pnpm.", key="pkg-manager")
    brain.remember("Old.", key="pkg-mirror")
    brain.archive("pkg-mirror")
    result = cli("show", "pkg-manger")
    assert result.exit_code == 1
    assert result.stderr == "Error: no record 'pkg-manger' in memory; did you mean 'pkg-manager'?\n"
    assert "did you mean 'pkg-mirror'?" in cli("show", "pkg-mirrr").stderr  # archived too
    assert cli("show", "zzz").stderr.endswith("; see 'brain list'\n")


def test_record_types_are_a_known_set(brain: Brain) -> None:
    assert set(RECORD_TYPES) == set(get_args(MemoryType))
    known = "known types: fact, preference, instruction, decision, lesson, correction"
    before = commit_count(brain.path)
    banana = cli("remember", "--type", "banana", "Bananas.")
    assert banana.exit_code == 1
    assert banana.stderr == f"Error: unknown record type 'banana'; {known}\n"
    assert commit_count(brain.path) == before and not list(brain.path.glob("memories/*.md"))
    assert cli("remember", "--type", "lesson", "--key", "l1", "A lesson.").exit_code == 0
    nosuch = cli("list", "--type", "nosuchtype")
    assert nosuch.exit_code == 1
    assert nosuch.stderr == f"Error: unknown record type 'nosuchtype'; {known}\n"
    assert cli("list", "--type", "decision").stdout == "no records match\n"
    assert cli("list", "--type", "lesson").stdout == "l1  [lesson]  A lesson.\n"


def test_an_imported_record_of_another_type_is_still_listed(brain: Brain) -> None:
    line = json.dumps({"key": "odd", "type": "recipe", "description": "Soup", "body": "Soup."})
    brain.import_([line])
    assert cli("list", "--type", "recipe").stdout == "odd  [recipe]  Soup\n"


def test_remote_show_set_url_and_remove(brain: Brain, tmp_path: Path) -> None:
    assert cli("remote", "show").stdout == "no remotes\n"
    first, second = tmp_path / "first.git", tmp_path / "second.git"
    assert cli("remote", "add", str(first)).exit_code == 0
    assert cli("remote", "show").stdout == f"origin\t{first}\n"
    moved = cli("remote", "set-url", str(second))
    assert (moved.exit_code, moved.stdout) == (0, f"origin -> {second}\n")
    assert git(brain.path, "remote", "get-url", "origin").strip() == str(second)
    assert json.loads(cli("remote", "show", "--json").stdout) == {"origin": str(second)}
    assert cli("remote", "remove").stdout == "removed remote origin\n"
    assert git(brain.path, "remote").strip() == ""
    missing = cli("remote", "set-url", "--name", "backup", str(first))
    assert missing.exit_code == 1
    assert missing.stderr == "Error: no remote 'backup'; add one with 'brain remote add URL'\n"
    assert cli("remote", "remove", "backup").exit_code == 1
