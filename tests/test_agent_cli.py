"""The person's own agent CLI as the model, against a stub executable on PATH."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from brain.models import registry
from brain.models.agent_cli import AgentCliModel
from brain.models.base import ExtractTask, ModelError, ModelOutputError, ModelSettings
from brain.models.budget import Budget, BudgetExceeded
from brain.models.registry import get_model
from brain.sessions.internal import INTERNAL_ENV, INTERNAL_MARK
from brain.sessions.sources.base import Transcript, Turn

_STUB = """#!{python}
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
replies = json.load(open(os.path.join(here, "replies.json")))
calls = os.path.join(here, "calls.jsonl")
n = sum(1 for _ in open(calls)) if os.path.exists(calls) else 0
prompt = sys.stdin.read()
with open(calls, "a") as log:
    log.write(json.dumps({{"argv": sys.argv[1:], "stdin": prompt,
                          "internal": os.environ.get("{env}")}}) + "\\n")
reply = replies[min(n, len(replies) - 1)]
time.sleep(reply.get("sleep", 0))
sys.stdout.write(reply.get("stdout", ""))
sys.stderr.write(reply.get("stderr", ""))
sys.exit(reply.get("code", 0))
"""

ANSWER = {
    "memories": [
        {
            "key": "test-command",
            "type": "fact",
            "description": "Tests run with pnpm test",
            "body": "pnpm test runs the suite.",
            "evidence": [[1, 1]],
        }
    ],
    "summary": "Fixed the tests.",
}


class Stub:
    """A fake agent CLI program in a directory put on PATH."""

    def __init__(self, bin_dir: Path, program: str) -> None:
        self.dir = bin_dir
        path = bin_dir / program
        path.write_text(_STUB.format(python=sys.executable, env=INTERNAL_ENV))
        path.chmod(path.stat().st_mode | stat.S_IXUSR)

    def replies(self, *replies: dict[str, Any]) -> None:
        (self.dir / "replies.json").write_text(json.dumps(list(replies)))

    def calls(self) -> list[dict[str, Any]]:
        log = self.dir / "calls.jsonl"
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", f"{path}{os.pathsep}{os.defpath}")
    return path


def _task() -> ExtractTask:
    turns = (Turn("user", "run the tests with pnpm test", lines=(1, 1)),)
    return ExtractTask(Transcript("claude", "s1", "/x.jsonl", "/src", turns=turns), 8000, 500)


def _claude(answer: object, **usage: int) -> dict[str, Any]:
    result = answer if isinstance(answer, str) else json.dumps(answer)
    body = {"type": "result", "is_error": False, "result": result, "usage": usage}
    return {"stdout": json.dumps(body)}


def test_claude_code_answers_through_its_headless_json_mode(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "claude")
    stub.replies(_claude(ANSWER, input_tokens=900, output_tokens=60))
    budget = Budget(100_000)
    answer = get_model("claude-code/sonnet").extract(_task(), budget)
    assert [m.key for m in answer.memories] == ["test-command"]
    (call,) = stub.calls()
    assert call["argv"][:6] == [
        "-p",
        "--output-format",
        "json",
        "--tools",
        "",
        "--strict-mcp-config",
    ]
    assert call["argv"][-2:] == ["--model", "sonnet"]
    assert call["internal"] == "1"
    assert call["stdin"].startswith(INTERNAL_MARK)
    assert "run the tests with pnpm test" in call["stdin"]
    assert budget.used.total_tokens == 960  # what the CLI reported


def test_codex_reads_the_last_agent_message_and_the_turn_usage(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "codex")
    events = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.completed", "item": {"type": "agent_message", "text": json.dumps(ANSWER)}},
        {"type": "turn.completed", "usage": {"input_tokens": 700, "output_tokens": 40}},
    ]
    stub.replies({"stdout": "\n".join(json.dumps(e) for e in events)})
    budget = Budget(None)
    answer = get_model("codex").extract(_task(), budget)
    assert answer.summary == "Fixed the tests."
    assert stub.calls()[0]["argv"] == [
        "exec", "--json", "--ephemeral", "--sandbox", "read-only", "--skip-git-repo-check", "-",
    ]  # fmt: skip
    assert budget.used.total_tokens == 740


def test_gemini_cli_reads_its_json_and_counts_what_was_sent_when_it_reports_nothing(
    bin_dir: Path,
) -> None:
    stub = Stub(bin_dir, "gemini")
    stub.replies(
        {"stdout": "Loaded cached credentials.\n" + json.dumps({"response": json.dumps(ANSWER)})}
    )
    budget = Budget(None)
    get_model("gemini-cli/gemini-2.5-flash").extract(_task(), budget)
    assert stub.calls()[0]["argv"][-2:] == ["-m", "gemini-2.5-flash"]
    assert budget.used.prompt_tokens > 100  # estimated from the prompt sent


def test_a_missing_cli_says_so_and_what_to_do(bin_dir: Path) -> None:
    with pytest.raises(ModelError) as caught:
        get_model("claude-code").extract(_task(), Budget(None))
    assert str(caught.value).startswith("claude-code: 'claude' is not on PATH; install it")
    assert caught.value.kind == "unreachable" and caught.value.repeats
    assert "brain status lists them" in (caught.value.hint or "")


def test_logged_out_is_an_auth_error_naming_the_login(bin_dir: Path) -> None:
    Stub(bin_dir, "claude").replies({"code": 1, "stdout": "Invalid API key · Please run /login"})
    with pytest.raises(ModelError) as caught:
        get_model("claude-code").extract(_task(), Budget(None))
    assert caught.value.kind == "auth"
    assert caught.value.hint == "run claude, then /login"


def test_a_failure_is_told_in_the_clis_own_words(bin_dir: Path) -> None:
    # What the pinned CLIs print when logged out: Claude Code its result JSON on standard
    # output, Gemini CLI an error JSON on standard error.
    claude = {"type": "result", "is_error": True, "result": "Not logged in · Please run /login"}
    gemini = {"error": {"type": "Error", "message": "you must specify GEMINI_API_KEY", "code": 41}}
    cases = [
        ("claude-code", "claude", {"code": 1, "stdout": json.dumps(claude)}, claude["result"]),
        ("gemini-cli", "gemini", {"code": 41, "stderr": json.dumps(gemini)}, "you must specify"),
    ]
    for name, program, reply, said in cases:
        Stub(bin_dir, program).replies(reply)
        with pytest.raises(ModelError) as caught:
            get_model(name).extract(_task(), Budget(None))
        assert str(caught.value).startswith(f"{name}: not logged in: {said}")
        assert caught.value.kind == "auth"


def test_a_rate_limit_is_waited_out_then_gives_up(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "codex")
    limited = {"code": 1, "stderr": "error: 429 Too Many Requests: rate limit reached"}
    ok = {
        "stdout": json.dumps(
            {
                "type": "item.completed",
                "item": {"type": "agent_message", "text": json.dumps(ANSWER)},
            }
        )
    }
    registry.register("codex", lambda name, s: AgentCliModel(name, s, backoff=(0.0, 0.0)))
    try:
        stub.replies(limited, ok)
        assert get_model("codex").extract(_task(), Budget(None)).memories
        stub.replies(limited)
        with pytest.raises(ModelError) as caught:
            get_model("codex").extract(_task(), Budget(None))
    finally:
        registry.unregister("codex")
    assert caught.value.kind == "rate_limit"
    assert len(stub.calls()) == 2 + 3  # one retry and a success, then three tries


def test_prose_gets_one_repair_then_a_clear_error(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "claude")
    stub.replies(_claude("Sure! Here are the memories: none really."))
    with pytest.raises(ModelOutputError) as caught:
        get_model("claude-code").extract(_task(), Budget(None))
    assert "answered prose, not the JSON asked for, twice" in str(caught.value)
    calls = stub.calls()
    assert len(calls) == 2 and "It could not be used" in calls[1]["stdin"]


def test_the_budget_is_checked_before_the_cli_runs(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "claude")
    stub.replies(_claude(ANSWER))
    with pytest.raises(BudgetExceeded):
        get_model("claude-code").extract(_task(), Budget(50))
    assert stub.calls() == []


def test_answers_pass_the_safety_filter(bin_dir: Path) -> None:
    leaky = {
        "memories": [
            {**ANSWER["memories"][0]},  # type: ignore[index]
            {"key": "deploy-password", "type": "fact", "description": "Deploy password",
             "body": "The deploy password is hunter2."},
        ],
        "summary": "s",
    }  # fmt: skip
    Stub(bin_dir, "claude").replies(_claude(leaky))
    answer = get_model("claude-code").extract(_task(), Budget(None))
    assert [m.key for m in answer.memories] == ["test-command"]


def test_a_hung_cli_times_out(bin_dir: Path) -> None:
    Stub(bin_dir, "gemini").replies({"sleep": 5, "stdout": "{}"})
    with pytest.raises(ModelError) as caught:
        get_model("gemini-cli", ModelSettings(timeout=0.5)).extract(_task(), Budget(None))
    assert caught.value.kind == "timeout"
    assert str(caught.value).startswith("gemini-cli: no answer after 0.5s; run it again")


def test_init_and_status_offer_the_models_found_and_turn_none_on(
    bin_dir: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.helpers import cli

    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    bare = cli("init", "--home", str(home.parent / "other")).stdout
    assert "models you could use: none found besides builtin" in bare
    Stub(bin_dir, "codex")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    said = cli("init").stdout.splitlines()
    assert said[1:] == [
        "learning: builtin (offline rules): finds about 1 in 5 of what a careful reader keeps; "
        "'brain setup codex --learn' uses your agent's own login",
        "models you could use (each spends your quota; none is on until you set it):",
        "  codex               'codex' is on PATH (uses its login): brain setup codex --learn",
        "  openai/gpt-4o-mini  OPENAI_API_KEY is set: "
        "brain config set extract_model openai/gpt-4o-mini",
    ]
    status = cli("status").stdout
    assert "brain setup codex --learn" in status
    assert cli("config", "get", "extract_model").stdout == "builtin\n"
    assert Stub(bin_dir, "codex").calls() == []  # finding it ran nothing


def test_status_says_when_the_chosen_cli_is_gone(bin_dir: Path, home: Path) -> None:
    from tests.helpers import cli

    cli("init")
    assert cli("config", "set", "extract_model", "gemini-cli/gemini-2.5-pro").exit_code == 0
    said = cli("status").stdout
    assert (
        "model        extract: 'gemini' is not on PATH: install it, or set another model "
        "(builtin works offline)"
    ) in said
    Stub(bin_dir, "gemini")
    assert "not on PATH" not in cli("status").stdout
