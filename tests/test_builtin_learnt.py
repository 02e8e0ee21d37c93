"""The built-in model on phrasings and runs seen in more people's sessions."""

from __future__ import annotations

import json

from brain.models.builtin import extract
from brain.sessions.sources.base import Transcript, Turn


def _session(*steps: tuple[str, str]) -> Transcript:
    """A session of typed turns (``("user", text)``) and shell calls (command, result)."""
    turns: list[Turn] = []
    for first, second in steps:
        n = len(turns) + 1
        if first == "user":
            turns.append(Turn("user", second, lines=(n, n)))
            continue
        turns.append(Turn("tool", json.dumps({"command": first}), tool="Bash", lines=(n, n)))
        turns.append(Turn("tool", second, tool="Bash", lines=(n + 1, n + 1)))
    return Transcript("claude", "s", "/x.jsonl", "/home/ana/shop", turns=tuple(turns))


def test_a_wish_said_once_outranks_commands_that_ran_in_many_turns() -> None:
    runs = [
        (command, "Exit code: 0\nok")
        for command in ("npm test", "npm run build", "npm run lint", "npx tsc", "go build ./...")
    ]
    session = _session(*runs, ("user", "Do not rebuild the website on every run."), *runs)
    described = [m.description for m in extract(session).memories]
    assert len(described) == 5
    assert described[0] == "Do not rebuild the website on every run"
    assert "Tests: `npm test`" in described
