"""What the tools did is searchable: each tool call with its result, below what was said."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from brain.api import Brain
from brain.sessions.sources import codex, gemini
from brain.sessions.sources.base import Transcript, Turn
from brain.sessions.tooldocs import ERROR_LINES, call_summary, tool_docs, trimmed_result
from brain.sessions.watermarks import SessionRef
from tests.helpers import cli, cli_json
from tests.test_harvest_trees import FIXTURES, GH_TOKEN

YARN_ERROR = (
    "ERR_PNPM_OTHER_PM_EXPECTED  This project is configured to use yarn "
    "because package.json has a packageManager field"
)


def _install_output() -> str:
    """A long install log with the one line that matters in its middle."""
    progress = "\n".join(f"Progress: resolved {n}, reused {n}, downloaded 0" for n in range(150))
    return f"{progress}\n{YARN_ERROR}\n{progress}\nDone in 2.1s"


def _session(path: Path, cwd: str, output: str, *, said: str = "Let me install.") -> Path:
    """A Claude Code transcript: a request, a reply, a Bash call, its failing result."""
    base = {"sessionId": "s-tools", "cwd": cwd, "timestamp": "2026-01-02T03:04:05Z"}
    call = {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "Bash",
        "input": {"command": "pnpm install", "description": "Install dependencies"},
    }
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": output, "is_error": True}
    records = [
        {**base, "type": "user", "uuid": "u1",
         "message": {"role": "user", "content": "Set up the project."}},
        {**base, "type": "assistant", "uuid": "a1",
         "message": {"id": "m1", "role": "assistant",
                     "content": [{"type": "text", "text": said}, call]}},
        {**base, "type": "user", "uuid": "u2", "message": {"role": "user", "content": [result]}},
        {**base, "type": "assistant", "uuid": "a2",
         "message": {"id": "m2", "role": "assistant",
                     "content": [{"type": "text", "text": "It wants another package manager."}]}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture
def harvested(home: Path, tmp_path: Path) -> Path:
    """A home with one harvested session in a git checkout ``shop``; returns the checkout."""
    Brain.init(home)
    checkout = tmp_path / "src" / "shop"
    checkout.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    session = _session(tmp_path / "s-tools.jsonl", str(checkout), _install_output())
    assert cli("harvest", "--path", str(session)).exit_code == 0
    return checkout


def _rows(home: Path, kind: str) -> list[dict[str, Any]]:
    conn = sqlite3.connect(home / ".brain" / "index.sqlite")
    conn.row_factory = sqlite3.Row
    rows = conn.execute("SELECT * FROM docs WHERE kind = ? ORDER BY path", (kind,)).fetchall()
    conn.close()
    return [dict(r) for r in rows]


def test_a_commands_error_output_is_found(harvested: Path, home: Path) -> None:
    hits = cli_json(
        "recall", "why does pnpm say the project is configured to use yarn", "--sessions"
    )
    assert hits[0]["kind"] == "tool"
    assert hits[0]["key"] == "s-tools#3"  # the call: turn 3 of the session
    assert hits[0]["description"] == "Bash: pnpm install Install dependencies"
    [row] = _rows(home, "tool")
    assert row["project"] == str(harvested) and row["session"] == "s-tools"
    assert YARN_ERROR in row["body"] and row["body"].startswith("pnpm install")
    assert len(row["body"]) < 2_500  # the progress lines around the error are cut
    assert row["context"] == "assistant: Let me install."
    # Without --sessions, recall searches the home alone.
    assert cli_json("recall", "configured to use yarn") == []


def test_what_was_said_ranks_above_the_same_words_in_a_tools_output(
    home: Path, tmp_path: Path
) -> None:
    Brain.init(home)
    words = "the storefront deploy needs the staging token rotated"
    session = _session(tmp_path / "s.jsonl", "/src/shop", words, said=words.capitalize() + ".")
    cli("harvest", "--path", str(session))
    hits = cli_json("recall", "storefront deploy staging token rotated", "--sessions")
    assert (hits[0]["kind"], hits[0]["key"]) == ("turn", "s#2")
    assert [h["key"] for h in hits if h["kind"] == "tool"] == ["s#3"]


def test_tool_documents_keep_to_their_sessions_project(harvested: Path) -> None:
    query = ("configured to use yarn", "--sessions")
    assert cli_json("recall", *query, "-p", "shop")[0]["kind"] == "tool"
    assert cli_json("recall", *query, "-p", str(harvested))[0]["kind"] == "tool"
    assert cli_json("recall", *query, "-p", "blog") == []


def test_a_secret_in_a_tools_output_never_reaches_the_index(home: Path, tmp_path: Path) -> None:
    Brain.init(home)
    long_log = _install_output()
    cut = long_log.index(YARN_ERROR)
    # One secret in the kept error lines, one straddling the head's cut, one in the tail.
    leaked = long_log[:cut] + f"error: auth failed for {GH_TOKEN}\n" + long_log[cut:]
    leaked = leaked[:590] + GH_TOKEN + leaked[590:] + f"\ntoken={GH_TOKEN}"
    said = f"Installing with the token {GH_TOKEN} set."  # the call's context
    session = _session(tmp_path / "s.jsonl", "/src/shop", leaked, said=said)
    session.write_text(
        session.read_text().replace('"pnpm install"', f'"pnpm install --token {GH_TOKEN}"')
    )
    cli("harvest", "--path", str(session))
    cli("recall", "yarn", "--sessions")
    [row] = _rows(home, "tool")
    for column in ("body", "description", "context"):
        assert GH_TOKEN not in row[column] and GH_TOKEN[:12] not in row[column], column
    assert "auth failed for [REDACTED" in row["body"]


def test_show_id_turn_shows_that_turn_with_its_neighbours(harvested: Path) -> None:
    shown = cli("sessions", "show", "s-tools#3", "--around", "1")
    assert shown.exit_code == 0, shown.output
    body = shown.stdout.split("\n\n", 1)[1].splitlines()
    assert body[0].startswith("[#2 L2] assistant: Let me install.")
    # The call's JSON arguments read unescaped, one per line.
    assert body[1].startswith("[>3 L2] tool(Bash): command: pnpm install")
    assert [line for line in body if line.startswith("[#")][1].startswith(
        "[#4 L3] tool(Bash): [error] Progress: resolved 0"
    )
    assert YARN_ERROR in shown.stdout and "Progress: resolved 75," not in shown.stdout
    assert len(body) < 40 and "Set up the project." not in shown.stdout
    view = cli_json("sessions", "show", "s-tools#1")
    assert view["focus"] == 1 and [t["number"] for t in view["turns"]] == [1, 2, 3, 4]
    whole = cli_json("sessions", "show", "s-tools")
    assert whole["focus"] is None and len(whole["turns"]) == 5


def test_show_of_a_turn_the_session_lacks_says_so(harvested: Path) -> None:
    missing = cli("sessions", "show", "s-tools#9")
    assert missing.exit_code == 1
    assert missing.stderr == (
        "Error: session s-tools has no turn 9; its turns are 1 to 5; "
        "'brain sessions show s-tools' shows them all\n"
    )
    bad = cli("sessions", "show", "s-tools#x")
    assert bad.exit_code == 2 and "is not ID or ID#TURN" in bad.stderr


def test_what_a_call_ran_or_touched() -> None:
    edit = {"file_path": "/src/app.py", "old_string": "a = 1", "new_string": "a = 2"}
    assert call_summary(json.dumps(edit)) == "/src/app.py"
    assert call_summary('{"command":["bash","-lc","pnpm test"],"workdir":"/src"}') == "pnpm test"
    assert call_summary('{"cmd":"rg TODO","yield_time_ms":1000}') == "rg TODO"
    patch = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n*** Add File: b.md\n"
    assert call_summary(patch) == "apply patch: src/a.py b.md"
    assert call_summary("ls -la") == "ls -la"
    assert call_summary('{"pattern":"TODO","path":"src"}') == "src TODO"


def test_a_long_result_keeps_its_head_its_failure_lines_and_its_tail() -> None:
    lines = [f"ok line {n}" for n in range(400)]
    lines[150] = "src/a.ts(3,1): error TS2339: Property 'x' does not exist"
    lines[250:250] = [f"FAIL test {n}" for n in range(30)]
    kept = trimmed_result("\n".join(lines))
    assert kept.startswith("ok line 0\n") and kept.endswith("ok line 399")
    assert "error TS2339" in kept and "ok line 200" not in kept
    assert kept.count("FAIL test") == ERROR_LINES - 1
    assert trimmed_result("short output") == "short output"


def _ref(transcript: Transcript) -> SessionRef:
    return SessionRef(transcript.source, transcript.session_id, transcript.path,
                      "/src/app", None, None, None, None, len(transcript.turns))  # fmt: skip


def test_codex_and_gemini_calls_are_paired_with_their_results() -> None:
    rollout = FIXTURES / "codex" / "agent-sessions-stage0" / "small.jsonl"
    transcript = codex.parse(rollout).transcript
    docs = {d.path.rpartition("#")[2]: d for d in tool_docs(_ref(transcript), transcript)}
    assert docs["2"].body == "ls\na.txt\nb.txt"  # call-1, answered three turns later
    assert docs["3"].body == "ls"  # call-2: no result recorded
    assert docs["4"].description == "web_search_call: example"
    assert "5" not in docs  # a result is part of its call's document
    assert all(d.project == "/src/app" and d.kind == "tool" for d in docs.values())
    chat = gemini.parse(FIXTURES / "gemini" / "agent-sessions-stage0" / "jsonl_v040.jsonl")
    docs = tool_docs(_ref(chat.transcript), chat.transcript)
    assert docs and all(d.description.startswith(("list_directory", "run_shell")) for d in docs)


def test_calls_without_ids_pair_in_order_of_their_tool() -> None:
    turns = (
        Turn("user", "Check both."),
        Turn("tool", '{"command":"make a"}', tool="Bash"),
        Turn("tool", '{"command":"make b"}', tool="Bash"),
        Turn("tool", "a: error: no rule", tool="Bash"),
        Turn("tool", "b: built", tool="Bash"),
    )
    transcript = Transcript("brain", "x", "x.jsonl", turns=turns)
    docs = tool_docs(_ref(transcript), transcript)
    assert [(d.path, d.body) for d in docs] == [
        ("session:brain:x#2", "make a\na: error: no rule"),
        ("session:brain:x#3", "make b\nb: built"),
    ]
