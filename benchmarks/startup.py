"""Whole-process start-up of brain's everyday commands, against plain Python.

Usage: python benchmarks/startup.py [--runs 7] [--small 1000] [--large 20000] [--uses]
    [--projects 20] [--big DIR] [--against TREE] [--json]

Each command runs as a fresh process of the installed ``brain`` script (``python -m
brain`` where the script is not next to this Python), as a person or an agent tool
starts it, so the wall time covers interpreter start-up, imports, reading the home,
printing and the interpreter's exit. The baseline is bare Python, ``python -c pass``,
measured in the same run, with the runs of every command interleaved so that a busy
machine slows them all alike. Each row prints the median, its ratio to the baseline's
median and the target ratio; the load average before and after the runs is printed
beside them.

Homes are built in a temporary directory through ``brain import`` (one commit): one of
``--small`` records for the reading commands and the session-start hook, one of
``--large`` records for ``remember``. ``HOME`` holds one finished session of each of
Claude Code, Codex CLI and Gemini CLI, harvested before the runs, so ``harvest`` looks
at three transcripts and finds nothing new.

The session-start hook is also started in a project's git checkout, against two more
homes of ``--small`` records spread over ``--projects`` projects (each a real checkout):
one whose records rest on nothing, and one whose records each rest on a commit of their
project's checkout and a file of it (``checkout``, ``commit``, ``paths``), so the hook
checks them for staleness: with HEAD where it was, with a new commit of a file records
rest on made in the checkout before each run (the same file each time: after the first,
which marks them possibly stale, their marks stay as they are, and the kept answer
stands after one ``git cat-file``), and with a commit of a file no record rests on (the
same). The first commit that changes a mark takes the whole way plus that git process:
the row ``hook, whole way`` and a few milliseconds.

The hook, ``context``, ``list`` and ``status`` print the answer kept from the last time
in the same place while nothing it rests on has changed (``brain/agents/startmemo.py``;
a status also until the clock reaches a time its answer changes at), as a person's
sessions mostly start; the rows ``whole way`` drop the kept answers before each
run, as the first start after a change computes its answer. The row ``after a write and
the learning job`` writes a record and runs the job a session's end starts (``hook
after-session``, which keeps the next start's answer ahead) before each run, untimed:
the start that follows a session in which something was learned. Each command runs twice
before the timed runs, two seconds apart, so what the first wrote is out of the caches'
racy window.

``--big DIR`` also times ``status``, ``context``, ``list`` and the session-start hook in
the home of ``benchmarks/big_history.py --keep DIR`` (800 harvested and extracted Claude
Code sessions, ``DIR/home``, with ``DIR/person`` as ``HOME``), built there by that
script's own steps when ``DIR/home`` is not there yet (a few minutes, 500 MB).

``--against TREE`` also runs every command from the brain package of another checkout
(``TREE/brain``, through ``PYTHONPATH``; the code before a change, say), each run beside
the same command of this one, so both sides see the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import brain as brain_pkg
from brain.agents import startmemo
from brain.api import Brain
from brain.home.git import packing

PY = sys.executable
_SCRIPT = Path(PY).with_name("brain")
BRAIN = [str(_SCRIPT)] if _SCRIPT.is_file() else [PY, "-m", "brain"]
HOOK_PAYLOAD = json.dumps(
    {
        "session_id": "bench",
        "transcript_path": "/nonexistent.jsonl",
        "cwd": "/",
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
)


@dataclass
class Case:
    """One command line to time; ``argv`` may depend on the run number, and ``before``
    (not timed) runs before each run."""

    name: str
    argv: Callable[[int], list[str]]
    home: str | None
    target: float | None
    stdin: str | None = None
    person: str | None = None  # HOME, when not the benchmark's own person
    code: str | None = None  # PYTHONPATH: brain from another checkout
    times: list[float] = field(default_factory=list)
    before: Callable[[int], None] | None = None
    # Before each run (not timed), a record written and the learning job a session's
    # end starts (``hook after-session``), run in the case's environment.
    learned: bool = False


def build_home(
    path: Path,
    size: int,
    checkouts: dict[str, tuple[Path, str]] | None = None,
    anchored: bool = False,
    used: bool = False,
) -> Brain:
    """A home of ``size`` synthetic records, written in one import, as a home in use is:
    its files older than the record cache's racy window, git's index aware of them.

    With ``checkouts`` (name -> (top, commit)), record ``i`` belongs to the ``i % n``-th
    project; ``anchored`` records also rest on its commit and on one of its files.
    ``used``: every record was shown, recalled and cited once (the harvest that follows
    folds that into the home's committed use counts)."""
    brain, _ = Brain.init(path)
    names = sorted(checkouts or {})

    def record(i: int) -> dict[str, object]:
        fields: dict[str, object] = {
            "key": f"synthetic-{i:06d}",
            "type": "fact",
            "description": f"Synthetic fact number {i} about the build",
            "body": f"Synthetic fact {i}: the build runs on two cores.",
        }
        if names:
            name = names[i % len(names)]
            fields["tags"] = [f"project:{name}"]
            if anchored and checkouts is not None:
                fields |= {
                    "checkout": name,
                    "commit": checkouts[name][1],
                    "paths": [f"src/mod{i % FILES:02d}.py"],
                }
        return fields

    brain.import_((json.dumps(record(i)) for i in range(size)), origin="synthetic")
    if used:
        from brain.home.uses import counts as uses

        for kind in uses.KINDS:
            uses.note(brain, kind, [f"memories/synthetic-{i:06d}.md" for i in range(size)])
    # Files changed in the last two seconds are parsed again on every read (the record
    # cache's racy window); in use, a home's files are older than that.
    past = time.time() - 60
    for record in (brain.path / "memories").iterdir():
        os.utime(record, (past, past))
    # git's index then learns the new dates, as it has them in a home in use (brain stages
    # what it writes; `git status` refreshes): a file whose date alone differs is read
    # again on every command to tell whether it was edited by hand.
    subprocess.run(["git", "-C", str(brain.path), "update-index", "-q", "--refresh"])
    return brain


FILES = 10  # files in each project's checkout


def git(top: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(top), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def build_checkouts(root: Path, count: int) -> dict[str, tuple[Path, str]]:
    """``count`` git checkouts of ``FILES`` files each, one commit: name -> (top, commit)."""
    found = {}
    for n in range(count):
        top = root / f"project-{n:02d}"
        (top / "src").mkdir(parents=True)
        for f in range(FILES):
            (top / "src" / f"mod{f:02d}.py").write_text(f"VALUE = {f}\n")
        git(top, "init", "-q")
        git(top, "add", ".")
        git(top, "commit", "-qm", "first")
        found[top.name] = (top, git(top, "rev-parse", "HEAD"))
    return found


def move_head(top: Path, name: str) -> Callable[[int], None]:
    """Before each run, a commit in ``top`` that changes one file (HEAD moves): one that
    records rest on, or (``name`` elsewhere) one none does."""

    def commit(run: int) -> None:
        (top / name).write_text(f"VALUE = changed {run}\n")
        git(top, "add", name)
        git(top, "commit", "-qm", f"change {run}")

    return commit


FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "transcripts"
# Where each tool keeps a session, under HOME, and a real one of its to put there.
SESSIONS = (
    (".claude/projects/-src-shop/short.jsonl", "claude-code/marot-spotter/short.jsonl"),
    (
        ".codex/sessions/2026/01/05/rollout-2026-01-05T10-00-00-"
        "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
        "codex/simonw-claude-code-transcripts/sample_codex_session.jsonl",
    ),
    (
        ".gemini/tmp/shop/chats/session-2026-01-05T10-00-0199a1b2.jsonl",
        "gemini/agent-sessions-stage0/jsonl_v040.jsonl",
    ),
)


def seen_sessions(person: Path, home: Path, env: dict[str, str]) -> None:
    """One finished session of each tool under ``person``, harvested into ``home``."""
    past = time.time() - 86400
    for where, fixture in SESSIONS:
        path = person / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((FIXTURES / fixture).read_bytes())
        os.utime(path, (past, past))
    subprocess.run(
        [PY, "-m", "brain", "harvest"], env={**env, "BRAIN_HOME": str(home)}, check=True,
        capture_output=True,
    )  # fmt: skip


# The targets, as ratios to bare Python: the hook runs before every agent session.
HOOK, READ, OTHER, WRITE = 2.5, 3.5, 4.0, 5.0


def cases(
    small: Path,
    large: Path,
    projects: tuple[Path, Path, Path, Path, Path] | None = None,
    big: Path | None = None,
) -> list[Case]:
    """The commands and their targets (a ratio to the baseline). ``projects``: the homes
    without and with anchors, the checkout the hook starts in, the one whose HEAD moves past
    a file records rest on, and the one whose HEAD moves past another file.
    ``big``: the folder of a big history's ``home`` and ``person``."""

    def brain(*args: str) -> Callable[[int], list[str]]:
        return lambda _run: [*BRAIN, *args]

    def payload(top: Path) -> str:
        return json.dumps({**json.loads(HOOK_PAYLOAD), "cwd": str(top)})

    in_project = []
    if projects is not None:
        plain, anchored, here, moving, elsewhere = projects
        hook = brain("hook", "session-start")
        in_project = [
            Case("hook, project, no anchors", hook, str(plain), HOOK, stdin=payload(here)),
            Case("hook, project, HEAD kept", hook, str(anchored), HOOK, stdin=payload(here)),
            Case(
                "hook, project, HEAD moved",
                hook,
                str(anchored),
                HOOK,
                stdin=payload(moving),
                before=move_head(moving, "src/mod01.py"),  # record 1 rests on it
            ),
            Case(
                "hook, project, HEAD moved, other files",
                hook,
                str(anchored),
                HOOK,
                stdin=payload(elsewhere),
                before=move_head(elsewhere, "NOTES.md"),
            ),
        ]
    in_big = []
    if big is not None:
        home, person = str(big / "home"), str(big / "person")
        in_big = [
            Case("hook, 800 sessions", brain("hook", "session-start"), home, HOOK,
                 stdin=HOOK_PAYLOAD, person=person),
            Case("context, 800 sessions", brain("context"), home, READ, person=person),
            Case("status, 800 sessions", brain("status"), home, READ, person=person),
            Case("list, 800 sessions", brain("list"), home, READ, person=person),
        ]  # fmt: skip

    # The whole way in a copy of the small home: dropping its kept answers leaves the
    # small home's own.
    whole = small.with_name(f"{small.name}-whole")
    if not whole.exists():
        shutil.copytree(small, whole, symlinks=True)

    def forget(_run: int) -> None:
        startmemo.forget(str(whole))

    # Each run after a write and the learning job, in a copy of its own.
    learning = small.with_name(f"{small.name}-learning")
    if not learning.exists():
        shutil.copytree(small, learning, symlinks=True)

    return [
        Case("python -c pass", lambda _r: [PY, "-c", "pass"], None, None),
        Case(
            "hook session-start",
            brain("hook", "session-start"),
            str(small),
            HOOK,
            stdin=HOOK_PAYLOAD,
        ),
        Case(
            "hook, whole way",
            brain("hook", "session-start"),
            str(whole),
            None,
            stdin=HOOK_PAYLOAD,
            before=forget,
        ),
        Case(
            "hook, after a write and the learning job",
            brain("hook", "session-start"),
            str(learning),
            HOOK,
            stdin=HOOK_PAYLOAD,
            learned=True,
        ),
        *in_project,
        Case("--version", brain("--version"), None, OTHER),
        Case("context", brain("context"), str(small), READ),
        Case("context, whole way", brain("context"), str(whole), None, before=forget),
        Case("list, whole way", brain("list"), str(whole), None, before=forget),
        Case("status", brain("status"), str(small), READ),
        Case("status, whole way", brain("status"), str(whole), None, before=forget),
        Case("list", brain("list"), str(small), READ),
        *in_big,
        Case("log", brain("log", "-n", "20"), str(small), OTHER),
        Case("show", brain("show", "synthetic-000500"), str(small), OTHER),
        Case("harvest (nothing new)", brain("harvest"), str(small), OTHER),
        Case(
            "remember (large home)",
            lambda run: [*BRAIN, "remember", "--key", f"bench-{run}", f"fact {run}"],
            str(large),
            WRITE,
        ),
    ]


def against(table: list[Case], tree: Path) -> list[Case]:
    """``table`` with each brain command followed by its twin run from ``tree``."""
    out = []
    for case in table:
        out.append(case)
        if case.home is None and case.name.startswith("python"):
            continue

        def argv(run: int, case: Case = case) -> list[str]:
            return [a.replace("bench-", "against-") for a in case.argv(run)]

        def before(run: int, case: Case = case) -> None:
            if case.before is not None:
                case.before(run + 1_000_000)  # a change of its own: HEAD moves again

        name = f"{case.name} [against]"
        out.append(
            Case(name, argv, case.home, case.target, case.stdin, before=before,
                 person=case.person, code=str(tree), learned=case.learned)
        )  # fmt: skip
    return out


def big_history(folder: Path) -> Path:
    """``folder``, holding the home and the person of ``big_history.py --keep folder``;
    built there by that script's steps when its home is not there yet."""
    if not (folder / "home").is_dir():
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import big_history as big

        print(f"building the big history in {folder} ...", file=sys.stderr)
        folder.mkdir(parents=True, exist_ok=True)
        big.run(folder, argparse.Namespace(sessions=800, mb=450, projects=40))
    return folder


def run_once(case: Case, run: int, env: dict[str, str]) -> None:
    """Time one run of ``case``; a failing command stops the benchmark."""
    if case.home:
        env = {**env, "BRAIN_HOME": case.home}
    if case.person:
        env = {**env, "HOME": case.person}
    if case.code:
        env = {**env, "PYTHONPATH": case.code}
    if case.before is not None:
        case.before(run)
    if case.learned:
        learn(case, run, env)
    start = time.perf_counter()
    done = subprocess.run(case.argv(run), input=case.stdin, capture_output=True, text=True, env=env)
    case.times.append(time.perf_counter() - start)
    if done.returncode != 0:
        sys.exit(f"{case.name} failed ({done.returncode}): {done.stderr.strip()}")


def learn(case: Case, run: int, env: dict[str, str]) -> None:
    """What a session's end does before the next start: a record written, then the
    learning job, which keeps the next start's answer in the payload's folder ahead."""
    folder = json.loads(case.stdin or HOOK_PAYLOAD)["cwd"]
    key = f"learned-{time.time_ns():x}"
    fact = [*BRAIN, "remember", "--key", key, f"Fact learned in run {run}."]
    job = [*BRAIN, "hook", "after-session", "--tool", "claude-code", "--cwd", folder]
    for argv in (fact, job):
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            sys.exit(f"{case.name}: {' '.join(argv[-4:])} failed: {done.stderr.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=20000)
    parser.add_argument("--projects", type=int, default=20, help="0: no hook in a project")
    parser.add_argument(
        "--big", type=Path, help="also time the home of big_history.py --keep BIG (built if absent)"
    )
    parser.add_argument(
        "--against", type=Path, help="also run each command from the brain of this checkout"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--uses", action="store_true", help="give every record of the small home uses first"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "HOME": str(root / "person"), "XDG_DATA_HOME": str(root / "xdg")}
        env.pop("BRAIN_HOME", None)
        # An installed brain has its bytecode; compile it here so no run pays for that.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([PY, "-m", "compileall", "-q", str(Path(brain_pkg.__file__).parent)])
        for name in ("AUTHOR", "COMMITTER"):
            env.setdefault(f"GIT_{name}_NAME", "bench")
            env.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
            os.environ.setdefault(f"GIT_{name}_NAME", "bench")
            os.environ.setdefault(f"GIT_{name}_EMAIL", "bench@example.invalid")
        (root / "person").mkdir()
        build_home(root / "small", args.small, used=args.uses)
        build_home(root / "large", args.large)
        seen_sessions(root / "person", root / "small", env)
        projects = None
        if args.projects:
            tops = build_checkouts(root / "code", args.projects)
            build_home(root / "plain", args.small, tops)
            build_home(root / "anchored", args.small, tops, anchored=True)
            first, second, third = (top for top, _ in list(tops.values())[:3])
            projects = (root / "plain", root / "anchored", first, second, third)
        big = big_history(args.big.resolve()) if args.big else None
        table = cases(root / "small", root / "large", projects, big)
        if args.against:
            tree = args.against.resolve()
            subprocess.run([PY, "-m", "compileall", "-q", str(tree / "brain")])
            table = against(table, tree)
        args.load = [_load()]
        for warm in (-2, -1):  # warm the page cache, the indexes and the kept answers
            for case in table:
                run_once(case, warm, env)
                case.times.clear()
            time.sleep(2.1)  # what the first pass wrote leaves the racy window
        for run in range(args.runs):
            for case in table:
                run_once(case, run, env)
        args.load.append(_load())
        for home in (root / "small", root / "small-whole", root / "small-learning",
                     root / "large", root / "plain", root / "anchored"):  # fmt: skip
            if not home.exists():
                continue
            packing.wait_for_background_gc(home)  # before the folder is removed
    report(table, args)


def _load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def report(table: list[Case], args: argparse.Namespace) -> None:
    """Print the medians, ratios and whether each target is met."""
    base = statistics.median(table[0].times)
    rows = []
    for case in table:
        median = statistics.median(case.times)
        ratio = median / base
        met = None if case.target is None else ratio <= case.target
        rows.append(
            {
                "command": case.name,
                "median_ms": round(median * 1000, 1),
                "ratio": round(ratio, 2),
                "target": case.target,
                "met": met,
            }
        )
    if args.json:
        print(json.dumps({"runs": args.runs, "load": args.load, "rows": rows}, indent=2))
        return
    print(
        f"{args.runs} runs each; homes of {args.small} and {args.large} records; {' '.join(BRAIN)}"
    )
    print(f"load average before the runs {args.load[0]}, after them {args.load[1]}")
    width = max(len(row["command"]) for row in rows) + 2
    print(f"{'command':<{width}}{'median':>10}{'ratio':>8}{'target':>8}  met")
    for row in rows:
        target = "" if row["target"] is None else f"{row['target']:g}x"
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        print(
            f"{row['command']:<{width}}{row['median_ms']:>8.1f}ms"
            f"{row['ratio']:>7.2f}x{target:>8}  {met}"
        )


if __name__ == "__main__":
    main()
