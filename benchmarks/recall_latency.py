"""How fast recall is as the home grows.

Usage: python benchmarks/recall_latency.py [--sizes 1000,10000,100000] [--runs 15] [--json]

For each size, builds a home of synthetic records through `brain import` (a real
subprocess, one commit), builds the index once, then prints the figures below. Records
are Zipf-distributed words from a 20k-word vocabulary and queries mix common and rare
words, the same generator as index_speed.py.
  * process_ms: median wall time of a whole `brain recall QUERY` process;
  * inproc_ms:  median time of Brain.recall() in a warm process;
  * index1_ms:  median time to index one new record into the existing catalog.
Targets: process <= 150 ms at 10k; in-process <= 10 ms at 100k; index1 flat in size.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from index_speed import vocabulary  # noqa: E402

from brain.api import Brain  # noqa: E402
from brain.index import Index  # noqa: E402
from brain.index import sync as catalog  # noqa: E402

BODY_WORDS = 40


def synthetic_lines(size: int, rng: random.Random) -> list[str]:
    """Records with Zipf-distributed words from a 20k vocabulary (as index_speed.py)."""
    words = vocabulary(rng)
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    lines = []
    for i in range(size):
        body = rng.choices(words, weights=weights, k=BODY_WORDS)
        lines.append(
            json.dumps(
                {
                    "key": f"synthetic-{i:06d}",
                    "type": rng.choice(["fact", "preference", "decision", "lesson"]),
                    "description": " ".join(body[:8]),
                    "tags": [f"project:p{rng.randint(1, 40)}"],
                    "body": " ".join(body) + ".",
                    "created": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z",
                }
            )
        )
    return lines


def build(root: Path, size: int, env: dict[str, str]) -> Brain:
    home = root / f"home-{size}"
    brain, _ = Brain.init(home)
    src = root / f"records-{size}.jsonl"
    src.write_text("\n".join(synthetic_lines(size, random.Random(0))) + "\n")
    subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), "import", str(src)],
        check=True,
        env=env,
        capture_output=True,
    )
    brain.index()
    return brain


def queries(rng: random.Random, n: int) -> list[str]:
    """Short questions mixing common and rare words, as index_speed.py asks them."""
    words = vocabulary(random.Random(0))
    asked = []
    for _ in range(n):
        common, rare = rng.choices(words[:2000], k=2), rng.choices(words[2000:], k=2)
        asked.append(f"what did we decide about {common[0]} {rare[0]} and {common[1]} {rare[1]}")
    return asked


def process_ms(brain: Brain, env: dict[str, str], runs: int) -> float:
    times = []
    for query in queries(random.Random(1), runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "brain", "--home", str(brain.path), "recall", query],
            check=True,
            env=env,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def inproc_ms(brain: Brain, runs: int) -> float:
    brain.recall("warm up")
    times = []
    for query in queries(random.Random(2), runs * 4):
        start = time.perf_counter()
        brain.recall(query)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def index_one_ms(brain: Brain, runs: int) -> float:
    times = []
    with Index.open(brain.state / catalog.INDEX_FILE) as index:
        for i in range(runs):
            rel = f"memories/bench-new-{i}.md"
            text = (
                f"---\nid: 20260101-000000000-00000{i % 10}\nkey: bench-new-{i}\ntype: fact\n"
                f"description: new\n---\nA brand new fact number {i} about webhooks.\n"
            )
            (brain.path / rel).write_text(text)
            start = time.perf_counter()
            catalog._apply(brain, index, {rel: "A"})
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "b@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "b@example.invalid",
    }
    os.environ.update({k: v for k, v in env.items() if k.startswith("GIT_")})
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            start = time.perf_counter()
            brain = build(Path(tmp), size, env)
            built = time.perf_counter() - start
            rows[size] = {
                "build_s": round(built, 1),
                "process_ms": round(process_ms(brain, env, args.runs), 1),
                "inproc_ms": round(inproc_ms(brain, args.runs), 2),
                "index1_ms": round(index_one_ms(brain, args.runs), 2),
            }
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'records':>8} {'build s':>8} {'process ms':>11} {'in-proc ms':>11} {'index 1 ms':>11}")
    for size, r in rows.items():
        print(
            f"{size:>8} {r['build_s']:>8} {r['process_ms']:>11} {r['inproc_ms']:>11} "
            f"{r['index1_ms']:>11}"
        )


if __name__ == "__main__":
    main()
