"""A kept session-start answer is printed again only while it is the answer.

Each test keeps an answer (the session-start hook's, or ``brain context``'s), sees it
printed from the memo, changes one thing the answer rests on the way a person or brain
changes it, and then compares what the next start prints with what the whole
computation prints from scratch. Starts run in this process, as ``brain/__main__.py``
runs them: the kept answer first (:mod:`brain.agents.startmemo`), else the whole way
(:mod:`brain.cli.quick`), which keeps its answer.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brain.agents import hooks, startmemo
from brain.api import Brain
from brain.cli import quick
from brain.home.uses import counts as uses

WINDOW = 0.05  # the racy window the tests run with, in seconds (brain's is 2 s)


def git(top: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(top), *args], check=True, capture_output=True)
    return done.stdout.decode().strip()


class Starts:
    """Session starts in one place, run as the program runs them."""

    def __init__(self, home: Path, argv: list[str], payload: str, capsys, monkeypatch) -> None:
        self.home, self.argv, self.payload = home, argv, payload
        self.capsys, self.monkeypatch = capsys, monkeypatch

    def _run(self, kept: bool) -> tuple[str, str, str]:
        startmemo.asked, startmemo.payload = None, None
        self.monkeypatch.setattr(sys, "stdin", io.StringIO(self.payload))
        self.capsys.readouterr()
        if kept and startmemo.answer(self.argv):
            how = "kept"
        else:
            assert quick.answer(self.argv)
            how = "whole"
        out = self.capsys.readouterr()
        return how, out.out, out.err

    def start(self) -> tuple[str, str, str]:
        """A start: the kept answer when it stands, else the whole way."""
        return self._run(kept=True)

    def whole(self) -> tuple[str, str]:
        """What the whole computation prints, from scratch (no memo read or written)."""
        startmemo.forget(str(self.home))
        _, out, err = self._run(kept=False)
        return out, err

    def settle(self) -> tuple[str, str]:
        """Files left alone past the racy window, a start keeps its answer, and the next
        is printed from it; returns what it printed."""
        for _ in range(2):  # a first start may make the pending file: recent again
            time.sleep(WINDOW * 1.5)
            first = self.start()
            second = self.start()
            if second[0] == "kept":
                assert second[1:] == first[1:]
                return second[1], second[2]
        raise AssertionError("the answer was not kept")


@pytest.fixture
def place(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """A home with records (one project's resting on its checkout's commit) and that
    checkout, where sessions start."""
    monkeypatch.setattr(startmemo, "RACY_NS", int(WINDOW * 1e9))
    top = tmp_path / "work" / "shop"
    (top / "src").mkdir(parents=True)
    (top / "src" / "pay.py").write_text("RATE = 1\n")
    git(top, "init", "-q")
    git(top, "add", ".")
    git(top, "commit", "-qm", "first")
    brain, _ = Brain.init(home)
    records = [
        {"key": "use-pnpm", "type": "preference", "description": "Use pnpm, never npm",
         "body": "The lockfile is pnpm's."},
        {"key": "rate-lives-in-pay", "type": "fact", "description": "The rate lives in pay.py",
         "body": "RATE in src/pay.py.", "tags": ["project:shop"], "checkout": "shop",
         "commit": git(top, "rev-parse", "HEAD"), "paths": ["src/pay.py"]},
        {"key": "other-project-fact", "type": "fact", "description": "Deploys go through CI",
         "body": "Only CI deploys.", "tags": ["project:elsewhere"]},
    ]  # fmt: skip
    brain.import_((json.dumps(r) for r in records), origin="test")
    return {"home": home, "top": top, "brain": brain}


def hook(place: dict, capsys, monkeypatch, tool: str = "claude-code") -> Starts:
    payload = json.dumps({"cwd": str(place["top"]), "session_id": "s1", "source": "startup"})
    argv = ["hook", "session-start", "--tool", tool]
    return Starts(place["home"], argv, payload, capsys, monkeypatch)


def kept_files(place: dict) -> list[Path]:
    return sorted((place["home"] / startmemo.CACHE).glob(f"{startmemo.PREFIX}*"))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def add_record(place: dict) -> None:
    place["brain"].remember("Run the tests with -n 2 on this machine", key="tests-in-two")


def edit_by_hand(place: dict) -> None:
    path = place["home"] / "memories" / "use-pnpm.md"
    path.write_text(path.read_text().replace("Use pnpm, never npm", "Use pnpm or bun"))


def remove_by_hand(place: dict) -> None:
    (place["home"] / "memories" / "use-pnpm.md").unlink()


def setting(place: dict) -> None:
    path = place["home"] / "brain.yaml"
    path.write_text(path.read_text() + "context_max_entries: 1\n")


def summary(place: dict) -> None:
    write(place["home"] / "memory_summary.md", "# Summary\n\n## Tools\n- Use pnpm, never npm\n")


def memory_md(place: dict) -> None:
    write(place["home"] / "MEMORY.md", "# Memory\n\n## shop\n- The rate is in pay.py\n")


def raw_memory(place: dict) -> None:
    from datetime import UTC, datetime, timedelta

    from brain.evals import write_session

    lines = ["I prefer pytest fixtures over setUp methods.", "Never push to main directly."]
    when = datetime.now(UTC) - timedelta(hours=2)
    session = write_session(place["home"].parent / "sessions", "s9", lines, when=when)
    assert subprocess.run([sys.executable, "-m", "brain", "harvest", "--path", str(session)],
                          capture_output=True).returncode == 0  # fmt: skip
    assert subprocess.run([sys.executable, "-m", "brain", "extract"],
                          capture_output=True).returncode == 0  # fmt: skip
    assert (place["home"] / "raw_memories.md").exists()


def recalled(place: dict) -> None:
    from brain.agents.digest import ranked_entries
    from brain.home.reader import Reader

    shown = ("use-pnpm", "rate-lives-in-pay")
    order = [key for key, _ in ranked_entries(Reader.open(place["home"])) if key in shown]
    for _ in range(2):  # the one listed last is now recalled most: it comes first
        uses.note_uses(place["brain"], [f"memories/{order[-1]}.md"])


def head_moved(place: dict) -> None:
    top = place["top"]
    (top / "src" / "pay.py").write_text("RATE = 2\n")
    git(top, "commit", "-qam", "rate 2")


def head_moved_elsewhere(place: dict) -> None:
    top = place["top"]
    (top / "README.md").write_text("The shop.\n")
    git(top, "add", "README.md")
    git(top, "commit", "-qm", "a readme")


def checkout_above(place: dict) -> None:
    git(place["top"].parent, "init", "-q")  # the folder above is a checkout too: no change
    import shutil

    shutil.rmtree(place["top"] / ".git")  # the session's folder is now in "work"


def undecodable_name(place: dict) -> None:
    """A record copied by hand under a name in Latin-1 bytes."""
    text = (place["home"] / "memories" / "use-pnpm.md").read_bytes()
    text = text.replace(b"Use pnpm, never npm", b"Notes kept by hand")
    with open(os.fsencode(place["home"] / "memories") + b"/caf\xe9 notes.md", "wb") as fh:
        fh.write(text)


def home_elsewhere(place: dict) -> None:
    os.environ["BRAIN_CONTEXT_PROBE"] = "1"  # a variable of brain's: another key


CHANGES: dict[str, Callable[[dict], None]] = {
    "a record added": add_record,
    "a record edited by hand": edit_by_hand,
    "a record removed by hand": remove_by_hand,
    "a setting": setting,
    "the summary written": summary,
    "MEMORY.md written": memory_md,
    "a raw memory learned": raw_memory,
    "recalls counted": recalled,
    "HEAD moved past a record's file": head_moved,
    "HEAD moved past other files": head_moved_elsewhere,
    "the checkout gone from under the folder": checkout_above,
    "a variable of brain's": home_elsewhere,
    "a file named in bytes that are not UTF-8": undecodable_name,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_kept_hook_answer_is_the_answer_after_a_change(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    starts = hook(place, capsys, monkeypatch)
    monkeypatch.setenv("BRAIN_CONTEXT_PROBE", "0")
    before, _ = starts.settle()
    assert "use-pnpm" in before and "other-project-fact" not in before

    CHANGES[change](place)

    how, out, err = starts.start()
    assert (out, err) == starts.whole(), f"after {change}, a {how} answer differs"
    same = ("a variable of brain's", "HEAD moved past other files")
    assert out != before or change in same, "the change changed nothing"
    after, _ = starts.settle()  # and the new answer is kept in turn
    assert after == out


@pytest.mark.parametrize("change", ["a record added", "recalls counted", "MEMORY.md written"])
def test_a_kept_context_answer_is_the_answer_after_a_change(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    monkeypatch.chdir(place["top"])
    starts = Starts(place["home"], ["context"], "", capsys, monkeypatch)
    before, _ = starts.settle()
    assert before.startswith("<brain-memory>")
    CHANGES[change](place)
    assert starts.start()[1:] == starts.whole()


@pytest.mark.parametrize(
    "change", ["a record added", "a record edited by hand", "a record removed by hand"]
)
def test_a_kept_list_is_the_list_after_a_change(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    starts = Starts(place["home"], ["list"], "", capsys, monkeypatch)
    before, _ = starts.settle()
    assert "use-pnpm" in before and "other-project-fact" in before
    CHANGES[change](place)
    how, out, err = starts.start()
    assert (out, err) == starts.whole(), f"after {change}, a {how} list differs"
    assert out != before


def test_a_kept_answer_stands_when_head_moves_past_other_files(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = hook(place, capsys, monkeypatch)
    before, _ = starts.settle()
    assert "possibly stale" not in before
    head_moved_elsewhere(place)
    assert starts.start() == ("kept", before, "")  # git says pay.py is as it was
    with monkeypatch.context() as patched:  # and the answer now names the new commit
        patched.setenv("PATH", "")  # so no git could be asked again
        assert starts.start() == ("kept", before, "")
    head_moved(place)  # now a commit changes the file a record rests on
    how, out, _ = starts.start()
    assert how == "whole" and "possibly stale" in out


def test_a_kept_answer_notes_what_it_showed_as_the_whole_way_does(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = hook(place, capsys, monkeypatch, tool="codex")
    starts.settle()
    pending = place["home"] / "uses" / "pending.jsonl"
    whole_line = pending.read_text().splitlines()[-2]  # the settling start's, the whole way
    kept_line = pending.read_text().splitlines()[-1]
    assert json.loads(kept_line)["paths"] == json.loads(whole_line)["paths"]
    assert json.loads(kept_line).keys() == json.loads(whole_line).keys()
    assert time.strptime(json.loads(kept_line)["ts"], "%Y-%m-%dT%H:%M:%SZ")
    # shown lines count for nothing: the kept answer still stands after its own
    assert starts.start()[0] == "kept"
    last = (place["home"] / hooks.last_run_path(place["home"], "codex")).read_text()
    assert last.count("session-start ok") == 1 and last.endswith(" session-start ok\n")


def test_an_answer_is_not_kept_from_files_changed_within_the_window(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(startmemo, "RACY_NS", 3_600 * 10**9)  # everything is recent
    starts = hook(place, capsys, monkeypatch)
    assert [starts.start()[0] for _ in range(3)] == ["whole"] * 3
    assert kept_files(place) == []


def test_a_recall_noted_while_an_answer_is_computed_keeps_it_out(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = hook(place, capsys, monkeypatch)
    starts.settle()
    startmemo.forget(str(place["home"]))
    real = hooks.session_start

    def with_a_recall(*args, **kwargs):  # another process's recall, mid-computation
        answer = real(*args, **kwargs)
        uses.note_uses(place["brain"], ["memories/use-pnpm.md"])
        return answer

    monkeypatch.setattr(hooks, "session_start", with_a_recall)
    time.sleep(WINDOW * 1.5)
    assert starts.start()[0] == "whole"
    assert kept_files(place) == []


def test_head_moved_while_an_answer_is_computed_keeps_it_out(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = hook(place, capsys, monkeypatch)
    starts.settle()  # an answer is kept here when nothing moves
    startmemo.forget(str(place["home"]))
    real = hooks.session_start

    def with_a_commit(*args, **kwargs):  # a commit made mid-computation
        answer = real(*args, **kwargs)
        head_moved(place)
        return answer

    monkeypatch.setattr(hooks, "session_start", with_a_commit)
    time.sleep(WINDOW * 1.5)
    assert starts.start()[0] == "whole"
    assert kept_files(place) == []


def test_a_broken_memo_is_written_again(place: dict, capsys, monkeypatch) -> None:
    starts = hook(place, capsys, monkeypatch)
    expected = starts.settle()
    [kept] = kept_files(place)
    kept.write_bytes(b"\x00garbage")
    assert starts.start() == ("whole", *expected)
    assert starts.start() == ("kept", *expected)


def test_no_answer_is_kept_for_doctors_check_or_brains_own_runs(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = hook(place, capsys, monkeypatch)
    starts.settle()
    for name in ("BRAIN_HOOK_CHECK", "BRAIN_INTERNAL_RUN"):
        monkeypatch.setenv(name, "1")
        assert starts.start()[0] == "whole"
        monkeypatch.delenv(name)


# -- what the whole way reads is what a kept answer rests on ---------------------------


def test_every_file_the_whole_way_reads_is_one_the_answer_rests_on(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every path the whole computation stats, opens or lists is among the memo's
    dependencies, or is one it may leave out (its own caches and logs, the pending
    file kept by length): a new file read by the context fails here by name."""
    summary(place)
    memory_md(place)
    recalled(place)
    head_moved(place)
    starts = hook(place, capsys, monkeypatch)
    starts.settle()
    startmemo.forget(str(place["home"]))
    startmemo.asked = None
    monkeypatch.setattr(sys, "stdin", io.StringIO(starts.payload))
    assert not startmemo.answer(starts.argv)
    query = startmemo.asked
    assert query is not None
    touched: set[str] = set()

    def audit(event: str, args: tuple) -> None:
        named = args and isinstance(args[0], str | bytes | os.PathLike)
        if event in ("open", "os.listdir", "os.scandir") and named:
            touched.add(os.path.abspath(os.fsdecode(args[0])))

    real_stat = os.stat

    def stat(path, *args, **kwargs):
        if not isinstance(path, int):
            touched.add(os.path.abspath(os.fsdecode(path)))
        return real_stat(path, *args, **kwargs)

    watching = [True]
    sys.addaudithook(lambda e, a: audit(e, a) if watching[0] else None)
    monkeypatch.setattr(os, "stat", stat)
    try:
        done = hooks.session_start(place["home"], starts.payload, "claude-code")
    finally:
        watching[0] = False
        monkeypatch.setattr(os, "stat", real_stat)
    assert done.error is None and done.context is not None
    assert done.context.checkout == str(place["top"])  # the staleness marks were read

    deps = {path for path, _how in startmemo._deps_before(query)}
    home, top = str(place["home"]), str(place["top"])
    allowed = (
        os.path.join(home, ".brain", "cache"),
        os.path.join(home, ".brain", "logs"),
        os.path.join(home, startmemo.PENDING),
        os.path.join(home, ".git", "info", "exclude"),  # a new pending file kept out of git
    )
    unseen = {
        path
        for path in touched
        if (path.startswith((home, top)) or path in startmemo._upwards(top))
        and path not in deps
        and not path.startswith(allowed)
        # a file not there: its coming changes its folder, which is one
        and not (not os.path.exists(path) and os.path.dirname(path) in deps)
        # the checkout's git files: HEAD's commit, kept with the answer, stands for them
        and not path.startswith(os.path.join(top, ".git") + os.sep)
    }
    assert unseen == set()


