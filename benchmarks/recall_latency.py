"""How fast recall is as the home grows.

Usage: python benchmarks/recall_latency.py [--sizes 1000,10000,100000] [--runs 15] [--json]

For each size, builds a home of synthetic records through `brain import` (a real
subprocess, one commit), builds the index once, then prints:
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

from brain import catalog
from brain.core import Brain
from brain.index import Index

WORDS = (
    "deploy webhook retry backoff database migration schema index cache redis queue worker "
    "payment invoice customer account token session login password reset email template "
    "frontend backend api endpoint latency timeout error logging metrics alert pager incident "
    "release branch merge review lint format test flaky fixture mock integration staging "
    "production docker kubernetes helm terraform region bucket storage upload download "
    "python typescript golang rust java kotlin swift build compile bundle webpack vite pnpm "
    "npm yarn poetry pip venv package dependency upgrade security audit secret vault config "
    "feature flag rollout experiment analytics dashboard report export import csv json yaml"
).split()


def synthetic_lines(size: int, rng: random.Random) -> list[str]:
    lines = []
    for i in range(size):
        words = rng.choices(WORDS, k=rng.randint(12, 40))
        body = " ".join(words) + f". Ticket {rng.randint(1000, 99999)}."
        lines.append(
            json.dumps(
                {
                    "key": f"synthetic-{i:06d}",
                    "type": rng.choice(["fact", "preference", "decision", "lesson"]),
                    "description": " ".join(words[:8]),
                    "tags": [f"project:p{rng.randint(1, 40)}"],
                    "body": body,
                    "created": f"20{rng.randint(20, 26)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
                    "T10:00:00Z",
                }
            )
        )
    return lines


def build(root: Path, size: int, env: dict[str, str]) -> Brain:
    home = root / f"home-{size}"
    brain, _ = Brain.init(home)
    src = root / f"records-{size}.jsonl"
    src.write_text("\n".join(synthetic_lines(size, random.Random(size))) + "\n")
    subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), "import", str(src)],
        check=True,
        env=env,
        capture_output=True,
    )
    brain.index()
    return brain


def queries(rng: random.Random, n: int) -> list[str]:
    return [" ".join(rng.sample(WORDS, rng.randint(2, 5))) for _ in range(n)]


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
