"""kill -9 loops: a brain command killed at a random moment, then the next command.

Usage: python benchmarks/crash.py [--kills 100] [--ops sync,remember,extract,consolidate]
                                  [--kill group|process] [--json]

For each operation, a home is set up once (for extract: transcripts harvested and not
yet extracted; for consolidate: raw memories not yet consolidated; for sync: a bare
remote and a second machine's clone, which remembers a record and syncs before each
round while this home remembers one of its own, so every sync merges). Each round starts
the command as a real process in a process group of its own, sends SIGKILL after a
random delay between 0 and the time one whole run takes, then checks what a person
would see:

- a read (`brain list`) shows only committed records;
- the same command run again exits 0 and finishes the work (a sync has merged the
  remote's head and pushed its own);
- `git status` is clean (nothing staged, no stray file), no `.tmp` file is left and
  `git fsck` finds nothing wrong (once, at the end).

``--kill group`` (the default) kills the whole process group: brain and the git
commands it is running at that moment, as a closed terminal or a killed session does;
``--kill process`` kills brain alone and lets its git children finish.

The round then puts the home back at its starting commit for the next kill (a sync's
home and remote move on instead). Prints the failures out of the kills per operation;
the target is 0 for each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "tests" / "fixtures" / "transcripts" / "claude-code"
SESSIONS = 12
LEARNED = (
    "Remember that service {n} deploys go out on Tuesdays.",
    "Always run the linter before pushing service {n}.",
)


def brain(home: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), *args],
        capture_output=True,
        text=True,
    )
    if check and done.returncode != 0:
        raise SystemExit(f"brain {' '.join(args)} failed: {done.stderr}")
    return done


def git(home: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(home), *args], capture_output=True, text=True, check=True
    ).stdout


def transcripts(user: Path) -> None:
    """Copies of recorded Claude Code sessions, each under its own session id."""
    folder = user / ".claude" / "projects" / "-home-bench-project"
    folder.mkdir(parents=True)
    source = FIXTURE / "marot-spotter" / "tool_heavy.jsonl"
    old = time.time() - 3 * 86_400
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(old))
    for n in range(SESSIONS):
        dest = folder / f"00000000-0000-4000-8000-{n:012d}.jsonl"
        shutil.copy(source, dest)
        with dest.open("a") as fh:  # what the built-in model keeps: stated facts
            for i, text in enumerate(LEARNED):
                message = {"role": "user", "content": text.format(n=n)}
                line = {"type": "user", "uuid": f"u{n}-{i}", "timestamp": when, "message": message}
                fh.write(json.dumps(line) + "\n")
        os.utime(dest, (old, old))


def setup(root: Path, op: str) -> Path:
    home = root / f"home-{op}"
    brain(home, "init")
    if op == "sync":
        remote = root / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
        brain(home, "remote", "add", str(remote))
        brain(home, "sync")
        subprocess.run(
            [sys.executable, "-m", "brain", "--home", str(OTHER[0]), "clone", str(remote)],
            check=True,
            capture_output=True,
        )
    for name, value in (
        ("min_idle_minutes", "0"),
        ("max_age_days", "100000"),
        ("max_rollout_age_days", "100000"),
        ("min_rollout_idle_hours", "0"),
    ):
        brain(home, "config", "set", name, value)
    if op in {"extract", "consolidate"}:
        brain(home, "harvest")
    if op == "consolidate":
        brain(home, "extract")
        if "0 raw memories" in git(home, "log", "-1", "--format=%s"):
            raise SystemExit("extract kept nothing: consolidate would have nothing to do")
    return home


# The second machine of the sync loop: its home.
OTHER = [Path()]


def prepare(home: Path, op: str, n: int) -> None:
    """Before a sync: the other machine pushes a record and this one makes its own."""
    if op == "sync":
        brain(OTHER[0], "remember", f"the other machine's fact {n}", "--key", f"b{n}")
        brain(OTHER[0], "sync")
        brain(home, "remember", f"this machine's fact {n}", "--key", f"a{n}")


def command(op: str, n: int) -> list[str]:
    if op == "remember":
        return ["remember", f"fact number {n}", "--key", f"k{n % 7}"]
    return [op, "--force"] if op == "consolidate" else [op]


def one_run(home: Path, op: str, n: int) -> float:
    prepare(home, op, 1000 + n)
    start = time.perf_counter()
    brain(home, *command(op, n))
    took = time.perf_counter() - start
    reset(home, op)
    return took


def reset(home: Path, op: str) -> None:
    if op not in {"remember", "sync"}:
        git(home, "reset", "-q", "--hard", BASE[op])


BASE: dict[str, str] = {}


def problems(home: Path, op: str, n: int) -> list[str]:
    """What is wrong after a kill and the run that follows it."""
    found = []
    listed = brain(home, "list", "--json", check=False)
    committed = {
        Path(p).stem for p in git(home, "ls-tree", "--name-only", "HEAD", "memories/").split()
    }
    if listed.returncode != 0:
        found.append(f"list after the kill: {listed.stderr.strip()}")
    elif {r["key"] for r in json.loads(listed.stdout)} - committed:
        found.append("list served uncommitted records")
    rerun = brain(home, *command(op, n), check=False)
    if rerun.returncode != 0:
        found.append(f"rerun: {rerun.stderr.strip()}")
    if dirty := git(home, "status", "--porcelain", "--untracked-files=all"):
        found.append(f"git status after the rerun: {dirty.split()[:6]}")
    if stray := [p.name for p in (home / ".brain").glob("*.tmp")]:
        found.append(f"temporary files left: {stray}")
    if op == "extract" and "extract:" not in git(home, "log", "--format=%s", f"{BASE[op]}..HEAD"):
        found.append("the sessions were not extracted")
    if op == "consolidate" and "consolidate:" not in git(
        home, "log", "--format=%s", f"{BASE[op]}..HEAD"
    ):
        found.append("the raw memories were not consolidated")
    elif op == "consolidate" and ".md" not in git(home, "ls-tree", "HEAD", "memories/"):
        found.append("the consolidation made no records: " + git(home, "log", "--format=%s", "-4"))
    if op == "sync" and rerun.returncode == 0:
        head = git(home, "rev-parse", "HEAD").strip()
        pushed = git(home, "ls-remote", "origin", "refs/heads/main").split()[:1]
        if pushed != [head]:
            found.append("the sync did not push this home's head")
        if f"memories/b{n}.md" not in git(home, "ls-tree", "-r", "--name-only", "HEAD"):
            found.append("the sync did not merge the other machine's record")
    return found


def unwedge(home: Path) -> None:
    """What a person does to a home the next command did not put right, so the loop
    goes on: remove git's locks, abort a merge, put the files back as HEAD has them."""
    gitdir = home / ".git"
    for lock in [gitdir / "index.lock", gitdir / "HEAD.lock", *gitdir.glob("refs/**/*.lock")]:
        lock.unlink(missing_ok=True)
    subprocess.run(["git", "-C", str(home), "merge", "--abort"], capture_output=True)
    subprocess.run(["git", "-C", str(home), "reset", "-q", "--hard", "HEAD"], capture_output=True)
    subprocess.run(["git", "-C", str(home), "clean", "-fdq"], capture_output=True)
    (home / ".brain" / "pending").unlink(missing_ok=True)


