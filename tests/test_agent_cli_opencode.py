"""OpenCode as brain's model, against a stub ``opencode`` on PATH: what a call is given."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from brain.models.base import ModelError
from brain.models.budget import Budget
from brain.models.opencode_config import person_settings
from brain.models.registry import get_model
from brain.sessions.internal import INTERNAL_MARK
from tests.test_agent_cli import ANSWER, Stub, _task


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", f"{path}{os.pathsep}{os.defpath}")
    return path


def _opencode(answer: object, *, text_first: str = "") -> dict[str, Any]:
    """What ``opencode run --format json`` prints: a step that asked for a tool, then the
    step that answered."""
    part = {"tokens": {"input": 900, "output": 60, "reasoning": 0, "cache": {"read": 100}}}
    events = [
        {"type": "step_start", "part": {}},
        {"type": "text", "part": {"type": "text", "text": text_first}},
        {"type": "step_finish", "part": {**part, "cost": 0.001}},
        {"type": "step_start", "part": {}},
        {"type": "text", "part": {"type": "text", "text": json.dumps(answer)}},
        {"type": "step_finish", "part": {**part, "cost": 0.002}},
    ]
    return {"stdout": "".join(json.dumps(e) + "\n" for e in events)}


def _person(config: str, extra: dict[str, Any] | None = None) -> Path:
    folder = Path.home() / ".config" / "opencode"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "opencode.jsonc").write_text(config)
    if extra is not None:
        (folder / "config.json").write_text(json.dumps(extra))
    (folder / "AGENTS.md").write_text("Their own rule.\n")
    return folder


PERSONS = """{
  // their providers and models, JSONC as OpenCode reads it
  "model": "anthropic/claude-sonnet-4-5",
  "small_model": "anthropic/claude-haiku-4-5",
  "provider": {"anthropic": {"options": {"baseURL": "http://127.0.0.1:9/v1"}}},
  "mcp": {"theirs": {"type": "local", "command": ["theirs"]}},
  "plugin": ["their-plugin"],
}"""


def test_a_call_reads_no_setting_of_the_persons_but_providers_and_models(
    bin_dir: Path, tmp_path: Path
) -> None:
    person = _person(PERSONS, {"provider": {"anthropic": {"options": {"timeout": 5}}}})
    stub = Stub(bin_dir, "opencode")
    stub.replies(_opencode(ANSWER, text_first="Let me read that file."))
    budget = Budget(100_000)

    answer = get_model("opencode/small").extract(_task(), budget)

    assert [m.key for m in answer.memories] == ["test-command"]  # the last step's text
    (call,) = stub.calls()
    argv, env = call["argv"], call["env"]
    assert argv[:8] == ["run", "--pure", "--agent", "brain", "--title", "brain", "--format", "json"]
    assert argv[8:10] == ["-m", "anthropic/claude-haiku-4-5"]  # their small model
    assert call["stdin"].startswith(INTERNAL_MARK) and call["internal"] == "1"
    # A settings folder of the call's own: none of theirs (MCP server, plugin, AGENTS.md).
    assert env["XDG_CONFIG_HOME"] != str(person.parent)
    assert env["OPENCODE_CONFIG"] == "" and env["OPENCODE_CONFIG_DIR"] == ""
    assert env["OPENCODE_PURE"] == "1" and env["OPENCODE_DISABLE_CLAUDE_CODE"] == "1"
    config = json.loads(env["OPENCODE_CONFIG_CONTENT"])
    assert config["provider"] == {
        "anthropic": {"options": {"timeout": 5, "baseURL": "http://127.0.0.1:9/v1"}}
    }
    assert config["mcp"] == {} and "plugin" not in config
    assert config["tools"] == {"*": False} and config["permission"] == {"*": "deny"}
    agent = config["agent"]["brain"]
    assert "## The gate" in agent["prompt"] and "## The gate" not in call["stdin"]
    assert agent["tools"] == {"*": False}
    assert env["OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX"] == "500"  # the task's answer cap
    # Its own database and folder, gone with the call; run in an empty folder, PWD too.
    assert not Path(env["OPENCODE_DB"]).parent.exists()
    assert env["PWD"] == call["cwd"] and not Path(call["cwd"]).exists()
    assert budget.used.total_tokens == 2 * 1060


def test_bare_opencode_runs_their_model_and_a_named_one_runs_as_named(bin_dir: Path) -> None:
    _person(PERSONS)
    stub = Stub(bin_dir, "opencode")
    stub.replies(_opencode(ANSWER))
    get_model("opencode").extract(_task(), Budget(None))
    get_model("opencode/openai/gpt-6-mini").extract(_task(), Budget(None))
    models = [c["argv"][c["argv"].index("-m") + 1] for c in stub.calls()]
    assert models == ["anthropic/claude-sonnet-4-5", "openai/gpt-6-mini"]


def test_with_no_model_chosen_anywhere_opencode_chooses(bin_dir: Path) -> None:
    stub = Stub(bin_dir, "opencode")
    stub.replies(_opencode(ANSWER))
    get_model("opencode/small").extract(_task(), Budget(None))
    (call,) = stub.calls()
    assert "-m" not in call["argv"]
    assert "provider" not in json.loads(call["env"]["OPENCODE_CONFIG_CONTENT"])


def test_an_error_event_is_told_in_opencodes_words(bin_dir: Path) -> None:
    error = {"name": "APIError", "data": {"message": "invalid x-api-key", "statusCode": 401}}
    stub = Stub(bin_dir, "opencode")
    stub.replies({"stdout": json.dumps({"type": "error", "error": error}) + "\n", "code": 1})
    with pytest.raises(ModelError) as caught:
        get_model("opencode/small").extract(_task(), Budget(None))
    assert "not logged in: invalid x-api-key" in str(caught.value)
    assert caught.value.hint == "run opencode auth login"


def test_their_settings_merge_as_opencode_merges_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _person(PERSONS, {"model": "openai/gpt-6", "provider": {"openai": {"name": "mine"}}})
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"small_model": "openai/gpt-6-mini"}))
    monkeypatch.setenv("OPENCODE_CONFIG", str(extra))
    settings = person_settings()
    # config.json, then opencode.jsonc over it, then $OPENCODE_CONFIG over both.
    assert settings["model"] == "anthropic/claude-sonnet-4-5"
    assert settings["small_model"] == "openai/gpt-6-mini"
    assert sorted(settings["provider"]) == ["anthropic", "openai"]
