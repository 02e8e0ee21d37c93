"""status, context, list and the session-start hook answered without click
(brain/cli/quick.py): the same text, errors and exit codes as their click commands, and
the caches that keep ``brain status`` from growing with the harvested history."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click
import pytest

from brain.cli import text
from brain.evals import write_session
from tests.helpers import cli
from tests.test_startup import past

LINES = ["I prefer pytest fixtures over setUp methods.", "Never push to main directly."]


def quick(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``brain ARGS`` as the program runs it: through brain/__main__.py."""
    return subprocess.run(
        [sys.executable, "-m", "brain", *args], capture_output=True, text=True, env=env
    )


def session(folder: Path, name: str) -> Path:
    """A finished session, two hours old: past the quiet window, inside the age limit."""
    return write_session(folder, name, LINES, when=datetime.now(UTC) - timedelta(hours=2))


@pytest.fixture
def varied(home: Path, tmp_path: Path) -> Path:
    """Records, one named by hand, one unreadable, an extracted session and raw
    memories waiting for phase 2."""
    assert cli("init").exit_code == 0
    for n in range(3):
        assert cli("remember", "--key", f"fact-{n}", f"Fact number {n}.").exit_code == 0
    shown = (home / "memories" / "fact-0.md").read_text()
    (home / "memories" / "café notes.md").write_text(shown.replace("key: fact-0", "key: café"))
    (home / "memories" / "broken.md").write_text("---\nid: [unclosed\n---\nbody\n")
    assert cli("harvest", "--path", str(session(tmp_path / "sessions", "s1"))).exit_code == 0
    assert cli("extract").exit_code == 0
    return home


@pytest.mark.parametrize("command", ["status", "context", "list"])
def test_the_short_cut_prints_what_the_click_command_prints(varied: Path, command: str) -> None:
    for aged in (False, True):  # files just written, then out of the caches' racy window
        if aged:
            past(varied)
        fast = quick(command)
        full = cli(command)
        assert (fast.returncode, fast.stdout, fast.stderr) == (
            full.exit_code,
            full.stdout,
            full.stderr,
        )
    said = fast.stdout + fast.stderr  # the home really has its oddities
    expected = {
        "status": ["broken.md", "named by hand memories/café notes.md", "2 raw memories"],
        "context": ["fact-1"],
        "list": ["fact-1", "broken.md"],
    }
    assert all(part in said for part in expected[command]), said


@pytest.mark.parametrize("command", ["status", "context", "list"])
def test_the_short_cut_says_the_same_error(tmp_path: Path, command: str) -> None:
    env = {**os.environ, "BRAIN_HOME": str(tmp_path / "nowhere")}
    fast = quick(command, env=env)
    full = cli(command)  # the home fixture points nowhere too: not initialised
    assert fast.returncode == full.exit_code == 1
    assert fast.stderr == f"Error: {tmp_path / 'nowhere'} is not a brain home; run 'brain init'\n"
    assert full.stderr.startswith("Error: ") and fast.stdout == ""


def test_a_home_that_is_a_file_is_left_to_the_full_command_line(tmp_path: Path) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("")
    done = quick("--home", str(afile), "list")
    assert done.returncode == 2 and "is a file" in done.stderr


def test_options_go_through_the_full_command_line(varied: Path) -> None:
    done = quick("list", "--type", "nosuchtype")
    assert done.returncode == 1 and "nosuchtype" in done.stderr
    assert json.loads(quick("status", "--json").stdout)["records"] == 5


