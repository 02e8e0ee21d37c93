"""The native-memory mirror in a big home: a first run, a run with nothing new, one edit.

Usage: python benchmarks/mirror.py [--records 10000] [--memories 200] [--json]

Builds a home of ``--records`` synthetic records with `brain import`, lays
``--memories`` bullets in a Gemini ``GEMINI.md`` under a scratch HOME (every tenth one
saying what a record already says, so it joins that record), then times `brain mirror` as
a real process: the first run, an unchanged second run, and a run after one bullet is
edited.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def brain(home: Path, env: dict[str, str], *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env=env,
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"brain {' '.join(args)} failed: {done.stderr}")
    return took, done.stdout


def _word(n: int) -> str:
    """A made-up word per number (``n`` in base 26, letters only)."""
    letters = ""
    for _ in range(4):
        n, r = divmod(n, 26)
        letters += "bcdfghjklmnpqrstvwxzaeiouy"[r]
    return letters


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--memories", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, object] = {"records": args.records, "memories": args.memories}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = dict(os.environ, HOME=str(root / "user"))
        for name, value in (("NAME", "bench"), ("EMAIL", "bench@example.invalid")):
            env.setdefault(f"GIT_AUTHOR_{name}", value)
            env.setdefault(f"GIT_COMMITTER_{name}", value)
        home, data = root / "home", root / "records.jsonl"
        with data.open("w") as fh:
            for i in range(args.records):
                body = f"Synthetic fact {i} about service-{i % 97} and its deploy window."
                fh.write(json.dumps({"key": f"synthetic-{i:06d}", "body": body}) + "\n")
        brain(home, env, "init")
        brain(home, env, "import", str(data))
        lines = [
            f"- Synthetic fact {i} about service-{i % 97} and its deploy window."
            if i % 10 == 0
            else f"- Prefer {_word(i)} over {_word(i + 1)} when {_word(3 * i)} runs {_word(7 * i)}."
            for i in range(args.memories)
        ]
        gemini = root / "user" / ".gemini"
        gemini.mkdir(parents=True)
        (gemini / "GEMINI.md").write_text("## Gemini Added Memories\n" + "\n".join(lines) + "\n")
        took, out = brain(home, env, "mirror", "--json")
        first = json.loads(out)
        figures |= {"first_s": round(took, 2), "added": first["added"], "merged": first["merged"]}
        took, out = brain(home, env, "mirror", "--json")
        figures |= {"unchanged_s": round(took, 2), "unchanged_commit": json.loads(out)["commit"]}
        lines[1] = lines[1].rstrip(".") + " in tests."
        (gemini / "GEMINI.md").write_text("## Gemini Added Memories\n" + "\n".join(lines) + "\n")
        took, out = brain(home, env, "mirror", "--json")
        figures |= {"edit_s": round(took, 2), "superseded": json.loads(out)["superseded"]}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, value in figures.items():
        print(f"{name:18} {value}")


if __name__ == "__main__":
    main()