# -- the payload is read as json.loads reads it ----------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    cwd=st.one_of(st.text(), st.integers(), st.none()),
    paths=st.one_of(st.lists(st.one_of(st.text(), st.integers()), max_size=2), st.text()),
    extra=st.dictionaries(st.text(max_size=8), JSON, max_size=3),
    space=st.sampled_from(["", " ", "\n", "\t\r\n "]),
)
def test_the_payload_is_read_as_the_hook_reads_it(cwd, paths, extra, space) -> None:
    payload = {**extra, "cwd": cwd, "workspacePaths": paths}
    raw = space + json.dumps(payload, ensure_ascii=bool(extra)) + space
    assert startmemo._payload_cwd(raw) == hooks._cwd(hooks.parse_payload(raw))


@pytest.mark.parametrize("raw", ["[1]", '"x"', "{", '{"cwd": "/a"} x', "\ufeff{}", "NaN"])
def test_a_payload_that_is_no_object_goes_the_whole_way(raw: str) -> None:
    assert startmemo._payload_cwd(raw) is None


# -- brain status -------------------------------------------------------------------


@pytest.fixture
def programs(place: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on PATH where an agent program may come to be."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return folder


def program_installed(place: dict) -> None:
    codex = place["programs"] / "codex"
    codex.write_text("#!/bin/sh\nexit 0\n")
    codex.chmod(0o755)


def program_no_longer_runs(place: dict) -> str:
    program_installed(place)
    kept, _ = place["starts"].settle()  # kept with the program there
    assert "codex" in kept
    (place["programs"] / "codex").chmod(0o644)  # its folder's listing is as it was
    return kept


def api_key_set(place: dict) -> None:
    os.environ["OPENAI_API_KEY"] = "sk-test-0000"


def unreadable(place: dict) -> None:
    (place["home"] / "memories" / "use-pnpm.md").write_text("---\nkey: [\n---\nbroken\n")


def archived(place: dict) -> None:
    place["brain"].archive("use-pnpm")


def threshold(place: dict) -> None:
    place["brain"].config_set("consolidation_threshold", "9")


# Each change, and whether it changes what a status prints (from what it printed before,
# or from what the change returns: the status it kept first).
STATUS_CHANGES: dict[str, tuple[Callable[[dict], str | None], bool]] = {
    "a record added": (add_record, True),
    "a record edited by hand": (edit_by_hand, False),
    "a record made unreadable by hand": (unreadable, True),
    "a record removed by hand": (remove_by_hand, True),
    "a record archived": (archived, True),
    "a setting": (threshold, True),
    "a raw memory learned": (raw_memory, True),
    "an agent program installed": (program_installed, True),
    "an agent program no longer executable": (program_no_longer_runs, True),
    "an API key set": (api_key_set, True),
}


@pytest.mark.parametrize("change", sorted(STATUS_CHANGES))
def test_a_kept_status_is_the_status_after_a_change(
    place: dict, programs: Path, capsys, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    starts = Starts(place["home"], ["status"], "", capsys, monkeypatch)
    place |= {"programs": programs, "starts": starts}
    before, _ = starts.settle()
    assert "3 records" in before

    make, changes = STATUS_CHANGES[change]
    before = make(place) or before

    how, out, err = starts.start()
    assert (out, err) == starts.whole(), f"after {change}, a {how} status differs"
    assert (out != before) == changes, f"{change}: {before!r} -> {out!r}"
    after, _ = starts.settle()  # and the new answer is kept in turn
    assert after == out


def test_a_kept_status_stands_until_a_session_leaves_its_quiet_window(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A status names the sessions still active; it is kept until the first of them
    has been quiet long enough to be read, and no longer."""
    from datetime import UTC, datetime, timedelta

    from brain.evals import write_session

    quiet = 4.0  # seconds until the session has been quiet for min_rollout_idle_hours
    last = datetime.now(UTC) - timedelta(hours=1) + timedelta(seconds=quiet)
    when = last - timedelta(minutes=3)  # two typed lines: the last answer 3 min after
    session = write_session(place["home"].parent / "sessions", "s7", ["Use tabs.", "Yes."],
                            when=when)  # fmt: skip
    place["brain"].import_session(session)
    starts = Starts(place["home"], ["status"], "", capsys, monkeypatch)
    before, _ = starts.settle()
    assert "0 sessions pending (1 active within min_rollout_idle_hours)" in before
    assert datetime.now(UTC) < last + timedelta(hours=1), "the machine was too slow to tell"

    time.sleep(max(0.0, (last + timedelta(hours=1) - datetime.now(UTC)).total_seconds()) + 0.1)

    how, out, err = starts.start()
    assert how == "whole" and "1 sessions pending" in out
    assert (out, err) == starts.whole()


def test_a_status_is_not_kept_while_a_cut_short_write_is_left(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    (place["home"] / ".brain" / "pending").write_text("{}\n")
    starts = Starts(place["home"], ["status"], "", capsys, monkeypatch)
    time.sleep(WINDOW * 1.5)
    assert [starts.start()[0] for _ in range(2)] == ["whole"] * 2
    assert kept_files(place) == []


def test_the_environment_is_kept_only_as_a_digest(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-on-disk-0123456789")
    starts = Starts(place["home"], ["status"], "", capsys, monkeypatch)
    starts.settle()
    [kept] = kept_files(place)
    assert b"sk-ant-not-on-disk" not in kept.read_bytes()


def test_every_file_a_status_reads_is_one_it_rests_on(
    place: dict, programs: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for the session start: every path the whole status stats, opens or lists is
    among what its kept answer rests on, or one it may leave out."""
    raw_memory(place)
    program_installed({"programs": programs})
    starts = Starts(place["home"], ["status"], "", capsys, monkeypatch)
    starts.settle()
    startmemo.forget(str(place["home"]))
    startmemo.asked = None
    assert not startmemo.answer(["status"])
    query = startmemo.asked
    assert query is not None
    touched: set[str] = set()

    def audit(event: str, args: tuple) -> None:
        named = args and isinstance(args[0], str | bytes | os.PathLike)
        if event in ("open", "os.listdir", "os.scandir") and named:
            touched.add(os.path.abspath(os.fsdecode(args[0])))

    real_stat, real_access = os.stat, os.access

    def stat(path, *args, **kwargs):
        if not isinstance(path, int):
            touched.add(os.path.abspath(os.fsdecode(path)))
        return real_stat(path, *args, **kwargs)

    def access(path, *args, **kwargs):
        touched.add(os.path.abspath(os.fsdecode(path)))
        return real_access(path, *args, **kwargs)

    watching = [True]
    sys.addaudithook(lambda e, a: audit(e, a) if watching[0] else None)
    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "access", access)
    try:
        quick._status(place["home"])
    finally:
        watching[0] = False
        monkeypatch.setattr(os, "stat", real_stat)
        monkeypatch.setattr(os, "access", real_access)
    assert "codex" in capsys.readouterr().out

    deps = {path for path, _how in startmemo._deps_before(query) + query.watched}
    home = str(place["home"])
    allowed = (
        os.path.join(home, ".brain", "cache"),
        os.path.join(home, ".brain", "logs"),
        os.path.join(home, ".git") + os.sep,  # HEAD's commit is in what was asked
    )
    unseen = {
        path
        for path in touched
        if (path.startswith(home) or path.startswith(str(programs)))
        and path not in deps
        and not path.startswith(allowed)
        and not (not os.path.exists(path) and os.path.dirname(path) in deps)
    }
    assert unseen == set()
    assert str(programs / "codex") in deps


# -- answers kept ahead, by the learning job -------------------------------------------


@pytest.mark.parametrize("change", ["a record added", "a raw memory learned", "recalls counted"])
def test_an_answer_kept_ahead_is_the_next_starts_answer(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """After a write, the learning job computes the next start's answer in the place
    the session ran: that start prints it from the memo, as the whole way would, and
    the computation ahead counted no record shown and noted no hook call."""
    starts = hook(place, capsys, monkeypatch, tool="codex")
    starts.settle()
    CHANGES[change](place)
    pending = place["home"] / "uses" / "pending.jsonl"
    last_hook = place["home"] / hooks.last_run_path(place["home"], "codex")

    def state() -> tuple[bytes | None, ...]:
        return tuple(p.read_bytes() if p.exists() else None for p in (pending, last_hook))

    before = state()
    assert hooks.keep_start_ahead(place["home"], "codex", str(place["top"]))
    assert state() == before
    assert capsys.readouterr() == ("", "")
    how, out, err = starts.start()
    assert how == "kept"
    assert (out, err) == starts.whole()
    # and a second time ahead, with the answer kept already, there is nothing to do
    starts.settle()
    assert not hooks.keep_start_ahead(place["home"], "codex", str(place["top"]))


def test_nothing_is_kept_ahead_for_a_place_no_start_may_ask(place: dict) -> None:
    assert not hooks.keep_start_ahead(place["home"], "codex", "relative/folder")
    assert not hooks.keep_start_ahead(place["home"], "no-such-tool", str(place["top"]))
    assert kept_files(place) == []


def test_a_kept_answer_stands_while_a_records_mark_is_what_it_was(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a commit that makes a record possibly stale, later commits that change its
    file again leave its mark as it was: the kept answer stands, one ``git cat-file``
    says so. A commit that changes it back, or removes it, changes the mark."""
    top, pay = place["top"], place["top"] / "src" / "pay.py"
    starts = hook(place, capsys, monkeypatch)
    starts.settle()
    head_moved(place)  # RATE = 2: the record's file differs from its commit's
    how, out, _ = starts.start()
    assert how == "whole" and "possibly stale: src/pay.py changed" in out
    starts.settle()

    for rate in (3, 4):  # the file changes again: still changed since the record's commit
        pay.write_text(f"RATE = {rate}\n")
        git(top, "commit", "-qam", f"rate {rate}")
        kept = starts.start()
        assert kept[0] == "kept", f"rate {rate}"
        assert kept[1:] == starts.whole()
        starts.settle()

    pay.write_text("RATE = 1\n")  # back to what the record's commit held: no mark
    git(top, "commit", "-qam", "rate 1 again")
    how, out, _ = starts.start()
    assert how == "whole" and "possibly stale" not in out
    assert (out, "") == starts.whole()
    starts.settle()

    git(top, "rm", "-q", "src/pay.py")
    git(top, "commit", "-qm", "no pay.py")
    how, out, _ = starts.start()
    assert how == "whole" and "src/pay.py moved or gone" in out
    assert (out, "") == starts.whole()


def test_a_list_or_a_status_kept_in_one_folder_serves_any_other(
    place: dict, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a list or a status prints does not depend on the folder it is asked in (a
    context's does: its project is that folder); nor a hook's on the process's folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for argv in (["list"], ["status"]):
        monkeypatch.chdir(place["top"])
        starts = Starts(place["home"], argv, "", capsys, monkeypatch)
        kept, _ = starts.settle()
        monkeypatch.chdir(elsewhere)
        assert starts.start() == ("kept", kept, "")
    starts = hook(place, capsys, monkeypatch)
    kept, _ = starts.settle()
    monkeypatch.chdir(place["top"])
    assert starts.start() == ("kept", kept, "")
    context = Starts(place["home"], ["context"], "", capsys, monkeypatch)
    context.settle()  # kept in the project's folder
    monkeypatch.chdir(elsewhere)
    assert context.start()[0] == "whole"  # another folder, another project


def test_an_answer_served_often_outlives_those_written_once(
    place: dict, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most :data:`MAX_ANSWERS` answers are kept: those written or served last."""
    monkeypatch.setattr(startmemo, "MAX_ANSWERS", 2)
    starts = hook(place, capsys, monkeypatch)
    starts.settle()
    for n in range(3):  # three other places asked once each, the hook's served between
        monkeypatch.setenv("BRAIN_PLACE", str(n))  # a variable of brain's: another key
        Starts(place["home"], ["list"], "", capsys, monkeypatch).settle()
        monkeypatch.delenv("BRAIN_PLACE")
        assert starts.start()[0] == "kept"
    assert len(kept_files(place)) == 2
