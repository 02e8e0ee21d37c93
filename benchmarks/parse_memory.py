"""Peak memory and speed of parsing a large synthetic Claude Code transcript.

Usage: ``python benchmarks/parse_memory.py [--mb 200]``. Writes a transcript of about
that many MB to a temp dir (shaped like a real long session: split assistant
responses, large tool results with a duplicated ``toolUseResult``, progress records,
some base64 screenshots), parses it with ``brain.sessions.sources.claude.parse`` and prints the
peak RSS of this process and the parse throughput.
"""

from __future__ import annotations

import argparse
import base64
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from brain.sessions.sources import claude


def _records(index: int) -> list[dict[str, Any]]:
    """One user prompt, a split assistant response, a big tool result, progress noise."""
    env = {"cwd": "/src/app", "gitBranch": "main", "sessionId": "bench", "version": "2.1.38"}
    stamp = f"2026-02-10T21:{index // 60 % 60:02d}:{index % 60:02d}.000Z"
    output = f"line {index}: " + "result text " * 6_000  # ~72 KB of tool output
    image = base64.b64encode(bytes(range(256)) * 200).decode()  # a ~68 KB screenshot
    msg = {"id": f"msg_{index}", "role": "assistant", "type": "message"}
    return [
        {
            **env,
            "type": "user",
            "uuid": f"u{index}",
            "timestamp": stamp,
            "message": {"role": "user", "content": f"Step {index}: please run the tests"},
        },
        {
            **env,
            "type": "assistant",
            "uuid": f"a{index}",
            "timestamp": stamp,
            "message": {
                **msg,
                "content": [
                    {"type": "thinking", "thinking": "plan " * 200, "signature": "E" * 2_000}
                ],
            },
        },
        {
            **env,
            "type": "assistant",
            "uuid": f"b{index}",
            "timestamp": stamp,
            "message": {**msg, "content": [{"type": "text", "text": "Running them now."}]},
        },
        {
            **env,
            "type": "assistant",
            "uuid": f"c{index}",
            "timestamp": stamp,
            "message": {
                **msg,
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{index}",
                        "name": "Bash",
                        "input": {"command": "pytest"},
                    }
                ],
            },
        },
        *(
            {
                **env,
                "type": "progress",
                "uuid": f"p{index}-{n}",
                "timestamp": stamp,
                "data": {"type": "bash_progress", "output": "." * 500},
            }
            for n in range(5)
        ),
        {
            **env,
            "type": "user",
            "uuid": f"r{index}",
            "timestamp": stamp,
            "toolUseResult": {"stdout": output, "stderr": ""},
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"t{index}", "content": output},
                    *(
                        [{"type": "image", "source": {"type": "base64", "data": image}}]
                        if index % 10 == 0
                        else []
                    ),
                ],
            },
        },
    ]


def write_transcript(path: Path, megabytes: int) -> int:
    """Write about ``megabytes`` MB of transcript to ``path``; return its size."""
    target = megabytes * 1024 * 1024
    written = index = 0
    with path.open("w", encoding="utf-8") as fh:
        while written < target:
            for record in _records(index):
                line = json.dumps(record) + "\n"
                fh.write(line)
                written += len(line)
            index += 1
    return path.stat().st_size


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes vs KiB


def main() -> None:
    """Generate, parse, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="transcript size in MB")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        size = write_transcript(path, args.mb)
        before = _peak_rss_mb()
        began = time.perf_counter()
        result = claude.parse(path)
        seconds = time.perf_counter() - began
        text_mb = sum(len(t.text) for t in result.transcript.turns) / 1e6
        print(f"transcript: {size / 1e6:.1f} MB, {result.lines_read} lines")
        print(f"turns: {len(result.transcript.turns)} ({text_mb:.1f} MB of text kept)")
        print(f"parse: {seconds:.2f} s, {size / 1e6 / seconds:.1f} MB/s")
        print(f"peak RSS: {_peak_rss_mb():.1f} MB (before parsing: {before:.1f} MB)")


if __name__ == "__main__":
    main()
