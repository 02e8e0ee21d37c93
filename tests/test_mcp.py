"""brain mcp: a real server subprocess driven by the reference SDK's own client.

brain serves MCP without the ``mcp`` package; the package is a test dependency only,
so that every shape a client sees is checked against the reference implementation.
``with_client`` uses its high-level ``Client`` (which probes ``server/discover`` and
falls back to the ``initialize`` handshake); ``with_session`` its ``stdio_client`` and
``ClientSession``, the handshake spelled out.
"""

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
    assert set(tools["recall"].input_schema["properties"]) == {
        "query",
        "k",
        "type",
        "tag",
        "since",
        "everywhere",
    }
    assert tools["recall"].input_schema["required"] == ["query"]
    assert set(tools["remember"].input_schema["properties"]) == {
        "text",
        "key",
        "type",
        "tags",
        "everywhere",
    }
    assert tools["remember"].input_schema["properties"]["everywhere"]["type"] == "boolean"


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


def test_what_an_agent_remembers_in_a_project_stays_in_that_project(
    brain: Brain, tmp_path: Path
) -> None:
    shop = tmp_path / "shop"
    (shop / ".git").mkdir(parents=True)
    (shop / "web").mkdir()
    brain.remember("The user indents with tabs.", key="indent-style", type="preference")

    async def body(client: Any) -> list[Any]:
        calls = [
            {"text": "Use pnpm here; npm breaks the lockfile.", "key": "pkg-manager"},
            {"text": "Deploys of the shop go out on Tuesdays."},
            {"text": "The user writes commit messages in English.", "everywhere": True},
            {"text": "The user indents with tabs, width 4.", "key": "indent-style"},
        ]
        return [(await client.call_tool("remember", c)).structured_content for c in calls]

    pkg, deploys, english, indent = with_client(brain.path, shop / "web", body)
    assert pkg["key"] == "pkg-manager-shop"
    assert brain.show("pkg-manager-shop").record.tags == ("project:shop",)
    assert deploys["key"].endswith("-shop")
    assert brain.show(deploys["key"]).record.tags == ("project:shop",)
    assert brain.show(english["key"]).record.tags == ()  # said to hold everywhere
    assert indent["key"] == "indent-style"  # a correction keeps the record where it is
    assert brain.show("indent-style").record.tags == ()

    # Outside any git checkout nothing names a project: the record is the person's own.
    async def outside(client: Any) -> Any:
        return await client.call_tool("remember", {"text": "x y z", "key": "loose"})

    assert with_client(brain.path, tmp_path, outside).structured_content["key"] == "loose"
    assert brain.show("loose").record.tags == ()


def test_what_an_agent_recalls_in_a_project_is_that_projects_and_the_users_own(
    brain: Brain, tmp_path: Path
) -> None:
    shop = tmp_path / "shop"
    (shop / ".git").mkdir(parents=True)
    brain.remember("Deploy the shop with make release.", key="deploy-shop", tags=["project:shop"])
    brain.remember("Deploy the blog by pushing pages.", key="deploy-blog", tags=["project:blog"])
    brain.remember("The user deploys from a terminal, never a console.", key="deploy-mine")

    async def body(client: Any) -> list[set[str]]:
        found = []
        for args in ({"query": "deploy"}, {"query": "deploy", "everywhere": True}):
            hits = (await client.call_tool("recall", args)).structured_content["hits"]
            found.append({h["key"] for h in hits})
        return found

    here, everywhere = with_client(brain.path, shop, body)
    assert here == {"deploy-shop", "deploy-mine"}
    assert everywhere == {"deploy-shop", "deploy-blog", "deploy-mine"}
    # Outside any git checkout every project's records are searched.
    [outside, _] = with_client(brain.path, tmp_path, body)
    assert outside == everywhere


def test_an_agent_in_a_project_recalls_no_other_projects_memory_md_section(
    brain: Brain, tmp_path: Path
) -> None:
    from brain.pipeline.views import regenerate_views

    shop = tmp_path / "shop"
    (shop / ".git").mkdir(parents=True)
    brain.remember("Never push directly to main.", key="no-push", tags=["project:blog"])
    brain.remember("Push the shop through review.", key="push-shop", tags=["project:shop"])
    git(brain.path, "add", *regenerate_views(brain))
    git(brain.path, "commit", "-qm", "views")

    async def body(client: Any) -> list[dict[str, Any]]:
        # "knowledge" is the sections' own word (their heading): a section that only
        # repeats a record among the hits is left out.
        found = await client.call_tool("recall", {"query": "push knowledge", "k": 20})
        hits: list[dict[str, Any]] = found.structured_content["hits"]
        return hits

    hits = with_client(brain.path, shop, body)
    assert {h["kind"] for h in hits} >= {"record", "memory_section"}
    assert not any("directly to main" in h["snippet"] + h["description"] for h in hits), hits


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


