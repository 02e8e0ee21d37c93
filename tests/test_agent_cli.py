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
from brain.models.agent_cli_flags import PREPARE, Call, strict_schema
from brain.models.base import ExtractTask, ModelError, ModelOutputError, ModelSettings
from brain.models.budget import Budget, BudgetExceeded
from brain.models.options import BUILTIN_FINDS
from brain.models.registry import get_model
from brain.models.schema import Extraction, answer_schema
from brain.sessions.internal import INTERNAL_ENV, INTERNAL_MARK
from brain.sessions.sources.base import Transcript, Turn

_STUB = """#!{python}
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
replies = json.load(open(os.path.join(here, "replies.json")))
calls = os.path.join(here, "calls.jsonl")
n = sum(1 for _ in open(calls)) if os.path.exists(calls) else 0
prompt = sys.stdin.read()
# The files a call hands over live only as long as the call: keep what they hold.
files = {{a: open(a).read() for a in sys.argv[1:] + [v for k, v in os.environ.items()
         if k.startswith(("GEMINI_SYSTEM", "GEMINI_CLI"))] if os.path.isfile(a)}}
home = os.environ.get("GEMINI_CLI_HOME")
if home:
    settings = os.path.join(home, ".gemini", "settings.json")
    files[settings] = open(settings).read()
env = {{k: v for k, v in os.environ.items()
       if k.startswith(("GEMINI", "CLAUDE", "MAX_", "OPENCODE", "XDG_CONFIG", "PWD"))}}
with open(calls, "a") as log:
    log.write(json.dumps({{"argv": sys.argv[1:], "stdin": prompt, "files": files, "env": env,
                          "internal": os.environ.get("{env}"), "pid": os.getpid(),
                          "cwd": os.getcwd()}}) + "\\n")
reply = replies[min(n, len(replies) - 1)]
if reply.get("child"):  # a child that outlives this process unless its group is killed
    import subprocess
    kid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    open(os.path.join(here, "child.pid"), "w").write(str(kid.pid))
sys.stderr.write(reply.get("stderr", ""))
sys.stderr.flush()
time.sleep(reply.get("sleep", 0))
sys.stdout.write(reply.get("stdout", ""))
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


def _codex(answer: object) -> dict[str, Any]:
    item = {"type": "agent_message", "text": json.dumps(answer)}
    return {"stdout": json.dumps({"type": "item.completed", "item": item})}


def _gemini(answer: object) -> dict[str, Any]:
    return {"stdout": json.dumps({"response": json.dumps(answer)})}


def test_claude_code_answers_through_its_headless_json_mode(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "claude")
    stub.replies(_claude(ANSWER, input_tokens=900, output_tokens=60))
    budget = Budget(100_000)
    answer = get_model("claude-code/sonnet").extract(_task(), budget)
    assert [m.key for m in answer.memories] == ["test-command"]
    (call,) = stub.calls()
    argv = call["argv"]
    assert argv[:6] == ["-p", "--output-format", "json", "--tools", "", "--strict-mcp-config"]
    assert "--mcp-config" not in argv  # so no MCP server at all
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    assert argv[-2:] == ["--model", "sonnet"]
    assert call["internal"] == "1"
    assert call["stdin"].startswith(INTERNAL_MARK)
    assert "run the tests with pnpm test" in call["stdin"]
    # brain's instructions are the system prompt, in place of the CLI's own.
    system = call["files"][argv[argv.index("--system-prompt-file") + 1]]
    assert "## The gate" in system and "## The gate" not in call["stdin"]
    assert call["env"]["CLAUDE_CODE_MAX_OUTPUT_TOKENS"] == "500"  # the task's answer cap
    assert call["env"]["CLAUDE_CODE_MAX_RETRIES"] == "0"
    assert budget.used.total_tokens == 960  # what the CLI reported


def test_each_cli_runs_a_cheap_model_unless_one_is_named(bin_dir: Path) -> None:
    replies = {"claude": _claude(ANSWER), "codex": _codex(ANSWER), "gemini": _gemini(ANSWER)}
    for (program, reply), name in zip(
        replies.items(), ("claude-code", "codex", "gemini-cli"), strict=True
    ):
        Stub(bin_dir, program).replies(reply)
        get_model(name).extract(_task(), Budget(None))
    said = [json.loads(line) for line in (bin_dir / "calls.jsonl").read_text().splitlines()]
    models = [c["argv"][c["argv"].index("--model" if "--model" in c["argv"] else "-m") + 1]
              for c in said]  # fmt: skip
    assert models == ["haiku", "gpt-6-luna", "gemini-2.5-flash"]
    assert 'model_reasoning_effort="low"' in said[1]["argv"]


def test_codex_reads_the_last_agent_message_and_the_turn_usage(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "codex")
    events = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.completed", "item": {"type": "agent_message", "text": json.dumps(ANSWER)}},
        {"type": "turn.completed", "usage": {"input_tokens": 700, "output_tokens": 40}},
    ]
    stub.replies({"stdout": "\n".join(json.dumps(e) for e in events)})
    codex_home = Path(os.environ["HOME"]) / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        'model_provider = "corp"\nnotify = ["say"]\n\n[model_providers.corp]\nname = "Corp"\n'
        'base_url = "https://llm.corp/v1"\nrequest_max_retries = 2\n\n'
        '[mcp_servers.brain]\ncommand = "brain"\nrequired = true\n'
    )
    budget = Budget(None)
    answer = get_model("codex").extract(_task(), budget)
    assert answer.summary == "Fixed the tests."
    argv = stub.calls()[0]["argv"]
    assert argv[:6] == ["exec", "--json", "--ephemeral", "--sandbox", "read-only",
                        "--skip-git-repo-check"]  # fmt: skip
    assert "--ignore-user-config" in argv  # the person's MCP servers, notify, profiles
    overrides = [argv[i + 1] for i, a in enumerate(argv) if a == "-c"]
    assert overrides[:2] == [  # but their own provider, and the login CODEX_HOME holds
        'model_provider="corp"',
        'model_providers.corp={"name" = "Corp", "base_url" = "https://llm.corp/v1", '
        '"request_max_retries" = 2}',
    ]
    assert any(o.startswith("model_catalog_json=") for o in overrides)
    for off in ("mcp_servers={}", 'web_search="disabled"', "features.shell_tool=false",
                "features.unified_exec=false", "features.hooks=false"):  # fmt: skip
        assert off in overrides
    assert argv[-1] == "-"  # the data on standard input
    # The answer's schema goes along only when OpenAI's strict mode takes it.
    assert ("--output-schema" in argv) == strict_schema(answer_schema(Extraction))
    assert budget.used.total_tokens == 740


def test_codex_is_held_to_a_strict_schema_only() -> None:
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
              "additionalProperties": False}  # fmt: skip
    assert strict_schema(closed)
    assert not strict_schema({**closed, "required": []})
    assert not strict_schema({"type": "object", "properties": {"n": {**closed}}, "required": ["n"]})
    call = Call("be brief", "data", closed, 100, "m")
    argv = PREPARE["codex"](call, Path(os.environ["HOME"])).argv
    schema = Path(argv[argv.index("--output-schema") + 1])
    assert json.loads(schema.read_text()) == closed


def test_gemini_cli_reads_its_json_and_counts_what_was_sent_when_it_reports_nothing(
    bin_dir: Path,
) -> None:
    stub = Stub(bin_dir, "gemini")
    stub.replies(
        {"stdout": "Loaded cached credentials.\n" + json.dumps({"response": json.dumps(ANSWER)})}
    )
    budget = Budget(None)
    get_model("gemini-cli/gemini-2.5-flash").extract(_task(), budget)
    (call,) = stub.calls()
    assert call["argv"][-2:] == ["-m", "gemini-2.5-flash"]
    assert budget.used.prompt_tokens > 100  # estimated from the prompt sent


def test_gemini_cli_runs_in_a_home_of_its_own_with_only_the_persons_login(
    bin_dir: Path, tmp_path: Path
) -> None:
    theirs = Path(os.environ["HOME"]) / ".gemini"
    theirs.mkdir()
    (theirs / "oauth_creds.json").write_text('{"refresh_token": "r"}')
    mcp = {"brain": {"command": "brain", "args": ["mcp"]}}
    person = {"security": {"auth": {"selectedType": "oauth-personal"}}, "mcpServers": mcp,
              "tools": {"allowed": ["run_shell_command"]}}  # fmt: skip
    (theirs / "settings.json").write_text(json.dumps(person))
    stub = Stub(bin_dir, "gemini")
    stub.replies(_gemini(ANSWER))
    get_model("gemini-cli").extract(_task(), Budget(None))
    (call,) = stub.calls()
    home = Path(call["env"]["GEMINI_CLI_HOME"])
    settings = json.loads(call["files"][str(home / ".gemini" / "settings.json")])
    assert settings["security"] == person["security"]
    assert settings["tools"] == {"core": []} and settings["mcpServers"] == {}
    assert settings["hooksConfig"] == {"enabled": False}
    generation = settings["modelConfigs"]["customOverrides"][0]["modelConfig"]
    assert generation["generateContentConfig"]["maxOutputTokens"] == 500
    assert generation["generateContentConfig"]["thinkingConfig"]["thinkingBudget"] == 0
    assert "## The gate" in call["files"][call["env"]["GEMINI_SYSTEM_MD"]]
    assert not home.exists()  # removed after the call, the login link with it
    assert (theirs / "oauth_creds.json").read_text() == '{"refresh_token": "r"}'
    assert sorted(p.name for p in theirs.iterdir()) == ["oauth_creds.json", "settings.json"]


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


def test_invalid_json_is_told_as_invalid_json(bin_dir: Path) -> None:
    Stub(bin_dir, "claude").replies(_claude('{"memories": [], "summary": "cut sh'))
    with pytest.raises(ModelOutputError) as caught:
        get_model("claude-code").extract(_task(), Budget(None))
    assert str(caught.value).startswith(
        "claude-code answered JSON that cannot be used, twice: the answer is not valid JSON"
    )


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
    assert str(caught.value).startswith(
        "gemini-cli: no answer after 0.5s (the CLI was stopped, with its children); run it again"
    )


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent to read it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="no process groups (Windows)")
def test_a_timeout_kills_the_clis_children_too(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "codex")
    stub.replies({"sleep": 30, "child": True})
    with pytest.raises(ModelError) as caught:
        get_model("codex", ModelSettings(timeout=2)).extract(_task(), Budget(None))
    assert caught.value.kind == "timeout"
    (call,) = stub.calls()
    child = int((bin_dir / "child.pid").read_text())
    assert not alive(call["pid"]) and not alive(child)


def test_a_cli_waiting_out_a_rate_limit_is_told_as_one(bin_dir: Path) -> None:
    said = "Attempt 1 failed with status 429. Retrying with backoff... RESOURCE_EXHAUSTED"
    Stub(bin_dir, "gemini").replies({"stderr": said, "sleep": 5})
    with pytest.raises(ModelError) as caught:
        get_model("gemini-cli", ModelSettings(timeout=1)).extract(_task(), Budget(None))
    assert caught.value.kind == "rate_limit"
    assert str(caught.value).startswith("gemini-cli: rate limited, no answer after 1s: Attempt 1")


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
        f"learning: builtin (offline rules): {BUILTIN_FINDS}; "
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


def test_status_looks_at_the_cli_setup_found_not_path(
    bin_dir: Path, home: Path, tmp_path: Path
) -> None:
    # 'brain setup TOOL --learn' keeps the CLI by its path; brain runs that one, so status
    # and doctor look at it, wherever PATH points.
    from brain.agents.doctor import model_problems
    from brain.api import Brain
    from tests.helpers import cli

    cli("init")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    Stub(elsewhere, "gemini")
    assert cli("config", "set", "extract_model", "gemini-cli/gemini-2.5-pro").exit_code == 0
    Brain.open(home).config_set("model_program", str(elsewhere / "gemini"))
    said = cli("status").stdout
    assert "model        extract" not in said
    assert model_problems(home) == ()
    (elsewhere / "gemini").unlink()
    Stub(bin_dir, "gemini")  # one on PATH is not the one brain runs
    gone = (
        f"{elsewhere / 'gemini'}, which 'brain setup gemini --learn' found, is gone: reinstall "
        "it, then run 'brain setup gemini --learn' again"
    )
    assert f"model        extract: {gone}" in cli("status").stdout
    assert model_problems(home) == (f"extract model gemini-cli/gemini-2.5-pro: {gone}",)
