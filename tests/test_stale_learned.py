"""A record learned in a session rests on its checkout's commit at the session's time and
on the files its evidence and body name; a later session restating it moves it on."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.evals import write_session
from brain.models.schema import Candidate
from brain.pipeline.anchoring import anchors_for
from brain.sessions.sources.base import Transcript, Turn
from brain.sessions.touched import touched_paths
from tests.helpers import cli, cli_json, git

RULE = "Remember that payment retries in src/pay.py are capped at six attempts."


def _commit(checkout: Path, message: str, when: datetime, monkeypatch: pytest.MonkeyPatch) -> str:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    monkeypatch.setenv("GIT_COMMITTER_DATE", stamp)
    monkeypatch.setenv("GIT_AUTHOR_DATE", stamp)
    git(checkout, "add", "-A")
    git(checkout, "commit", "-qm", message)
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    return git(checkout, "rev-parse", "HEAD").strip()


@pytest.fixture
def web(tmp_path: Path) -> Path:
    checkout = tmp_path / "web"
    (checkout / "src").mkdir(parents=True)
    (checkout / "src" / "pay.py").write_text("RETRIES = 6\n")
    (checkout / "README.md").write_text("# web\n")
    git(checkout, "init", "-q")
    return checkout


def _learn(tmp_path: Path, web: Path, name: str, when: datetime) -> None:
    path = write_session(tmp_path / "sessions", name, [RULE], when=when, project=str(web))
    done = cli("hook", "after-session", "--path", str(path))
    assert done.exit_code == 0, done.stderr
    assert cli("consolidate", "--force").exit_code == 0


def test_a_learned_record_rests_on_the_commit_before_its_session_and_the_file_it_names(
    home: Path, tmp_path: Path, web: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Brain.init(home)
    now = datetime.now(UTC)
    a = _commit(web, "A", now - timedelta(hours=5), monkeypatch)
    (web / "README.md").write_text("# web\nlater\n")
    _commit(web, "after the session", now - timedelta(hours=1), monkeypatch)
    _learn(tmp_path, web, "s1", now - timedelta(hours=3))
    raw = (home / "raw_memories.md").read_text()
    assert f"- checkout: web\n- commit: {a}\n- paths: src/pay.py\n" in raw
    [record] = [r for r in cli_json("list") if r.get("commit")]
    assert (record["checkout"], record["commit"], record["paths"]) == ("web", a, ["src/pay.py"])
    assert cli_json("stale", "--project", str(web))["records"] == []  # README only changed
    (web / "src" / "pay.py").write_text("RETRIES = 8\n")
    b = _commit(web, "pay: eight", now - timedelta(minutes=30), monkeypatch)
    [stale] = cli_json("stale", "--project", str(web))["records"]
    assert stale["key"] == record["key"]
    # A fresh session that says it again: consolidation moves the record to its commit.
    _learn(tmp_path, web, "s2", now - timedelta(minutes=10))
    assert cli_json("show", record["key"])["record"]["commit"] == b
    assert cli_json("stale", "--project", str(web))["records"] == []


def test_a_session_in_no_checkout_gives_records_resting_on_nothing(
    home: Path, tmp_path: Path
) -> None:
    Brain.init(home)
    folder = tmp_path / "scratch"
    folder.mkdir()
    _learn(tmp_path, folder, "s1", datetime.now(UTC) - timedelta(hours=3))
    assert "- commit:" not in (home / "raw_memories.md").read_text()
    assert all("commit" not in r for r in cli_json("list"))


def test_the_files_a_cited_tool_call_read_or_edited_are_what_it_rests_on(
    tmp_path: Path, web: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (web / "src" / "retry.py").write_text("pass\n")
    a = _commit(web, "A", datetime.now(UTC) - timedelta(hours=5), monkeypatch)
    read = json.dumps({"file_path": str(web / "src" / "pay.py")})
    patch = "*** Begin Patch\n*** Update File: src/retry.py\n*** End Patch"
    turns = (
        Turn("user", "why do payments retry?", lines=(1, 1)),
        Turn("tool", read, tool="Read", lines=(2, 2)),
        Turn("tool", patch, tool="apply_patch", lines=(3, 3)),
        Turn("tool", json.dumps({"file_path": "/elsewhere/notes.md"}), tool="Read", lines=(4, 4)),
        Turn("assistant", "Fixed; see src/ghost.py too.", lines=(5, 5)),
    )
    when = datetime.now(UTC) - timedelta(hours=1)
    transcript = Transcript("claude", "s", "", project=str(web), last_activity=when, turns=turns)
    assert touched_paths(transcript, [(2, 3)]) == [str(web / "src" / "pay.py"), "src/retry.py"]
    memory = Candidate(key="retries", type="fact", description="d", body="Retries.",
                       evidence=((1, 5),))  # fmt: skip
    ref = type("Ref", (), {"project": str(web), "last_activity": None})()
    [anchor] = anchors_for(ref, transcript, [memory])  # type: ignore[arg-type]
    assert anchor is not None
    # The ghost file and the one outside the checkout are not files of it.
    assert (anchor.checkout, anchor.commit, anchor.paths) == (
        "web",
        a,
        ("src/pay.py", "src/retry.py"),
    )
