"""A litellm model whose provider's key is not set is said before an extract fails on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli

OPENAI_MISSING = (
    "OPENAI_API_KEY is not set (litellm's openai provider reads it): export it where brain "
    "runs, or set another model (builtin works offline)"
)


def test_config_set_status_and_doctor_name_the_missing_variable(home: Path) -> None:
    cli("init")
    setting = cli("config", "set", "extract_model", "openai/gpt-4o-mini")
    assert setting.exit_code == 0
    assert setting.stdout.startswith("extract_model = openai/gpt-4o-mini")
    assert setting.stderr == f"warning: extract_model openai/gpt-4o-mini: {OPENAI_MISSING}\n"
    assert f"model        extract: {OPENAI_MISSING}" in cli("status").stdout.splitlines()
    doctor = cli("doctor", "--json")
    assert '"models": [' in doctor.stdout
    text = cli("doctor")
    assert (
        text.stdout.splitlines()[-1] == f"model: extract model openai/gpt-4o-mini: {OPENAI_MISSING}"
    )
    assert text.exit_code == 1


def test_each_provider_names_its_own_variable(home: Path) -> None:
    cli("init")
    said = cli("config", "set", "consolidation_model", "anthropic/claude-haiku-4-5").stderr
    assert "ANTHROPIC_API_KEY is not set (litellm's anthropic provider reads it)" in said
    status = cli("status").stdout
    assert "model        consolidation: ANTHROPIC_API_KEY is not set" in status
    assert "model        extract:" not in status  # builtin needs nothing


def test_nothing_is_said_once_the_key_is_set(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("init")
    cli("config", "set", "extract_model", "openai/gpt-4o-mini")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert "OPENAI_API_KEY" not in cli("status").stdout
    doctor = cli("doctor")
    assert "model:" not in doctor.stdout and doctor.exit_code == 0
    assert cli("config", "set", "extract_model", "openai/gpt-4o").stderr == ""


def test_a_local_server_needs_no_key(home: Path) -> None:
    cli("init")
    cli("config", "set", "model_api_base", "http://127.0.0.1:11434")
    assert cli("config", "set", "extract_model", "openai/llama3").stderr == ""
    assert cli("config", "set", "consolidation_model", "ollama/llama3").stderr == ""
    assert "is not set" not in cli("status").stdout
