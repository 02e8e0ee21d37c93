"""Median wall time of the `brain hook session-start` process, by home size.

Usage: python benchmarks/hook_latency.py [--sizes 1000] [--runs 15] [--summary] [--json]

Each home is built in a temporary directory through `brain import` (one commit). Each
run starts `python -m brain hook session-start` as a fresh process, as an agent tool
does, feeds it a SessionStart payload on stdin and waits for its JSON answer; the wall
time covers interpreter start-up, imports, reading the home and printing. With
--summary, a memory_summary.md of about 4,000 tokens is added, which the hook cuts to
fit by the token estimate. Target: median well under one second at 1,000 records.
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

from brain.api import Brain

try:  # run as a script from benchmarks/, or imported as benchmarks.hook_latency
    import startup
except ImportError:
    from benchmarks import startup


def build_home(root: Path, size: int, summary: bool) -> Brain:
    """The start-up benchmark's home of ``size`` records, with a long summary if asked."""
    brain = startup.build_home(root / f"home-{size}", size)
    if summary:
        sections = [
            f"## Section {n}\n" + "The user prefers small, reviewed changes. " * 60 + "\n"
            for n in range(6)
        ]
        (brain.path / "memory_summary.md").write_text("".join(sections))
    return brain


def measure(brain: Brain, runs: int) -> list[float]:
    payload = json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/nonexistent.jsonl",
            "cwd": str(brain.path.parent),
            "hook_event_name": "SessionStart",
            "source": "startup",
        }
    )
    env = {**os.environ, "BRAIN_HOME": str(brain.path)}
    command = [sys.executable, "-m", "brain", "hook", "session-start"]
    subprocess.run(command, input=payload, capture_output=True, text=True, env=env)  # warm
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, input=payload, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        answer = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "synthetic-" in answer, done.stderr
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--summary", action="store_true", help="Add a memory_summary.md.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name in ("AUTHOR", "COMMITTER"):
        os.environ.setdefault(f"GIT_{name}_NAME", "bench")
        os.environ.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            times = measure(build_home(Path(tmp), size, args.summary), args.runs)
            results[size] = {
                "median_ms": round(statistics.median(times) * 1000, 1),
                "max_ms": round(max(times) * 1000, 1),
                "runs": args.runs,
            }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for size, row in results.items():
        print(
            f"{size:>6} records: session-start median {row['median_ms']} ms, "
            f"max {row['max_ms']} ms over {row['runs']} runs"
        )


if __name__ == "__main__":
    main()
