"""How AI coding agents use the memory: context, MCP tools, hooks, instruction files, citations.

Nothing here is imported by ``brain recall`` or the write path. ``brain mcp`` speaks the
protocol itself (:mod:`brain.agents.mcp_server`), without the ``mcp`` package.
"""
