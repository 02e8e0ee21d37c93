"""push, pull and clone between two homes through a bare remote."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import cli, cli_json, git, status


@pytest.fixture
def machines(tmp_path: Path) -> tuple[Path, Path, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(remote)], check=True)
    a, b = tmp_path / "a", tmp_path / "b"
    Brain.init(a)
    assert cli("--home", str(a), "remember", "first fact", "--key", "first").exit_code == 0
    assert cli("--home", str(a), "remote", "add", str(remote)).exit_code == 0
    assert cli("--home", str(a), "push").exit_code == 0
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    return remote, a, b


def test_clone_reproduces_the_home(machines: tuple[Path, Path, Path]) -> None:
    _, a, b = machines
    assert (b / "memories" / "first.md").read_text() == (a / "memories" / "first.md").read_text()
    assert cli_json("--home", str(b), "show", "first")["record"]["body"] == "first fact"
    assert (b / ".brain").is_dir()


def test_pull_merges_and_unions_the_journal(machines: tuple[Path, Path, Path]) -> None:
    _, a, b = machines
    cli("--home", str(a), "remember", "from a", "--key", "from-a")
    cli("--home", str(a), "push")
    cli("--home", str(b), "remember", "from b", "--key", "from-b")
    result = cli("--home", str(b), "pull")
    assert result.exit_code == 0, result.stderr
    keys = {r["key"] for r in cli_json("--home", str(b), "list")}
    assert keys == {"first", "from-a", "from-b"}
    journal = (b / "journal.jsonl").read_text()
    assert '"key": "from-a"' in journal and '"key": "from-b"' in journal
    assert "<<<<<<<" not in journal
    assert status(b) == ""
    assert cli("--home", str(b), "push").exit_code == 0
    assert cli("--home", str(a), "pull").exit_code == 0
    assert {r["key"] for r in cli_json("--home", str(a), "list")} == keys


def test_same_key_on_both_sides_settles_to_the_newer(machines: tuple[Path, Path, Path]) -> None:
    _, a, b = machines
    cli("--home", str(a), "remember", "A's version", "--key", "first")
    cli("--home", str(a), "push")
    cli("--home", str(b), "remember", "B's version", "--key", "first")
    older = cli_json("--home", str(a), "show", "first")["record"]["id"]
    result = cli("--home", str(b), "pull")
    assert result.exit_code == 0, result.stderr
    assert "memories/first.md: kept" in result.stdout
    record = cli_json("--home", str(b), "show", "first")["record"]
    assert record["body"] == "B's version"
    assert older in record["supersedes"]
    assert status(b) == ""
    assert not (b / ".git" / "MERGE_HEAD").exists()


def test_push_without_remote_says_what_to_do(home: Path) -> None:
    Brain.init(home)
    result = cli("push")
    assert result.exit_code == 1
    assert result.stderr == "Error: no remote 'origin'; add one with 'brain remote add URL'\n"


def test_clone_from_a_remote_whose_default_branch_is_not_main(tmp_path: Path) -> None:
    remote = tmp_path / "old-style.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "master", str(remote)], check=True)
    a = tmp_path / "a"
    Brain.init(a)
    cli("--home", str(a), "remember", "kept", "--key", "kept")
    cli("--home", str(a), "remote", "add", str(remote))
    assert cli("--home", str(a), "push").exit_code == 0
    result = cli("clone", str(remote), "--home", str(tmp_path / "b"))
    assert result.exit_code == 0, result.stderr
    assert cli_json("--home", str(tmp_path / "b"), "show", "kept")["record"]["body"] == "kept"


def test_a_pull_commits_a_hand_edit_before_it_merges(machines: tuple[Path, Path, Path]) -> None:
    _, a, b = machines
    cli("--home", str(a), "remember", "A's version", "--key", "first")
    cli("--home", str(a), "push")
    record = b / "memories" / "first.md"
    record.write_text(record.read_text() + "\nA hand note.\n")  # not committed
    result = cli("--home", str(b), "pull")
    assert result.exit_code == 0, result.stderr
    assert "committed hand edit of first" in result.stdout
    # The hand edit is the later write of the key, so it stays live after the merge.
    assert "A hand note." in record.read_text()
    assert git(b, "status", "--porcelain") == ""
    assert "hand edit: first" in git(b, "log", "--format=%s")


def test_archive_and_restore_never_overwrite_the_other_copy(home: Path) -> None:
    brain, _ = Brain.init(home)
    brain.remember("Deploys need two approvals.", key="deploy-rule")
    live = (home / "memories" / "deploy-rule.md").read_text()
    # What a pull of two machines can leave: the key live here, archived there.
    (home / "archive").mkdir(exist_ok=True)
    (home / "archive" / "deploy-rule.md").write_text(live.replace("two", "three"))
    git(home, "add", "archive")
    git(home, "commit", "-qm", "merged from another machine")
    for verb, first, second in (
        ("restore", "archive", "memories"),
        ("archive", "memories", "archive"),
    ):
        result = cli(verb, "deploy-rule")
        assert result.exit_code == 1
        assert f"{first}/deploy-rule.md and {second}/deploy-rule.md both exist" in result.stderr
    assert (home / "memories" / "deploy-rule.md").read_text() == live
