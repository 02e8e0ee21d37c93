"""brain mcp's JSON-RPC loop, line by line: what the reference client never sends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from brain.agents.mcp_server import HANDSHAKE_VERSIONS, Session
from brain.agents.mcp_tools import TOOLS, ArgumentsError, check_arguments
from brain.api import Brain


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def initialize(version: str, request_id: int = 1) -> dict[str, Any]:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t"}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


def exchange(home: Path, cwd: Path, lines: list[Any]) -> list[dict[str, Any]]:
    """The answers of a ``brain mcp`` subprocess to ``lines``, up to that to a last ping."""
    lines = [*lines, {"jsonrpc": "2.0", "id": "last", "method": "ping"}]
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "BRAIN_HOME": str(home)},
        cwd=cwd,
    )
    assert process.stdin is not None and process.stdout is not None
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    process.stdin.write(text.encode())
    process.stdin.flush()
    answers: list[dict[str, Any]] = []
    while not answers or answers[-1].get("id") != "last":  # stdin stays open until then
        line = process.stdout.readline()
        assert line, f"brain mcp stopped early: {process.communicate(timeout=60)[1]!r}"
        answers.append(json.loads(line.decode("utf-8")))
    process.stdin.close()
    assert process.wait(timeout=60) == 0  # the end of its input ends the server
    return answers[:-1]


@pytest.mark.parametrize("version", ["2025-06-18", "2024-11-05", "1999-01-01"])
def test_initialize_negotiates_a_version_and_notifications_get_no_answer(
    brain: Brain, tmp_path: Path, version: str
) -> None:
    import brain as brain_package

    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    answers = exchange(brain.path, tmp_path, [initialize(version), initialized, ping])
    assert [a["id"] for a in answers] == [1, 2]
    result = answers[0]["result"]
    assert result["serverInfo"] == {"name": "brain", "version": brain_package.__version__}
    assert result["protocolVersion"] == (version if version in HANDSHAKE_VERSIONS else "2025-11-25")
    assert answers[1] == {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_bad_lines_get_json_rpc_errors_and_the_server_goes_on(brain: Brain, tmp_path: Path) -> None:
    lines: list[Any] = [
        initialize("2025-06-18"),
        "this is not json",
        "",  # a blank line is skipped
        {"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "info"}},
        {"jsonrpc": "2.0", "id": 4},
        {"jsonrpc": "1.0", "id": 11, "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"arguments": {}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "recall"}},
        {"jsonrpc": "2.0", "id": 7, "method": "prompts/list"},
        {"jsonrpc": "2.0", "id": 8, "method": "resources/list"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 6}},
        {"jsonrpc": "2.0", "id": 9, "result": {}},  # a response: brain asked nothing
    ]
    remember = {"text": "Le café ferme à 18 h; 存活率 est suivi.", "key": "cafe"}
    call = {"name": "remember", "arguments": remember}
    lines.append({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": call})
    answers = exchange(brain.path, tmp_path, lines)
    errors = {a["id"]: a["error"] for a in answers if "error" in a}
    assert errors[None]["code"] == -32700 and "not JSON" in errors[None]["message"]
    assert errors[3] == {"code": -32601, "message": "Method not found: logging/setLevel"}
    assert errors[4]["code"] == -32600 and "needs a method" in errors[4]["message"]
    assert errors[11] == {"code": -32600, "message": 'Invalid Request: "jsonrpc" must be "2.0"'}
    assert errors[5]["code"] == -32602 and "params.name" in errors[5]["message"]
    assert set(errors) == {None, 3, 4, 5, 11}
    results = {a["id"]: a["result"] for a in answers if "result" in a}
    assert results[6]["isError"] and "missing required argument 'query'" in str(results[6])
    assert results[7] == {"prompts": []} and results[8] == {"resources": []}
    assert results[10]["structuredContent"]["key"] == "cafe"
    body = (brain.path / "memories" / "cafe.md").read_text().split("---\n")[-1]
    assert body == remember["text"] + "\n"
    assert [a["id"] for a in answers] == [1, None, 3, 4, 11, 5, 6, 7, 8, 10]


def batch_answers(session: Session, batch: list[Any]) -> Any:
    line = session.answer_line(json.dumps(batch))
    return None if line is None else json.loads(line)


def test_batches_are_answered_in_2025_03_26_only(brain: Brain) -> None:
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    before = Session(brain.path)
    refused = batch_answers(before, [ping])
    assert refused["id"] is None and refused["error"]["code"] == -32600
    assert "before initialize" in refused["error"]["message"]

    later = Session(brain.path)
    later.answer(initialize("2025-06-18"))
    refused = batch_answers(later, [ping])
    assert "not part of MCP 2025-06-18" in refused["error"]["message"]
    assert "send one message per line" in refused["error"]["message"]

    session = Session(brain.path)
    session.answer(initialize("2025-03-26"))
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    listing = {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
    answers = batch_answers(session, [ping, notification, listing, initialize("2025-03-26", 4)])
    assert [a["id"] for a in answers] == [2, 3, 4]
    assert answers[0]["result"] == {} and len(answers[1]["result"]["tools"]) == 5
    assert answers[2]["error"]["message"] == "initialize must not be part of a batch"
    assert batch_answers(session, [notification]) is None  # notifications only: no answer
    assert batch_answers(session, [])["error"]["code"] == -32600


def test_arguments_are_checked_with_the_leniency_clients_had(tmp_path: Path) -> None:
    recall, remember = TOOLS["recall"], TOOLS["remember"]
    assert check_arguments(recall, {"query": "q", "k": "3", "other": 1}) == {
        "query": "q",
        "k": 3,
        "type": None,
        "tag": None,
        "since": None,
        "everywhere": False,
    }
    assert check_arguments(recall, {"query": "q", "k": 2.0, "tag": None})["k"] == 2
    tags = check_arguments(remember, {"text": "t", "tags": '["project:web"]'})["tags"]
    assert tags == ["project:web"]
    assert check_arguments(remember, {"text": "t"})["type"] == "fact"
    for bad, message in [
        ({"query": "q", "k": True}, "'k' must be an integer, not true"),
        ({"query": "q", "k": 2.5}, "'k' must be an integer, not 2.5"),
        ({"query": ["q"]}, "'query' must be a string, not [\"q\"]"),
        ({"query": "q", "since": 7}, "'since' must be a string or null, not 7"),
        ({"k": 3}, "missing required argument 'query'"),
    ]:
        with pytest.raises(ArgumentsError) as caught:
            check_arguments(recall, bad)
        assert str(caught.value) == message


LIGHT = """
import json, sys
from pathlib import Path
from brain.agents.mcp_server import Session
session = Session(Path(sys.argv[1]))
for line in sys.argv[2:]:
    answer = session.answer_line(line)
    assert answer is not None and '"isError":true' not in answer, answer
heavy = ("mcp", "pydantic", "anyio", "starlette", "litellm", "numpy")
print("HEAVY:" + ",".join(m for m in heavy if m in sys.modules))
"""


def test_serving_a_recall_imports_no_heavy_library(brain: Brain) -> None:
    brain.remember("The staging database resets nightly.", key="staging")
    recall = {"name": "recall", "arguments": {"query": "staging"}}
    lines = [initialize("2025-06-18"), {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    lines.append({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": recall})
    out = subprocess.run(
        [sys.executable, "-c", LIGHT, str(brain.path), *map(json.dumps, lines)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "HEAVY:"


def test_a_client_that_stops_reading_ends_the_server_quietly(brain: Brain) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "BRAIN_HOME": str(brain.path)},
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdout.close()  # gone before the answer is written
    process.stdin.write((json.dumps(initialize("2025-06-18")) + "\n").encode())
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    assert process.stderr is not None and process.stderr.read() == b""