def test_a_reader_that_goes_away_ends_the_listing_quietly(varied: Path) -> None:
    for command in ("list", "status"):
        proc = subprocess.Popen(
            [sys.executable, "-m", "brain", command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # gone before brain writes a line, as click's main has it
        assert proc.wait(timeout=60) == 1
        assert "Error" not in (said := proc.stderr.read()) and "Traceback" not in said


@pytest.mark.parametrize(
    "style", [{"fg": "red", "bold": True}, {"fg": "cyan"}, {"bold": True}, {"fg": "yellow"},
              {"fg": "magenta"}, {}],
)  # fmt: skip
def test_colours_are_clicks_own(monkeypatch: pytest.MonkeyPatch, style: dict[str, object]) -> None:
    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert text.paint("word", **style) == click.style("word", **style)  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert text.paint("word", **style) == "word"  # type: ignore[arg-type]


def pending_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("consolidate"))


def test_the_raw_memory_count_follows_the_log_and_the_journal(varied: Path) -> None:
    past(varied)
    before = quick("status").stdout
    assert "2 raw memories pending" in pending_line(before)
    cache = varied / ".brain" / "cache" / "raw-pending.json"
    assert json.loads(cache.read_text())["count"] == 2  # counted once, then read
    cache.write_text(cache.read_text().replace('"count": 2', '"count": 7'))
    assert "7 raw memories pending" in pending_line(quick("status").stdout)  # it is read

    assert cli("consolidate", "--force").exit_code == 0  # the journal says what it took
    past(varied)
    assert "0 raw memories pending" in pending_line(quick("status").stdout)
    cache.write_text("not json")
    assert "0 raw memories pending" in pending_line(quick("status").stdout)  # rebuilt


def test_the_sessions_pending_follow_harvest_and_extract(varied: Path, tmp_path: Path) -> None:
    def pending() -> str:
        out = quick("status").stdout
        return next(line for line in out.splitlines() if line.startswith("extract"))

    past(varied)
    assert "0 sessions pending" in pending()
    assert (varied / ".brain" / "cache" / "unextracted.json").is_file()

    assert cli("harvest", "--path", str(session(tmp_path / "more", "s2"))).exit_code == 0
    past(varied)
    assert "1 sessions pending" in pending()
    assert "1 sessions pending" in pending()  # from the cache
    assert cli("extract").exit_code == 0
    past(varied)
    assert "0 sessions pending" in pending()

    assert cli("sessions", "delete", "s1").exit_code == 0  # a mark changes, nothing pends
    past(varied)
    assert "0 sessions pending" in pending()


def test_a_home_made_before_local_yaml_is_opened_as_the_full_command_opens_it(
    varied: Path,
) -> None:
    (varied / "local.yaml").unlink()
    fast = quick("list")
    assert (varied / "local.yaml").is_file()  # what it used is kept, as by any command
    assert fast.stdout == cli("list").stdout and "fact-1" in fast.stdout


@pytest.mark.parametrize("command", ["list", "status"])
def test_what_a_killed_writer_left_is_put_right_first(varied: Path, command: str) -> None:
    from brain.home import pending
    from brain.home.git.repo import Repo
    from brain.home.reader import Reader

    reader = Reader(varied)
    pending.begin(reader, Repo(varied))
    pending.note(reader, ["memories/half-written.md"])
    shown = (varied / "memories" / "fact-1.md").read_text()
    (varied / "memories" / "half-written.md").write_text(shown.replace("fact-1", "half-written"))
    past(varied)
    fast = quick(command)  # a process of its own: the writer (this one) holds no lock
    assert not pending.exists(reader)  # recovered, then the note removed
    pending.end(reader)  # this process's handle on the note, closed
    assert not (varied / "memories" / "half-written.md").exists()  # its write never landed
    assert fast.stdout == cli(command).stdout and "half-written" not in fast.stdout


def test_the_hook_fails_open_whatever_its_home_is(tmp_path: Path) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(afile), "hook", "session-start"],
        input='{"hook_event_name": "SessionStart", "cwd": "/"}',
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and json.loads(done.stdout)  # an empty context, still JSON


def test_status_names_the_unreadable_records_as_they_change(varied: Path) -> None:
    def unreadable() -> list[str]:
        out = quick("status").stdout
        return [line.split()[1] for line in out.splitlines() if line.startswith("unreadable")]

    past(varied)
    assert unreadable() == ["memories/broken.md:4:"]
    good = (varied / "memories" / "fact-1.md").read_text()
    (varied / "memories" / "broken.md").write_text(good.replace("fact-1", "broken"))
    past(varied)
    assert unreadable() == []  # from the heads' cache: every file reads
    assert unreadable() == []
    (varied / "memories" / "fact-2.md").write_text("no frontmatter at all\n")
    past(varied)
    assert unreadable() == ["memories/fact-2.md:1:"]
