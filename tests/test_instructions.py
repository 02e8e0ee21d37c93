"""brain sync-instructions: only the managed block changes, byte for byte."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from brain.agents.instructions import BEGIN, END, NOTE
from brain.api import Brain
from tests.helpers import cli


@pytest.fixture
def brain(home: Path) -> Brain:
    brain = Brain.init(home)[0]
    brain.remember("Deploys go through the staging gate first.", key="deploy-gate")
    return brain


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "proj"
    path.mkdir()
    return path


ALL = ("--files", "CLAUDE.md,AGENTS.md,GEMINI.md")


def sync(project: Path, *extra: str) -> list[dict]:
    named = extra if "--files" in extra else (*ALL, *extra)
    result = cli("sync-instructions", "--project", str(project), *named, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["files"]


def outside(raw: bytes) -> tuple[bytes, bytes]:
    """The bytes before and after the managed block."""
    start = raw.index(BEGIN.encode())
    end = raw.index(END.encode()) + len(END)
    return raw[:start], raw[end:]


def test_creates_each_file_with_a_marked_block(brain: Brain, project: Path) -> None:
    files = sync(project)
    assert [(Path(f["path"]).name, f["action"]) for f in files] == [
        ("CLAUDE.md", "created"),
        ("AGENTS.md", "created"),
        ("GEMINI.md", "created"),
    ]
    text = (project / "AGENTS.md").read_text()
    assert text.startswith(f"{BEGIN}\n{NOTE}\n<brain-memory>\n")
    assert text.endswith(f"</brain-memory>\n{END}\n")
    assert "- deploy-gate: Deploys go through the staging gate first." in text


def test_user_text_around_the_block_is_kept_byte_for_byte(brain: Brain, project: Path) -> None:
    path = project / "CLAUDE.md"
    user = b"# Project rules\n\nUse tabs.\n"
    path.write_bytes(user)
    sync(project, "--files", "CLAUDE.md")
    first = path.read_bytes()
    assert first.startswith(user + b"\n" + BEGIN.encode())
    # The user adds text after the block; memory changes; the block is rewritten.
    path.write_bytes(first + b"\n## After the block\nMore rules.\n")
    before, after = outside(path.read_bytes())
    brain.remember("Invoices are immutable once sent.", key="invoices")
    assert sync(project, "--files", "CLAUDE.md")[0]["action"] == "updated"
    raw = path.read_bytes()
    assert outside(raw) == (before, after)
    assert b"- invoices: Invoices are immutable once sent." in raw


def test_crlf_file_keeps_crlf_everywhere(brain: Brain, project: Path) -> None:
    path = project / "AGENTS.md"
    user = b"# Rules\r\n\r\nBe brief.\r\n"
    path.write_bytes(user)
    sync(project, "--files", "AGENTS.md")
    raw = path.read_bytes()
    assert raw.startswith(user + b"\r\n" + BEGIN.encode() + b"\r\n")
    assert raw.endswith(END.encode() + b"\r\n")
    assert raw.count(b"\n") == raw.count(b"\r\n")
    before, after = outside(raw)
    brain.remember("A second fact.", key="second")
    sync(project, "--files", "AGENTS.md")
    raw = path.read_bytes()
    assert outside(raw) == (before, after) and b"- second: A second fact.\r\n" in raw
    assert raw.count(b"\n") == raw.count(b"\r\n")


def test_file_without_trailing_newline(brain: Brain, project: Path) -> None:
    path = project / "GEMINI.md"
    path.write_bytes(b"no newline at the end")
    sync(project, "--files", "GEMINI.md")
    raw = path.read_bytes()
    assert raw.startswith(b"no newline at the end\n\n" + BEGIN.encode())
    assert outside(raw)[0] == b"no newline at the end\n\n"


def test_second_run_without_change_leaves_the_file_untouched(brain: Brain, project: Path) -> None:
    sync(project)
    for name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md"):
        os.utime(project / name, (1_000_000_000, 1_000_000_000))
    files = sync(project)
    assert {f["action"] for f in files} == {"unchanged"}
    for name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md"):
        assert (project / name).stat().st_mtime == 1_000_000_000


def test_dry_run_writes_nothing(brain: Brain, project: Path) -> None:
    (project / "CLAUDE.md").write_text("mine\n")
    files = sync(project, "--dry-run")
    assert [f["action"] for f in files] == ["updated", "created", "created"]
    assert sorted(p.name for p in project.iterdir()) == ["CLAUDE.md"]
    assert (project / "CLAUDE.md").read_text() == "mine\n"
    human = cli("sync-instructions", "--project", str(project), *ALL, "--dry-run").stdout
    assert f"{project / 'CLAUDE.md'}: would be updated\n" in human


def test_two_blocks_is_an_error_that_changes_nothing(brain: Brain, project: Path) -> None:
    path = project / "CLAUDE.md"
    text = f"a\n{BEGIN}\nx\n{END}\nb\n{BEGIN}\ny\n{END}\n"
    path.write_text(text)
    result = cli("sync-instructions", "--project", str(project), "--files", "CLAUDE.md")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the file has more than one brain block; delete all but one, then run again\n"
    )
    assert path.read_text() == text


def test_stray_marker_is_an_error(brain: Brain, project: Path) -> None:
    (project / "CLAUDE.md").write_text(f"a\n{BEGIN}\nno end\n")
    result = cli("sync-instructions", "--project", str(project), "--files", "CLAUDE.md")
    assert result.exit_code == 1 and "brain:begin without a brain:end" in result.stderr


def test_file_names_must_stay_inside_the_project(brain: Brain, project: Path) -> None:
    result = cli("sync-instructions", "--project", str(project), "--files", "../x.md")
    assert result.exit_code == 1 and "not a file name inside the project" in result.stderr
    assert not (project.parent / "x.md").exists()


def test_memory_off_writes_a_note_instead_of_context(brain: Brain, project: Path) -> None:
    brain.config_set("use_memories", "false")
    sync(project, "--files", "CLAUDE.md")
    text = (project / "CLAUDE.md").read_text()
    assert "<brain-memory>" not in text and "use_memories: false" in text


def test_a_linked_instruction_file_stays_a_link(brain: Brain, project: Path) -> None:
    (project / "AGENTS.md").write_text("# Agents\n\nRun make test.\n")
    (project / "CLAUDE.md").symlink_to("AGENTS.md")
    sync(project, "--files", "CLAUDE.md")
    assert (project / "CLAUDE.md").is_symlink()
    assert "Deploys go through the staging gate" in (project / "AGENTS.md").read_text()


def test_a_memory_quoting_the_markers_cannot_end_the_block(brain: Brain, project: Path) -> None:
    brain.remember(f"The block ends at {END} and starts at {BEGIN}.", key="markers")
    sizes = []
    for _ in range(3):
        sync(project, "--files", "CLAUDE.md")
        raw = (project / "CLAUDE.md").read_bytes()
        sizes.append(len(raw))
        assert raw.count(END.encode()) == 1 and raw.count(BEGIN.encode()) == 1
    assert sizes[0] == sizes[1] == sizes[2]


def test_a_project_that_does_not_exist_is_refused(brain: Brain, tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "projct"
    result = cli("sync-instructions", "--project", str(missing), *ALL)
    assert result.exit_code == 1 and "is not a directory" in result.stderr
    assert not missing.exists()


def test_another_projects_records_never_reach_this_projects_files(
    brain: Brain, tmp_path: Path
) -> None:
    alpha, hunch = tmp_path / "alpha", tmp_path / "hunch"
    alpha.mkdir()
    hunch.mkdir()
    brain.remember("Staging RPC for hunch is devnet.", key="hunch-rpc", tags=["project:hunch"])
    brain.remember("Never push directly to main here.", key="hunch-main", tags=["project:hunch"])
    brain.remember(
        "Alpha deploys from the release branch.", key="alpha-deploy", tags=["project:alpha"]
    )
    brain.remember("I prefer small commits.", key="small-commits", type="preference")
    from brain.pipeline.views import regenerate_views

    regenerate_views(brain)
    assert "hunch" in (brain.path / "memory_summary.md").read_text()  # the shared view

    sync(alpha)
    for name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md"):
        text = (alpha / name).read_text()
        assert "devnet" not in text and "Never push directly to main here" not in text
        assert "hunch-rpc" not in text and "hunch-main" not in text
        assert "alpha-deploy" in text and "small-commits" in text
    context = cli("context", "--project", str(alpha)).stdout
    assert "hunch" not in context and "alpha-deploy" in context
    assert "hunch-rpc" in cli("context", "--project", str(hunch)).stdout


def test_by_default_only_the_files_of_tools_set_up_are_written(brain: Brain, project: Path) -> None:
    refused = cli("sync-instructions", "--project", str(project))
    assert refused.exit_code == 1
    assert refused.stderr == (
        "Error: brain is set up in no agent tool, so it writes no instruction file; "
        "run 'brain setup TOOL' first, or name the files: --files CLAUDE.md\n"
    )
    assert not list(project.iterdir())
    assert cli("setup", "codex", "--no-learn").exit_code == 0
    written = cli("sync-instructions", "--project", str(project))
    assert written.exit_code == 0, written.stderr
    assert sorted(p.name for p in project.iterdir()) == ["AGENTS.md"]


@pytest.mark.parametrize(
    ("tool", "name"),
    [
        ("claude-code", "CLAUDE.md"),
        ("codex", "AGENTS.md"),
        ("gemini", "GEMINI.md"),
        ("copilot", "AGENTS.md"),
        ("qwen", "QWEN.md"),
        ("antigravity", "AGENTS.md"),
        ("opencode", "AGENTS.md"),
        ("crush", "AGENTS.md"),
    ],
)
def test_each_tool_set_up_has_its_file_written(
    brain: Brain, project: Path, tool: str, name: str
) -> None:
    assert cli("setup", tool, "--no-learn").exit_code == 0
    written = cli("sync-instructions", "--project", str(project))
    assert written.exit_code == 0, written.stderr
    assert [p.name for p in project.iterdir()] == [name]
    assert "deploy-gate" in (project / name).read_text()


def test_a_file_two_tools_read_is_written_once(brain: Brain, project: Path) -> None:
    for tool in ("codex", "copilot", "opencode"):
        assert cli("setup", tool, "--no-learn").exit_code == 0
    written = cli("sync-instructions", "--project", str(project), "--json")
    assert written.exit_code == 0, written.stderr
    files = json.loads(written.stdout)["files"]
    assert [Path(f["path"]).name for f in files] == ["AGENTS.md"]
    assert (project / "AGENTS.md").read_text().count(BEGIN) == 1


def _git_checkout(path: Path) -> Path:
    import subprocess

    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_inside_a_repository_your_own_records_stay_out_unless_asked(
    brain: Brain, tmp_path: Path
) -> None:
    repo = _git_checkout(tmp_path / "team")
    brain.remember("The team repo builds with make.", key="team-build", tags=["project:team"])
    sync(repo, "--files", "CLAUDE.md")
    text = (repo / "CLAUDE.md").read_text()
    assert "team-build" in text
    assert "deploy-gate" not in text and "staging gate" not in text  # the person's own
    assert "## Memory summary" not in text
    sync(repo, "--files", "CLAUDE.md", "--personal")
    assert "deploy-gate" in (repo / "CLAUDE.md").read_text()


def test_a_written_block_follows_what_the_next_session_taught(brain: Brain, tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from brain.evals import write_session

    repo = _git_checkout(tmp_path / "web")
    sync(repo, "--files", "CLAUDE.md")
    assert "pnpm" not in (repo / "CLAUDE.md").read_text()
    when = datetime.now(UTC) - timedelta(hours=2)
    rule = "In this repo I prefer pnpm over npm; always use pnpm. Never push directly to main."
    path = write_session(tmp_path / "s", "s1", [rule], when=when, project=str(repo))
    done = cli("hook", "after-session", "--path", str(path))
    assert "brain sync-instructions: ok: 1 of 1 files updated" in done.stderr, done.stderr
    text = (repo / "CLAUDE.md").read_text()
    assert "Learned recently, not yet consolidated" in text and "pnpm" in text
    assert "(no records yet" not in text and "(none consolidated yet" in text
    # A block the person took out is not written back.
    (repo / "CLAUDE.md").write_text("# mine\n")
    cli("hook", "after-session", "--path", str(path))
    assert (repo / "CLAUDE.md").read_text() == "# mine\n"
