"""Write the sample sessions `make demo` harvests (synthetic, in each tool's real format).

Run from the repository root: python examples/make_sessions.py
The output under examples/claude/ and examples/codex/ is committed; this script is
how it was made.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

ROOT = Path(__file__).parent

CLAUDE_TURNS = [
    ("user", "Set up the checkout tests. I prefer pytest over unittest for everything in this repo."),
    ("assistant", "I'll convert the checkout tests to pytest and add fixtures for the cart."),
    ("tool", ("Bash", {"command": "pytest -q tests/checkout"}, "4 passed in 0.31s")),
    ("user", "From now on use pnpm, not npm, for the frontend: npm rewrites our lockfile."),
    ("assistant", "Understood, I'll run pnpm install in web/ instead."),
    ("user", "We decided to keep sessions in Postgres instead of Redis because ops only "
             "supports one datastore."),
    ("assistant", "Noted. The session store stays on Postgres."),
    ("user", "Remember that the staging deploy needs the VPN up before running make deploy."),
    ("assistant", "Got it. The tests pass and the frontend builds with pnpm."),
]

CODEX_TURNS = [
    ("user", "Add request ids to the gateway logs."),
    ("assistant", "Adding a middleware that sets X-Request-Id and logs it."),
    ("user", "Always run ruff format before committing in this project."),
    ("assistant", "Will do: ruff format runs before each commit."),
    ("user", "Never push directly to main here; open a pull request."),
    ("assistant", "Understood. I pushed the branch request-ids and opened a pull request."),
]


def claude_session(path: Path, cwd: str, start: str) -> None:
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, str(path)))
    lines, parent = [], None
    for n, (role, content) in enumerate(CLAUDE_TURNS):
        stamp = f"{start}:{n:02d}.000Z"
        base = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd,
                "sessionId": session, "version": "2.1.39", "gitBranch": "main",
                "timestamp": stamp}
        uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}/{n}"))
        if role == "user":
            lines.append({**base, "type": "user", "uuid": uid,
                          "message": {"role": "user", "content": content}})
        elif role == "assistant":
            lines.append({**base, "type": "assistant", "uuid": uid, "message": {
                "id": f"msg_{n:04d}", "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": content}],
                "stop_reason": "end_turn", "usage": {"input_tokens": 10, "output_tokens": 20}}})
        else:
            name, args, output = content
            tool_id = f"toolu_{n:04d}"
            lines.append({**base, "type": "assistant", "uuid": uid, "message": {
                "id": f"msg_{n:04d}", "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": args}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}})
            result_uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}/{n}/result"))
            lines.append({**base, "parentUuid": uid, "type": "user", "uuid": result_uid,
                          "message": {"role": "user", "content": [
                              {"type": "tool_result", "tool_use_id": tool_id,
                               "content": output}]}})
            uid = result_uid
        parent = uid
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def codex_session(path: Path, cwd: str, start: str) -> None:
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, str(path)))
    lines = [{"timestamp": f"{start}:00.000Z", "type": "session_meta", "payload": {
        "id": session, "timestamp": f"{start}:00.000Z", "cwd": cwd,
        "originator": "codex_cli_rs", "cli_version": "0.77.0", "git": {"branch": "main"}}}]
    for n, (role, text) in enumerate(CODEX_TURNS, 1):
        kind = "input_text" if role == "user" else "output_text"
        lines.append({"timestamp": f"{start}:{n:02d}.000Z", "type": "response_item", "payload": {
            "type": "message", "role": role, "content": [{"type": kind, "text": text}]}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    claude_session(ROOT / "claude/projects/-home-dev-webshop/checkout-tests.jsonl",
                   "/home/dev/webshop", "2026-09-14T10:12")
    codex_session(ROOT / "codex/sessions/2026/09/15/rollout-2026-09-15T09-30-00-request-ids.jsonl",
                  "/home/dev/api-gateway", "2026-09-15T09:30")
