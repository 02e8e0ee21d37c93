"""The first run over a big history: harvest, extract and consolidate, timed.

Usage: python benchmarks/big_history.py [--sessions 800] [--mb 450] [--projects 40]
    [--runs 1] [--no-recall] [--keep DIR] [--json]

Builds a ``~/.claude`` of ``--sessions`` Claude Code sessions, about ``--mb`` MB in all,
across ``--projects`` projects, by copying real published sessions: the four Claude Code
transcripts of marot/spotter in ``tests/fixtures/transcripts/claude-code/marot-spotter/``
(``short``, ``tool_heavy``, ``subagent`` and the compaction excerpt; MIT, their commits
in that folder's SOURCES.md). Each session is one of them, taken in turn, its lines
written again until the session is its share of the size; each copy gets ids of its
own (the session's, and every line's uuid, so no two lines are one), its project's
working directory, and a date two days old, so every session is finished.

Then, as a person's first run, each as a process of the installed ``brain`` against a
new home: ``harvest --all``, ``extract --all`` (the built-in model) and
``consolidate --force``; their seconds and the sum are printed (target: under 10 s in
all on two cores), the wall clock and the CPU time (user and system) the process used
(with the processes it started: a big harvest reads on every core),
with the load average beside them: on a machine other work shares, the wall clock
measures that work too. ``--runs N`` makes N first runs over the one history, each in a
new home, and prints their medians. ``recall`` after the last is timed too, apart: the
first search builds the catalog of every harvested turn. ``--keep DIR`` keeps the
history and the home there (``DIR/person``, ``DIR/home``), for the start-up
benchmark's ``--big`` home.

Copies of one conversation are read once (``brain.pipeline.copies``): of the 800
sessions, 597 are copies of the three conversations of ``tool_heavy``, ``subagent`` and
the compaction excerpt; the 200 of ``short`` (three typed turns, too few characters to
tell a copy) are each read in full.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

FIXTURES = (
    Path(__file__).resolve().parent.parent
    / "tests"
    / "fixtures"
    / "transcripts"
    / "claude-code"
    / "marot-spotter"
)
SOURCES = (
    "short.jsonl",
    "tool_heavy.jsonl",
    "subagent.jsonl",
    "258c7280-compaction-and-stop-excerpt.jsonl",
)
# Where the sessions were recorded.
SOURCE_CWDS = ("/home/marco/projects/spotter", "/home/USER/projects/spotter-worktrees/spotter-gqc")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

PY = sys.executable
_SCRIPT = Path(PY).with_name("brain")
BRAIN = [str(_SCRIPT)] if _SCRIPT.is_file() else [PY, "-m", "brain"]


def copy_session(text: str, number: int, size: int, cwd: str) -> str:
    """``text`` written again until ``size`` bytes, each copy's ids its own."""
    pieces, total, turn = [], 0, 0
    while total < size:
        # Every uuid (the session's, each line's, its parent's) made this copy's own,
        # the same way wherever it stands, so the lines still chain.
        stamp = f"{number:06x}{turn:06x}"
        piece = _UUID.sub(functools.partial(_stamped, stamp), text)
        for where in SOURCE_CWDS:
            piece = piece.replace(where, cwd)
        pieces.append(piece)
        total += len(piece)
        turn += 1
    return "".join(pieces)


def _stamped(stamp: str, match: re.Match[str]) -> str:
    """A uuid made a copy's own: its last 12 digits are the copy's ``stamp``."""
    return match.group(0)[:24] + stamp


def build_history(person: Path, sessions: int, mb: float, projects: int) -> int:
    """The ``~/.claude`` of ``sessions`` copies; returns the bytes written."""
    texts = [(FIXTURES / name).read_text(encoding="utf-8") for name in SOURCES]
    share = int(mb * 1_000_000 / sessions)
    old = time.time() - 2 * 86_400
    written = 0
    for n in range(sessions):
        project = n % projects
        cwd = f"/home/person/src/project-{project:02d}"
        folder = person / ".claude" / "projects" / cwd.replace("/", "-")
        folder.mkdir(parents=True, exist_ok=True)
        data = copy_session(texts[n % len(texts)], n, share, cwd)
        session = str(uuid.UUID(int=n + 1))
        path = folder / f"{session}.jsonl"
        path.write_text(data, encoding="utf-8")
        os.utime(path, (old, old))
        written += len(data.encode())
    return written