def loop(home: Path, op: str, kills: int, seed: int, group: bool) -> dict[str, object]:
    BASE[op] = git(home, "rev-parse", "HEAD").strip()
    whole = statistics.median(one_run(home, op, n) for n in range(3))
    rng = random.Random(seed)
    failures: list[str] = []
    failed = 0  # rounds with any problem
    for n in range(kills):
        try:
            prepare(home, op, n)
        except SystemExit as exc:  # the home is still wedged by the last kill
            failed += 1
            failures.append(f"before kill {n}: {exc}")
            unwedge(home)
            prepare(home, op, n)
        proc = subprocess.Popen(
            [sys.executable, "-m", "brain", "--home", str(home), *command(op, n)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: brain and its git children
        )
        time.sleep(rng.uniform(0, whole))
        if group:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        if found := problems(home, op, n):
            failed += 1
            failures += [f"kill {n}: {p}" for p in found]
            unwedge(home)
        reset(home, op)
    fsck = subprocess.run(["git", "-C", str(home), "fsck", "--no-progress"], capture_output=True)
    if fsck.returncode != 0:
        failed += 1
        failures.append(f"git fsck: {fsck.stderr.decode()[:200]}")
    return {
        "kills": kills,
        "failures": failed,
        "run_s": round(whole, 2),
        "first": failures[:5],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--ops", default="sync,remember,extract,consolidate")
    parser.add_argument("--kill", choices=("group", "process"), default="group")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ.update(
            HOME=str(root / "user"),
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_NAME="bench",
            GIT_AUTHOR_EMAIL="bench@example.invalid",
            GIT_COMMITTER_NAME="bench",
            GIT_COMMITTER_EMAIL="bench@example.invalid",
        )
        os.environ.pop("BRAIN_HOME", None)
        transcripts(root / "user")
        OTHER[0] = root / "home-other"
        for op in args.ops.split(","):
            results[op] = loop(setup(root, op), op, args.kills, args.seed, args.kill == "group")
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"kill -9 of the {args.kill}, seed {args.seed}")
    for op, r in results.items():
        print(f"{op:12} {r['failures']} failures of {r['kills']} kills (one run {r['run_s']} s)")
        for line in r["first"]:  # type: ignore[attr-defined]
            print(f"  {line}")


if __name__ == "__main__":
    main()
