"""Concurrent writers, a writer killed at random points, and stale locks."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.git import packing
from brain.home.records import load
from tests.helpers import commit_count, git

WRITER = """
import sys
from pathlib import Path
from brain.api import Brain
brain = Brain.open(Path(sys.argv[1]))
for i in range(int(sys.argv[3])):
    brain.remember(f"fact {i} from writer {sys.argv[2]}", key=f"w{sys.argv[2]}-{i}")
"""

LOOPER = """
import sys
from pathlib import Path
from brain.api import Brain
brain = Brain.open(Path(sys.argv[1]))
i = 0
print("ready", flush=True)
while True:
    i += 1
    brain.remember("x" * (i % 5000) + f" round {i}", key=f"loop-{i % 7}")
"""


def test_eight_concurrent_writers(home: Path) -> None:
    Brain.init(home)
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(home), str(n), "25"]) for n in range(8)
    ]
    assert [p.wait(timeout=300) for p in procs] == [0] * 8
    assert len(list((home / "memories").glob("*.md"))) == 200
    assert commit_count(home) == 201
    # fsck reads .git while the packing a write started may still move objects there.
    assert packing.wait_for_background_gc(home)
    subprocess.run(["git", "-C", str(home), "fsck", "--strict"], check=True, capture_output=True)
    lines = (home / "journal.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in lines]  # every line whole
    remembered = [e["key"] for e in entries if e["op"] == "remember"]
    assert len(remembered) == 200 and len(set(remembered)) == 200
    assert git(home, "status", "--porcelain") == ""


def test_writer_killed_at_random_points_leaves_a_valid_home(home: Path) -> None:
    Brain.init(home)
    rng = random.Random(1234)
    for _ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", LOOPER, str(home)], stdout=subprocess.PIPE, text=True
        )
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.6))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for path in (home / "memories").glob("*.md"):
            load(path)  # whole old or new content, never half
        for line in (home / "journal.jsonl").read_text().splitlines():
            json.loads(line)
        brain = Brain.open(home)
        result = brain.remember("after the crash", key="after-crash")
        assert git(home, "rev-parse", "HEAD").strip() == result.commit
    assert packing.wait_for_background_gc(home)
    subprocess.run(["git", "-C", str(home), "fsck"], check=True, capture_output=True)
    assert not list((home / "memories").glob(".*.tmp"))


def test_leftover_git_lock_from_a_dead_process_is_recovered(home: Path) -> None:
    brain, _ = Brain.init(home)
    (home / ".git" / "index.lock").write_text("")
    result = brain.remember("works anyway", key="k")
    assert (home / "memories" / "k.md").exists()
    assert git(home, "rev-parse", "HEAD").strip() == result.commit


def test_lock_held_by_a_killed_process_is_not_waited_on(home: Path) -> None:
    Brain.init(home)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom brain.home.lock import home_lock\n"
            "with home_lock(__import__('pathlib').Path(sys.argv[1])):\n"
            "    print('held', flush=True); time.sleep(600)\n",
            str(home / ".brain" / "lock"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    start = time.monotonic()
    Brain.open(home).remember("free again", key="free")
    assert time.monotonic() - start < 30


def test_a_live_git_command_in_the_home_keeps_its_lock(home: Path) -> None:
    import os
    import time

    brain, _ = Brain.init(home)
    (home / "notes.txt").write_text("first\n")
    subprocess.run(["git", "-C", str(home), "add", "notes.txt"], check=True)
    subprocess.run(["git", "-C", str(home), "commit", "-qm", "notes"], check=True)
    (home / "notes.txt").write_text("second\n")
    # The person's commit holds .git/index.lock while its editor is open.
    env = {**os.environ, "GIT_EDITOR": "sleep 2; echo 'hand commit' >"}
    # Through a shell, so that the git process is not a child of this one (brain's own
    # git children never hold a lock across its calls).
    person = subprocess.Popen(["sh", "-c", 'git -C "$0" commit -qa; exit $?', str(home)], env=env)
    deadline = time.monotonic() + 10
    while not (home / ".git" / "index.lock").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    brain.remember("Deploys go out on Tuesdays.", key="deploy-day")
    assert person.wait(timeout=30) == 0
    log = subprocess.run(
        ["git", "-C", str(home), "log", "--format=%s"], capture_output=True, text=True
    ).stdout.split("\n")
    assert {"hand commit", "remember: deploy-day"} <= set(log)


def test_a_journal_line_whose_write_died_is_not_committed_by_the_next(home: Path) -> None:
    import json

    brain, _ = Brain.init(home)
    brain.remember("Deploys go out on Tuesdays.", key="deploy-day")
    # A writer killed after appending its journal line and before its commit.
    with (home / "journal.jsonl").open("a") as fh:
        fh.write(json.dumps({"op": "remember", "key": "ghost"}) + "\n")
    brain.remember("Use pnpm in the frontend.", key="pkg-manager")
    committed = subprocess.run(
        ["git", "-C", str(home), "show", "HEAD:journal.jsonl"], capture_output=True, text=True
    ).stdout
    assert '"ghost"' not in committed and '"pkg-manager"' in committed
    assert '"ghost"' not in (home / "journal.jsonl").read_text()
    assert (
        subprocess.run(
            ["git", "-C", str(home), "status", "--porcelain"], capture_output=True, text=True
        ).stdout
        == ""
    )


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="no process groups (Windows)")
def test_a_git_command_started_after_a_stale_lock_does_not_keep_it(home: Path) -> None:
    import os
    import signal
    import time

    brain, _ = Brain.init(home)
    lock = home / ".git" / "index.lock"
    lock.write_text("")
    hour_ago = time.time() - 3600
    os.utime(lock, (hour_ago, hour_ago))
    # A git reading in the home (a pager, an editor's plugin), started after the lock.
    reader = subprocess.Popen(
        ["sh", "-c", 'sleep 30 | git -C "$0" cat-file --batch; exit 0', str(home)],
        start_new_session=True,
    )
    try:
        time.sleep(0.3)
        result = brain.remember("works anyway", key="k")
        assert git(home, "rev-parse", "HEAD").strip() == result.commit
    finally:
        os.killpg(reader.pid, signal.SIGKILL)
        reader.wait()


def test_uses_folded_into_a_journal_line_that_died_are_kept(home: Path) -> None:
    import json

    brain, _ = Brain.init(home)
    brain.remember("Deploys go out on Tuesdays.", key="deploy-day")
    # A writer folded two recalls into its journal line, then died before its commit.
    line = {"ts": "2026-11-30T10:00:00Z", "op": "recall", "uses": {"memories/deploy-day.md": 2}}
    with (home / "journal.jsonl").open("a") as fh:
        fh.write(json.dumps(line) + "\n")
    brain.remember("Use pnpm in the frontend.", key="pkg-manager")
    entries = [json.loads(x) for x in (home / "journal.jsonl").read_text().splitlines()]
    assert not [e for e in entries if e["op"] == "recall"]  # the dead writer's line went
    from brain.home.uses.counts import copy_name

    committed = json.loads(git(home, "show", f"HEAD:uses/{copy_name(brain)}.json"))
    assert committed["records"]["memories/deploy-day.md"]["recalled"] == [2, line["ts"]]
