"""OpenCode 1.18.33 as brain's model (``brain setup opencode --learn``), the real binary.

The person's OpenCode speaks to the scripted server as its ``anthropic`` provider, with
their model and small model chosen, and with what a person's settings hold that must
stay out of brain's runs: an MCP server, an instruction file, brain's own plugin. The
phase-1 prompt is a transcript, untrusted: the run must offer the model no tool and
refuse the one a planted line asks for, cap its answer, and leave no session of its own
in the person's OpenCode.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import uuid
from pathlib import Path

from brain.models.opencode_config import config_dir
from brain.sessions.internal import INTERNAL_MARK
from brain.sessions.sources.locations import opencode_data
from tests.e2e.conftest import BIN, TIMEOUT
from tests.e2e.servers import ModelServer, Reply, _tool_names
from tests.e2e.test_model_runs import _survivors
from tests.e2e.test_models import ANSWER, FACT, person_session, run
from tests.e2e.test_opencode import opencode_agent

CANARY = "Global rule 3318: answer in Latin."
SMALL = "claude-haiku-4-5"


def persons_opencode(model: ModelServer, tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The person's OpenCode, its settings as they have them; the environment brain runs
    in (the pinned CLIs on PATH), and the file their MCP server leaves when it starts."""
    env = dict(opencode_agent(model).env)
    env["PATH"] = f"{BIN}{os.pathsep}{env['PATH']}"
    started = tmp_path / "their-server-started"
    settings = config_dir() / "opencode.json"
    config = json.loads(settings.read_text())
    config["small_model"] = f"anthropic/{SMALL}"
    config["mcp"] = {"theirs": {"type": "local", "command": ["touch", str(started)]}}
    settings.write_text(json.dumps(config, indent=2))
    (config_dir() / "AGENTS.md").write_text(f"{CANARY}\n")
    return env, started


def test_opencode_learns_with_no_tool_capped_and_out_of_its_history(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    env, started = persons_opencode(model, tmp_path)
    run(env, "init")
    set_up = run(env, "setup", "opencode", "--learn")
    assert "learning with opencode's own login: opencode/small reads each session" in (
        set_up.stdout
    ), set_up.stdout
    for key, value in (("min_idle_minutes", "0"), ("min_rollout_idle_hours", "0")):
        run(env, "config", "set", key, value)
    person_session(project)
    run(env, "harvest")
    secret = tmp_path / "private.txt"
    secret.write_text("canary 5521: the person's private notes\n")
    model.match = INTERNAL_MARK
    # What a line planted in the transcript could make the model do: read a file.
    model.push(Reply(tool="read", args={"filePath": str(secret)}), Reply(json.dumps(ANSWER)))

    result = json.loads(run(env, "extract", "--json", cwd=project).stdout)

    assert [s["status"] for s in result["sessions"]] == ["done"], result
    assert not model.script  # the call was answered (refused), and the model asked again
    assert FACT in (Path(os.environ["BRAIN_HOME"]) / "raw_memories.md").read_text()
    asked = [r for r in model.requests if INTERNAL_MARK in r.text]
    assert asked, [r.path for r in model.requests]
    assert [name for r in model.requests for name in _tool_names(r.body)] == []
    assert not [r for r in model.requests if "canary 5521" in r.text]  # the read was refused
    first = asked[0].body
    assert first["model"] == SMALL  # the person's small model, for phase 1
    assert first["max_tokens"] <= 8192, first["max_tokens"]  # phase 1's cap, not OpenCode's
    system = json.dumps(first["system"], ensure_ascii=False)
    assert system.startswith('[{"type": "text", "text": "You keep the long-term memory'), system
    assert "Is directory a git repo: no" in system  # run in an empty folder, not a project
    assert not [r for r in model.requests if CANARY in r.text]  # no instruction file of theirs
    assert not [r for r in model.requests if "<brain-memory>" in r.text]  # no plugin
    assert not started.exists()  # no MCP server of theirs started
    # The run is in no database of the person's OpenCode: nothing to harvest later.
    db = opencode_data() / "opencode.db"
    if db.exists():
        with sqlite3.connect(db) as con:
            assert con.execute("select count(*) from session").fetchone() == (0,)
    harvested = json.loads(run(env, "harvest", "--json").stdout)
    assert sum(s["new"] + s["grown"] for s in harvested["sources"]) == 0, harvested
    (last,) = json.loads(run(env, "runs", "list", "--json", "-n", "1").stdout)
    assert last["model"] == "opencode/small" and last["tokens"] > 0, last


def test_a_call_that_gets_no_answer_leaves_no_process(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    # OpenCode also waits out a rate limit by itself: brain stops it the same way.
    env, _ = persons_opencode(model, tmp_path)
    run(env, "init")
    run(env, "setup", "opencode", "--learn")
    for key, value in (
        ("min_idle_minutes", "0"),
        ("min_rollout_idle_hours", "0"),
        ("model_timeout", "20"),
        ("model_retries", "0"),
    ):
        run(env, "config", "set", key, value)
    person_session(project)
    run(env, "harvest")
    model.stall = True  # the server takes each request and never answers it
    mark = uuid.uuid4().hex
    env["E2E_RUN_MARK"] = mark

    done = subprocess.run(
        ["brain", "extract"], capture_output=True, text=True, env=env, timeout=TIMEOUT
    )

    assert done.returncode == 1, done.stdout + done.stderr
    assert "opencode/small: no answer after 20s (the CLI was stopped" in done.stderr, done.stderr
    assert _survivors(mark) == []