def brain(env: dict[str, str], *args: str) -> tuple[float, float, str]:
    """Seconds of ``brain ARGS`` as a process (wall clock, then CPU: user and system),
    and what it printed."""
    began, used = time.perf_counter(), _children_cpu()
    done = subprocess.run([*BRAIN, *args], capture_output=True, text=True, env=env)
    took, cpu = time.perf_counter() - began, _children_cpu() - used
    if done.returncode != 0:
        raise SystemExit(f"brain {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return took, cpu, done.stdout


def _children_cpu() -> float:
    """CPU seconds (user and system) of the processes this one waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


PHASES = (
    ("harvest", ("harvest", "--all", "--json")),
    ("extract", ("extract", "--all", "--json")),
    ("consolidate", ("consolidate", "--force", "--json")),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=800)
    parser.add_argument("--mb", type=float, default=450)
    parser.add_argument("--projects", type=int, default=40)
    parser.add_argument("--runs", type=int, default=1, help="first runs, each in a new home")
    parser.add_argument("--no-recall", action="store_true", help="do not time the first recall")
    parser.add_argument("--keep", type=Path, help="keep the history and the home here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    root = args.keep or Path(tempfile.mkdtemp(prefix="brain-big-history-"))
    try:
        report = run(root, args)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    show(report)


def show(report: dict[str, Any]) -> None:
    print(
        f"{report['sessions']} sessions, {report['mb']} MB, {report['projects']} projects "
        f"(built in {report['build_s']} s), {report['cores']} cores, load average before "
        f"{report['load_before']}"
    )
    runs = report["runs"]
    print(f"{'':<14}{'wall s':>8}{'cpu s':>8}   each run (wall / cpu), load average after")
    for phase in [name for name, _ in PHASES] + ["in all"]:
        each = "  ".join(f"{r[phase]['s']:.2f} / {r[phase]['cpu_s']:.2f}" for r in runs)
        load = " | ".join(r[phase]["load"] for r in runs) if phase != "in all" else ""
        median = report["median"][phase]
        print(f"{phase:<14}{median['s']:>8.2f}{median['cpu_s']:>8.2f}   {each}   {load}")
    print(f"target: in all under 10 s ({len(runs)} run(s); medians)")
    recall = report["first_recall"]
    print(
        f"first recall  {recall['s']:>8.2f}{recall['cpu_s']:>8.2f}   (builds the catalog of turns)"
    )
    print(f"raw memories {report['raw_memories']}, records {report['records']}")


def run(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    person = root / "person"
    began = time.perf_counter()
    total = build_history(person, args.sessions, args.mb, args.projects)
    built = time.perf_counter() - began
    env = {**os.environ, "HOME": str(person)}
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_DATA_HOME"):
        env.pop(name, None)
    for name in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{name}_NAME", "bench")
        env.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
    home = root / "home"
    env["BRAIN_HOME"] = str(home)
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    runs = []
    for _ in range(args.runs):
        shutil.rmtree(home, ignore_errors=True)  # each run is a first run
        runs.append(first_run(env))
    took, cpu = (
        (0.0, 0.0) if args.no_recall else brain(env, "recall", "webhook retries", "--json")[:2]
    )
    raw = home / "raw_memories.md"
    text = raw.read_text(encoding="utf-8") if raw.exists() else ""
    return {
        "sessions": args.sessions,
        "mb": round(total / 1e6, 1),
        "projects": args.projects,
        "build_s": round(built, 1),
        "cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "load_before": load_before,
        "runs": runs,
        "median": {
            phase: {
                kind: round(statistics.median(r[phase][kind] for r in runs), 2)
                for kind in ("s", "cpu_s")
            }
            for phase in runs[0]
        },
        "first_recall": {"s": round(took, 2), "cpu_s": round(cpu, 2)},
        "raw_memories": len(re.findall(r"^- id: ", text, re.M)),
        "records": len(list((home / "memories").glob("*.md"))),
    }


def first_run(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """``init``, then each phase timed as a process: its wall and CPU seconds, the load."""
    brain(env, "init")
    phases: dict[str, dict[str, Any]] = {}
    for phase, argv in PHASES:
        took, cpu, _ = brain(env, *argv)
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        phases[phase] = {"s": round(took, 2), "cpu_s": round(cpu, 2), "load": load}
    phases["in all"] = {
        kind: round(sum(phases[p][kind] for p, _ in PHASES), 2) for kind in ("s", "cpu_s")
    }
    return phases


if __name__ == "__main__":
    main()
