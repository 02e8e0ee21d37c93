"""brain mcp: a real server subprocess driven by the mcp package's own stdio client."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from brain.api import Brain
from tests.helpers import commit_count, git


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def with_client(home: Path, cwd: Path, body: Callable[[Any], Awaitable[Any]]) -> Any:
    """Start ``brain mcp`` as a subprocess, connect, run ``body(client)``."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "brain", "mcp"],
        env={**os.environ, "BRAIN_HOME": str(home)},
        cwd=str(cwd),
    )

    async def run() -> Any:
        async with Client(params, read_timeout_seconds=60) as client:
            return await body(client)

    return asyncio.run(run())


def test_tools_are_listed_with_guidance_and_annotations(brain: Brain, tmp_path: Path) -> None:
    async def body(client: Any) -> Any:
        return (await client.list_tools()).tools

    tools = {t.name: t for t in with_client(brain.path, tmp_path, body)}
    assert set(tools) == {"recall", "remember", "forget", "read", "context"}
    for name in ("recall", "read", "context"):
        assert tools[name].annotations.read_only_hint is True
        assert tools[name].annotations.destructive_hint is False
    assert tools["remember"].annotations.read_only_hint is False
    assert tools["remember"].annotations.destructive_hint is False
    assert tools["forget"].annotations.destructive_hint is True
    assert tools["forget"].annotations.idempotent_hint is True
    remember = tools["remember"].description
    assert (
        "Do NOT store: secrets" in remember and "decisions together with their reasons" in remember
    )
    assert "git history" in remember and "one-off task state" in remember
    assert set(tools["recall"].input_schema["properties"]) == {"query", "k", "type", "tag", "since"}
    assert tools["recall"].input_schema["required"] == ["query"]
    assert set(tools["remember"].input_schema["properties"]) == {"text", "key", "type", "tags"}


def test_remember_recall_read_forget_round_trip(brain: Brain, tmp_path: Path) -> None:
    commits = commit_count(brain.path)

    async def body(client: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["remember"] = await client.call_tool(
            "remember",
            {
                "text": "Use pnpm, not npm, in the web app; npm breaks the lockfile.",
                "key": "pkg-manager",
                "type": "decision",
                "tags": ["project:web"],
            },
        )
        out["head_after_remember"] = git(brain.path, "log", "-1", "--format=%s").strip()
        out["recall"] = await client.call_tool("recall", {"query": "pnpm lockfile", "k": 3})
        out["read"] = await client.call_tool("read", {"key": "pkg-manager"})
        out["context"] = await client.call_tool("context", {})
        out["forget"] = await client.call_tool("forget", {"key": "pkg-manager"})
        out["read_gone"] = await client.call_tool("read", {"key": "pkg-manager"})
        return out

    web = tmp_path / "web"  # the agent works in the project the record is tagged with
    web.mkdir()
    out = with_client(brain.path, web, body)
    assert not out["remember"].is_error
    assert out["remember"].structured_content["key"] == "pkg-manager"
    assert out["head_after_remember"] == "remember: pkg-manager"
    hits = out["recall"].structured_content["hits"]
    assert hits[0]["key"] == "pkg-manager" and hits[0]["path"] == "memories/pkg-manager.md"
    record = out["read"].structured_content
    assert record["body"] == "Use pnpm, not npm, in the web app; npm breaks the lockfile."
    assert record["type"] == "decision" and record["tags"] == ["project:web"]
    assert record["source"] == "mcp"
    context_text = out["context"].content[0].text
    assert context_text.startswith("<brain-memory>") and "- pkg-manager: Use pnpm" in context_text
    assert not out["forget"].is_error
    assert out["read_gone"].is_error
    assert "no record 'pkg-manager'" in out["read_gone"].content[0].text
    assert git(brain.path, "log", "-1", "--format=%s").strip() == "forget: pkg-manager"
    assert commit_count(brain.path) == commits + 2
    assert not (brain.path / "memories" / "pkg-manager.md").exists()


def test_errors_are_tool_errors_the_model_can_read(brain: Brain, tmp_path: Path) -> None:
    async def body(client: Any) -> Any:
        return (
            await client.call_tool("remember", {"text": "x", "key": "../escape"}),
            await client.call_tool("recall", {"query": "x", "since": "someday"}),
        )

    bad_key, bad_date = with_client(brain.path, tmp_path, body)
    assert bad_key.is_error and "invalid key" in bad_key.content[0].text
    assert bad_date.is_error and "cannot read 'someday' as a date" in bad_date.content[0].text
    assert not (brain.path.parent / "escape.md").exists()


def test_server_starts_without_a_home_and_says_so(home: Path, tmp_path: Path) -> None:
    async def body(client: Any) -> Any:
        return await client.call_tool("recall", {"query": "anything"})

    result = with_client(home, tmp_path, body)
    assert result.is_error and "is not a brain home" in result.content[0].text


def test_only_the_mcp_server_module_imports_mcp() -> None:
    root = Path(__file__).resolve().parents[1] / "brain"
    importers = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if any(
            line.strip().startswith(("import mcp", "from mcp"))
            for line in p.read_text().splitlines()
        )
    )
    assert importers == ["agents/mcp_server.py"]


def initialize_then_ping(home: Path, cwd: Path, version: str) -> tuple[list[dict[str, Any]], str]:
    """Answers (in order) and stderr of ``brain mcp`` sent initialize and then a ping."""
    import json
    import subprocess

    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    lines = [request, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines.append({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "BRAIN_HOME": str(home)},
        cwd=cwd,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
    process.stdin.flush()
    answers: list[dict[str, Any]] = []
    while not answers or answers[-1].get("id") != 2:  # stdin stays open until the ping
        line = process.stdout.readline()
        assert line, "brain mcp stopped before answering the ping"
        answers.append(json.loads(line))
    _, stderr = process.communicate(timeout=60)
    return answers, stderr


@pytest.mark.parametrize("version", ["2025-06-18", "2024-11-05", "1999-01-01"])
def test_initialize_is_answered_early_as_the_server_would(
    brain: Brain, tmp_path: Path, version: str
) -> None:
    import brain as brain_package
    from brain.agents.mcp_server import HANDSHAKE_VERSIONS

    answers, stderr = initialize_then_ping(brain.path, tmp_path, version)
    assert [a["id"] for a in answers] == [1, 2]  # the server's own answer to 1 was dropped
    result = answers[0]["result"]
    assert result["serverInfo"] == {"name": "brain", "version": brain_package.__version__}
    assert result["protocolVersion"] == (version if version in HANDSHAKE_VERSIONS else "2025-11-25")
    assert "answered early" not in stderr  # the server said the same, field for field


def test_early_answer_follows_the_mcp_package(brain: Brain) -> None:
    from mcp.server.runner import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    from brain.agents.mcp_server import CAPABILITIES, HANDSHAKE_VERSIONS, build_server

    assert tuple(HANDSHAKE_PROTOCOL_VERSIONS) == HANDSHAKE_VERSIONS
    assert HANDSHAKE_VERSIONS[-1] == LATEST_HANDSHAKE_VERSION
    lowlevel = build_server(brain.path)._lowlevel_server
    announced = lowlevel.create_initialization_options().capabilities
    dumped = announced.model_dump(by_alias=True, exclude_none=True)
    # An empty "extensions" is left off the wire, as the answer-for-answer test shows.
    assert {k: v for k, v in dumped.items() if v != {}} == CAPABILITIES
