"""Speed of brain's index: median search and single-document upsert time by index size.

    python benchmarks/index_speed.py [--sizes 1000,10000,100000] [--queries 200]

Documents are synthetic: Zipf-distributed words from a fixed vocabulary, about the size
of a memory record. Queries are short free-text questions mixing common and rare words.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brain.index import Doc, Index  # noqa: E402

VOCABULARY = 20_000
BODY_WORDS = 60


def vocabulary(rng: random.Random) -> list[str]:
    """Pronounceable fake words, most common first."""
    consonants, vowels = "bcdfghklmnprstvz", "aeiou"
    words: set[str] = set()
    while len(words) < VOCABULARY:
        length = rng.randint(2, 4)
        words.add("".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(length)))
    return sorted(words, key=lambda w: (len(w), w))


def make_doc(i: int, words: list[str], weights: list[float], rng: random.Random) -> Doc:
    """One synthetic record."""
    body = rng.choices(words, weights=weights, k=BODY_WORDS)
    return Doc(
        path=f"memories/doc-{i}.md",
        key=f"{body[0]}-{body[1]}-{i}",
        type=rng.choice(["fact", "lesson", "decision", "preference"]),
        description=" ".join(rng.choices(words, weights=weights, k=8)),
        body=" ".join(body),
        tags=(f"project:{rng.randint(1, 50)}",),
        created=f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z",
    )


def median_ms(samples: list[float]) -> float:
    """Median of durations in seconds, as milliseconds."""
    return statistics.median(samples) * 1000


def measure(size: int, queries: int, rng: random.Random, tmp: Path) -> tuple[float, float]:
    """Build an index of ``size`` documents; return median search and upsert times (ms)."""
    words = vocabulary(rng)
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    with Index.open(tmp / f"speed-{size}.sqlite") as index:
        batch = 5_000
        for start in range(0, size, batch):
            index.upsert(
                make_doc(i, words, weights, rng) for i in range(start, min(size, start + batch))
            )
        searches = []
        for _ in range(queries):
            common = rng.choices(words[:2000], k=2)
            rare = rng.choices(words[2000:], k=2)
            question = f"what did we decide about {common[0]} {rare[0]} and {common[1]} {rare[1]}?"
            began = time.perf_counter()
            index.search(question, k=10)
            searches.append(time.perf_counter() - began)
        upserts = []
        for j in range(50):
            doc = make_doc(size + j, words, weights, rng)
            began = time.perf_counter()
            index.upsert([doc])
            upserts.append(time.perf_counter() - began)
    return median_ms(searches), median_ms(upserts)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)
    rng = random.Random(7)
    print(f"{'documents':>10} {'search median ms':>18} {'upsert median ms':>18}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            search_ms, upsert_ms = measure(size, args.queries, rng, Path(tmp))
            print(f"{size:>10} {search_ms:>18.2f} {upsert_ms:>18.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
