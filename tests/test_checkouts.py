"""The questions brain asks of a project's checkout, on real git repositories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from brain.home.git import runner
from brain.home.git.checkouts import object_ids
from tests.helpers import git


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    top = tmp_path / "web"
    (top / "src").mkdir(parents=True)
    (top / "src" / "pay.py").write_text("RETRIES = 6\n")
    git(top, "init", "-q")
    git(top, "add", ".")
    git(top, "commit", "-qm", "A")
    return top


def test_object_ids_answers_each_name_and_none_where_there_is_none(checkout: Path) -> None:
    head = git(checkout, "rev-parse", "HEAD").strip()
    blob = git(checkout, "rev-parse", "HEAD:src/pay.py").strip()
    names = ["HEAD", f"{head}:src/pay.py", "HEAD:src/gone.py", "0" * 40, "no-such-branch"]
    assert object_ids(checkout, names) == [head, blob, None, None, None]
    assert object_ids(checkout, []) == []


def test_a_question_too_large_for_a_pipe_gets_the_same_answers(checkout: Path) -> None:
    blob = git(checkout, "rev-parse", "HEAD:src/pay.py").strip()
    many = ["HEAD:src/pay.py" if n % 2 else f"HEAD:src/missing-{n}.py" for n in range(2001)]
    assert len("".join(f"{n}\n" for n in many)) > runner._PIPE_SAFE  # run_git's way
    found = object_ids(checkout, many)
    assert found == [blob if n % 2 else None for n in range(2001)]
    few = many[:100]
    assert len("".join(f"{n}\n" for n in few)) <= runner._PIPE_SAFE  # spawned
    assert object_ids(checkout, few) == found[:100]


def test_no_answer_outside_a_repository_or_without_git(
    tmp_path: Path, checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert object_ids(plain, ["HEAD"]) is None
    opened = len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else None
    monkeypatch.setenv("PATH", str(tmp_path / "no-such-bin"))
    assert object_ids(checkout, ["HEAD"]) is None
    assert object_ids(checkout, ["HEAD"] * 3000) is None  # run_git's way, the same answer
    if opened is not None:  # the pipes of a git that never started are closed
        assert len(os.listdir("/proc/self/fd")) == opened
