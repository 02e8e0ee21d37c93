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
