"""brain setup, doctor, the hooks and the own-memory reader for Qwen Code, on its files
(the real CLI is in tests/e2e/test_qwen.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.agents import hooks
from brain.agents.context import empty_context
from brain.sessions.sources.qwen_memory import read_qwen_memories
from tests.helpers import cli


def _qwen() -> Path:
    return Path.home() / ".qwen"


def test_setup_and_uninstall_give_the_persons_settings_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _qwen() / "settings.json"
    settings.parent.mkdir()
    mine = {
        "model": {"name": "qwen3-coder-plus"},
        "permissions": {"allow": ["run_shell_command(git status)"]},
        "mcpServers": {"other": {"command": "o"}},
        "hooks": {
            "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "x"}]}]
        },
    }
    settings.write_text(json.dumps(mine))
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0

    done = cli("setup", "qwen", "--allow-remember")
    assert done.exit_code == 0, done.stderr
    data = json.loads(settings.read_text())
    server = data["mcpServers"]["brain"]
    assert server["alwaysLoadTools"] is True and server["args"][-1] == "mcp"
    assert data["mcpServers"]["other"] == {"command": "o"}
    assert data["permissions"]["allow"] == [
        "run_shell_command(git status)",
        "mcp__brain__recall",
        "mcp__brain__read",
        "mcp__brain__context",
        "mcp__brain__remember",
    ]
    start = data["hooks"]["SessionStart"]
    assert start[0]["hooks"][0]["command"] == "x"
    assert start[-1]["hooks"][0]["command"].endswith("hook session-start --tool qwen")
    assert start[-1]["hooks"][0]["timeout"] == 10  # seconds, as Qwen Code reads it
    assert data["hooks"]["SessionEnd"][0]["hooks"][0]["command"].endswith(
        "hook session-end --tool qwen"
    )
    assert "~/.qwen/QWEN.md" in done.stdout and "headless 'qwen -p'" in done.stdout
    again = cli("setup", "qwen")
    assert again.stdout.count("no change") == 2, again.stdout  # remember stays approved

    assert cli("setup", "qwen", "--no-allow-remember").exit_code == 0
    assert "mcp__brain__remember" not in settings.read_text()
    assert cli("setup", "--uninstall", "qwen").exit_code == 0
    assert json.loads(settings.read_text()) == mine


def test_qwen_home_moves_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QWEN_HOME", str(tmp_path / "q"))
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "qwen").exit_code == 0
    assert "mcp__brain__recall" in (tmp_path / "q" / "settings.json").read_text()
    assert not _qwen().exists()
    assert cli("setup", "--uninstall", "qwen").exit_code == 0
    assert json.loads((tmp_path / "q" / "settings.json").read_text()) == {}


def test_doctor_names_every_switch_qwen_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".qwen").mkdir(parents=True)
    monkeypatch.chdir(project)
    assert cli("init").exit_code == 0
    assert cli("setup", "qwen").exit_code == 0
    healthy = cli("doctor", "qwen")
    assert healthy.exit_code == 0, healthy.stdout
    assert "qwen: hooks SessionStart, SessionEnd" in healthy.stdout

    settings = _qwen() / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "mcp": {"excluded": ["br*"]}}))
    (project / ".qwen" / "settings.json").write_text(
        json.dumps({"disableAllHooks": True, "mcp": {"allowed": ["github"]}})
    )
    off = cli("doctor", "qwen")
    assert off.exit_code == 1
    assert f"mcp.excluded in {settings} leaves brain's MCP server out" in off.stdout
    assert "Qwen Code runs no hooks, brain's included" in off.stdout
    assert "mcp.allowed in" in off.stdout and "add 'brain' to mcp.allowed" in off.stdout


def test_the_session_start_answer_escapes_no_angle_bracket() -> None:
    ctx = empty_context("")._replace(text="<brain-memory>x</brain-memory>")
    answer = json.loads(hooks.answer_json("qwen", ctx))["hookSpecificOutput"]
    # Qwen Code sends a hook's "<" and ">" to the model as "&lt;" and "&gt;".
    assert (
        "<" not in answer["additionalContext"]
        and "\u2039brain-memory\u203a" in (answer["additionalContext"])
    )


def test_its_own_memories_are_read(tmp_path: Path) -> None:
    root = tmp_path / ".qwen"
    root.mkdir()
    (root / "QWEN.md").write_text(
        "# Mine\n\n## Qwen Added Memories\n- I prefer tabs over spaces.\n"
        "<!-- brain:begin -->\n- brain's own block\n<!-- brain:end -->\n"
    )
    user = root / "memories" / "user"
    user.mkdir(parents=True)
    (user / "role.md").write_text(
        "---\nname: role\ndescription: The person is a data engineer\ntype: user\n---\n"
        "The person is a data engineer who works in Rust.\n"
    )
    (root / "memories" / "MEMORY.md").write_text("- [role](user/role.md)\n")
    project = root / "projects" / "-work-shop-app"
    (project / "memory" / "feedback").mkdir(parents=True)
    (project / "memory" / "feedback" / "tests.md").write_text(
        "---\nname: tests\ndescription: Run the unit tests with -x\ntype: feedback\n---\n"
        "Always run the unit tests with -x.\n"
    )
    (project / "chats").mkdir()
    (project / "chats" / "s.jsonl").write_text(json.dumps({"cwd": "/work/shop-app"}) + "\n")
    found = read_qwen_memories(root)
    assert [(m.tool, m.project, m.type, m.body) for m in found] == [
        ("qwen", None, "preference", "I prefer tabs over spaces."),
        ("qwen", None, "preference", "The person is a data engineer who works in Rust."),
        ("qwen", "shop-app", "instruction", "Always run the unit tests with -x."),
    ]
    assert found[1].origin == f"qwen:memory:{user / 'role.md'}"
    assert read_qwen_memories(tmp_path / "nothing") == []


def test_learning_with_qwen_is_refused_saying_why() -> None:
    assert cli("init").exit_code == 0
    result = cli("setup", "qwen", "--learn")
    assert result.exit_code == 1
    assert "Qwen Code cannot be brain's model" in result.stderr
    assert "offers the model its own tools" in result.stderr
    assert not (_qwen() / "settings.json").exists()  # refused before anything is written


def test_no_learn_is_a_no_op_where_learning_cannot_be_on() -> None:
    assert cli("init").exit_code == 0
    for tool in ("qwen", "copilot"):
        done = cli("setup", tool, "--no-learn")
        assert done.exit_code == 0, done.stderr
        assert "learning stays with builtin" in done.stdout
