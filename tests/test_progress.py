"""Long work shows a progress bar on a terminal and stays quiet everywhere else."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.records import iso, new_id, utcnow
from brain.pipeline.runs import RawMemory, append_raw
from tests.helpers import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def samples(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, home: Path) -> Brain:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(EXAMPLES / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(EXAMPLES / "codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "no-gemini"))
    monkeypatch.setenv("BRAIN_MAX_AGE_DAYS", "36500")
    monkeypatch.setenv("BRAIN_MAX_ROLLOUT_AGE_DAYS", "36500")
    monkeypatch.setenv("BRAIN_MIN_IDLE_MINUTES", "0")
    return Brain.init(home)[0]


def on_terminal(*args: str) -> str:
    """Run ``brain ARGS`` with stdout and stderr on a pseudo-terminal; what it drew."""
    leader, follower = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env={**os.environ, "COLUMNS": "100"},
    )
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the follower side closed: the process is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    assert process.returncode == 0
    return b"".join(chunks).decode(errors="replace")


def test_harvest_reports_each_transcript_to_its_callback(samples: Brain) -> None:
    seen: list[tuple[int, int | None]] = []
    result = samples.harvest(progress=lambda done, total: seen.append((done, total)))
    assert len(result.sessions) == 2
    total = seen[-1][1]
    assert total is not None and total >= 2
    assert seen == [(n, total) for n in range(1, total + 1)]


def test_harvest_draws_a_bar_on_a_terminal(samples: Brain) -> None:
    drawn = on_terminal("harvest")
    assert "harvesting" in drawn and "100%" in drawn
    assert "harvest: 2 new sessions" in drawn


def test_harvest_is_quiet_under_json_or_off_a_terminal(samples: Brain) -> None:
    assert "harvesting" not in on_terminal("harvest", "--dry-run", "--json")
    piped = cli("harvest", "--dry-run")
    assert piped.exit_code == 0 and "harvesting" not in piped.stdout + piped.stderr


def test_extract_reports_each_finished_call_to_its_callback(samples: Brain) -> None:
    samples.harvest()
    seen: list[tuple[int, int | None]] = []
    result = samples.extract(progress=lambda done, total: seen.append((done, total)))
    assert len(result.sessions) == 2
    assert seen == [(1, 2), (2, 2)]


def test_extract_draws_a_bar_on_a_terminal(samples: Brain) -> None:
    samples.harvest()
    assert "extracting" not in on_terminal("extract", "--dry-run")  # no calls, no bar
    drawn = on_terminal("extract")
    assert "extracting" in drawn and "100%" in drawn
    assert "extract: 2 sessions" in drawn


def test_extract_is_quiet_under_json(samples: Brain) -> None:
    samples.harvest()
    quiet = on_terminal("extract", "--json")
    assert "extracting" not in quiet and '"sessions"' in quiet


def test_a_rebuild_reports_documents_indexed_to_its_callback(samples: Brain) -> None:
    for n in range(3):
        samples.remember(f"Fact number {n} about the build.", key=f"fact-{n}")
    seen: list[tuple[int, int | None]] = []
    report = samples.index(rebuild=True, progress=lambda done, total: seen.append((done, total)))
    assert report.action == "rebuilt" and report.documents is not None
    assert seen and seen[-1] == (report.added, report.added) and report.added >= 3
    assert samples.catalog.progress is None  # the next read is quiet again


def test_index_rebuild_and_the_first_read_draw_a_bar_on_a_terminal(samples: Brain) -> None:
    samples.remember("Deploys go out on Tuesdays.", key="deploy-day")
    drawn = on_terminal("index", "--rebuild")
    assert "indexing" in drawn and "100%" in drawn
    assert "indexing" not in on_terminal("recall", "deploy")  # up to date: nothing to build
    (samples.state / "index.sqlite").unlink()
    drawn = on_terminal("recall", "deploy")
    assert "indexing" in drawn and "deploy-day" in drawn


def test_index_rebuild_is_quiet_under_json_or_off_a_terminal(samples: Brain) -> None:
    assert "indexing" not in on_terminal("index", "--rebuild", "--json")
    piped = cli("index", "--rebuild")
    assert piped.exit_code == 0 and "indexing" not in piped.stdout + piped.stderr


def _records(tmp_path: Path, count: int) -> Path:
    lines = [
        json.dumps({"key": f"imported-{n}", "type": "fact", "body": f"Imported fact {n}."})
        for n in range(count)
    ]
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_import_reports_each_staged_record_to_its_callback(samples: Brain, tmp_path: Path) -> None:
    seen: list[tuple[int, int | None]] = []
    lines = _records(tmp_path, 5).read_text().splitlines()
    result = samples.import_(lines, progress=lambda done, total: seen.append((done, total)))
    assert result.added == 5
    assert seen == [(n, 5) for n in range(1, 6)]


def test_import_draws_a_bar_on_a_terminal(samples: Brain, tmp_path: Path) -> None:
    drawn = on_terminal("import", str(_records(tmp_path, 5)))
    assert "importing" in drawn and "100%" in drawn and "imported 5 records" in drawn


def test_import_is_quiet_under_json_or_off_a_terminal(samples: Brain, tmp_path: Path) -> None:
    quiet = on_terminal("import", str(_records(tmp_path, 5)), "--json")
    assert "importing" not in quiet and '"added": 5' in quiet
    (tmp_path / "more.jsonl").write_text(
        json.dumps({"key": "one-more", "type": "fact", "body": "One more."}) + "\n"
    )
    piped = cli("import", str(tmp_path / "more.jsonl"))
    assert piped.exit_code == 0 and "importing" not in piped.stdout + piped.stderr


@pytest.fixture
def remote(samples: Brain, tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(bare)], check=True)
    samples.remember("Deploys go out on Tuesdays.", key="deploy-day")
    assert cli("remote", "add", str(bare)).exit_code == 0
    assert cli("push").exit_code == 0
    return bare


def test_clone_builds_the_index_with_a_bar_on_a_terminal(remote: Path, tmp_path: Path) -> None:
    drawn = on_terminal("clone", str(remote), "--home", str(tmp_path / "b"))
    assert "indexing" in drawn and "100%" in drawn and "cloned" in drawn
    assert (tmp_path / "b" / ".brain" / "index.sqlite").is_file()


def test_clone_is_quiet_under_json_or_off_a_terminal(remote: Path, tmp_path: Path) -> None:
    quiet = on_terminal("clone", str(remote), "--home", str(tmp_path / "b"), "--json")
    assert "indexing" not in quiet and '"action": "clone"' in quiet
    piped = cli("clone", str(remote), "--home", str(tmp_path / "c"))
    assert piped.exit_code == 0 and "indexing" not in piped.stdout + piped.stderr
    assert (tmp_path / "c" / ".brain" / "index.sqlite").is_file()  # built all the same


def _pending_raw(brain: Brain, count: int) -> None:
    memories = [
        RawMemory(
            id=new_id(),
            key=f"raw-{n}",
            type="fact",
            description=f"Raw fact number {n}",
            body=f"Raw fact number {n}.",
            tags=(),
            confidence=0.8,
            session=f"codex:raw-{n}",
            evidence=((1, 1),),
            date=iso(utcnow()),
            run="test",
        )
        for n in range(count)
    ]
    with brain.transaction() as tx:
        tx.commit([append_raw(brain, memories)], "extract: raw memories", "extract")


def test_consolidate_reports_its_steps_to_its_callback(samples: Brain) -> None:
    _pending_raw(samples, 2)
    seen: list[tuple[int, int | None]] = []
    result = samples.consolidate(force=True, progress=lambda d, t: seen.append((d, t)))
    assert result.ran and result.commit
    # One step for each raw memory looked up, then the model's answer, the changes, the commit.
    assert seen == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_consolidate_draws_a_bar_on_a_terminal(samples: Brain) -> None:
    _pending_raw(samples, 2)
    drawn = on_terminal("consolidate", "--force")
    assert "consolidating" in drawn and "100%" in drawn and "consolidate: 2 added" in drawn


def test_consolidate_is_quiet_under_json_or_off_a_terminal(samples: Brain) -> None:
    _pending_raw(samples, 2)
    quiet = on_terminal("consolidate", "--force", "--json")
    assert "consolidating" not in quiet and '"ran": true' in quiet
    _pending_raw(samples, 1)
    piped = cli("consolidate", "--force")
    assert piped.exit_code == 0 and "consolidating" not in piped.stdout + piped.stderr
