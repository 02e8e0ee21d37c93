"""Writers at once: N processes each remembering M records into one home.

Usage: python benchmarks/contention.py [--writers 8] [--writes 50] [--shared-key] [--json]

Each writer is a real `brain remember` process per write, all started together.
Prints how many writes succeeded, how many records and commits the home ends with,
and the wall time; the target is every write succeeding (no lock timeout while the
writers before make progress).
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

_WRITER = """
import subprocess, sys
home, me, writes, shared = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
ok = 0
for n in range(writes):
    key = "shared" if shared else f"w{me}-{n}"
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--home", home, "remember", f"fact {me}/{n}", "--key", key],
        capture_output=True, text=True,
    )
    ok += done.returncode == 0
    if done.returncode:  # the last line says what went wrong
        print(done.stderr.strip().splitlines()[-1], file=sys.stderr)
print(ok)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--writes", type=int, default=50)
    parser.add_argument("--shared-key", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name, value in (("NAME", "bench"), ("EMAIL", "bench@example.invalid")):
        os.environ.setdefault(f"GIT_AUTHOR_{name}", value)
        os.environ.setdefault(f"GIT_COMMITTER_{name}", value)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        subprocess.run([sys.executable, "-m", "brain", "--home", str(home), "init"], check=True)
        start = time.perf_counter()
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _WRITER,
                    str(home),
                    str(w),
                    str(args.writes),
                    "1" if args.shared_key else "0",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )  # fmt: skip
            for w in range(args.writers)
        ]
        outs = [p.communicate() for p in procs]
        elapsed = time.perf_counter() - start
        commits = subprocess.run(
            ["git", "-C", str(home), "rev-list", "--count", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        records = len(list((home / "memories").glob("*.md")))
    ok = sum(int(out.strip() or 0) for out, _ in outs)
    errors = [line for _, err in outs for line in err.splitlines()][:5]
    result = {
        "writes": args.writers * args.writes,
        "succeeded": ok,
        "records": records,
        "commits": int(commits),
        "seconds": round(elapsed, 1),
        "errors": errors,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"{ok} of {result['writes']} writes succeeded ({args.writers} writers, "
        f"{'one shared key' if args.shared_key else 'distinct keys'}); {records} records, "
        f"{commits} commits, {elapsed:.1f} s"
    )
    for line in errors:
        print(f"  {line}")


if __name__ == "__main__":
    main()
