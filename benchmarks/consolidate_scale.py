"""Phase 2's time per raw memory against how much history was harvested beside the records.

Usage: python benchmarks/consolidate_scale.py [--sessions 0,800,5000] [--raw 50,500,5000]
    [--records 1000] [--kb-per-session 20] [--json]

For each number of ``--sessions``, a home is built: ``--records`` synthetic records
(one ``brain import``), its search index, then that many synthetic transcripts (half
Claude Code, half Codex CLI, from ``benchmarks/harvest.py``, each about
``--kb-per-session`` KB) harvested into it, so the index holds their turns and tool
calls as a person's does. For each number of ``--raw``, that many raw memories are
appended in one commit (their words are the transcripts' and the records' words, so a
search matches turns as well as records) and ``consolidate --force`` is run with the
built-in model, every one taken (``max_raw_memories_for_consolidation`` set to the
largest number); the home is then reset to before the raw memories, and its index
brought back in step, untimed.

Prints, for every pair, the whole run's CPU seconds (of this process: on a shared
machine wall time measures the neighbours), the CPU seconds spent cutting the raw
memories into batches and finding each batch's related records, and milliseconds per
raw memory of each; then, for each number of raw memories,
the ratio of the time per raw memory in the largest history to that in the smallest
(target: at most 1.5).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harvest import build_tree  # noqa: E402

# Words of the synthetic transcripts (benchmarks/harvest.py), so a raw memory's search
# matches turns as well as records, and a vocabulary of made-up words drawn with Zipf's
# weights, as words are in text.
_SHARED = "deploy retry webhook cache index schema migrate token parser build test lint".split()
_RNG = random.Random(35)
_VOCABULARY = sorted(
    {
        "".join(_RNG.choice("bcdfgklmnprstvz") + _RNG.choice("aeiou") for _ in range(3))
        for _ in range(6000)
    }
)
_WEIGHTS = [1 / (rank + 1) for rank in range(len(_VOCABULARY))]


def _words(n: int, seed: int) -> str:
    rng = random.Random(seed)
    drawn = rng.choices(_VOCABULARY, weights=_WEIGHTS, k=n - 2) + rng.sample(_SHARED, 2)
    rng.shuffle(drawn)
    return " ".join(drawn)


def record_rows(count: int) -> list[str]:
    return [
        json.dumps(
            {
                "key": f"record-{i:05d}",
                "type": "fact",
                "description": f"{_words(8, i)} rule {i}",
                "body": f"{_words(30, -i - 1)}. Record {i}.",
            }
        )
        for i in range(count)
    ]


def raw_memories(count: int, run: str) -> list[object]:
    from brain.home.records import iso, new_id, utcnow
    from brain.pipeline.runs import RawMemory

    now = iso(utcnow())
    return [
        RawMemory(
            id=new_id(),
            key=f"raw-{run}-{n:05d}",
            type="fact",
            description=f"{_words(7, 10**6 + n)} note {n}",
            body=f"{_words(25, 2 * 10**6 + n)}. Learned {n}.",
            confidence=0.8,
            session=f"claude-code:bench-{n}",
            evidence=((1, 1),),
            date=now,
            run="bench",
        )
        for n in range(count)
    ]


def build_home(root: Path, sessions: int, records: int, kb: int) -> tuple[object, float]:
    """A home of ``records`` records and ``sessions`` harvested transcripts; the seconds
    the harvest took."""
    from brain.api import Brain
    from brain.sessions.harvest import harvest

    tree = root / f"tree-{sessions}"
    os.environ.update(
        CLAUDE_CONFIG_DIR=str(tree / "claude"),
        CODEX_HOME=str(tree / "codex"),
        GEMINI_CLI_HOME=str(tree / "gemini"),
    )
    brain, _ = Brain.init(root / f"home-{sessions}")
    brain.import_(record_rows(records), origin="bench")
    brain.index()
    took = 0.0
    if sessions:
        build_tree(tree, sessions, kb * 1000)
        began = time.perf_counter()
        done = harvest(brain, catalog=lambda: brain.catalog)
        took = time.perf_counter() - began
        assert done.new == sessions, done
    return brain, took


def one_run(brain: object, count: int) -> tuple[float, float, int]:
    """CPU seconds of the whole run and of finding related records; records shown."""
    import brain.pipeline.consolidate as steps
    from brain.api import Brain
    from brain.pipeline.consolidate import consolidate
    from brain.pipeline.runs import append_raw

    assert isinstance(brain, Brain)
    head = git(brain.path, "rev-parse", "HEAD")
    with brain.transaction() as tx:
        tx.commit([append_raw(brain, raw_memories(count, head[:7]))], "extract: bench", "extract")
    brain.catalog.open()[0].close()  # the index in step, as after an extract
    finding: list[float] = []

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.process_time()
        try:
            return find(*args, **kwargs)
        finally:
            finding.append(time.process_time() - began)

    find = steps.batches_of
    steps.batches_of = timed
    try:
        began = time.process_time()
        result = consolidate(brain, catalog=brain.catalog, force=True)
        took = time.process_time() - began
    finally:
        steps.batches_of = find
    assert result.ran and result.raw_sent == count, (result.reason, result.raw_sent)
    git(brain.path, "reset", "-q", "--hard", head)
    brain.catalog.open()[0].close()
    return took, sum(finding), result.existing


def git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="0,800,5000")
    parser.add_argument("--raw", default="50,500,5000")
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--kb-per-session", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sessions = [int(s) for s in args.sessions.split(",")]
    counts = [int(n) for n in args.raw.split(",")]
    for name in ("AUTHOR", "COMMITTER"):
        os.environ.setdefault(f"GIT_{name}_NAME", "bench")
        os.environ.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["HOME"] = str(root / "person")
        for size in sessions:
            brain, harvested = build_home(root, size, args.records, args.kb_per_session)
            brain.config_set("max_raw_memories_for_consolidation", str(max(counts)))
            docs = _docs(brain)
            print(f"home of {size} sessions: {docs} documents, harvest {harvested:.1f} s",
                  file=sys.stderr)  # fmt: skip
            for count in counts:
                took, finding, existing = one_run(type(brain).open(brain.path), count)
                rows.append(
                    {
                        "sessions": size,
                        "documents": docs,
                        "raw": count,
                        "run_s": round(took, 2),
                        "find_s": round(finding, 2),
                        "run_ms_per_raw": round(took / count * 1000, 2),
                        "find_ms_per_raw": round(finding / count * 1000, 2),
                        "records_shown": existing,
                    }
                )
                print(json.dumps(rows[-1]), file=sys.stderr)
    ratios = {}
    for count in counts:
        mine = [r for r in rows if r["raw"] == count]
        low, high = mine[0], mine[-1]
        ratios[count] = {
            "run": round(high["run_ms_per_raw"] / low["run_ms_per_raw"], 2),
            "find": round(high["find_ms_per_raw"] / low["find_ms_per_raw"], 2),
        }
    if args.json:
        print(json.dumps({"rows": rows, "ratios": ratios, "load": os.getloadavg()}, indent=2))
        return
    print(f"{args.records} records; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    head = f"{'raw':>6}" + "".join(f"{f'{s} sessions':>26}" for s in sessions)
    print(head + f"{'ratio':>14}")
    print(f"{'':>6}" + f"{'run / find ms per raw':>26}" * len(sessions) + f"{'run / find':>14}")
    for count in counts:
        cells = ""
        for size in sessions:
            row = next(r for r in rows if r["raw"] == count and r["sessions"] == size)
            cells += f"{row['run_ms_per_raw']:>17.2f} / {row['find_ms_per_raw']:>6.2f}"
        ratio = ratios[count]
        print(f"{count:>6}{cells}{ratio['run']:>8.2f} / {ratio['find']:.2f}")
    print("target: ratio at most 1.5 (largest history against the smallest)")


def _docs(brain: object) -> int:
    from brain.api import Brain

    assert isinstance(brain, Brain)
    index, _ = brain.catalog.open()
    try:
        return index.count()
    finally:
        index.close()


if __name__ == "__main__":
    main()
