"""Which module defines each top-level command, and its one-line help for ``brain --help``.

The group imports a command's module only when that command runs
(:class:`brain.cli.base.BrainGroup`), so ``brain list`` pays for ``brain/cli/memory.py``
and not for the modules of the other thirty commands. ``brain --help`` shows the help
written here instead of importing every module; ``tests/test_meta.py`` checks that this
table and the commands agree, so a new command fails the tests until it is listed.
"""

# One line per command, as `brain --help` shows it, reads best here.
# ruff: noqa: E501

from __future__ import annotations

#: Module under ``brain.cli`` -> {command name: the short help ``brain --help`` shows}.
COMMANDS: dict[str, dict[str, str]] = {
    "memory": {
        "archive": "Retire a record: out of listings and prompts, still in git, restorable.",
        "confirm": "Say record KEY still holds: its commit moves to its checkout's HEAD, in one commit.",
        "edit": "Edit a record in $EDITOR; the text is checked and committed as one commit.",
        "export": "Print every record as JSONL (or a JSON array with --json), ready for 'brain import'.",
        "forget": "Delete a record.",
        "import": "Import records from a JSONL FILE ('-' for stdin), one commit for the batch.",
        "list": "List records, newest first.",
        "log": "The memory's history: what changed, when and why (of one record, given its KEY).",
        "remember": "Remember TEXT ('-' reads stdin).",
        "rename": "File record NAME under KEY: a file you named yourself ('café notes') or a key.",
        "restore": "Bring back a record that was archived, or forgotten (from the memory's history).",
        "show": "Show one record, live or archived.",
        "stale": "List records whose files changed, went or were renamed since their commit.",
    },
    "agents": {
        "cite": "Show the <memory_citation> blocks in FILE and the records they cite.",
        "context": "Print what an agent sees at session start: summary, project knowledge, record index.",
        "doctor": "Per tool: brain's hooks and whether they run, Codex trust, MCP, the last hook run.",
        "hook": "Hook handlers that agent tools run.",
        "hooks": "Install brain's session hooks into an agent tool.",
        "mcp": "Serve the memory to MCP clients over stdio: recall, remember, forget, read, context.",
        "setup": "Set TOOL up: session hooks, the MCP server, read-only tools pre-approved.",
        "sync-instructions": "Write the context into a brain-managed block of each set-up tool's instruction file.",
    },
    "home": {
        "clone": "Set up this machine from an existing home's remote, and build its search index.",
        "config": "Read and change settings: brain.yaml, and this machine's own local.yaml.",
        "init": "Create a new memory home: a git repository with its first commit.",
        "purge": "Rewrite the history without a leaked TEXT or record KEY; --dry-run first.",
        "pull": "Merge what other machines pushed; conflicts settle by brain's rules.",
        "push": "Back up the memory's history to its remote.",
        "remote": "Manage the remote the home is backed up to.",
        "sync": "Pull, settle conflicts, push: keep this machine and the remote the same.",
    },
    "pipeline": {
        "consolidate": "Phase 2: merge new raw memories into memories/ and render MEMORY.md, in one commit.",
        "eval": "Run the memory evals in throwaway homes; exit 1 if any check fails.",
        "extract": "Phase 1: read harvested sessions and write down what is worth keeping.",
        "review": "List the memories held for review, or accept, reject or edit them by key.",
        "runs": "Past extract and consolidate runs.",
        "status": "Where the memory pipeline stands: last runs, pending work, sizes, errors.",
    },
    "harvest": {
        "harvest": "Record finished agent sessions (Claude Code, Codex, Gemini) in one commit.",
        "mirror": "Copy what Claude Code, Gemini CLI and Codex remember themselves in as records.",
        "sessions": "Harvested agent sessions: list, show, rename, delete, prune, import.",
    },
    "team": {
        "team": "A team's memory on a git remote: join, propose, review, accept, reject.",
    },
    "ui": {
        "ui": "Browse, search, review, edit and undo the memory in a local web page.",
    },
    "recall": {
        "index": "Bring the search index up to date with the home (it is derived, never the truth).",
        "recall": "Find memories matching QUERY, best first.",
    },
}
