"""Count the machine instructions redaction costs a turn, here and at a git revision.

Time on a shared machine drifts with its load; callgrind's count of instructions does not,
so it tells a change's cost apart from the load's. This runs ``find_secrets`` over every
``EVERY``-th cleaned turn of the sessions of ``data/extract_quality`` (as ``redact.py
real`` reads them) under ``valgrind --tool=callgrind``, twice: once to warm up (imports,
the automaton, the regexes compiled), once warming up and then redacting them again; the
difference, divided by the turns, is what a turn costs once all is warm. The same runs
for git revision ``REV``'s ``brain`` (``git archive``), on the same turns.

Run: ``python benchmarks/redact_instructions.py [--baseline REV] [--every N]`` (default
``main``, every 4th turn; needs valgrind; a run takes a minute or two).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _inner(path: str, measure: bool) -> None:
    from brain.home.secrets.redact import find_secrets

    turns = json.loads(Path(path).read_text("utf-8"))
    for turn in turns:
        find_secrets(turn)
    if measure:
        for turn in turns:
            find_secrets(turn)


def _collected(brain_root: Path, turns: Path, measure: bool) -> int:
    """The instructions callgrind counts for one inner run."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable]
        + [str(Path(__file__).resolve()), "inner", str(turns)]
        + (["measure"] if measure else []),
        # (a fixed hash seed: sets and dicts of strings otherwise order themselves anew
        # each run, and the count drifts by some 0.4% for the same code)
        env={**os.environ, "PYTHONPATH": str(brain_root), "PYTHONHASHSEED": "0"},
        cwd=brain_root,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"no count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def per_turn(brain_root: Path, turns: Path, count: int) -> float:
    """Instructions a turn costs with the ``brain`` under ``brain_root``."""
    env = {**os.environ, "PYTHONPATH": str(brain_root)}
    # compiled once first, so neither counted run pays for writing the .pyc files
    subprocess.run([sys.executable, "-c", "import brain.home.secrets.redact"], env=env, check=True)
    return (_collected(brain_root, turns, True) - _collected(brain_root, turns, False)) / count


def main() -> None:
    if sys.argv[1:2] == ["inner"]:
        _inner(sys.argv[2], sys.argv[3:4] == ["measure"])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--every", type=int, default=4)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from redact import session_turns

    turns = session_turns()[:: args.every]
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", args.baseline, "brain"],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "turns.json"
        path.write_text(json.dumps(turns), "utf-8")
        base = Path(tmp) / "base"
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(base, filter="data")
        here = per_turn(ROOT, path, len(turns))
        there = per_turn(base, path, len(turns))
    print(f"{len(turns)} turns, {sum(map(len, turns)) / len(turns):.0f} characters each on average")
    print(f"  this tree     {here:10,.0f} instructions a turn")
    ratio = here / there
    print(f"  {args.baseline:12}  {there:10,.0f} instructions a turn   (this tree: {ratio:.2f}x)")


if __name__ == "__main__":
    main()
