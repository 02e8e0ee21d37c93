"""The home's git objects are packed: after an import at once, later in the background."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.git import packing
from brain.home.git.repo import Repo
from tests.helpers import commit_count, git


def objects(home: Path) -> dict[str, int]:
    """``git count-objects -v`` as numbers (count: loose objects, in-pack: packed)."""
    out = git(home, "count-objects", "-v")
    return {k: int(v) for k, v in (line.split(": ") for line in out.splitlines())}


def lines(count: int, start: int = 0) -> list[str]:
    return [
        json.dumps({"key": f"fact-{i:05d}", "type": "fact", "body": f"Fact number {i}."})
        for i in range(start, start + count)
    ]


def loose_in_17(home: Path, count: int, salt: str = "") -> None:
    """Commit ``count`` files whose blobs git files under objects/17/, the folder git
    samples to estimate how many objects are loose (committed past the transaction, so
    nothing packs them yet)."""
    found: list[str] = []
    n, salt = 0, salt or os.urandom(8).hex()
    while len(found) < count:
        data = f"probe {salt} {n}\n".encode()
        if hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest().startswith("17"):
            (home / "memories" / f"probe-{n}.md").write_bytes(data)
            found.append(f"memories/probe-{n}.md")
        n += 1
    Brain.open(home).repo.commit(found, "probes")


def wait_for_gc(home: Path) -> None:
    assert packing.wait_for_background_gc(home, timeout=30.0)


def test_an_import_of_many_records_leaves_the_home_packed(home: Path) -> None:
    brain, _ = Brain.init(home)
    assert brain.import_(lines(600)).added == 600
    counted = objects(home)
    assert counted["count"] == 0
    assert counted["in-pack"] >= 600 + 3  # the blobs, their trees and the commits
    assert [c.message for c in brain.log()] == ["import: 600 records", "init: new memory home"]
    assert git(home, "fsck", "--strict", "--no-progress") == ""
    assert brain.show("fact-00417").record.body == "Fact number 417."
    # The next write is an ordinary one: loose, and the history goes on.
    brain.remember("One more fact after the import.", key="after-import")
    assert objects(home)["count"] > 0
    assert commit_count(home) == 3


def test_a_small_import_packs_nothing(home: Path) -> None:
    brain, _ = Brain.init(home)
    brain.import_(lines(20))
    assert objects(home)["in-pack"] == 0


def test_a_gc_auto_of_0_set_by_the_person_is_obeyed(home: Path) -> None:
    brain, _ = Brain.init(home)
    git(home, "config", "gc.auto", "0")
    brain.import_(lines(600))
    assert objects(home)["in-pack"] == 0
    loose_in_17(home, 3)
    brain.remember("Packing is off in this home.", key="no-packing")
    wait_for_gc(home)
    assert objects(home)["in-pack"] == 0


def test_an_ordinary_write_packs_in_the_background_once_git_would(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Commit and tree names depend on the time: with it fixed, no commit or tree of
    # this home's lands in objects/17 beside the probes.
    for name in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(name, "2026-01-01T00:00:00Z")
    # The first journal line holds the time of the init, so now and then (about one
    # home in a hundred) an object of the home's own lands in objects/17 too: such a
    # home cannot start from one object there, and a new one is made.
    for attempt in range(20):
        home = home.with_name(f"{home.name}-{attempt}") if attempt else home
        brain, _ = Brain.init(home)
        loose_in_17(home, 1, salt="first")
        if len(os.listdir(home / ".git" / "objects" / "17")) == 1:
            break
    assert not packing.would_pack(home)
    loose_in_17(home, 1, salt="second")
    assert packing.would_pack(home)
    written = brain.remember("Deploys go out on Tuesdays only.", key="deploy-day")
    wait_for_gc(home)
    assert objects(home)["count"] == 0
    assert not packing.would_pack(home)
    assert brain.show("deploy-day").record.id == written.id
    assert git(home, "fsck", "--strict", "--no-progress") == ""


def test_a_warning_from_the_last_background_gc_is_not_asked_again_for_a_day(
    home: Path,
) -> None:
    brain, _ = Brain.init(home)
    loose_in_17(home, 2)
    log = home / ".git" / "gc.log"
    log.write_text("warning: There are too many unreachable loose objects\n")
    assert not packing.keep_packed(home)
    day_ago = time.time() - 86400 - 60
    os.utime(log, (day_ago, day_ago))
    assert packing.keep_packed(home)  # git lets a day-old log expire (gc.logExpiry)
    wait_for_gc(home)


def test_writes_while_git_packs_the_home_lose_nothing(home: Path) -> None:
    brain, _ = Brain.init(home)
    # Loose objects enough for gc to take a while: committed past the transaction.
    names = []
    for i in range(3000):
        (home / "memories" / f"bulk-{i:05d}.md").write_text(f"bulk {i}\n" * 20)
        names.append(f"memories/bulk-{i:05d}.md")
    brain.repo.commit(names, "bulk")
    gc = subprocess.Popen(["git", "-C", str(home), "gc", "--quiet"], stderr=subprocess.PIPE)
    keys = []
    while gc.poll() is None or len(keys) < 3:
        keys.append(f"during-gc-{len(keys)}")
        brain.remember(f"Written while git packs, number {len(keys)}.", key=keys[-1])
    assert gc.wait() == 0, gc.stderr.read() if gc.stderr else ""
    wait_for_gc(home)
    assert git(home, "fsck", "--strict", "--no-progress") == ""
    at_head = set(git(home, "ls-tree", "--name-only", "HEAD", "memories/").split())
    assert {f"memories/{k}.md" for k in keys} <= at_head
    assert commit_count(home) == 2 + len(keys)
    assert [brain.show(k).record.key for k in keys] == keys


# What git's packing does to the object folders it empties (prune-packed, prune): rmdir
# each one, as often as it can, until told to stop.
_SWEEPER = """
import os, sys
objects, stop = sys.argv[1], sys.argv[2]
folders = [os.path.join(objects, f"{n:02x}") for n in range(256)]
while not os.path.exists(stop):
    for folder in folders:
        try:
            os.rmdir(folder)
        except OSError:
            pass
