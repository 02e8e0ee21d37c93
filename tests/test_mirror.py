"""Claude Code's memory files mirrored into the home: one commit, supersede on change,
archive on deletion."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.records import load
from brain.sessions.harvest import harvest
from brain.sessions.mirror import mirror_native, provenance
from tests.helpers import cli, cli_json, commit_count, git, status
from tests.test_harvest_trees import NOW, age, claude_line, user_home

LEGACY = """---
name: No fabricated results
description: Never report a test as passing without running it
type: feedback
---
Run the tests before saying they pass.
"""
CURRENT = """---
name: staging-deploy-window
description: Staging deploys only between 09:00 and 16:00 UTC
metadata:
  type: project
---
Deploys to staging are frozen outside 09:00-16:00 UTC.
"""
USER = "---\nname: role\ntype: user\n---\nThe user is a data engineer.\n"


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def memory_dir(project: str = "-src-app") -> Path:
    folder = user_home() / ".claude" / "projects" / project
    (folder / "memory").mkdir(parents=True)
    line = claude_line("hi", "u1").replace("/home/marco/projects/spotter", "/src/app")
    (folder / "s1.jsonl").write_text(line)
    age(folder / "s1.jsonl", timedelta(days=2))
    (folder / "memory" / "MEMORY.md").write_text("# index\n- [x](x.md)\n")
    (folder / "memory" / "feedback_no-fabrication.md").write_text(LEGACY)
    (folder / "memory" / "staging.md").write_text(CURRENT)
    (folder / "memory" / "user_role.md").write_text(USER)
    return folder / "memory"


def test_mirror_writes_typed_records_in_one_commit(brain: Brain, home: Path) -> None:
    memory_dir()
    result = mirror_native(brain, ["claude"])
    assert (result.found, result.added, result.superseded, result.unchanged) == (3, 3, 0, 0)
    assert commit_count(home) == 2
    assert git(home, "log", "-1", "--format=%s").strip() == "mirror: 3 memories (claude 3)"
    record = load(home / "memories" / "claude-app-no-fabricated-results.md")
    assert record.type == "instruction" and record.profile == "claude"
    assert record.tags == ("from:claude-memory", "project:app")
    assert record.description == "Never report a test as passing without running it"
    assert record.body == "Run the tests before saying they pass."
    assert record.source is not None and record.source.startswith("claude:memory:")
    assert record.source.endswith("feedback_no-fabrication.md")
    [(sha, origin)] = provenance(record)
    assert len(sha) == 64 and origin == record.source
    assert load(home / "memories" / "claude-app-staging-deploy-window.md").type == "fact"
    assert load(home / "memories" / "claude-app-role.md").type == "preference"
    assert status(home) == ""


def test_unchanged_files_do_nothing_and_an_edit_supersedes(brain: Brain, home: Path) -> None:
    folder = memory_dir()
    mirror_native(brain, ["claude"])
    old = load(home / "memories" / "claude-app-staging-deploy-window.md")
    again = mirror_native(brain, ["claude"])
    assert again.commit is None and again.unchanged == 3
    assert commit_count(home) == 2
    (folder / "staging.md").write_text(CURRENT.replace("16:00", "17:00"))
    changed = mirror_native(brain, ["claude"])
    assert (changed.added, changed.superseded, changed.keys) == (
        0,
        1,
        ("claude-app-staging-deploy-window",),
    )
    assert git(home, "log", "-1", "--format=%s").strip() == (
        "mirror: 1 memory (claude 1; 1 superseded)"
    )
    new = load(home / "memories" / "claude-app-staging-deploy-window.md")
    assert new.supersedes == (old.id,) and "17:00" in new.body
    assert "16:00 UTC." in git(home, "show", "HEAD~1:memories/claude-app-staging-deploy-window.md")


def test_same_name_in_two_projects_stays_apart(brain: Brain, home: Path) -> None:
    memory_dir("-src-app")
    other = memory_dir("-src-web")
    (other.parent / "s1.jsonl").unlink()  # no transcript: the slug's tail names it
    result = mirror_native(brain, ["claude"])
    assert result.added == 6
    assert (home / "memories" / "claude-web-role.md").exists()
    assert mirror_native(brain, ["claude"]).commit is None


def test_harvest_mirrors_in_its_own_single_commit(brain: Brain, home: Path) -> None:
    memory_dir()
    result = harvest(brain, sources=("claude",), now=NOW)
    assert result.mirror is not None and result.mirror.added == 3
    assert result.new == 1 and result.commit is not None
    assert commit_count(home) == 2
    assert git(home, "log", "-1", "--format=%s").strip() == (
        "harvest: 1 new session, 0 grown (claude 1); 3 memories mirrored (claude 3)"
    )
    touched = git(home, "show", "--name-only", "--format=", "HEAD").split()
    assert "memories/claude-app-role.md" in touched and "harvest/" in " ".join(touched)
    assert harvest(brain, sources=("claude",), now=NOW).commit is None


def test_mirror_command(brain: Brain, home: Path) -> None:
    memory_dir()
    out = cli_json("mirror")
    assert out["added"] == 3 and out["commit"]
    assert cli("mirror").stdout == (
        "native memory: 3 found, 0 added, 0 updated, 0 merged, 0 archived, 3 unchanged\n"
    )


def test_a_deleted_file_archives_its_record(brain: Brain, home: Path) -> None:
    folder = memory_dir()
    mirror_native(brain, ["claude"])
    (folder / "user_role.md").unlink()
    gone = mirror_native(brain, ["claude"])
    assert (gone.archived, gone.keys, gone.unchanged) == (1, ("claude-app-role",), 2)
    subject = git(home, "log", "-1", "--format=%s").strip()
    assert subject == "mirror: 1 memory (claude 1; 1 archived)"
    assert not (home / "memories" / "claude-app-role.md").exists()
    archived = load(home / "archive" / "claude-app-role.md")
    assert archived.extra["archive_reason"] == "gone from claude's own memory"
    assert mirror_native(brain, ["claude"]).commit is None
    (folder / "user_role.md").write_text(USER)  # written again: the record comes back
    back = mirror_native(brain, ["claude"])
    assert back.added == 1 and (home / "memories" / "claude-app-role.md").exists()
    assert not (home / "archive" / "claude-app-role.md").exists()


def test_a_record_mirrored_before_provenance_lines_is_still_known(brain: Brain, home: Path) -> None:
    folder = memory_dir()
    mirror_native(brain, ["claude"])
    path = home / "memories" / "claude-app-role.md"
    record = load(path)
    [(sha, origin)] = provenance(record)
    legacy = (
        path.read_text()
        .replace(f"mirror:\n- {sha} {origin}\n", "")
        .replace(f"mirror: ['{sha} {origin}']\n", "")
    )
    legacy = legacy.replace("---\nThe user", f"mirror_sha256: {sha}\n---\nThe user")
    path.write_text(legacy)
    git(home, "commit", "-qam", "an older mirror's record")
    assert provenance(load(path)) == [(sha, origin)]
    assert mirror_native(brain, ["claude"]).commit is None
    (folder / "user_role.md").write_text(USER.replace("data", "platform"))
    assert mirror_native(brain, ["claude"]).superseded == 1
    assert "mirror_sha256" not in load(path).extra
