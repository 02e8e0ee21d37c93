"""What people expect of a git-like command line: help on a bare call, "did you mean",
words without quotes, keys in any case, a record's own log and history, a forget
undone from history, one file mode for what brain and git write."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli, git, run_brain


@pytest.fixture
def ready(home: Path) -> Path:
    assert cli("init").exit_code == 0
    assert cli("remember", "Use pnpm, never npm", "--key", "pkg").exit_code == 0
    assert (
        cli("remember", "Deploys go through fly", "--key", "deploy", "--tag", "project:web")
    ).exit_code == 0
    assert (
        cli("remember", "The api uses uvicorn", "--key", "api-server", "--tag", "project:api")
    ).exit_code == 0
    return home


def test_bare_brain_prints_help_and_succeeds():
    done = run_brain()
    assert done.returncode == 0
    assert "Commands:" in done.stdout and "recall" in done.stdout


def test_a_mistyped_command_is_answered_with_the_near_ones():
    done = run_brain("recal", "pnpm")
    assert done.returncode == 2
    assert "No such command 'recal'. Did you mean 'recall'" in done.stderr


def test_remember_takes_several_words_like_recall(ready: Path):
    done = cli("remember", "use", "uv", "not", "pip", "--key", "uv")
    assert done.exit_code == 0, done.stderr
    assert cli_json_show("uv")["body"].strip() == "use uv not pip"


def cli_json_show(key: str) -> dict[str, object]:
    result = cli("show", key, "--json")
    assert result.exit_code == 0, result.stderr
    record: dict[str, object] = json.loads(result.stdout)["record"]
    return record


def test_keys_are_found_in_any_case(ready: Path):
    assert cli_json_show("PKG")["key"] == "pkg"
    assert cli("archive", "Deploy").exit_code == 0
    assert (ready / "archive" / "deploy.md").exists()


def test_list_takes_a_count_and_a_project(ready: Path):
    assert len(cli("list", "-n", "1").stdout.splitlines()) == 1
    shown = cli("list", "--project", "web").stdout
    assert "pkg" in shown and "deploy" in shown and "api-server" not in shown


def test_a_records_log_and_history(ready: Path):
    cli("remember", "Use pnpm 9, never npm", "--key", "pkg")
    log = cli("log", "pkg").stdout.splitlines()
    assert len(log) == 2 and all("pkg" in line for line in log)
    assert "deploy" not in "\n".join(log)
    history = cli("show", "pkg", "--history").stdout
    assert "-Use pnpm, never npm" in history and "+Use pnpm 9, never npm" in history
    assert cli("log", "never-written").stdout == "no commit changed never-written\n"


def test_a_forget_is_undone_from_history(ready: Path):
    before = (ready / "memories" / "pkg.md").read_text()
    assert cli("forget", "pkg").exit_code == 0
    done = cli("restore", "pkg")
    assert done.exit_code == 0, done.stderr
    assert (ready / "memories" / "pkg.md").read_text() == before
    subject = git(ready, "log", "-1", "--format=%s").strip()
    assert subject.startswith("restore: pkg (forgotten in ")
    missing = cli("restore", "never-written")
    assert missing.exit_code == 1
    assert "no record 'never-written' in memory, in the archive or in its history" in (
        missing.stderr
    )


def test_a_record_forgotten_from_the_archive_is_restored_into_memory(ready: Path):
    before = (ready / "memories" / "pkg.md").read_text()
    assert cli("archive", "pkg").exit_code == 0
    assert cli("forget", "pkg").exit_code == 0
    done = cli("restore", "pkg")
    assert done.exit_code == 0, done.stderr
    assert (ready / "memories" / "pkg.md").read_text() == before
    assert not (ready / "archive" / "pkg.md").exists()


def test_import_says_one_record(ready: Path, tmp_path: Path):
    line = json.dumps({"key": "one", "body": "just one"})
    path = tmp_path / "one.jsonl"
    path.write_text(line + "\n")
    assert cli("import", str(path)).stdout.startswith("imported 1 record")


def test_files_brain_writes_have_the_mode_git_gives_a_pull(ready: Path, tmp_path: Path):
    mine = stat.S_IMODE((ready / "memories" / "pkg.md").stat().st_mode)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ready), str(clone)], check=True)
    pulled = stat.S_IMODE((clone / "memories" / "pkg.md").stat().st_mode)
    assert mine == pulled
    umask = os.umask(0)
    os.umask(umask)
    assert mine == 0o666 & ~umask


def test_restore_says_it_brings_back_forgotten_records_too() -> None:
    shown = cli("restore", "--help").stdout
    assert "archived, or forgotten" in " ".join(shown.split())
