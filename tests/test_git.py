"""The git runner and the repository's typed operations, on real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.home.git.repo import Repo
from brain.home.git.runner import RepoError, changed_between, dirty_paths, head_sha, run_git
from tests.helpers import git


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo.init(tmp_path / "repo")
    (repo.path / "memories" / "sub").mkdir(parents=True)
    (repo.path / "memories" / "a.md").write_bytes(b"first\n\nline without end")
    (repo.path / "memories" / "sub" / "b.md").write_bytes(b"\x00\xffbinary\n")
    (repo.path / "memories-old.md").write_text("not under memories/\n")
    repo.commit(["memories/a.md", "memories/sub/b.md", "memories-old.md"], "first")
    return repo


def test_a_failed_command_says_what_git_said(repo: Repo) -> None:
    with pytest.raises(RepoError) as caught:
        run_git(repo.path, "--no-optional-locks", "rev-parse", "--verify", "no-such-rev")
    error = caught.value
    assert error.command == (
        "git", "-C", str(repo.path), "--no-optional-locks", "rev-parse", "--verify", "no-such-rev"
    )  # fmt: skip
    assert error.returncode == 128
    assert error.stderr == "fatal: Needed a single revision\n"
    assert str(error) == "git rev-parse failed: fatal: Needed a single revision"


def test_an_exit_status_named_ok_is_an_answer(repo: Repo) -> None:
    out = run_git(repo.path, "rev-parse", "--verify", "-q", "no-such-rev", ok=(0, 1))
    assert (out.returncode, out.stdout) == (1, b"")
    assert changed_between(repo.path, "0" * 40, "HEAD") is None


def test_head_is_read_without_git_and_with_it(repo: Repo) -> None:
    sha = git(repo.path, "rev-parse", "HEAD").strip()
    assert head_sha(repo.path) == sha
    git(repo.path, "pack-refs", "--all")  # no loose ref left: packed-refs answers
    assert head_sha(repo.path) == sha
    assert head_sha(Repo.init(repo.path.parent / "empty").path) is None


def test_files_at_a_commit_are_read_byte_for_byte(repo: Repo) -> None:
    first = repo.head()
    assert first is not None
    (repo.path / "memories" / "a.md").write_text("changed\n")
    repo.commit(["memories/a.md"], "second")
    assert repo.files_at(first, "memories/") == {
        "memories/a.md": b"first\n\nline without end",
        "memories/sub/b.md": b"\x00\xffbinary\n",
    }
    assert repo.files_at(first, "memories-old.md") == {"memories-old.md": b"not under memories/\n"}
    assert repo.files_at(first, "archive") == {}
    assert repo.file_at_head("memories/a.md") == b"changed\n"
    assert repo.file_at_head("memories") is None  # a folder, not a file
    assert repo.file_at_head("missing.md") is None
    with pytest.raises(RepoError, match="^cannot read memories at nope: fatal: "):
        repo.files_at("nope", "memories")


def test_remotes_are_named_with_their_urls(repo: Repo, tmp_path: Path) -> None:
    assert repo.remotes() == {}
    repo.set_remote("origin", str(tmp_path / "one"))
    repo.set_remote("backup.usb", str(tmp_path / "two"))
    repo.set_remote("origin", str(tmp_path / "three"))
    assert repo.remotes() == {
        "origin": str(tmp_path / "three"),
        "backup.usb": str(tmp_path / "two"),
    }


def test_a_folder_that_is_not_a_repository_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RepoError, match="is not a git repository$"):
        Repo(tmp_path)


def test_a_failed_clone_names_the_url(tmp_path: Path) -> None:
    url = str(tmp_path / "nowhere")
    with pytest.raises(RepoError) as caught:
        Repo.clone(url, tmp_path / "copy")
    assert str(caught.value).startswith(f"git clone of {url} failed: fatal: repository ")
    assert caught.value.returncode == 128 and caught.value.command[1] == "clone"
    assert not (tmp_path / "copy").exists()


def test_a_file_touched_but_not_changed_is_not_an_edit(repo: Repo) -> None:
    import os

    index = repo.path / ".git" / "index"
    saved = index.read_bytes()
    later = os.stat(repo.path / "memories" / "a.md").st_mtime + 3600
    for name in ("memories/a.md", "memories/sub/b.md"):
        os.utime(repo.path / name, (later, later))  # a restore or a copy without its times
    assert git(repo.path, "diff-index", "--name-only", "HEAD").split() == [
        "memories/a.md",
        "memories/sub/b.md",
    ]  # what git's saved dates alone say

    assert dirty_paths(repo.path) == []
    (repo.path / "memories" / "a.md").write_text("edited by hand\n")
    assert dirty_paths(repo.path) == ["memories/a.md"]
    assert index.read_bytes() == saved  # a read never writes git's index


def test_the_log_keeps_only_commits_with_a_matching_line(repo: Repo) -> None:
    (repo.path / "memories" / "c.md").write_text("c\n")
    repo.commit(["memories/c.md"], "extract: 1 session\n\nRun: 20261130-abc")
    (repo.path / "memories" / "d.md").write_text("d\n")
    repo.commit(["memories/d.md"], "remember: d (Run: is not a trailer here)")

    runs = repo.log(grep="^Run: ")

    assert [c.message.splitlines()[0] for c in runs] == ["extract: 1 session"]
    assert runs[0].files == (("A", "memories/c.md"),)
    assert len(repo.log()) == 3
