"""The memory home: layout, resolution, first commit, opening."""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.home import NotAHomeError
from brain.home.paths import resolve_home
from brain.models.options import BUILTIN_FINDS
from tests.helpers import cli, commit_count, git, status


def test_init_creates_the_layout_and_one_commit(home: Path) -> None:
    result = cli("init")
    assert result.exit_code == 0
    assert result.stdout.startswith(
        f"created a brain home in {home}\nlearning: builtin (offline rules): {BUILTIN_FINDS}; "
        "'brain setup TOOL "
        "--learn' (claude-code, codex or gemini) uses your agent's own login\nmodels you could use"
    )
    for name in ("brain.yaml", "journal.jsonl", ".gitignore", ".gitattributes"):
        assert (home / name).is_file(), name
    assert (home / "memories").is_dir() and (home / "archive").is_dir()
    assert ".brain/" in (home / ".gitignore").read_text()
    attrs = (home / ".gitattributes").read_text()
    assert "journal.jsonl merge=union" in attrs and "raw_memories.md merge=union" in attrs
    assert commit_count(home) == 1
    assert git(home, "log", "-1", "--format=%s").strip() == "init: new memory home"
    assert status(home) == ""


def test_home_directories_are_private(home: Path) -> None:
    cli("init")
    for sub in ("", "memories", "archive", ".brain"):
        mode = stat.S_IMODE((home / sub).stat().st_mode)
        assert mode == 0o700, (sub, oct(mode))


def test_init_twice_is_an_error_that_changes_nothing(home: Path) -> None:
    cli("init")
    result = cli("init")
    assert result.exit_code == 1
    assert result.stderr == f"Error: {home} is already a brain home\n"
    assert commit_count(home) == 1


def test_init_with_home_flag(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    assert cli("init", "--home", str(target)).exit_code == 0
    assert (target / "brain.yaml").exists()
    assert cli("--home", str(target), "remember", "x y z", "--key", "k").exit_code == 0


def test_command_on_missing_home_says_how_to_create_it(home: Path) -> None:
    result = cli("list")
    assert result.exit_code == 1
    assert result.stderr == f"Error: {home} is not a brain home; run 'brain init'\n"


def test_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BRAIN_HOME")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert resolve_home() == Path.home() / ".local/share/brain"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert resolve_home() == tmp_path / "xdg" / "brain"
    monkeypatch.setenv("BRAIN_HOME", str(tmp_path / "env"))
    assert resolve_home() == tmp_path / "env"
    assert resolve_home(str(tmp_path / "flag")) == tmp_path / "flag"


def test_open_refuses_a_plain_directory(tmp_path: Path) -> None:
    with pytest.raises(NotAHomeError):
        Brain.open(tmp_path)


def test_python_api_round_trip(home: Path) -> None:
    brain, result = Brain.init(home)
    assert len(result.commit) == 40
    written = brain.remember("Deploys go out on Tuesdays only.", key="deploy-day", type="decision")
    assert brain.show("deploy-day").record.id == written.id
    assert [r.key for r in Brain.open(home).list().records] == ["deploy-day"]


def test_a_machine_without_a_git_identity_still_remembers(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("[user]\n\tuseConfigOnly = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    assert cli("init").exit_code == 0
    result = cli("remember", "works without user.email", "--key", "no-identity")
    assert result.exit_code == 0, result.stderr
    assert git(home, "log", "-1", "--format=%an").strip() == "brain"


def test_an_environment_stripped_of_the_author_still_remembers(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Gemini CLI removes *AUTH* variables before starting MCP servers; the committer stays.
    monkeypatch.delenv("GIT_AUTHOR_NAME")
    monkeypatch.delenv("GIT_AUTHOR_EMAIL")
    monkeypatch.delenv("EMAIL", raising=False)
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("[user]\n\tuseConfigOnly = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    assert cli("init").exit_code == 0
    result = cli("remember", "works without an author", "--key", "no-author")
    assert result.exit_code == 0, result.stderr
    assert git(home, "log", "-1", "--format=%an|%cn").strip() == "brain|Brain Test"


def test_git_checks_out_the_home_as_brain_wrote_it_with_autocrlf_set(
    home: Path, tmp_path: Path
) -> None:
    # Git for Windows' installer sets core.autocrlf; git then writes CRLF on checkout.
    with (tmp_path / "gitconfig").open("a") as fh:
        fh.write("[core]\n\tautocrlf = true\n")
    Brain.init(home)
    Brain.open(home).remember("Deploys wait for the gate", key="deploy-gate")
    committed = subprocess.run(
        ["git", "-C", str(home), "show", "HEAD:journal.jsonl"], capture_output=True, check=True
    ).stdout
    (home / "journal.jsonl").unlink()
    (home / "memories" / "deploy-gate.md").unlink()
    git(home, "checkout", "HEAD", "--", "journal.jsonl", "memories/deploy-gate.md")
    assert (home / "journal.jsonl").read_bytes() == committed
    assert b"\r" not in (home / "memories" / "deploy-gate.md").read_bytes()
