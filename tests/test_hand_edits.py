"""The home is a git repository the person may also work in: brain never takes, loses or
commits over what they did there."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import cli, git


@pytest.fixture
def brain(home: Path) -> Brain:
    brain, _ = Brain.init(home)
    brain.remember("Deploys go out on Tuesdays.", key="deploy-day")
    brain.remember("Use pnpm in the frontend.", key="pkg-manager")
    return brain


def test_what_the_person_staged_stays_staged_and_out_of_brains_commit(
    brain: Brain, home: Path
) -> None:
    record = home / "memories" / "pkg-manager.md"
    record.write_text(record.read_text().replace("pnpm", "bun"))
    git(home, "add", "memories/pkg-manager.md")
    brain.remember("The staging port is 8443.", key="staging-port")
    assert git(home, "show", "--name-only", "--format=", "HEAD").split() == [
        "journal.jsonl",
        "memories/staging-port.md",
    ]
    assert git(home, "status", "--porcelain") == "M  memories/pkg-manager.md\n"
    assert "bun" in git(home, "diff", "--cached")
    brain.remember("The production port is 443.", key="production-port")  # and again
    assert "pkg-manager" not in git(home, "show", "--name-only", "--format=", "HEAD")
    assert git(home, "status", "--porcelain") == "M  memories/pkg-manager.md\n"


@pytest.mark.parametrize(
    "command",
    [
        ["remember", "Deploys go out on Fridays.", "--key", "deploy-day"],
        ["forget", "deploy-day"],
        ["archive", "deploy-day"],
    ],
)
def test_a_record_edited_by_hand_is_not_overwritten(home: Path, brain: Brain, command) -> None:
    record = home / "memories" / "deploy-day.md"
    edited = record.read_text() + "\nImportant hand note.\n"
    record.write_text(edited)
    head = git(home, "rev-parse", "HEAD")
    result = cli(*command)
    assert result.exit_code == 1
    assert "memories/deploy-day.md has changes that are not committed" in result.stderr
    assert "'brain edit deploy-day --discard' puts back the committed version" in result.stderr
    assert record.read_text() == edited
    assert git(home, "rev-parse", "HEAD") == head
    git(home, "commit", "-qam", "hand edit")
    assert cli(*command).exit_code == 0  # once committed, the write goes ahead


def test_a_record_written_by_hand_and_never_committed_is_not_deleted(
    home: Path, brain: Brain
) -> None:
    record = (home / "memories" / "deploy-day.md").read_text()
    (home / "memories" / "by-hand.md").write_text(record.replace("deploy-day", "by-hand"))
    result = cli("forget", "by-hand")
    assert result.exit_code == 1
    assert "memories/by-hand.md is not in the memory's history yet" in result.stderr
    assert (home / "memories" / "by-hand.md").exists()


@pytest.mark.parametrize("state", ["detached", "branch", "merge"])
def test_no_write_off_the_branch_or_in_a_merge(home: Path, brain: Brain, state: str) -> None:
    if state == "detached":
        git(home, "checkout", "-q", "--detach")
        expected = "the home is on a detached HEAD, not main"
    elif state == "branch":
        git(home, "checkout", "-q", "-b", "scratch")
        expected = "the home is on branch scratch, not main"
    else:
        git(home, "checkout", "-q", "-b", "side")
        (home / "notes.txt").write_text("side\n")
        git(home, "add", "notes.txt")
        git(home, "commit", "-qm", "side")
        git(home, "checkout", "-q", "main")
        git(home, "merge", "-q", "--no-ff", "--no-commit", "side")
        expected = "a git merge is in progress"
    head = git(home, "rev-parse", "HEAD")
    result = cli("remember", "Something new.", "--key", "something-new")
    assert result.exit_code == 1
    assert expected in result.stderr
    assert git(home, "rev-parse", "HEAD") == head
    assert not (home / "memories" / "something-new.md").exists()


def test_control_characters_in_a_reason_never_break_the_log(home: Path, brain: Brain) -> None:
    assert cli("archive", "deploy-day", "--reason", "old\x1estuff\x1fhere").exit_code == 0
    log = cli("log")
    assert log.exit_code == 0
    assert "archive: deploy-day (old stuff here)" in log.stdout


def test_work_a_soft_reset_left_staged_stays_out_of_brains_commit(home: Path, brain: Brain) -> None:
    (home / "notes.txt").write_text("notes\n")
    git(home, "add", "notes.txt")
    git(home, "commit", "-qm", "notes")
    brain.remember("The staging port is 8443.", key="staging-port")
    git(home, "reset", "-q", "--soft", "HEAD~2")  # git's index file untouched, HEAD moved
    brain.remember("The production port is 443.", key="production-port")
    assert git(home, "show", "--name-only", "--format=", "HEAD").split() == [
        "journal.jsonl",
        "memories/production-port.md",
    ]
    assert "notes.txt" in git(home, "diff", "--cached", "--name-only")


def test_a_run_stopped_part_way_leaves_nothing_of_its_own_behind(home: Path, brain: Brain) -> None:
    from brain.home.checks import HandEditError
    from brain.home.records import Record

    record = home / "memories" / "pkg-manager.md"
    record.write_text(record.read_text() + "\nA hand note.\n")
    new = Record(
        id="20261130-000000000-aaaaaa", key="aaa-new", type="fact", description="x", body="x"
    )
    changed = Record(
        id="20261130-000000001-bbbbbb", key="pkg-manager", type="fact", description="y", body="y"
    )
    with pytest.raises(HandEditError), brain.transaction() as tx:
        tx.stage(new)  # written, then the run stops on the next record
        tx.stage(changed)
    assert not (home / "memories" / "aaa-new.md").exists()
    assert git(home, "status", "--porcelain") == " M memories/pkg-manager.md\n"
    assert "A hand note." in record.read_text()
    assert brain.remember("A new fact after all.", key="aaa-new").key == "aaa-new"


@pytest.mark.parametrize("command", [["forget", "pkg-manager"], ["archive", "pkg-manager"]])
def test_a_record_taken_out_leaves_the_views_at_once(home: Path, brain: Brain, command) -> None:
    from brain.pipeline.views import regenerate_views

    paths = regenerate_views(brain)  # as a consolidation leaves them
    with brain.transaction() as tx:
        tx.commit(paths, "consolidate: views", "consolidate")
    assert "pnpm" in (home / "MEMORY.md").read_text()
    assert cli(*command).exit_code == 0
    assert "pnpm" not in (home / "MEMORY.md").read_text()
    assert "pnpm" not in (home / "memory_summary.md").read_text()
    assert "pnpm" not in cli("context").stdout
    assert git(home, "status", "--porcelain") == ""