"""


def test_writes_while_git_removes_the_object_folders_it_emptied_all_land(
    home: Path, tmp_path: Path
) -> None:
    brain, _ = Brain.init(home)
    stop = tmp_path / "stop"
    sweeper = subprocess.Popen(
        [sys.executable, "-c", _SWEEPER, str(home / ".git" / "objects"), str(stop)]
    )
    keys = [f"swept-{n}" for n in range(120)]
    try:
        for key in keys:  # a few in a hundred lose their folder mid-write, unless retried
            brain.remember(f"Written while folders go, {key}.", key=key)
    finally:
        stop.touch()
        sweeper.wait()
    assert commit_count(home) == 1 + len(keys)
    wait_for_gc(home)  # 120 writes: git's own packing may have started meanwhile
    assert git(home, "fsck", "--strict", "--no-progress") == ""
    at_head = set(git(home, "ls-tree", "--name-only", "HEAD", "memories/").split())
    assert {f"memories/{k}.md" for k in keys} <= at_head


def test_the_home_is_set_up_for_many_files_and_cheap_commits(home: Path) -> None:
    Brain.init(home)
    for name, value in packing.SETTINGS:
        assert git(home, "config", "--get", name).strip() == value


def test_a_clone_gets_the_settings_too(home: Path, tmp_path: Path) -> None:
    brain, _ = Brain.init(home)
    brain.remember("Cloned homes pack as well.", key="cloned")
    wait_for_gc(home)  # a local clone copies .git/objects, folder by folder
    clone = Repo.clone(str(home), tmp_path / "clone")
    for name, value in packing.SETTINGS:
        assert git(clone.path, "config", "--get", name).strip() == value


def test_a_home_made_before_the_settings_gets_them_at_its_first_write(home: Path) -> None:
    brain, _ = Brain.init(home)
    git(home, "config", "core.looseCompression", "1")
    git(home, "config", "--unset", "gc.auto")
    (home / ".git" / "brain-tuned").unlink()
    brain = Brain.open(home)
    brain.remember("An older home still takes writes.", key="older-home")
    for name, value in packing.SETTINGS:
        assert git(home, "config", "--get", name).strip() == value


def test_a_write_runs_four_git_commands(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain, _ = Brain.init(home)
    brain.remember("The first write of this process.", key="first")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    Brain.open(home).remember("Who commits is not asked of git.", key="second")
    monkeypatch.delenv("GIT_TRACE")
    ran = [
        line.split("built-in: git ")[1].split()
        for line in trace.read_text().splitlines()
        if "built-in: git " in line
    ]
    verbs = [next(a for a in args if not a.startswith("-")) for args in ran]
    verbs = verbs[: verbs.index("gc")] if "gc" in verbs else verbs  # packing, if git would
    assert verbs == ["update-index", "write-tree", "commit-tree", "update-ref"]
    assert git(home, "log", "-1", "--format=%an <%ae>").strip() == (
        f"{os.environ['GIT_AUTHOR_NAME']} <{os.environ['GIT_AUTHOR_EMAIL']}>"
    )


def _entries_in_split_part(home: Path) -> int:
    """How many entries git's index file itself holds (the rest are in its shared index)."""
    data = (home / ".git" / "index").read_bytes()
    assert data[:4] == b"DIRC"
    return int.from_bytes(data[8:12], "big")


