"""Harvest throughput on a synthetic tree, the cost of a nothing-new run, and peak RSS.

Usage: python benchmarks/harvest.py [--sessions 1000] [--mb-per-session 0.4] [--index] [--json]

Builds ``--sessions`` transcripts (half Claude Code, half Codex rollouts, each about
``--mb-per-session`` MB, mostly tool output as in real sessions) in a temporary
directory, harvests them into a fresh home, then harvests again with nothing new.
Prints sessions/s and MB/s of the first run, the time of the second, and the process's
peak RSS. The defaults (~400 MB) run in a few minutes. With ``--index`` the home's search
index exists before the first run, so the harvest also builds and stores each session's
search documents (its turns, tool calls and results), as a person's harvest does.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

_WORDS = "deploy retry webhook cache index schema migrate token parser build test lint".split()


def _text(n: int, seed: int) -> str:
    return " ".join(_WORDS[(seed * 7 + i * 3) % len(_WORDS)] for i in range(n))


def _claude_lines(session: str, size: int, start: datetime) -> list[str]:
    lines, total, i = [], 0, 0
    while total < size:
        when = (start + timedelta(seconds=i)).isoformat().replace("+00:00", "Z")
        base = {"sessionId": session, "cwd": "/src/app", "gitBranch": "main", "timestamp": when}
        user = {**base, "type": "user", "uuid": f"u{i}", "message": {"content": _text(30, i)}}
        reply = {
            **base,
            "type": "assistant",
            "uuid": f"a{i}",
            "message": {
                "id": f"m{i}",
                "content": [
                    {"type": "text", "text": _text(80, i)},
                    {"type": "tool_use", "id": f"t{i}", "name": "Bash", "input": {"cmd": "ls"}},
                ],
            },
        }
        result = {
            **base,
            "type": "user",
            "uuid": f"r{i}",
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": f"t{i}", "content": _text(900, i)}
                ]
            },
        }
        for record in (user, reply, result):
            line = json.dumps(record) + "\n"
            lines.append(line)
            total += len(line)
        i += 1
    return lines


def _codex_lines(session: str, size: int, start: datetime) -> list[str]:
    meta = {"id": session, "cwd": "/src/api", "timestamp": start.isoformat()}
    lines = [json.dumps({"type": "session_meta", "timestamp": start.isoformat(), "payload": meta})]
    total, i = len(lines[0]), 0
    while total < size:
        when = (start + timedelta(seconds=i)).isoformat()

        def item(payload: dict, when: str = when) -> str:
            return json.dumps({"type": "response_item", "timestamp": when, "payload": payload})

        batch = [
            item(
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": _text(30, i)}],
                }
            ),
            item(
                {
                    "type": "function_call",
                    "name": "exec_command",
                    "arguments": "{}",
                    "call_id": f"c{i}",
                }
            ),
            item({"type": "function_call_output", "call_id": f"c{i}", "output": _text(900, i)}),
            item(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": _text(80, i)}],
                }
            ),
        ]
        lines.extend(batch)
        total += sum(len(b) + 1 for b in batch)
        i += 1
    return [line if line.endswith("\n") else line + "\n" for line in lines]


def build_tree(root: Path, sessions: int, size: int) -> int:
    """Write the synthetic transcripts; return the bytes written."""
    start = datetime(2026, 11, 1, tzinfo=UTC)
    old = time.time() - 2 * 86_400
    written = 0
    for n in range(sessions):
        session = str(uuid.UUID(int=n + 1))
        if n % 2 == 0:
            path = root / "claude" / "projects" / "-src-app" / f"{session}.jsonl"
            lines = _claude_lines(session, size, start)
        else:
            path = (
                root
                / "codex"
                / "sessions"
                / "2026"
                / "11"
                / "01"
                / f"rollout-2026-11-01T00-00-00-{session}.jsonl"
            )
            lines = _codex_lines(session, size, start)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = "".join(lines)
        path.write_text(data)
        os.utime(path, (old, old))
        written += len(data)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--mb-per-session", type=float, default=0.4)
    parser.add_argument("--index", action="store_true", help="Index the sessions as read.")
    parser.add_argument("--json", action="store_true", help="Print JSON.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ.update(
            CLAUDE_CONFIG_DIR=str(root / "claude"),
            CODEX_HOME=str(root / "codex"),
            GEMINI_CLI_HOME=str(root / "gemini"),
        )
        began = time.perf_counter()
        total = build_tree(root, args.sessions, int(args.mb_per_session * 1_000_000))
        built = time.perf_counter() - began

        from brain.api import Brain
        from brain.sessions.harvest import harvest

        brain, _ = Brain.init(root / "home")
        catalog = None
        if args.index:
            brain.index()
            catalog = lambda: brain.catalog  # noqa: E731
        first = harvest(brain, catalog=catalog)
        second = harvest(brain, catalog=catalog)
        mb = total / 1e6
        report = {
            "sessions": args.sessions,
            "mb": round(mb, 1),
            "build_s": round(built, 1),
            "first_s": first.elapsed,
            "sessions_per_s": round(first.new / first.elapsed, 1),
            "mb_per_s": round(mb / first.elapsed, 1),
            "second_s": second.elapsed,
            "second_commit": second.commit,
            "docs_indexed": first.docs_indexed,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
        assert first.new == args.sessions, first
    if args.json:
        print(json.dumps(report))
        return
    print(f"{report['sessions']} sessions, {report['mb']} MB (built in {report['build_s']} s)")
    print(
        f"first harvest: {report['first_s']} s, {report['sessions_per_s']} sessions/s, "
        f"{report['mb_per_s']} MB/s"
    )
    print(f"second harvest (nothing new): {report['second_s']} s, commit {report['second_commit']}")
    if args.index:
        print(f"search documents indexed: {report['docs_indexed']}")
    print(f"peak RSS: {report['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
