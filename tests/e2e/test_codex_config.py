"""What the real Codex writes into config.toml next to brain's table, and brain keeping it:
the trust a person gives in the TUI, and ``codex mcp add`` rewriting the whole file."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import tomllib
from pathlib import Path

import pytest

from brain.agents.installers import settings_path
from tests.e2e.conftest import AGENTS, Agent, binary, brain, codex_hooks
from tests.e2e.servers import ModelServer
from tests.e2e.test_interactive import Terminal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def trust_in_the_tui(agent: Agent, project: Path) -> None:
    """Start ``codex`` in a terminal, trust the folder and all hooks, then ``/exit``."""
    sockets = Path(tempfile.mkdtemp(prefix="brain-tmux-", dir="/tmp"))
    term = Terminal(sockets / "s", [str(binary("codex"))], project, agent.env)
    try:
        term.wait_for("Trust this folder?")
        # A loaded machine draws the dialog before it reads keys: an Enter it dropped is
        # sent again while the folder's dialog is still the one shown.
        for _ in range(5):
            subprocess.run([*term.base, "send-keys", "Enter"], check=True)
            time.sleep(3)
            if "Trust this folder?" not in term.screen():
                break
        term.wait_for("Trust all and continue")
        subprocess.run([*term.base, "send-keys", "Down", "Enter"], check=True)
        term.wait_for("Ask Codex")
        term.type("/exit")
        deadline = time.monotonic() + 30
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.3)
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)


def as_dotted_keys(config: Path) -> None:
    """The agent's config with its provider as dotted keys: a file with no table, so
    brain's block ends it and Codex writes its tables inside brain's markers."""
    data = tomllib.loads(config.read_text())
    lines = [f'model = "{data["model"]}"', f'model_provider = "{data["model_provider"]}"']
    fake = data["model_providers"]["fake"]
    lines += [f'model_providers.fake.{k} = "{v}"' for k, v in fake.items()]
    config.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("layout", ["tables", "no-table"])
def test_the_trust_codex_writes_survives_setup_again(
    layout: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS["codex"](model)
    config = settings_path("codex").with_name("config.toml")
    if layout == "no-table":
        as_dotted_keys(config)
    assert brain("init").returncode == 0
    assert brain("setup", "codex").returncode == 0
    trust_in_the_tui(agent, project)
    trusted = tomllib.loads(config.read_text())
    assert trusted["projects"][str(project)] == {"trust_level": "trusted"}
    assert {h["trustStatus"] for h in codex_hooks(agent, project)} == {"trusted"}
    text = config.read_text()
    if layout == "no-table":  # Codex put its tables before brain's end marker
        assert text.rstrip().endswith("# brain:end")
        assert text.index("[projects.") < text.index("# brain:end")
    else:  # brain's block stands before the first table: Codex appended after it
        assert text.index("# brain:end") < text.index("[projects.")

    again = brain("setup", "codex", "--allow-remember")
    assert again.returncode == 0, again.stderr
    data = tomllib.loads(config.read_text())
    assert data["projects"] == trusted["projects"] and data["hooks"] == trusted["hooks"]
    assert data["mcp_servers"]["brain"]["tools"]["remember"] == {"approval_mode": "approve"}
    assert {h["trustStatus"] for h in codex_hooks(agent, project)} == {"trusted"}
    doctor = brain("doctor", "codex")
    assert doctor.returncode == 0 and "trusted: yes" in doctor.stdout, doctor.stdout

    assert brain("setup", "--uninstall", "codex").returncode == 0
    rest = tomllib.loads(config.read_text())
    assert "mcp_servers" not in rest and rest["projects"] == trusted["projects"]
    assert rest["hooks"]["state"] == trusted["hooks"]["state"]


def test_codex_mcp_add_rewriting_the_file_breaks_neither_setup_nor_uninstall(
    model: ModelServer, project: Path
) -> None:
    agent = AGENTS["codex"](model)
    config = settings_path("codex").with_name("config.toml")
    assert brain("init").returncode == 0
    assert brain("setup", "codex").returncode == 0
    added = subprocess.run(
        [str(binary("codex")), "mcp", "add", "other", "--", "echo", "hi"],
        env=agent.env,
        capture_output=True,
        text=True,
    )
    assert added.returncode == 0, added.stderr
    assert "# brain:begin" not in config.read_text()  # Codex dropped brain's marker

    doctor = brain("doctor", "codex")
    assert "would stop" not in doctor.stdout, doctor.stdout
    again = brain("setup", "codex")
    assert again.returncode == 0, again.stderr
    assert config.read_text().count("# brain:begin") == 1
    assert brain("setup", "codex").stdout.count("no change") == 2
    agent.run("hello", project)  # Codex reads the file brain wrote back
    assert "session-start ok" in brain("doctor", "codex").stdout

    hooks = config.with_name("hooks.json")
    gone = brain("setup", "--uninstall", "codex")
    assert gone.returncode == 0, gone.stderr
    data = tomllib.loads(config.read_text())
    assert data["mcp_servers"] == {"other": {"command": "echo", "args": ["hi"]}}
    assert "brain hook" not in hooks.read_text()


def test_a_table_brain_did_not_write_stops_uninstall_before_any_file_changes(
    model: ModelServer, project: Path
) -> None:
    agent = AGENTS["codex"](model)
    config = settings_path("codex").with_name("config.toml")
    assert brain("init").returncode == 0
    assert brain("hooks", "install", "codex").returncode == 0
    hooks = config.with_name("hooks.json").read_text()
    theirs = subprocess.run(
        [str(binary("codex")), "mcp", "add", "brain", "--", "node", "their-brain.js"],
        env=agent.env,
        capture_output=True,
        text=True,
    )
    assert theirs.returncode == 0, theirs.stderr
    before = config.read_text()

    gone = brain("setup", "--uninstall", "codex")
    assert gone.returncode == 1
    assert "table brain did not write" in gone.stderr
    assert config.with_name("hooks.json").read_text() == hooks  # all or nothing
    assert config.read_text() == before
    doctor = brain("doctor", "codex")
    assert doctor.returncode == 1
    assert "problem: 'brain setup codex' and its uninstall would stop" in doctor.stdout