def test_a_write_moves_entries_a_refresh_left_in_the_index_back_to_a_shared_one(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain, _ = Brain.init(home)
    brain.import_(lines(1000), origin="test")  # git moves a few hundred back itself
    # New dates on every file, learned by a refresh (as `git status` does): git keeps
    # each refreshed entry in the index file itself from then on.
    past = time.time() - 3600
    for record in (home / "memories").iterdir():
        os.utime(record, (past, past))
    git(home, "update-index", "-q", "--refresh")
    assert _entries_in_split_part(home) >= 1000
    monkeypatch.setattr(packing, "SPLIT_MAX", 16384)  # the index of 1000 entries is ~65 KB
    Brain.open(home).remember("The index stays small.", key="small-index")
    assert _entries_in_split_part(home) < 10
    assert git(home, "config", "core.splitIndex").strip() == "true"  # large: split from now
    assert git(home, "status", "--porcelain") == ""
    Brain.open(home).remember("And the next write keeps it so.", key="still-small")
    assert _entries_in_split_part(home) < 10
    wait_for_gc(home)
    assert git(home, "fsck", "--strict", "--no-progress") == ""


def test_a_small_home_keeps_a_whole_index_that_libgit2_tools_can_read(home: Path) -> None:
    brain, _ = Brain.init(home)
    brain.import_(lines(300), origin="test")
    Brain.open(home).remember("Small homes stay simple.", key="small-home")
    tracked = git(home, "ls-files", "-z").count("\0")
    assert tracked > 300 and _entries_in_split_part(home) == tracked  # one whole index
    assert not list((home / ".git").glob("sharedindex.*"))
    unset = subprocess.run(["git", "-C", str(home), "config", "core.splitIndex"])
    assert unset.returncode == 1


def test_a_home_whose_person_turned_the_split_index_off_keeps_it_whole(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain, _ = Brain.init(home)
    git(home, "config", "core.splitIndex", "false")
    brain.import_(lines(100), origin="test")
    monkeypatch.setattr(packing, "SPLIT_MAX", 1024)
    shared = set((home / ".git").glob("sharedindex.*"))
    Brain.open(home).remember("No shared index here.", key="whole-index")
    assert _entries_in_split_part(home) > 100
    assert set((home / ".git").glob("sharedindex.*")) == shared
