"""A big home: import, unchanged re-import, session-start context and index rebuild.

Usage: python benchmarks/big_home.py [--records 20000] [--runs 3] [--json]

Builds a home from a JSONL file of synthetic records with `brain import`, imports the
same file again (nothing changed: no commit and no record superseded is the target),
then times `brain context` and `brain index --rebuild` as real processes (medians of
``--runs``).
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


def brain(home: Path, *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), *args],
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"brain {' '.join(args)} failed: {done.stderr}")
    return took, done.stdout


def head(home: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(home), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name, value in (("NAME", "bench"), ("EMAIL", "bench@example.invalid")):
        os.environ.setdefault(f"GIT_AUTHOR_{name}", value)
        os.environ.setdefault(f"GIT_COMMITTER_{name}", value)
    figures: dict[str, object] = {"records": args.records}
    with tempfile.TemporaryDirectory() as tmp:
        home, data = Path(tmp) / "home", Path(tmp) / "records.jsonl"
        with data.open("w") as fh:
            for i in range(args.records):
                body = f"Synthetic fact {i} about service-{i % 97} and its deploy window."
                fh.write(json.dumps({"key": f"synthetic-{i:06d}", "body": body}) + "\n")
        brain(home, "init")
        figures["import_s"] = round(brain(home, "import", str(data))[0], 1)
        exported = Path(tmp) / "exported.jsonl"
        exported.write_text(brain(home, "export")[1])
        before = head(home)
        took, out = brain(home, "import", str(exported), "--json")
        figures["reimport_s"] = round(took, 1)
        figures["reimport_superseded"] = json.loads(out).get("superseded")
        figures["reimport_committed"] = head(home) != before
        brain(home, "index")
        figures["context_s"] = round(
            statistics.median(brain(home, "context")[0] for _ in range(args.runs)), 2
        )
        figures["index_rebuild_s"] = round(
            statistics.median(brain(home, "index", "--rebuild")[0] for _ in range(args.runs)), 1
        )
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, value in figures.items():
        print(f"{name:22} {value}")


if __name__ == "__main__":
    main()
