"""How soon ``brain mcp`` answers: ``initialize``, then the first ``recall``.

Usage: python benchmarks/mcp_startup.py [--runs 7] [--records 1000] [--json]

Each run starts ``python -m brain mcp`` as a fresh process, as an agent does, writes
MCP's ``initialize`` request on its stdin (newline-delimited JSON-RPC) and times the
answer from the moment the process was started; then it sends ``initialized`` and a
``tools/call`` of ``recall`` and times that answer from the same start. Targets:
``initialize`` within 0.5 s, the first ``recall`` within 0.7 s.

The home is the one ``startup.py`` builds, whose files are dated a minute back and
whose git index has learnt those dates, as in a home in use. ``--stale`` dates the files
again without telling git (a home restored from a backup or copied without its times):
each read then has git read every such file to tell whether it was edited by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from startup import build_home

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
RECALL = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {"name": "recall", "arguments": {"query": "synthetic fact build"}},
}


def _send(pipe: IO[str], message: dict[str, Any]) -> None:
    pipe.write(json.dumps(message) + "\n")
    pipe.flush()


def _answer(pipe: IO[str], wanted: int) -> dict[str, Any]:
    while True:
        line = pipe.readline()
        if not line:
            raise SystemExit("brain mcp closed its output before answering")
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == wanted:
            return message


def one_run(env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds to the initialize answer and to the recall answer, and the server version."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        _send(process.stdin, INITIALIZE)
        init = _answer(process.stdout, 1)
        initialized = time.perf_counter() - start
        _send(process.stdin, INITIALIZED)
        _send(process.stdin, RECALL)
        recall = _answer(process.stdout, 2)
        recalled = time.perf_counter() - start
        assert "synthetic" in json.dumps(recall), recall
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    return initialized, recalled, init["result"]["serverInfo"].get("version", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--stale", action="store_true", help="leave git's index stale after re-dating the files"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("AUTHOR", "COMMITTER"):
            os.environ.setdefault(f"GIT_{name}_NAME", "bench")
            os.environ.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
        build_home(Path(tmp) / "home", args.records)
        if args.stale:  # build_home refreshed git's index; date the files again
            past = time.time() - 120
            for path in (Path(tmp) / "home" / "memories").iterdir():
                os.utime(path, (past, past))
        env = {**os.environ, "BRAIN_HOME": str(Path(tmp) / "home")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        one_run(env)  # warm: bytecode, page cache, the index
        runs = [one_run(env) for _ in range(args.runs)]
    row = {
        "initialize_ms": round(statistics.median(r[0] for r in runs) * 1000, 1),
        "first_recall_ms": round(statistics.median(r[1] for r in runs) * 1000, 1),
        "server_version": runs[0][2],
        "runs": args.runs,
        "records": args.records,
        "stale": args.stale,
    }
    if args.json:
        print(json.dumps(row, indent=2))
        return
    print(
        f"brain mcp ({row['records']} records{', stale git index' if args.stale else ''}, "
        f"median of {row['runs']}): initialize "
        f"{row['initialize_ms']} ms (target 500), first recall {row['first_recall_ms']} ms "
        f"(target 700); serverInfo.version {row['server_version']!r}"
    )


if __name__ == "__main__":
    main()
