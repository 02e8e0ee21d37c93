"""Hook handlers fail open (real subprocesses); installers keep the user's settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from brain.agents import hooks
from brain.api import Brain
from tests.helpers import cli, git, run_brain

PAYLOAD = {
    "session_id": "0199-abc",
    "transcript_path": "/nonexistent/session.jsonl",
    "hook_event_name": "SessionStart",
    "source": "startup",
}


@pytest.fixture
def brain(home: Path) -> Brain:
    brain = Brain.init(home)[0]
    brain.remember("Deploys go through the staging gate first.", key="deploy-gate")
    return brain


def session_start(tmp_path: Path, *extra: str, payload: str | None = None) -> Any:
    body = payload if payload is not None else json.dumps({**PAYLOAD, "cwd": str(tmp_path)})
    done = run_brain("hook", "session-start", *extra, input=body, timeout=30)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"hookSpecificOutput"}
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    return answer["hookSpecificOutput"]["additionalContext"], done.stderr


def hooks_log(home: Path) -> str:
    return (home / ".brain" / "logs" / "hooks.log").read_text()


# -- session start -------------------------------------------------------------------


def test_session_start_answers_with_the_context(brain: Brain, tmp_path: Path) -> None:
    context, stderr = session_start(tmp_path)
    assert context.startswith("<brain-memory>\n")
    assert "- deploy-gate: Deploys go through the staging gate first." in context
    assert stderr == ""


@pytest.mark.parametrize("tool", ["gemini", "codex"])
def test_session_start_speaks_each_tools_format(brain: Brain, tmp_path: Path, tool: str) -> None:
    context, _ = session_start(tmp_path, "--tool", tool)
    assert "deploy-gate" in context


def test_session_start_without_a_home_fails_open_to_stderr(home: Path, tmp_path: Path) -> None:
    context, stderr = session_start(tmp_path)
    assert context == ""
    assert "session-start: NotAHomeError" in stderr and "is not a brain home" in stderr
    assert not home.exists()


def test_session_start_with_broken_config_fails_open_and_logs(brain: Brain, tmp_path: Path) -> None:
    (brain.path / "brain.yaml").write_text("extract_model: [unclosed\n")
    context, stderr = session_start(tmp_path)
    assert context == "" and stderr == ""
    assert "ConfigError" in hooks_log(brain.path) and "invalid YAML" in hooks_log(brain.path)


def test_session_start_ignores_a_garbage_index(brain: Brain, tmp_path: Path) -> None:
    (brain.path / ".brain" / "index.sqlite").write_bytes(os.urandom(8192))
    context, stderr = session_start(tmp_path)
    assert "deploy-gate" in context and stderr == ""


def test_session_start_with_bad_payload_fails_open_and_logs(brain: Brain, tmp_path: Path) -> None:
    context, _ = session_start(tmp_path, payload="{not json")
    assert context == ""
    assert "session-start: JSONDecodeError" in hooks_log(brain.path)
    context, _ = session_start(tmp_path, payload="[1, 2]")
    assert "is a JSON list, not an object" in hooks_log(brain.path)


def test_session_start_with_empty_stdin_still_gives_context(brain: Brain, tmp_path: Path) -> None:
    context, _ = session_start(tmp_path, payload="")
    assert "deploy-gate" in context


def test_session_start_does_not_wait_for_the_write_lock(brain: Brain, tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from brain.home.lock import home_lock\n"
            "held = home_lock(Path(sys.argv[1]))\n"
            "held.__enter__()\n"
            "print('locked', flush=True)\n"
            "time.sleep(60)\n",
            str(brain.path / ".brain" / "lock"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        # A write would wait 60 s for this lock; the hook must not wait at all.
        context, _ = session_start(tmp_path)
        assert "deploy-gate" in context
        assert holder.poll() is None  # the lock was held throughout
    finally:
        holder.kill()
        holder.wait()


def test_session_start_with_memory_off_is_empty(brain: Brain, tmp_path: Path) -> None:
    brain.config_set("use_memories", "false")
    context, stderr = session_start(tmp_path)
    assert context == "" and stderr == ""


def test_each_hooks_last_run_and_how_it_ended_is_noted(brain: Brain, tmp_path: Path) -> None:
    last = brain.path / ".brain" / "logs" / "last-hook-codex.txt"
    session_start(tmp_path, "--tool", "codex")
    assert last.read_text().endswith(" session-start ok\n")
    (brain.path / "brain.yaml").write_text("nonsense_key: 1\n")
    session_start(tmp_path, "--tool", "codex")
    done = run_brain("hook", "session-end", "--tool", "codex", input="{", timeout=30)
    assert done.returncode == 0
    start, end = last.read_text().splitlines()
    assert " session-start failed: ConfigError: " in start and "nonsense_key" in start
    assert " session-end failed: JSONDecodeError: " in end


def test_doctors_dry_run_writes_nothing_and_says_what_failed(brain: Brain, tmp_path: Path) -> None:
    logs = brain.path / ".brain" / "logs"
    env = {**os.environ, "BRAIN_HOOK_CHECK": "1"}
    payload = json.dumps({**PAYLOAD, "cwd": str(tmp_path)})
    for event in ("session-start", "session-end"):
        done = run_brain("hook", event, input=payload, env=env, timeout=30)
        assert done.returncode == 0 and json.loads(done.stdout) is not None
        assert done.stderr == ""
    (brain.path / "brain.yaml").write_text("nonsense_key: 1\n")
    done = run_brain("hook", "session-start", input=payload, env=env, timeout=30)
    assert done.returncode == 0 and "session-start: ConfigError: " in done.stderr
    assert not logs.exists() or sorted(p.name for p in logs.iterdir()) == []


# -- session end ---------------------------------------------------------------------


def test_session_end_starts_a_detached_job_and_returns(brain: Brain, tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    transcript.write_text('{"type": "user", "message": {"content": "hi"}}\n')
    payload = json.dumps({**PAYLOAD, "transcript_path": str(transcript), "cwd": str(tmp_path)})
    done = run_brain("hook", "session-end", input=payload, timeout=30)
    assert done.returncode == 0 and done.stdout == "{}\n" and done.stderr == ""
    log = brain.path / ".brain" / "logs" / "after-session.log"
    deadline = time.monotonic() + 120
    while "after-session done" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    text = log.read_text()
    assert f"hook after-session --path {transcript}" in text
    assert "brain harvest: " in text and "after-session done" in text


def test_a_session_ended_twice_starts_one_job(brain: Brain, tmp_path: Path) -> None:
    """Gemini CLI runs its exit cleanup twice on /quit; the same transcript, unchanged,
    ending again moments later starts no second job. A session that went on is new."""
    log = brain.path / ".brain" / "logs" / "after-session.log"

    def ends() -> list[str]:
        text = log.read_text() if log.exists() else ""
        return [line for line in text.splitlines() if " gemini session ended" in line]

    transcript = tmp_path / "session.jsonl"
    transcript.write_text('{"type": "user", "message": {"content": "hi"}}\n')
    payload = json.dumps({**PAYLOAD, "transcript_path": str(transcript)})
    first = hooks.session_end(brain.path, payload, "gemini")
    again = hooks.session_end(brain.path, payload, "gemini")
    assert first.pid is not None and first.error is None
    assert again.pid is None and again.error and "already answered" in again.error
    assert [line.split(" ", 1)[1].split(";")[0] for line in ends()] == [
        "gemini session ended", "gemini session ended again"]  # fmt: skip
    with transcript.open("a") as grown:
        grown.write('{"type": "user", "message": {"content": "and more"}}\n')
    assert hooks.session_end(brain.path, payload, "gemini").pid is not None
    # Long after, the same unchanged transcript ending is a new end (a resumed session
    # the tool closed without a word): it is answered again.
    mark = brain.path / ".brain" / "logs" / hooks.ENDED_MARK
    seen, _ = mark.read_text().split("\n")
    mark.write_text(f"{seen}\n{time.time() - hooks.ENDED_AGAIN_SECONDS - 1}")
    assert hooks.session_end(brain.path, payload, "gemini").pid is not None
    assert sum("starting" in line for line in ends()) == 3
    deadline = time.monotonic() + 120
    while log.read_text().count("after-session done") < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert log.read_text().count("after-session done") == 3


def test_session_end_learns_from_the_session_that_just_ended(brain: Brain, tmp_path: Path) -> None:
    """Harvest, extract by name (no idle window) and consolidate, in the background."""
    cli("config", "set", "consolidation_threshold", "0")
    sample = Path(__file__).resolve().parent.parent / "examples" / "claude" / "projects"
    project = tmp_path / "claude" / "projects" / "-home-dev-webshop"
    project.mkdir(parents=True)
    transcript = project / "checkout-tests.jsonl"
    transcript.write_text((sample / "-home-dev-webshop" / "checkout-tests.jsonl").read_text())
    payload = json.dumps({**PAYLOAD, "transcript_path": str(transcript), "cwd": str(tmp_path)})
    assert run_brain("hook", "session-end", input=payload, timeout=30).returncode == 0
    log = brain.path / ".brain" / "logs" / "after-session.log"
    deadline = time.monotonic() + 120
    while "after-session done" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    text = log.read_text()
    assert "brain extract: ok: extract: 1 session, 3 raw memories" in text, text
    assert "brain consolidate: ok: consolidate: 3 added" in text, text
    keys = {p.stem for p in (brain.path / "memories").glob("*.md")}
    assert "use-pnpm-not-npm-frontend-npm-webshop" in keys
    # Two commits for the session: harvest and extract folded, then consolidate.
    subjects = git(brain.path, "log", "-3", "--format=%s").splitlines()
    assert subjects[0].startswith("consolidate: 3 added")
    assert subjects[1].startswith("extract: 1 session, 3 raw memories; harvest: 1 new session")
    assert subjects[2].startswith("config")


def test_after_session_log_says_consolidate_was_skipped_under_its_threshold(
    brain: Brain, tmp_path: Path
) -> None:
    sample = Path(__file__).resolve().parent.parent / "examples" / "claude" / "projects"
    transcript = tmp_path / "checkout-tests.jsonl"
    transcript.write_text((sample / "-home-dev-webshop" / "checkout-tests.jsonl").read_text())
    done = run_brain("hook", "after-session", "--path", str(transcript), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "brain extract: ok: extract: 1 session, 3 raw memories" in done.stderr
    assert (
        "brain consolidate: skipped: 3 raw memories pending, threshold 5; use --force\n"
        in done.stderr
    )


def test_session_end_without_home_fails_open(home: Path) -> None:
    done = run_brain("hook", "session-end", input=json.dumps(PAYLOAD), timeout=30)
    assert done.returncode == 0 and json.loads(done.stdout) == {}
    assert "session-end:" in done.stderr and "not a brain home" in done.stderr


# -- installers ----------------------------------------------------------------------

USER_SETTINGS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "notify.sh start"}]}
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh", "timeout": 5}]}
        ],
    },
}


def claude_settings() -> Path:
    return Path.home() / ".claude" / "settings.json"


def write_settings(path: Path, data: Any) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=4)
    path.write_text(text)
    return text


def ours(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        handler
        for groups in data.get("hooks", {}).values()
        for group in groups
        for handler in group["hooks"]
        if " hook session-" in handler["command"]
    ]


def test_hooks_help_names_every_tool_it_installs_into() -> None:
    names = {
        "claude-code": "Claude Code",
        "codex": "Codex CLI",
        "gemini": "Gemini CLI",
        "copilot": "Copilot CLI",
        "qwen": "Qwen Code",
        "antigravity": "Antigravity CLI",
        "opencode": "OpenCode",
    }
    shown = " ".join(cli("hooks", "--help").stdout.split())
    accepted = cli("hooks", "install", "--help").stdout
    for tool, name in names.items():
        assert name in shown, name
        assert tool in accepted.replace("\n", "").replace(" ", ""), tool


def test_install_keeps_user_settings_and_uninstall_restores_them() -> None:
    path = claude_settings()
    original = write_settings(path, USER_SETTINGS)
    result = cli("hooks", "install", "claude-code")
    assert result.exit_code == 0, result.stderr
    installed = json.loads(path.read_text())
    assert [h["command"].split(" hook ")[1] for h in ours(installed)] == [
        "session-start --tool claude-code",
        "session-end --tool claude-code",
    ]
    without = {
        **installed,
        "hooks": {
            "SessionStart": installed["hooks"]["SessionStart"][:1],
            "PreToolUse": installed["hooks"]["PreToolUse"],
        },
    }
    assert without == USER_SETTINGS
    assert installed["hooks"]["SessionEnd"][0]["matcher"] == ""
    assert (path.parent / "settings.json.bak").read_text() == original
    assert cli("hooks", "uninstall", "claude-code").exit_code == 0
    assert json.loads(path.read_text()) == USER_SETTINGS


def test_install_is_idempotent_and_keeps_the_first_backup() -> None:
    path = claude_settings()
    original = write_settings(path, USER_SETTINGS)
    cli("hooks", "install", "claude-code")
    first = path.read_text()
    os.utime(path, (1_000_000_000, 1_000_000_000))
    again = cli("hooks", "install", "claude-code", "--json")
    assert json.loads(again.stdout)["changed"] is False
    assert path.read_text() == first and path.stat().st_mtime == 1_000_000_000
    assert len(ours(json.loads(first))) == 2
    cli("hooks", "uninstall", "claude-code")
    cli("hooks", "install", "claude-code")
    assert (path.parent / "settings.json.bak").read_text() == original


def test_install_into_a_missing_file_and_uninstall_leaves_empty_object() -> None:
    path = claude_settings()
    assert cli("hooks", "install", "claude-code").exit_code == 0
    assert len(ours(json.loads(path.read_text()))) == 2
    assert not (path.parent / "settings.json.bak").exists()
    cli("hooks", "uninstall", "claude-code")
    assert json.loads(path.read_text()) == {}
    assert not (path.parent / "settings.json.bak").exists()


def test_dry_run_changes_nothing_and_prints_the_would_be_file() -> None:
    path = claude_settings()
    original = write_settings(path, USER_SETTINGS)
    result = cli("hooks", "install", "claude-code", "--dry-run")
    assert result.exit_code == 0
    head, body = result.stdout.split("\n", 1)
    assert head == f"would write {path}:"
    assert len(ours(json.loads(body))) == 2
    assert path.read_text() == original
    assert not (path.parent / "settings.json.bak").exists()


def test_malformed_settings_is_an_error_that_changes_nothing() -> None:
    path = claude_settings()
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {"SessionStart": [}')
    result = cli("hooks", "install", "claude-code")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {path}: not valid JSON (line 1: Expecting value); "
        "fix the file by hand, then run this again\n"
    )
    assert path.read_text() == '{"hooks": {"SessionStart": [}'
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_hooks_that_are_not_a_table_are_an_error() -> None:
    path = claude_settings()
    write_settings(path, {"hooks": ["not", "a", "table"]})
    result = cli("hooks", "install", "claude-code")
    assert result.exit_code == 1 and "'hooks' is not an object" in result.stderr


def test_gemini_project_hooks_are_named_with_millisecond_timeouts(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = project / ".gemini" / "settings.json"
    write_settings(path, {"ui": {"theme": "dark"}})
    result = cli("hooks", "install", "gemini", "--scope", "project", "--project", str(project))
    assert result.exit_code == 0
    data = json.loads(path.read_text())
    assert data["ui"] == {"theme": "dark"}
    handlers = ours(data)
    assert [h["name"] for h in handlers] == ["brain-session-start", "brain-session-end"]
    assert {h["timeout"] for h in handlers} == {10_000}
    cli("hooks", "uninstall", "gemini", "--scope", "project", "--project", str(project))
    assert json.loads(path.read_text()) == {"ui": {"theme": "dark"}}


def test_codex_gets_both_hooks_and_is_told_to_trust_them(tmp_path: Path) -> None:
    result = cli("hooks", "install", "codex")
    assert result.exit_code == 0
    path = Path.home() / ".codex" / "hooks.json"
    data = json.loads(path.read_text())
    assert list(data) == ["hooks"] and list(data["hooks"]) == ["SessionStart", "SessionEnd"]
    assert "/hooks" in result.stdout and "trust" in result.stdout


def test_installed_command_really_answers(brain: Brain, tmp_path: Path) -> None:
    cli("hooks", "install", "claude-code")
    data = json.loads(claude_settings().read_text())
    command = data["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    payload = json.dumps({**PAYLOAD, "cwd": str(tmp_path)})
    done = subprocess.run(command, shell=True, input=payload, capture_output=True, text=True)
    assert done.returncode == 0
    assert "deploy-gate" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_install_into_settings_kept_in_a_dotfiles_repo_keeps_the_link() -> None:
    dotfiles = Path.home() / "dotfiles" / "claude-settings.json"
    write_settings(dotfiles, USER_SETTINGS)
    link = claude_settings()
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(dotfiles)
    assert cli("hooks", "install", "claude-code").exit_code == 0
    assert link.is_symlink() and ours(json.loads(dotfiles.read_text()))


def test_settings_with_comments_say_so_and_how_to_add_the_hooks_by_hand() -> None:
    path = Path.home() / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    original = '{\n  // my theme\n  "theme": "dark"\n}\n'
    path.write_text(original)
    result = cli("hooks", "install", "gemini")
    assert result.exit_code == 1
    assert "has comments, which brain cannot keep" in result.stderr
    assert "--dry-run" in result.stderr
    assert path.read_text() == original
