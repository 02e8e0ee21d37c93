"""What a joined team costs recall and the session-start hook, and what a pull costs.

Usage: python benchmarks/team.py [--personal 1000] [--team 5000] [--members 50]
                                 [--runs 15] [--json]

Personal homes of ``--personal`` synthetic records (through `brain import`, one
commit) and a checkout whose remote is ``github.com/acme/api``; one home joins team
``acme``: ``--team`` records written by ``--members``
people (one commit each) on a bare remote, its team.yaml covering ``github.com/acme/*``.
The same checkout, queries and personal records; only the team differs.
  * hook_ms:    median wall time of a `brain hook session-start` process in the checkout;
  * process_ms: median wall time of a `brain recall QUERY` process in the checkout;
  * hook_cpu_ms, process_cpu_ms: the CPU time of those processes;
  * recall_ms:  median time of Brain.recall(query, where=checkout) in a warm process,
                and recall_cpu_ms its process CPU time (what load on a shared machine
                moves least);
  * ratio:      with the team over without (target: within 1.2).
Two homes with the same personal records, one of them joined to the team, and a third
home holding as many records of its own as the other two together (the same-sized home:
what searching that many records costs without any team), are measured in turn, run by
run, so a busy moment of the machine weighs on all alike.
  * first_index_s: the first recall after joining, which indexes every team record;
  * pull_s / index_after_pull_ms: `brain team sync` bringing one accepted record, and
    the next recall's index update, which reads only what that commit changed.
The load average is printed before and after.

``--results FILE`` writes the hits (path, kind, score) of every query the benchmark asks,
of each home, plain and kept to the checkout's project (as the MCP server's recall tool
asks), before any is timed; ``--compare A B`` says which lists differ between two such
files. ``--brain DIR`` imports brain from DIR (a checkout of another commit), so that
one machine writes both and sees whether a change kept the results.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if "--brain" in sys.argv:  # brain imported from there, here and in the processes run
    OTHER = str(Path(sys.argv[sys.argv.index("--brain") + 1]).resolve())
    sys.path.insert(0, OTHER)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (OTHER, os.environ.get("PYTHONPATH"))))
    import brain  # noqa: F401  (before recall_latency puts this checkout first on the path)

    assert Path(brain.__file__).is_relative_to(OTHER), brain.__file__

from recall_latency import queries, synthetic_lines  # noqa: E402

from brain.api import Brain  # noqa: E402
from brain.home.records import Record, render  # noqa: E402
from brain.team import members, proposals  # noqa: E402


def git(where: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", "-C", str(where), *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return done.stdout


def build_team(root: Path, size: int, people: int) -> Path:
    """A bare remote holding a team home of ``size`` records by ``people`` members."""
    remote = root / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    maker, _ = Brain.init(root / "maker")
    team = members.create(maker.path, str(remote), "acme", ("github.com/acme/*",)).path
    lines = [json.loads(line) for line in synthetic_lines(size, random.Random(7))]
    share = max(1, size // people)
    for n in range(people):
        mine = lines[n * share : (n + 1) * share if n < people - 1 else size]
        for i, data in enumerate(mine, start=n * share):
            key = f"team-{i:06d}"
            record = Record(
                id=f"20260101-000000000-{i:06x}",
                key=key,
                type=data["type"],
                description=data["description"],
                body=data["body"],
                tags=() if i % 3 else ("project:api",),
                created=data["created"],
                updated=data["created"],
            )
            (team / "memories" / f"{key}.md").write_text(render(record))
        who = {"GIT_AUTHOR_NAME": f"member{n}", "GIT_AUTHOR_EMAIL": f"m{n}@example.invalid"}
        git(team, "add", "memories")
        git(team, "commit", "-qm", f"accept: {len(mine)} records from member{n}", env=who)
    git(team, "push", "-q", "origin", "main")
    return remote


def checkout(root: Path) -> Path:
    top = root / "api"
    top.mkdir()
    git(top, "init", "-q")
    git(top, "remote", "add", "origin", "git@github.com:acme/api.git")
    return top


def children_cpu() -> float:
    """The CPU time of this process's finished children so far, in seconds."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def hook_once(home: Path, where: Path) -> tuple[float, float]:
    """One `brain hook session-start` process in ``where``: its wall and CPU time."""
    payload = json.dumps({"session_id": "bench", "cwd": str(where), "source": "startup"})
    env = {**os.environ, "BRAIN_HOME": str(home)}
    command = [sys.executable, "-m", "brain", "hook", "session-start"]
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(
        command, input=payload, capture_output=True, text=True, env=env, cwd=where
    )
    took = time.perf_counter() - start
    assert "additionalContext" in done.stdout, done.stderr
    return took, children_cpu() - cpu


