"""``brain setup TOOL --learn``: the agent's own CLI learns, by the person's choice only."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.evals import write_session
from brain.models.options import BUILTIN_FINDS
from tests import fakemodel
from tests.fakemodel import FakeModel
from tests.helpers import cli, cli_json, commit_count, status

fake_model = fakemodel.fake_model
ROOT = Path(__file__).resolve().parents[1]
BUILTIN_LINE = (
    f"learning: builtin (offline rules): {BUILTIN_FINDS}; "
    "'brain setup claude-code --learn' uses your agent's own login"
)
MODELS = {
    "claude-code": ("claude-code/haiku", "claude-code/sonnet", "claude"),
    "codex": ("codex/gpt-6-luna", "codex/gpt-6.2-sol", "codex"),
    "gemini": ("gemini-cli/gemini-2.5-flash", "gemini-cli/gemini-2.5-pro", "gemini"),
    "opencode": ("opencode/small", "opencode", "opencode"),
}


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


@pytest.fixture
def programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Stand-ins for the agent CLIs on PATH (setup only looks them up)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("claude", "codex", "gemini", "opencode"):
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
        (folder / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return folder


@pytest.mark.parametrize("tool", list(MODELS))
def test_learn_sets_this_tools_models_on_this_machine_only(
    brain: Brain, home: Path, programs: Path, tool: str
) -> None:
    extract, consolidate, program = MODELS[tool]
    before = commit_count(home)
    result = cli("setup", tool, "--learn")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        f"learning with {program}'s own login: {extract} reads each session, "
        f"{consolidate} consolidates (this machine only: local.yaml)"
    )
    values = {v["name"]: v for v in cli_json("config", "list")}
    assert values["extract_model"]["value"] == extract
    assert values["consolidation_model"]["value"] == consolidate
    assert values["extract_model"]["origin"] == "local"
    assert commit_count(home) == before and status(home) == ""


def test_without_a_terminal_or_a_flag_nothing_is_turned_on(
    brain: Brain, home: Path, programs: Path
) -> None:
    result = cli("setup", "claude-code")  # CliRunner's stdin is no terminal
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == BUILTIN_LINE
    assert "Learn" not in result.stdout
    assert Brain.open(home).config.extract_model == "builtin"


def test_no_learn_puts_back_the_builtin_only_where_it_was_this_tools(
    brain: Brain, home: Path, programs: Path
) -> None:
    assert cli("setup", "codex", "--learn").exit_code == 0
    kept = cli("setup", "claude-code", "--no-learn")
    assert kept.stdout.splitlines()[-1] == "learning stays with codex/gpt-6-luna"
    assert Brain.open(home).config.extract_model == "codex/gpt-6-luna"
    off = cli("setup", "codex", "--no-learn")
    assert off.stdout.splitlines()[-1] == (
        "learning with builtin (offline rules) again (this machine only: local.yaml)"
    )
    config = Brain.open(home).config
    assert (config.extract_model, config.consolidation_model) == ("builtin", "builtin")


def test_learn_without_the_program_fails_before_writing_anything(
    brain: Brain, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = cli("setup", "claude-code", "--learn")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "Error: 'claude' is not on PATH, so brain cannot learn with it; install claude"
    )
    assert not (Path(os.environ["HOME"]) / ".claude").exists()
    assert Brain.open(home).config.extract_model == "builtin"


def _claude_sessions(count: int) -> None:
    folder = Path(os.environ["HOME"]) / ".claude" / "projects" / "-proj"
    folder.mkdir(parents=True)
    for n in range(count):
        line = {"type": "user", "message": {"content": "word " * (400 * (n + 1))}}
        (folder / f"s{n}.jsonl").write_text(json.dumps(line) + "\n")


def _on_a_terminal(args: list[str], *answers: str) -> str:
    """Run brain with stdin and stdout on a pseudo-terminal; type ``answers``, one to each
    question (Enter to any after them); its output."""
    main, other = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    child = subprocess.Popen(
        [sys.executable, "-m", "brain", *args], stdin=other, stdout=other, stderr=other, env=env
    )
    os.close(other)
    out, sent = b"", 0
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            child.kill()
            raise AssertionError(f"no output:\n{out.decode()}")
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
        if out.count(b"[y/N]") > sent:
            answer = answers[sent] if sent < len(answers) else ""
            os.write(main, answer.encode() + b"\n")
            sent += 1
    child.wait(timeout=60)
    os.close(main)
    return out.decode().replace("\r\n", "\n")


def test_on_a_terminal_it_asks_once_with_this_machines_cost(
    brain: Brain, home: Path, programs: Path
) -> None:
    _claude_sessions(3)
    out = _on_a_terminal(["setup", "claude-code"], "y", "y")  # learn; and remember unasked
    assert "Learn from your sessions with claude's own login?" in out
    assert (
        "  phase 1: claude-code/haiku reads each finished session: 1 call per session "
        "(a second only when its answer must be asked again)"
    ) in out
    assert "1 call each time 5 new memories have gathered" in out
    assert "the median of this machine's last 3 claude-code sessions" in out
    assert "  capped: max_tokens_per_run 200,000 tokens per run" in out
    assert f"builtin (offline rules) {BUILTIN_FINDS}" in out
    assert Brain.open(home).config.extract_model == "claude-code/haiku"
    assert "store what it learns through brain's remember tool" in out
    # Asked once: set up again, it does not ask.
    again = _on_a_terminal(["setup", "claude-code"], "n")
    assert "[y/N]" not in again
    assert Brain.open(home).config.extract_model == "claude-code/haiku"


def test_on_a_terminal_no_is_the_default(brain: Brain, home: Path, programs: Path) -> None:
    out = _on_a_terminal(["setup", "gemini"], "")
    assert "no gemini sessions on this machine yet: a long session's figure" in out
    assert Brain.open(home).config.extract_model == "builtin"


def test_expected_cost_reads_this_machines_transcripts(brain: Brain, programs: Path) -> None:
    from brain.agents.learn import expected_cost

    none = expected_cost(brain, "claude-code")
    assert none.sessions_measured == 0 and none.tokens_per_session == none.tokens_most
    _claude_sessions(5)
    some = expected_cost(brain, "claude-code")
    assert some.sessions_measured == 5
    assert 0 < some.tokens_per_session < some.tokens_most <= none.tokens_most
    assert some.budget == 200_000 and some.consolidation_threshold == 5


def test_status_says_which_path_learns_and_what_the_last_run_cost(
    brain: Brain, home: Path, tmp_path: Path, fake_model: FakeModel, programs: Path
) -> None:
    text = cli("status").stdout
    assert text.startswith(BUILTIN_LINE.replace("learning: ", "learning     ") + "\n")
    when = datetime.now(UTC) - timedelta(hours=2)
    path = write_session(tmp_path / "sessions", "cli1", ["Always use pnpm here."], when=when)
    assert cli("harvest", "--path", str(path)).exit_code == 0
    cli("config", "set", "extract_model", "openai/fake")
    cli("config", "set", "model_api_base", fake_model.url)
    fake_model.push({"memories": [], "summary": "Talked about pnpm."})
    assert cli("extract").exit_code == 0
    text = cli("status").stdout
    assert "learning     openai/fake reads each session, builtin consolidates" in text
    assert "1 model call, 11 tokens in, 7 out)" in text
    assert cli_json("status")["last_runs"]["extract"]["tokens_in"] == 11


def test_doctor_says_which_path_learns_and_what_its_last_run_cost(
    brain: Brain, home: Path, tmp_path: Path, fake_model: FakeModel, programs: Path
) -> None:
    said = cli("doctor", "claude-code").stdout.splitlines()
    assert BUILTIN_LINE in said
    when = datetime.now(UTC) - timedelta(hours=2)
    path = write_session(tmp_path / "sessions", "cli1", ["Always use pnpm here."], when=when)
    assert cli("harvest", "--path", str(path)).exit_code == 0
    cli("config", "set", "extract_model", "openai/fake")
    cli("config", "set", "model_api_base", fake_model.url)
    fake_model.push({"memories": [], "summary": "Talked about pnpm."})
    assert cli("extract").exit_code == 0
    said = cli("doctor", "claude-code").stdout.splitlines()
    assert (
        "learning: openai/fake reads each session, builtin consolidates (a model you set)" in said
    )
    (last,) = [line for line in said if line.startswith("last extract: ")]
    assert last.endswith(" with openai/fake: 1 model call, 11 tokens in, 7 out")
    assert cli_json("doctor", "claude-code")["learning"][0].startswith("learning: openai/fake")


def test_learn_keeps_the_clis_absolute_path_and_no_learn_takes_it_out(
    brain: Brain, home: Path, programs: Path
) -> None:
    assert cli("setup", "claude-code", "--learn").exit_code == 0
    assert Brain.open(home).config.model_program == str(programs / "claude")
    said = cli("doctor", "claude-code").stdout
    assert f"model program: {programs / 'claude'} (found by 'brain setup --learn')" in said
    assert cli("setup", "claude-code", "--no-learn").exit_code == 0
    assert Brain.open(home).config.model_program is None
    assert "model_program" not in (home / "local.yaml").read_text()


def test_a_learning_job_whose_model_fails_is_said_in_the_hook_log_and_by_doctor(
    brain: Brain, home: Path, tmp_path: Path, programs: Path
) -> None:
    assert cli("setup", "claude-code", "--learn").exit_code == 0
    # The CLI answers nothing brain can read: every session of the run fails.
    (programs / "claude").write_text("#!/bin/sh\necho 'Segmentation fault' >&2\nexit 139\n")
    when = datetime.now(UTC) - timedelta(hours=2)
    path = write_session(tmp_path / "sessions", "cli1", ["Always use pnpm here."], when=when)
    job = cli("hook", "after-session", "--path", str(path), "--tool", "claude-code")
    assert "brain extract: failed: 1 session failed: " in job.stderr, job.stderr
    hooks_log = (home / ".brain" / "logs" / "hooks.log").read_text()
    assert "after-session: brain extract: 1 session failed: " in hooks_log
    assert "Segmentation fault" in hooks_log

    doctor = cli("doctor", "claude-code")
    assert doctor.exit_code == 1
    assert (
        "problem: the learning the last session started failed: brain extract: 1 session failed: "
    ) in doctor.stdout
    assert "last hook run: never" in doctor.stdout  # the job is no call by the tool


def test_uninstall_takes_out_the_model_learn_set(brain: Brain, home: Path, programs: Path) -> None:
    before = (home / "local.yaml").read_text()
    assert cli("setup", "codex", "--learn").exit_code == 0
    assert cli("setup", "claude-code", "--learn").exit_code == 0  # the last one learns
    assert "local.yaml" not in cli("setup", "--uninstall", "codex").stdout  # not codex's now
    assert Brain.open(home).config.extract_model == "claude-code/haiku"

    dry = cli("setup", "--uninstall", "claude-code", "--dry-run")
    assert "note: would take extract_model, consolidation_model, model_program out" in dry.stdout
    assert Brain.open(home).config.extract_model == "claude-code/haiku"
    done = cli("setup", "--uninstall", "claude-code")
    assert done.exit_code == 0, done.stderr
    assert (
        "note: took extract_model, consolidation_model, model_program out of local.yaml: "
        "learning with builtin again"
    ) in done.stdout
    assert (home / "local.yaml").read_text() == before
    assert Brain.open(home).config.extract_model == "builtin"
