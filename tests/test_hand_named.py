"""Record files a person named by hand (``café notes.md``): brain says how to file each
under a key, ``brain rename`` does it, and the record is then like any other."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brain.api import Brain
from brain.home import names
from brain.home.edit import commit_hand_edits
from brain.home.keys import validate_key
from tests.helpers import cli, cli_json, git, status

CAFE = (
    "---\nid: 20260101-000000000-cccccc\ntype: fact\ndescription: Café notes\n---\n"
    "The espresso machine needs descaling monthly.\n"
)


@pytest.fixture
def brain(home: Path) -> Brain:
    made = Brain.init(home)[0]
    (home / "memories" / "café notes.md").write_text(CAFE)
    (home / "memories" / "Brew Ratio.md").write_text("Pour-over ratio is 1:16.\n")
    return made


def test_status_names_each_file_with_the_command_that_renames_it(brain: Brain) -> None:
    result = cli("status")
    assert result.exit_code == 0
    named = [line for line in result.stdout.splitlines() if line.startswith("named by hand")]
    assert named == [
        "named by hand memories/Brew Ratio.md: brain rename 'Brew Ratio' brew-ratio",
        "named by hand memories/café notes.md: brain rename 'café notes' cafe-notes",
    ]


def test_doctor_warns_of_each_file_with_the_command_and_still_exits_0(brain: Brain) -> None:
    result = cli("doctor")
    assert result.exit_code == 0, result.stdout  # a file named by hand breaks nothing
    warned = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert warned == [
        "warning: memories/Brew Ratio.md is named by hand, not by a key (not searched "
        "until renamed): brain rename 'Brew Ratio' brew-ratio",
        "warning: memories/café notes.md is named by hand, not by a key (not searched "
        "until renamed): brain rename 'café notes' cafe-notes",
    ]
    shown = cli_json("doctor")
    assert shown["ok"] is True
    assert [w.rsplit(": ", 1)[1] for w in shown["warnings"]] == [
        "brain rename 'Brew Ratio' brew-ratio",
        "brain rename 'café notes' cafe-notes",
    ]
    assert cli("rename", "café notes", "cafe-notes").exit_code == 0
    assert cli("rename", "Brew Ratio", "brew-ratio").exit_code == 0
    assert cli_json("doctor")["warnings"] == []
    assert "warning:" not in cli("doctor").stdout


@pytest.mark.parametrize("command", ["show", "forget", "edit", "archive"])
def test_a_command_naming_one_says_how_to_rename_it_and_changes_nothing(
    brain: Brain, command: str
) -> None:
    result = cli(command, "café notes")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: memories/café notes.md is named by hand, not by a key; "
        "file it under a key with: brain rename 'café notes' cafe-notes\n"
    )
    assert (brain.path / "memories" / "café notes.md").read_text() == CAFE


def test_rename_makes_it_a_record_like_any_other(brain: Brain) -> None:
    result = cli("rename", "café notes", "cafe-notes")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "renamed café notes to cafe-notes (memories/cafe-notes.md)\n"
    assert not (brain.path / "memories" / "café notes.md").exists()
    assert git(brain.path, "log", "-1", "--format=%s").strip() == (
        "rename: cafe-notes (from café notes)"
    )
    shown = cli_json("show", "cafe-notes")["record"]
    assert shown["key"] == "cafe-notes" and shown["id"] == "20260101-000000000-cccccc"
    assert shown["created"] and shown["description"] == "Café notes"
    assert [h["key"] for h in cli_json("recall", "espresso descaling")] == ["cafe-notes"]
    assert status(brain.path) == '?? "memories/Brew Ratio.md"\n'
    assert cli("forget", "cafe-notes").exit_code == 0
    assert "cafe-notes" not in git(brain.path, "ls-tree", "-r", "--name-only", "HEAD")


def test_a_file_with_no_frontmatter_gets_an_id_and_a_type(brain: Brain) -> None:
    assert cli("rename", "Brew Ratio", "brew-ratio").exit_code == 0
    shown = cli_json("show", "brew-ratio")["record"]
    assert shown["type"] == "fact" and shown["body"].strip() == "Pour-over ratio is 1:16."
    assert shown["description"] == "Pour-over ratio is 1:16."
    assert "named by hand" in cli("status").stdout  # café notes still is
    assert cli("rename", "café notes", "cafe-notes").exit_code == 0
    assert "named by hand" not in cli("status").stdout
    assert status(brain.path) == ""


def test_an_archived_one_is_renamed_in_the_archive(brain: Brain) -> None:
    (brain.path / "memories" / "café notes.md").rename(brain.path / "archive" / "Old Café.md")
    assert "brain rename 'Old Café' old-cafe" in cli("status").stdout
    assert cli("rename", "Old Café", "old-cafe").exit_code == 0
    assert (brain.path / "archive" / "old-cafe.md").exists()
    assert cli_json("show", "old-cafe")["archived"] is True


def test_rename_refuses_a_taken_key_or_a_missing_name(brain: Brain) -> None:
    brain.remember("Deploys go out on Tuesdays.", key="cafe-notes")
    taken = cli("rename", "café notes", "cafe-notes")
    assert taken.exit_code == 1
    assert taken.stderr == "Error: a record 'cafe-notes' exists already; choose another key\n"
    # status then offers the next free key
    assert "brain rename 'café notes' cafe-notes-2" in cli("status").stdout
    missing = cli("rename", "no such notes", "no-such")
    assert missing.exit_code == 1 and "no record 'no such notes'" in missing.stderr
    bad = cli("rename", "café notes", "Not A Slug")
    assert bad.exit_code == 1 and "is not a slug" in bad.stderr
    assert (brain.path / "memories" / "café notes.md").read_text() == CAFE


def test_a_sync_leaves_one_uncommitted_and_says_how_to_rename_it(brain: Brain) -> None:
    (brain.path / "memories" / "by-hand.md").write_text("A hand-made record with a key.\n")
    done, unreadable = commit_hand_edits(brain)
    assert done.keys == ("by-hand",)
    assert (
        "memories/café notes.md is named by hand, not by a key; "
        "file it under a key with: brain rename 'café notes' cafe-notes"
    ) in unreadable
    assert "café" not in git(brain.path, "ls-tree", "-r", "--name-only", "HEAD")


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("café notes", "cafe-notes"),
        ("Brew Ratio", "brew-ratio"),
        ("Ünïcödé  ÄÖÜ (v2)", "unicode-aou-v2"),
        ("..hidden..", "hidden"),
        ("日本語", "note"),
        ("a..b", "a.b"),
    ],
)
def test_the_key_of_a_name(name: str, key: str) -> None:
    assert names.key_for(name) == key


@given(st.text(min_size=1, max_size=200))
def test_every_name_has_a_valid_key(name: str) -> None:
    assert validate_key(names.key_for(name)) == names.key_for(name)


def test_an_unreadable_file_named_by_hand_is_named_quoted_in_its_fix(
    brain: Brain, home: Path
) -> None:
    (home / "memories" / "café notes.md").write_text("---\nid: [bad\n---\nx\n")
    warned = [line for line in cli("list").stderr.splitlines() if "café notes" in line]
    assert len(warned) == 1
    assert warned[0].endswith(
        "fix it in a text editor (it is named by hand), then file it under a key: "
        "brain rename 'café notes' cafe-notes"
    )
    assert "brain edit café notes" not in warned[0]
