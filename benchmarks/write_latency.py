"""Median time of one `remember` (file write + journal + git commit) by home size.

Usage: python benchmarks/write_latency.py [--sizes 1000,20000] [--runs 30] [--json]

Homes are built in a temporary directory through `brain import` (one commit), then
each run remembers a new key in-process and the wall time to the finished commit is
recorded. Prints the median and p90 per size. Target: median <= 100 ms at 20k records.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from brain.api import Brain


def build_home(root: Path, size: int) -> Brain:
    brain, _ = Brain.init(root / f"home-{size}")
    lines = (
        json.dumps({"key": f"synthetic-{i:06d}", "type": "fact", "body": f"Synthetic fact {i}."})
        for i in range(size)
    )
    brain.import_(lines, origin="synthetic")
    return brain


def measure(brain: Brain, runs: int) -> list[float]:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        brain.remember(f"Benchmark fact number {i}", key=f"bench-{i}")
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,20000")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("GIT_AUTHOR_NAME", "bench")
    os.environ.setdefault("GIT_AUTHOR_EMAIL", "bench@example.invalid")
    os.environ.setdefault("GIT_COMMITTER_NAME", "bench")
    os.environ.setdefault("GIT_COMMITTER_EMAIL", "bench@example.invalid")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            times = measure(build_home(Path(tmp), size), args.runs)
            results[size] = {
                "median_ms": round(statistics.median(times) * 1000, 1),
                "p90_ms": round(sorted(times)[int(len(times) * 0.9) - 1] * 1000, 1),
                "runs": args.runs,
            }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'records':>8}  {'median ms':>9}  {'p90 ms':>7}")
    for size, row in results.items():
        print(f"{size:>8}  {row['median_ms']:>9}  {row['p90_ms']:>7}")
    small, large = results.get(1000), results.get(20000)
    if small and large:
        print(f"ratio 20k/1k: {large['median_ms'] / small['median_ms']:.2f}")


if __name__ == "__main__":
    main()
