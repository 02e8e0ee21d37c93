"""What a session taught is in the next session's context of that project, at once."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.evals import write_session
from tests.helpers import cli, cli_json

RULE = "In this repo I prefer pnpm over npm; always use pnpm. Never push directly to main."


def _checkout(path: Path) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


@pytest.fixture
def projects(tmp_path: Path) -> tuple[Path, Path]:
    return _checkout(tmp_path / "web"), _checkout(tmp_path / "api")


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def _session(tmp_path: Path, project: Path, lines: list[str], name: str = "s1") -> Path:
    when = datetime.now(UTC) - timedelta(hours=2)
    return write_session(tmp_path / "sessions", name, lines, when=when, project=str(project))


def _ended(path: Path) -> None:
    """The job a finished session starts (what the session-end hook runs)."""
    done = cli("hook", "after-session", "--path", str(path))
    assert done.exit_code == 0 and "brain extract: ok" in done.stderr, done.stderr
    assert "brain consolidate: skipped" in done.stderr  # under the threshold


def _next_session_context(project: Path) -> str:
    payload = json.dumps({"cwd": str(project), "session_id": "next", "hook_event_name": "x"})
    out = cli("hook", "session-start", "--tool", "claude-code", input=payload)
    assert out.exit_code == 0
    return str(json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"])


def test_a_rule_one_session_states_is_in_the_next_sessions_context(
    brain: Brain, tmp_path: Path, projects: tuple[Path, Path]
) -> None:
    web, _ = projects
    _ended(_session(tmp_path, web, [RULE]))
    assert cli_json("status")["raw_pending"] >= 1  # nothing consolidated yet
    text = _next_session_context(web)
    assert "## Learned recently, not yet consolidated" in text
    assert "pnpm" in text and "push directly to main" in text.lower()


def test_another_project_does_not_see_what_this_one_learned(
    brain: Brain, tmp_path: Path, projects: tuple[Path, Path]
) -> None:
    web, api = projects
    _ended(_session(tmp_path, web, [RULE]))
    text = _next_session_context(api)
    assert "pnpm" not in text and "Learned recently" not in text


def test_once_consolidated_it_is_a_record_not_a_pending_line(
    brain: Brain, tmp_path: Path, projects: tuple[Path, Path]
) -> None:
    web, _ = projects
    _ended(_session(tmp_path, web, [RULE]))
    before = cli("context", "--project", str(web)).stdout
    assert "- never-push-directly-main-web [instruction]" in before
    assert cli("consolidate", "--force").exit_code == 0
    out = cli("context", "--project", str(web)).stdout
    records = {p.stem for p in (Brain.open(Path(brain.path)).path / "memories").glob("*.md")}
    assert "never-push-directly-main-web" in records
    learned = out.split("## Learned recently", 1)[-1].split("## Records", 1)[0]
    assert not any(f"- {key} [" in learned for key in records)  # consumed: shown as records
    assert "- never-push-directly-main-web: " in out


def test_the_learned_lines_fit_the_budget_and_index_still_gets_room(
    brain: Brain, tmp_path: Path, projects: tuple[Path, Path]
) -> None:
    web, _ = projects
    cli("remember", "Deploys go out on Tuesdays", "--key", "deploy-day")
    lines = [f"Always run the linter number {n} before pushing." for n in range(12)]
    _ended(_session(tmp_path, web, [RULE, *lines]))
    shown = cli_json("context", "--project", str(web), "--budget", "600")
    assert shown["tokens"] <= 600
    assert "learned" in shown["sections"] and "deploy-day" in shown["text"]


def test_an_empty_home_says_where_to_look_not_no_records(brain: Brain, projects: tuple) -> None:
    out = cli("context", "--project", str(projects[0]))
    assert "(no records yet: brain learns from each session when it ends" in out.stdout


def test_a_pending_rule_a_record_already_says_is_not_shown_twice(
    brain: Brain, tmp_path: Path, projects: tuple[Path, Path]
) -> None:
    web, _ = projects
    _ended(_session(tmp_path, web, ["Never push directly to main."]))
    pending = cli("context", "--project", str(web)).stdout
    assert "Learned recently, not yet consolidated" in pending
    line = next(ln for ln in pending.splitlines() if "[instruction]" in ln)
    description = line.split("]: ", 1)[1]
    # The same rule, kept as a record too (another tool's memory, a hand-written one).
    written = cli("remember", description, "--key", "no-push-main", "--tag", "project:web")
    assert written.exit_code == 0, written.stderr
    text = cli("context", "--project", str(web)).stdout
    assert text.lower().count("push directly to main") == 1
    assert "- no-push-main:" in text


def test_a_learned_key_the_context_lists_opens_with_show_and_mcp_read(
    brain: Brain, tmp_path: Path, projects: tuple[Path, Path]
) -> None:
    from tests.test_mcp import with_client

    web, _ = projects
    _ended(_session(tmp_path, web, [RULE]))
    listed = cli("context", "--project", str(web)).stdout
    key = "never-push-directly-main-web"
    assert f"- {key} [instruction]" in listed and not list((brain.path / "memories").glob("*.md"))

    shown = cli("show", key)
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.startswith(
        f"(learned, not yet consolidated: phase 2 makes it a record (raw_memories.md))\n### {key}\n"
    )
    assert "push directly to main" in shown.stdout.lower()
    as_json = cli_json("show", key)
    assert (as_json["key"], as_json["type"], as_json["path"]) == (
        key,
        "instruction",
        "raw_memories.md",
    )

    async def body(client: object) -> object:
        return await client.call_tool("read", {"key": key})  # type: ignore[attr-defined]

    read = with_client(brain.path, web, body)
    assert not read.is_error, read.content  # type: ignore[attr-defined]
    found = read.structured_content  # type: ignore[attr-defined]
    assert found["key"] == key and found["pending"].startswith("learned, not yet consolidated")
    assert "push directly to main" in found["body"].lower()

    assert cli("show", "no-such-key").exit_code == 1  # neither a record nor learned
    assert cli("consolidate", "--force").exit_code == 0
    assert cli("show", key).stdout.startswith("---\n")  # a record now
