"""Finding an agent CLI on PATH answers as shutil.which does."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from brain.models.options import on_path


@pytest.fixture
def path_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folders = [tmp_path / "first", tmp_path / "second"]
    for folder in folders:
        folder.mkdir()
    monkeypatch.setenv("PATH", os.pathsep.join(str(f) for f in folders))
    return tmp_path


def test_it_answers_as_shutil_which(path_dir: Path) -> None:
    (path_dir / "first" / "claude").write_text("not executable")
    (path_dir / "second" / "claude").write_text("#!/bin/sh\n")
    (path_dir / "second" / "claude").chmod(0o755)
    (path_dir / "first" / "codex").mkdir()  # a folder is not a program
    (path_dir / "second" / "gemini").write_text("#!/bin/sh\n")
    (path_dir / "second" / "gemini").chmod(0o755)
    absolute = str(path_dir / "second" / "gemini")
    for program in ("claude", "codex", "gemini", "nosuch", absolute):
        assert on_path(program) == shutil.which(program), program
    assert on_path("claude") == str(path_dir / "second" / "claude")
