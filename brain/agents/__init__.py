"""How AI coding agents use the memory: context, MCP tools, hooks, instruction files, citations.

Nothing here is imported by ``brain recall`` or the write path; the ``mcp`` package is
imported only by :mod:`brain.agents.mcp_server`, and only when ``brain mcp`` runs.
"""