def with_session(home: Path, cwd: Path, body: Callable[[Any], Awaitable[Any]]) -> Any:
    """``body(session)`` over the SDK's stdio transport, after its ``initialize``."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "brain", "mcp"],
        env={**os.environ, "BRAIN_HOME": str(home)},
        cwd=str(cwd),
    )

    async def run() -> Any:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, read_timeout_seconds=60) as session,
        ):
            return await body(session)

    return asyncio.run(run())


def test_the_reference_client_initializes_lists_and_calls_every_tool(
    brain: Brain, tmp_path: Path
) -> None:
    from mcp.shared.exceptions import MCPError
    from mcp.types.version import LATEST_HANDSHAKE_VERSION

    import brain as brain_package

    async def body(session: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"init": await session.initialize()}
        await session.send_ping()
        out["tools"] = (await session.list_tools()).tools
        for name, arguments in [
            ("remember", {"text": "Builds run with uv, never pip.", "key": "build-tool"}),
            ("recall", {"query": "uv pip", "k": 2, "type": "fact", "since": "30d"}),
            ("read", {"key": "build-tool"}),
            ("context", None),
            ("forget", {"key": "build-tool"}),
            ("read", {"key": "build-tool"}),  # gone: a tool error, not a protocol error
            ("recall", {"k": "many"}),
            ("remember", {"text": "t", "tags": "project:web"}),
        ]:
            out.setdefault(name, []).append(await session.call_tool(name, arguments))
        try:
            await session.call_tool("search", {"query": "x"})
        except MCPError as exc:
            out["unknown"] = exc
        return out

    out = with_session(brain.path, tmp_path, body)
    init = out["init"]
    assert init.protocol_version == LATEST_HANDSHAKE_VERSION
    assert init.server_info.name == "brain"
    assert init.server_info.version == brain_package.__version__
    assert init.capabilities.tools is not None and "`recall` to search it" in init.instructions
    assert [t.name for t in out["tools"]] == ["recall", "remember", "forget", "read", "context"]
    remembered, forgotten = out["remember"][0], out["forget"][0]
    assert not remembered.is_error and remembered.structured_content["key"] == "build-tool"
    recalled = out["recall"][0].structured_content  # checked against outputSchema by the client
    assert recalled["query"] == "uv pip" and recalled["hits"][0]["key"] == "build-tool"
    assert out["read"][0].structured_content["body"] == "Builds run with uv, never pip."
    context = out["context"][0]
    assert context.structured_content == {"result": context.content[0].text}
    assert "- build-tool: Builds run with uv" in context.content[0].text
    assert not forgotten.is_error and forgotten.structured_content["key"] == "build-tool"
    gone = out["read"][1]
    assert (
        gone.is_error
        and gone.content[0].text == "no record 'build-tool' in memory; see 'brain list'"
    )
    missing, wrong = out["recall"][1], out["remember"][1]
    assert missing.is_error and "missing required argument 'query'" in missing.content[0].text
    assert wrong.is_error and "'tags' must be a list of strings or null" in wrong.content[0].text
    assert out["unknown"].code == -32602 and "Unknown tool: search" in out["unknown"].error.message
    assert git(brain.path, "log", "-1", "--format=%s").strip() == "forget: build-tool"


def test_tools_are_listed_as_the_sdk_lists_the_same_python_signatures(
    brain: Brain, tmp_path: Path
) -> None:
    """What MCPServer would derive from each tool's signature is what brain lists."""
    from mcp import Client
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from brain.agents.mcp_tools import TOOLS

    def recall(
        query: str,
        k: int = 8,
        type: str | None = None,
        tag: str | None = None,
        since: str | None = None,
        everywhere: bool = False,
    ) -> dict[str, Any]: ...
    def remember(
        text: str,
        key: str | None = None,
        type: str = "fact",
        tags: list[str] | None = None,
        everywhere: bool = False,
    ) -> dict[str, Any]: ...
    def forget(key: str) -> dict[str, Any]: ...
    def read(key: str) -> dict[str, Any]: ...
    def context() -> str: ...

    reference = MCPServer("reference")
    for function in (recall, remember, forget, read, context):
        read_only, destructive, idempotent = TOOLS[function.__name__].hints
        hints = ToolAnnotations(
            read_only_hint=read_only, destructive_hint=destructive, idempotent_hint=idempotent
        )
        reference.add_tool(
            function, description=TOOLS[function.__name__].description, annotations=hints
        )

    async def listed(client: Any) -> list[dict[str, Any]]:
        tools = (await client.list_tools()).tools
        return [t.model_dump(by_alias=True, exclude_none=True) for t in tools]

    async def from_reference() -> list[dict[str, Any]]:
        async with Client(reference, mode="legacy") as client:
            return await listed(client)

    assert with_client(brain.path, tmp_path, listed) == asyncio.run(from_reference())


def test_handshake_versions_and_capabilities_follow_the_sdk() -> None:
    from mcp.server.mcpserver import MCPServer
    from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    from brain.agents.mcp_server import CAPABILITIES, HANDSHAKE_VERSIONS

    assert tuple(HANDSHAKE_PROTOCOL_VERSIONS) == HANDSHAKE_VERSIONS
    assert HANDSHAKE_VERSIONS[-1] == LATEST_HANDSHAKE_VERSION
    server = MCPServer("reference")
    announced = server._lowlevel_server.create_initialization_options().capabilities
    dumped = announced.model_dump(by_alias=True, exclude_none=True)
    # An empty "extensions" is left off the wire.
    assert {k: v for k, v in dumped.items() if v != {}} == CAPABILITIES


def test_brain_never_imports_the_mcp_package() -> None:
    """The SDK is a test dependency: ``brain mcp`` must run where it is not installed."""
    root = Path(__file__).resolve().parents[1] / "brain"
    importers = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if any(
            line.strip().startswith(("import mcp", "from mcp ", "from mcp."))
            for line in p.read_text().splitlines()
        )
    )
    assert importers == []