def recall_process(home: Path, where: Path, query: str) -> tuple[float, float]:
    """One `brain recall QUERY` process in ``where``: its wall and CPU time."""
    env = {**os.environ, "BRAIN_HOME": str(home)}
    start, cpu = time.perf_counter(), children_cpu()
    subprocess.run(
        [sys.executable, "-m", "brain", "recall", query],
        cwd=where,
        env=env,
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - start, children_cpu() - cpu


NAMES = ("alone", "joined", "sized")
MEASURES = ("hook", "hook_cpu", "process", "process_cpu", "recall", "recall_cpu")
PROJECT = "api"  # the checkout's name: the MCP server's recall tool keeps to it


def side_by_side(homes: list[Path], where: Path, runs: int) -> dict[str, list[float]]:
    """Hook and recall times of the homes, taken in turn (so a busy moment of the
    machine weighs on all alike): the first run of each warms its caches."""
    times: dict[str, list[float]] = {
        f"{what}_{n}": [] for what in MEASURES for n in range(len(homes))
    }
    asked = queries(random.Random(3), runs + 1)
    for run in range(runs + 1):
        for n, home in enumerate(homes):
            took, took_cpu = hook_once(home, where)
            process, process_cpu = recall_process(home, where, asked[run])
            if run:
                times[f"hook_{n}"].append(took)
                times[f"hook_cpu_{n}"].append(took_cpu)
                times[f"process_{n}"].append(process)
                times[f"process_cpu_{n}"].append(process_cpu)
    brains = [Brain.open(home) for home in homes]
    for brain in brains:
        brain.recall("warm up", where=where)
    for query in queries(random.Random(2), runs * 4):
        for n, brain in enumerate(brains):
            start, cpu = time.perf_counter(), time.process_time()
            brain.recall(query, where=where)
            times[f"recall_cpu_{n}"].append(time.process_time() - cpu)
            times[f"recall_{n}"].append(time.perf_counter() - start)
    for brain in brains:
        brain.close()
    return times


def result_lists(homes: list[Path], where: Path, runs: int) -> dict[str, list[object]]:
    """The hits of every query the benchmark asks, of each home, plain and kept to the
    checkout's project: what a change to the search must keep. Uses are not counted, so
    the ranking stays put."""
    asked = queries(random.Random(3), runs + 1) + queries(random.Random(2), runs * 4)
    found: dict[str, list[object]] = {}
    for name, home in zip(NAMES, homes, strict=True):
        brain = Brain.open(home)
        for query in asked:
            for scope in (None, PROJECT):
                hits = brain.recall(query, where=where, project=scope, count_uses=False).hits
                found[f"{name} {scope or '-'} {query}"] = [
                    [h.path, h.kind, round(h.score, 6)] for h in hits
                ]
        brain.close()
    return found


def compare(before: Path, after: Path) -> None:
    """Print which result lists differ between two ``--results`` files."""
    old, new = (json.loads(p.read_text()) for p in (before, after))
    differ = [k for k in old if [h[:2] for h in old[k]] != [h[:2] for h in new.get(k, [])]]
    differ += [k for k in new if k not in old]
    same = [(old[k], new[k]) for k in old if k not in differ]
    drift = max((abs(a[2] - b[2]) for x, y in same for a, b in zip(x, y, strict=True)), default=0.0)
    hits = sum(len(v) for v in old.values())
    print(f"{len(old)} result lists ({hits} hits): {len(differ)} differ in paths or order")
    print(f"largest score change among the same lists: {drift:.6f}")
    for key in differ[:10]:
        print(f"  {key}:\n    {old.get(key)}\n    {new.get(key)}")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--personal", type=int, default=1000)
    parser.add_argument("--team", type=int, default=5000)
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--results", type=Path, help="write every query's hits to this file")
    parser.add_argument("--compare", type=Path, nargs=2, help="compare two --results files")
    parser.add_argument("--brain", type=Path, help="import brain from this checkout")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    loads = [load()]
    for name in ("AUTHOR", "COMMITTER"):
        os.environ.setdefault(f"GIT_{name}_NAME", "bench")
        os.environ.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        homes = []
        for name in NAMES:
            brain, _ = Brain.init(root / name)
            size = args.personal + (args.team if name == "sized" else 0)
            brain.import_(synthetic_lines(size, random.Random(1)))
            brain.index()
            homes.append(brain.path)
        where = checkout(root)
        remote = build_team(root, args.team, args.members)
        members.join(homes[1], str(remote))
        start = time.perf_counter()
        Brain.open(homes[1]).recall("first", where=where)
        first_index = time.perf_counter() - start
        if args.results:
            args.results.write_text(json.dumps(result_lists(homes, where, args.runs)))
        times = side_by_side(homes, where, args.runs)
        maker = Brain.open(root / "maker")
        maker.remember("Deploys need Node 20", key="node-version")
        proposals.accept(maker, proposals.propose(maker, "node-version").id)
        start = time.perf_counter()
        members.sync(homes[1])
        pull = time.perf_counter() - start
        again = Brain.open(homes[1])
        start = time.perf_counter()
        hits = again.recall("node version deploys", where=where).hits
        after_pull = time.perf_counter() - start
        assert hits and hits[0].key == "node-version", hits
    loads.append(load())
    median = {k: statistics.median(v) * 1000 for k, v in times.items()}
    result: dict[str, object] = {
        "personal": args.personal,
        "team": args.team,
        "members": args.members,
        "runs": args.runs,
        "load": loads,
    }
    for what in MEASURES:
        result[f"{what}_ms"] = {
            name: round(median[f"{what}_{n}"], 2) for n, name in enumerate(NAMES)
        }
        result[f"{what}_ratio"] = round(median[f"{what}_1"] / median[f"{what}_0"], 2)
        result[f"{what}_ratio_to_sized"] = round(median[f"{what}_1"] / median[f"{what}_2"], 2)
    result |= {
        "first_index_s": round(first_index, 2),
        "pull_s": round(pull, 2),
        "index_after_pull_ms": round(after_pull * 1000, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"{args.personal} personal records; team of {args.team} records by {args.members}; "
        f"the same-sized home has {args.personal + args.team} of its own; "
        f"load average {loads[0]} before, {loads[1]} after"
    )
    for what in MEASURES:
        alone, joined, sized = (median[f"{what}_{n}"] for n in range(3))
        print(
            f"  {what:<10} median without team {alone:7.1f} ms, with team {joined:7.1f} ms "
            f"(ratio {joined / alone:.2f}); same-sized home {sized:7.1f} ms "
            f"(ratio {joined / sized:.2f})"
        )
    print(f"  first recall after joining (indexes the team): {first_index:.2f} s")
    print(
        f"  team sync of one accepted record: {pull:.2f} s; next recall {after_pull * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
