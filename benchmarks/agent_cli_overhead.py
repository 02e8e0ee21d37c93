"""What each agent CLI really sends when brain runs it as the model, against a scripted server.

Usage: python benchmarks/agent_cli_overhead.py [--transcript PATH] [--json]

Runs the pinned Claude Code, Codex CLI and Gemini CLI (``.e2e/node_modules/.bin``, from
``make e2e-deps``) exactly as ``extract_model claude-code`` / ``codex`` / ``gemini-cli``
does, each in a fresh HOME against the scripted model server of ``tests/e2e/servers.py``,
for one phase-1 call on a recorded transcript. For each CLI it prints the requests the
server received, their size in JSON characters, the tools offered, the text brain sent
(its instructions and the data, in estimated tokens), the text the CLI added around it
(in estimated tokens: the ``overhead`` each :data:`brain.models.agent_cli.CLIS` entry
adds to its estimate), and what ``brain extract --dry-run`` estimates for the call.
Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from brain.models.agent_cli import CLIS, AgentCliModel, request  # noqa: E402
from brain.models.base import ExtractTask, ModelSettings  # noqa: E402
from brain.models.budget import Budget  # noqa: E402
from brain.models.tokens import estimate_tokens  # noqa: E402
from brain.sessions.sources import get  # noqa: E402
from tests.e2e.servers import ModelServer, Reply, _tool_names  # noqa: E402

BIN = ROOT / ".e2e" / "node_modules" / ".bin"
FIXTURE = ROOT / "tests" / "fixtures" / "transcripts" / "claude-code" / "agent-sessions-stage0"
ANSWER = {"memories": [], "summary": "Looked at the code."}
# Keys of a request body that carry no text the model reads.
_NOT_TEXT = {"model", "id", "call_id", "metadata", "prompt_cache_key", "client_metadata",
             "include", "cache_control", "type", "role", "status", "tool_choice", "reasoning",
             "generationConfig", "thinking"}  # fmt: skip


def _strings(node: Any, key: str = "") -> list[str]:
    if isinstance(node, str):
        return [] if key in _NOT_TEXT else [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() if k not in _NOT_TEXT for s in _strings(v, k)]
    if isinstance(node, list):
        return [s for item in node for s in _strings(item, key)]
    return []


def _login(provider: str, server: ModelServer, home: Path) -> None:
    """The stand-ins for each CLI's login, aimed at the scripted server."""
    if provider == "claude-code":
        os.environ.update(ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy")
    elif provider == "codex":
        codex = home / ".codex"
        codex.mkdir()
        (codex / "config.toml").write_text(
            'model_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\n'
            f'base_url = "{server.url}/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n'
        )
        os.environ.update(CODEX_HOME=str(codex), FAKE_API_KEY="dummy")
    else:
        gemini = home / ".gemini"
        gemini.mkdir()
        auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
        (gemini / "settings.json").write_text(json.dumps(auth))
        os.environ.update(GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url)


def measure(provider: str, task: ExtractTask) -> dict[str, Any]:
    """One phase-1 call of ``provider`` on ``task``: what the server received."""
    saved = dict(os.environ)
    server = ModelServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="brain-bench-") as home:
            os.environ["HOME"] = home
            _login(provider, server, Path(home))
            server.push(Reply(json.dumps(ANSWER)))
            server.match = "[brain internal run"
            model = AgentCliModel(provider, ModelSettings(timeout=120))
            model.extract(task, Budget(None))
            call = request(task, model.model)
    finally:
        server.stop()
        os.environ.clear()
        os.environ.update(saved)
    ours = estimate_tokens(call.system) + estimate_tokens(call.prompt)
    sent = sum(estimate_tokens(s) for r in server.requests for s in _strings(r.body))
    return {
        "provider": provider,
        "model": model.model,
        "requests": len(server.requests),
        "json_chars": sum(len(r.text) for r in server.requests),
        "tools": sorted({n for r in server.requests for n in _tool_names(r.body)}),
        "brain_tokens": ours,
        "cli_tokens": sent - ours,
        "estimate": model.estimate(task).prompt_tokens,
        "overhead_in_code": CLIS[provider].overhead,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transcript", type=Path, default=FIXTURE / "small.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (BIN / "claude").exists():
        raise SystemExit("the pinned CLIs are not installed; run 'make e2e-deps'")
    os.environ["PATH"] = f"{BIN}{os.pathsep}{os.environ['PATH']}"
    transcript = get("claude").parse(args.transcript).transcript
    task = ExtractTask(transcript, 24_000, 2_000)
    rows = [measure(provider, task) for provider in CLIS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"one phase-1 call on {args.transcript.name} ({len(transcript.turns)} turns)")
    for r in rows:
        print(
            f"{r['provider']:<12} {r['model']:<17} requests {r['requests']}  "
            f"JSON {r['json_chars']:>6} chars  tools {len(r['tools'])}  "
            f"brain's text ~{r['brain_tokens']} tokens  the CLI's ~{r['cli_tokens']} tokens  "
            f"estimate {r['estimate']} (overhead {r['overhead_in_code']})"
        )


if __name__ == "__main__":
    main()
