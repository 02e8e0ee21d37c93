"""How long `brain purge` takes, and a second machine's `brain sync` taking the rewrite.

Usage: python benchmarks/purge.py [--records 2000] [--commits 200] [--json]

A home of RECORDS imported records (one commit) and COMMITS more `remember`s, the
second of which holds the secret, with a bare remote and a clone of it (machine b,
with one record of its own not pushed). Prints the wall time of the dry run, of the
purge (merge, rewrite of a copy, receipt, push with lease, reflog expiry and gc, index
rebuild), and of b's sync taking the rewrite; and checks that neither machine nor the
remote has the secret in `git log -p --all` afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from brain.api import Brain

SECRET = "plumzebra-bench-4471"


def _git(path: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def build(root: Path, records: int, commits: int) -> tuple[Brain, Path]:
    remote = root / "remote.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(remote)], check=True)
    brain, _ = Brain.init(root / "a")
    lines = (
        json.dumps({"key": f"synthetic-{i:06d}", "type": "fact", "body": f"Synthetic fact {i}."})
        for i in range(records)
    )
    brain.import_(lines, origin="synthetic")
    for i in range(commits):
        said = f"the staging word is {SECRET}" if i == 1 else f"benchmark fact {i}"
        brain.remember(said, key=f"bench-{i}")
    brain.remote_add(str(remote))
    brain.sync()
    return brain, remote


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for role in ("AUTHOR", "COMMITTER"):
        os.environ.setdefault(f"GIT_{role}_NAME", "bench")
        os.environ.setdefault(f"GIT_{role}_EMAIL", "bench@example.invalid")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        a, remote = build(root, args.records, args.commits)
        from brain.home.sync.remote import clone

        clone(str(remote), root / "b")
        b = Brain.open(root / "b")
        b.remember("b's own fact, not pushed", key="b-own")
        start = time.perf_counter()
        dry = a.purge(text=SECRET, dry_run=True)
        dry_s = time.perf_counter() - start
        start = time.perf_counter()
        done = a.purge(text=SECRET)
        purge_s = time.perf_counter() - start
        start = time.perf_counter()
        synced = b.sync()
        sync_s = time.perf_counter() - start
        clean = all(SECRET not in _git(p, "log", "-p", "--all") for p in (a.path, b.path, remote))
        figures = {
            "records": args.records,
            "commits": done.total,
            "rewritten": done.rewritten,
            "dry_run_s": round(dry_s, 2),
            "purge_s": round(purge_s, 2),
            "sync_taking_it_s": round(sync_s, 2),
            "took_rewrite": synced.rewritten,
            "b_own_kept": (b.path / "memories" / "b-own.md").exists(),
            "no_trace": clean,
            "dry_run_same_count": dry.rewritten == done.rewritten,
        }
    if args.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name:20} {value}")


if __name__ == "__main__":
    main()
