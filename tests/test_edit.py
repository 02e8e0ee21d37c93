"""A person edits records: ``brain edit`` (with a real $EDITOR program), hand edits
taken by ``brain sync``, and records that cannot be read, which are never lost."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from tests.helpers import commit_count, git, run_brain, status

BROKEN = "---\nkey: notes\ntype: [fact\ndescription: half a list\n---\nThe staging box is slow\n"


def _editor(tmp_path: Path, script: str) -> dict[str, str]:
    """An environment whose $EDITOR is a shell script run on the file to edit."""
    path = tmp_path / "editor.sh"
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return {**os.environ, "EDITOR": str(path), "VISUAL": str(path)}


@pytest.fixture
def ready(home: Path) -> Path:
    assert run_brain("init").returncode == 0
    done = run_brain("remember", "Use pnpm, never npm, in the web repo", "--key", "pkg")
    assert done.returncode == 0, done.stderr
    return home


def test_edit_commits_once_and_describes_the_new_body(ready: Path, tmp_path: Path):
    before = commit_count(ready)
    env = _editor(tmp_path, "sed -i 's/never npm, in the web repo/never npm or yarn/' \"$1\"")
    done = run_brain("edit", "pkg", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("edited pkg (")
    assert commit_count(ready) == before + 1
    assert git(ready, "log", "-1", "--format=%s").strip() == "edit: pkg"
    text = (ready / "memories" / "pkg.md").read_text()
    assert "Use pnpm, never npm or yarn" in text
    assert "description: Use pnpm, never npm or yarn" in text  # derived: follows the body
    assert status(ready) == ""


def test_an_edit_that_does_not_parse_changes_nothing(ready: Path, tmp_path: Path):
    original = (ready / "memories" / "pkg.md").read_text()
    before = commit_count(ready)
    env = _editor(tmp_path, "sed -i 's/^type: fact/type: [fact/' \"$1\"")
    done = run_brain("edit", "pkg", env=env)
    assert done.returncode == 1
    assert re.search(r"memories/pkg\.md:\d+: invalid YAML frontmatter", done.stderr)
    assert (ready / "memories" / "pkg.md").read_text() == original
    assert commit_count(ready) == before


def test_a_hand_edit_is_named_with_brain_edit_and_taken_by_it(ready: Path, tmp_path: Path):
    path = ready / "memories" / "pkg.md"
    path.write_text(path.read_text() + "Also in the docs site.\n")
    refused = run_brain("remember", "Use bun", "--key", "pkg")
    assert refused.returncode == 1
    assert "'brain edit pkg' checks your edit and commits it" in refused.stderr
    assert "git" not in refused.stderr.split(";", 1)[1]
    taken = run_brain("edit", "pkg", env=_editor(tmp_path, "true"))
    assert taken.returncode == 0, taken.stderr
    assert "Also in the docs site." in git(ready, "show", "HEAD:memories/pkg.md")
    assert status(ready) == ""
    assert run_brain("remember", "Use bun", "--key", "pkg").returncode == 0


def test_discard_puts_back_the_committed_version(ready: Path):
    path = ready / "memories" / "pkg.md"
    committed = path.read_text()
    path.write_text(committed.replace("pnpm", "bun"))
    done = run_brain("edit", "pkg", "--discard")
    assert done.returncode == 0, done.stderr
    assert path.read_text() == committed
    assert status(ready) == ""


def test_a_hand_written_file_becomes_a_record(ready: Path, tmp_path: Path):
    (ready / "memories" / "my-note.md").write_text("Staging deploys need the VPN on\n")
    done = run_brain("edit", "my-note", env=_editor(tmp_path, "true"))
    assert done.returncode == 0, done.stderr
    shown = json.loads(run_brain("show", "my-note", "--json").stdout)
    assert shown["record"]["type"] == "fact"
    assert shown["record"]["description"] == "Staging deploys need the VPN on"


def test_sync_commits_hand_edits_and_reports_the_unreadable(ready: Path, tmp_path: Path):
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    assert run_brain("remote", "add", str(remote)).returncode == 0
    path = ready / "memories" / "pkg.md"
    path.write_text(path.read_text().replace("in the web repo", "in every repo"))
    (ready / "memories" / "notes.md").write_text(BROKEN)
    done = run_brain("sync")
    assert done.returncode == 0, done.stderr
    assert "committed hand edit of pkg" in done.stdout
    assert "not committed: memories/notes.md:5: invalid YAML frontmatter" in done.stdout
    assert "brain edit notes" in done.stdout
    assert "in every repo" in git(ready, "show", "HEAD:memories/pkg.md")
    assert "description: Use pnpm, never npm, in every repo" in path.read_text()
    assert status(ready) == "?? memories/notes.md\n"


def test_an_unreadable_record_is_counted_found_and_exported(ready: Path, tmp_path: Path):
    (ready / "memories" / "notes.md").write_text(BROKEN)
    git(ready, "add", "memories/notes.md")
    git(ready, "commit", "-qm", "a record written elsewhere")

    shown = run_brain("status")
    assert "2 records (1 unreadable)" in shown.stdout
    assert "memories/notes.md:5: invalid YAML frontmatter" in shown.stdout
    assert "fix it with 'brain edit notes'" in shown.stdout

    found = run_brain("recall", "staging box")
    assert "notes  [unreadable]  cannot be read: invalid YAML" in found.stdout

    exported = run_brain("export")
    assert exported.returncode == 0
    assert "exported as its raw text" in exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    raw = next(line for line in lines if line["key"] == "notes")
    assert raw["raw"] == BROKEN

    other = tmp_path / "other"
    env = {**os.environ, "BRAIN_HOME": str(other)}
    assert run_brain("init", env=env).returncode == 0
    backup = tmp_path / "backup.jsonl"
    backup.write_text(exported.stdout)
    assert run_brain("import", str(backup), env=env).returncode == 0
    assert (other / "memories" / "notes.md").read_text() == BROKEN
    again = run_brain("import", str(backup), env=env)
    assert again.returncode == 0
    assert git(other, "status", "--porcelain") == ""

    fixed = run_brain("edit", "notes", env=_editor(tmp_path, "sed -i 's/\\[fact/fact/' \"$1\""))
    assert fixed.returncode == 0, fixed.stderr
    assert "1 unreadable" not in run_brain("status").stdout
