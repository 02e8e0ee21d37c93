"""brain killed together with its git children: what git leaves, put right by the next
command with no person (the random loops are in benchmarks/crash.py).

Each test makes the leftovers of one kill with real git in a real home: a stale
``index.lock`` in the middle of a merge, a record staged by a writer that died before
its commit, a fast-forward cut off while it wrote the files, a fetch's ref lock.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import cli, cli_json, git, status


def _note(home: Path, kind: str, *paths: str, upstream: str = "") -> None:
    """The note a writer keeps in .brain/pending (see brain.home.pending)."""
    head = git(home, "rev-parse", "HEAD").strip()
    header = {"head": head, "pid": 1, "kind": kind, **({"upstream": upstream} if upstream else {})}
    text = json.dumps(header) + "\n" + "".join(f"{p}\n" for p in paths)
    (home / ".brain" / "pending").write_text(text)


def _stale(lock: Path) -> Path:
    """A git lock whose git died: empty, and older than any git running now."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    old = time.time() - 60
    os.utime(lock, (old, old))
    return lock


@pytest.fixture
def machines(tmp_path: Path, home: Path) -> tuple[Path, Path]:
    """This home and another machine's, both synced with one bare remote; the other
    has pushed a record this one has not merged, and this one has one of its own."""
    Brain.init(home)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--bare", "-q", str(remote))
    assert cli("remote", "add", str(remote)).exit_code == 0
    assert cli("sync").exit_code == 0
    other = tmp_path / "other"
    assert cli("--home", str(other), "clone", str(remote)).exit_code == 0
    assert (
        cli("--home", str(other), "remember", "Deploys on Tuesdays.", "--key", "b1").exit_code == 0
    )
    assert cli("--home", str(other), "sync").exit_code == 0
    assert cli("remember", "Use pnpm in the frontend.", "--key", "a1").exit_code == 0
    git(home, "fetch", "-q", "origin")
    return home, other


def _synced(home: Path) -> None:
    """A sync now merges both machines' records and pushes; the home is clean."""
    result = cli("sync")
    assert result.exit_code == 0, result.stderr
    tree = git(home, "ls-tree", "-r", "--name-only", "HEAD", "memories/").split()
    assert {"memories/a1.md", "memories/b1.md"} <= set(tree)
    assert (
        git(home, "ls-remote", "origin", "refs/heads/main").split()[0]
        == git(home, "rev-parse", "HEAD").strip()
    )
    assert status(home) == ""


def test_a_stale_index_lock_in_the_middle_of_a_merge_is_cleared_before_the_abort(
    machines: tuple[Path, Path],
) -> None:
    home, _ = machines
    before = git(home, "rev-parse", "HEAD").strip()
    # Killed while git's merge wrote its index: MERGE_HEAD is there, and so is the lock.
    subprocess.run(["git", "-C", str(home), "merge", "--no-commit", "origin/main"], check=True)
    _note(home, "merge", upstream=git(home, "rev-parse", "origin/main").strip())
    _stale(home / ".git" / "index.lock")
    listed = cli_json("list")  # a read is the next command
    assert [r["key"] for r in listed] == ["a1"]
    assert not (home / ".git" / "MERGE_HEAD").exists()
    assert not (home / ".git" / "index.lock").exists()
    assert git(home, "rev-parse", "HEAD").strip() == before and status(home) == ""
    _synced(home)


def test_a_write_after_the_same_leftovers_recovers_too(machines: tuple[Path, Path]) -> None:
    home, _ = machines
    subprocess.run(["git", "-C", str(home), "merge", "--no-commit", "origin/main"], check=True)
    _note(home, "merge", upstream=git(home, "rev-parse", "origin/main").strip())
    _stale(home / ".git" / "index.lock")
    assert cli("remember", "Use uv for Python.", "--key", "a2").exit_code == 0
    assert status(home) == "" and not (home / ".git" / "MERGE_HEAD").exists()
    _synced(home)


def test_a_fast_forward_cut_off_while_writing_files_is_put_back(
    tmp_path: Path, machines: tuple[Path, Path]
) -> None:
    home, _ = machines
    git(home, "reset", "-q", "--hard", "HEAD~1")  # no record of its own: a fast-forward
    upstream = git(home, "rev-parse", "origin/main").strip()
    # git's checkout wrote part of the other side's files, staged one, and died before
    # moving the branch (and before the views were rendered again).
    (home / "memories" / "b1.md").write_bytes(
        subprocess.run(
            ["git", "-C", str(home), "show", "origin/main:memories/b1.md"],
            capture_output=True,
            check=True,
        ).stdout
    )
    git(home, "update-index", "--add", "memories/b1.md")
    (home / "journal.jsonl").write_text(git(home, "show", "origin/main:journal.jsonl"))
    (home / "MEMORY.md").write_text("half rendered\n")
    _note(home, "merge", upstream=upstream)
    _stale(home / ".git" / "index.lock")
    assert cli("list").exit_code == 0
    assert status(home) == "" and not (home / "memories" / "b1.md").exists()
    result = cli("sync")
    assert result.exit_code == 0, result.stderr
    assert (home / "memories" / "b1.md").exists() and status(home) == ""


