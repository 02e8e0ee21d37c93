"""Test isolation: every test gets its own home, user, git identity and no model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.fakemodel import guard_model_calls

# Shared, loaded machines make wall-clock deadlines flaky; the properties are what count.
# Under CI the examples are drawn the same on every run: a run that lands is repeatable.
settings.register_profile("brain", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("brain")

_LEAKY_VARS = (
    "BRAIN_HOME",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "CRUSH_GLOBAL_CONFIG",
    "CRUSH_GLOBAL_DATA",
    "OPENAI_API_KEY",
    "OPENAI_API_BASE",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "BRAIN_NO_GENERATE",
    "GIT_DIR",
    "GIT_WORK_TREE",
)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME, BRAIN_HOME and git's config at fresh directories under tmp_path."""
    for name in _LEAKY_VARS:
        monkeypatch.delenv(name, raising=False)
    user_home = tmp_path / "user"
    user_home.mkdir()
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Brain Test\n\temail = test@example.invalid\n"
        "[init]\n\tdefaultBranch = main\n"
    )
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("BRAIN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Brain Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Brain Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.invalid")
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return tmp_path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The path BRAIN_HOME points at (not yet initialised)."""
    return tmp_path / "home"


@pytest.fixture(autouse=True)
def no_model_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any model call that is not to the local fake server or a mock_response fails."""
    guard_model_calls(monkeypatch)