def test_a_hand_edit_beside_a_killed_merge_is_left_alone(machines: tuple[Path, Path]) -> None:
    home, _ = machines
    subprocess.run(["git", "-C", str(home), "merge", "--no-commit", "origin/main"], check=True)
    _note(home, "merge", upstream=git(home, "rev-parse", "origin/main").strip())
    (home / "notes.txt").write_text("mine\n")  # not a path the merge writes
    assert cli("list").exit_code == 0
    assert (home / "notes.txt").read_text() == "mine\n"
    assert status(home) == "?? notes.txt\n"


def test_a_merge_git_cannot_abort_is_ended_and_its_files_put_back(
    machines: tuple[Path, Path],
) -> None:
    home, _ = machines
    subprocess.run(["git", "-C", str(home), "merge", "--no-commit", "origin/main"], check=True)
    # A record of the merge staged one way and rewritten on disk another: git's
    # 'merge --abort' refuses ("not uptodate. Cannot merge").
    (home / "memories" / "b1.md").write_text("rewritten mid-merge\n")
    aborted = subprocess.run(
        ["git", "-C", str(home), "merge", "--abort"], capture_output=True, text=True
    )
    assert aborted.returncode != 0 and (home / ".git" / "MERGE_HEAD").exists()
    _note(home, "merge", upstream=git(home, "rev-parse", "origin/main").strip())
    assert cli("list").exit_code == 0
    assert not (home / ".git" / "MERGE_HEAD").exists() and status(home) == ""
    _synced(home)


def test_a_phantom_staged_record_is_unstaged_before_its_file_goes(home: Path) -> None:
    Brain.init(home)
    assert cli("remember", "kept fact", "--key", "kept").exit_code == 0
    # A remember killed after git staged its record and before the commit, with the
    # index.lock of its git child (killed with it) left behind.
    (home / "memories" / "k85.md").write_text("---\nid: x\ntype: fact\n---\nfact 85\n")
    _note(home, "write", "memories/k85.md")
    git(home, "update-index", "--add", "memories/k85.md")
    _stale(home / ".git" / "index.lock")
    assert [r["key"] for r in cli_json("list")] == ["kept"]
    assert status(home) == ""  # not 'AD memories/k85.md'
    assert not (home / ".git" / "index.lock").exists()
    assert cli("remember", "fact 85", "--key", "k85").exit_code == 0
    assert status(home) == ""


@pytest.mark.parametrize(
    "lock",
    [
        "refs/remotes/origin/main.lock",  # a fetch killed while it moved origin/main
        "packed-refs.lock",
        "config.lock",
        "refs/heads/main.lock",
    ],
)
def test_a_killed_git_commands_ref_or_config_lock_is_cleared(
    machines: tuple[Path, Path], lock: str
) -> None:
    home, _ = machines
    _note(home, "merge")
    _stale(home / ".git" / lock)
    _synced(home)
    assert not (home / ".git" / lock).exists()


def test_a_live_git_keeps_its_lock_while_a_read_recovers(home: Path) -> None:
    Brain.init(home)
    (home / "notes.txt").write_text("first\n")
    git(home, "add", "notes.txt")
    git(home, "commit", "-qm", "notes")
    (home / "notes.txt").write_text("second\n")
    (home / "memories" / "k1.md").write_text("---\nid: x\ntype: fact\n---\nleft over\n")
    _note(home, "write", "memories/k1.md")
    # The person's commit holds .git/index.lock while its editor is open (a shell
    # starts it, so that the git is not this process's child).
    env = {**os.environ, "GIT_EDITOR": "sleep 2; echo 'hand commit' >"}
    person = subprocess.Popen(["sh", "-c", 'git -C "$0" commit -qa; exit $?', str(home)], env=env)
    deadline = time.monotonic() + 10
    while not (home / ".git" / "index.lock").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert cli("list").exit_code == 0
    assert person.wait(timeout=30) == 0
    assert "hand commit" in git(home, "log", "--format=%s").split("\n")
    assert cli("list").exit_code == 0  # the note, if the lock made it wait, goes now
    assert not (home / "memories" / "k1.md").exists() and status(home) == ""
