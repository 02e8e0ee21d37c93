"""OpenCode adapter: a session the real CLI wrote, copied out of its database; its export."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from brain.api import Brain
from brain.sessions import sources
from brain.sessions.sources import locations, opencode, opencode_db
from brain.sessions.sources.sniff import sniff
from tests.helpers import cli_json

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts" / "opencode"
RECORDED = FIXTURES / "recorded-1.18.33"
SESSION = "ses_db87680ffffeEgEvMwzWQo20fk"
TYPED = (
    "Read the README, then list the files. From now on use pnpm, never npm, "
    "to install packages here."
)


def _database(path: Path, sql: str | None = None) -> Path:
    """An OpenCode database made from the rows OpenCode 1.18.33 wrote, in its WAL mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(sql if sql is not None else (RECORDED / "opencode.sql").read_text())
    con.commit()
    con.close()
    return path


def _summary(path: Path) -> list[tuple[str, str | None, str]]:
    return [(t.role, t.tool, t.text[:40]) for t in opencode.parse(path).transcript.turns]


def test_a_session_opencode_1_18_33_wrote() -> None:
    result = opencode.parse(RECORDED / "session.jsonl")
    t = result.transcript
    assert [(turn.role, turn.tool) for turn in t.turns] == [
        ("user", None),
        ("tool", "read"),
        ("tool", "read"),
        ("tool", "bash"),
        ("tool", "bash"),
        ("assistant", None),
    ]
    typed, read, content, ls, listing, answer = t.turns
    # 'opencode run' stored the prompt in the quotes it put around it: read without them.
    assert typed.text == TYPED and not typed.injected
    stored = json.loads((RECORDED / "session.jsonl").read_text().splitlines()[1])
    assert stored["parts"][0]["text"] == f'"{TYPED}"'
    assert json.loads(read.text) == {"filePath": "README.md"}
    assert "2: Use pnpm." in content.text and content.call == read.call == "toolu_2"
    assert json.loads(ls.text)["command"] == "ls" and listing.text == "README.md"
    assert answer.text == "Noted: pnpm, never npm, for installs in this repo."
    assert (t.session_id, t.subagent, t.project) == (SESSION, None, "/tmp/ocrec/proj")
    assert t.started is not None and t.last_activity is not None and t.started < t.last_activity
    assert (result.malformed, result.unknown) == (0, 0)
    assert result.offset == (RECORDED / "session.jsonl").stat().st_size


def test_a_prompt_is_unwrapped_only_from_the_quotes_opencode_run_put_around_it() -> None:
    assert opencode._unquoted('"use pnpm"') == "use pnpm"
    assert opencode._unquoted('"say \\"hi\\" first"') == 'say "hi" first'
    assert opencode._unquoted('"a" and "b"') == '"a" and "b"'
    assert opencode._unquoted('"') == '"'
    assert opencode._unquoted("plain") == "plain"


def test_its_export_reads_as_its_copy() -> None:
    export = opencode.parse(RECORDED / "export.json").transcript
    copy = opencode.parse(RECORDED / "session.jsonl").transcript
    assert [(t.role, t.tool, t.text) for t in export.turns] == [
        (t.role, t.tool, t.text) for t in copy.turns
    ]
    assert export.session_id == SESSION and export.project == "/tmp/ocrec/proj"
    assert export.title == "Done."  # the export has the title; the copy leaves it out


def test_sniffed_by_content(tmp_path: Path) -> None:
    assert sniff(RECORDED / "session.jsonl") == "opencode"
    assert sniff(RECORDED / "export.json") == "opencode"
    renamed = tmp_path / "chat.json"
    renamed.write_bytes((RECORDED / "export.json").read_bytes())
    assert sniff(renamed) == "opencode"
    assert "opencode" in sources.names()


def test_the_database_is_copied_one_file_a_session(tmp_path: Path) -> None:
    db = _database(tmp_path / "data" / "opencode.db")
    copies = opencode_db.copy_sessions(db, tmp_path / "copies")
    assert copies == [opencode_db.Copied(tmp_path / "copies" / f"{SESSION}.jsonl", SESSION, None)]
    copy = copies[0].path
    assert copy.read_text() == (RECORDED / "session.jsonl").read_text()
    # The copy is dated by the session's last update: the quiet window judges the session.
    updated = sqlite3.connect(db).execute("SELECT max(time_updated) FROM message").fetchone()[0]
    assert copy.stat().st_mtime == pytest.approx(updated / 1000)


def test_a_grown_session_keeps_its_first_bytes_and_is_read_on(tmp_path: Path) -> None:
    db = _database(tmp_path / "opencode.db")
    copy = opencode_db.copy_sessions(db, tmp_path / "copies")[0].path
    first = opencode.parse(copy)
    before = copy.read_bytes()
    opencode_db.copy_sessions(db, tmp_path / "copies")
    assert copy.read_bytes() == before  # unchanged: not rewritten
    con = sqlite3.connect(db)
    data = {"role": "user", "time": {"created": 1796496600000}}
    con.execute(
        "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
        ("msg_zz1", SESSION, 1796496600000, 1796496600000, json.dumps(data)),
    )
    part = {"type": "text", "text": "Also: tabs, not spaces."}
    con.execute(
        "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
        ("prt_zz1", "msg_zz1", SESSION, 1796496600000, 1796496600000, json.dumps(part)),
    )
    con.execute("UPDATE session SET time_updated = 1796496600000, title = 'Later title'")
    con.commit()
    con.close()
    opencode_db.copy_sessions(db, tmp_path / "copies")
    grown = copy.read_bytes()
    assert grown.startswith(before)  # the title changed; the first line did not
    more = opencode.parse(copy, start=first.offset)
    assert [t.text for t in more.transcript.turns] == ["Also: tabs, not spaces."]


def test_a_locked_database_keeps_the_last_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "opencode.db"
    con = sqlite3.connect(db)
    con.executescript((RECORDED / "opencode.sql").read_text())
    con.commit()
    copies = opencode_db.copy_sessions(db, tmp_path / "copies")
    monkeypatch.setattr(opencode_db, "BUSY_SECONDS", 0.05)
    con.execute("BEGIN EXCLUSIVE")  # a writer mid-write, in a journal the readers wait on
    try:
        assert opencode_db.copy_sessions(db, tmp_path / "copies") == copies
        assert opencode_db.copy_sessions(db, tmp_path / "none") == []
    finally:
        con.rollback()
        con.close()


def test_a_schema_that_drifted_costs_only_what_it_moved(tmp_path: Path) -> None:
    sql = """
    CREATE TABLE session (id text PRIMARY KEY, directory text, time_created integer,
                          time_updated integer, added_later text);
    CREATE TABLE message (id text PRIMARY KEY, session_id text, time_updated integer,
                          data text);
    CREATE TABLE part (id text PRIMARY KEY, message_id text, data text);
    INSERT INTO session VALUES ('ses_a', '/p', 1796000000000, 1796000001000, 'x');
    INSERT INTO session VALUES ('../../escape', '/p', 1796000000000, 1796000001000, 'x');
    INSERT INTO message VALUES ('msg_1', 'ses_a', 1796000001000, '{"role":"user"}');
    INSERT INTO message VALUES ('msg_2', 'ses_a', 1796000001000, 'not json');
    INSERT INTO part VALUES ('prt_1', 'msg_1', '{"type":"text","text":"use uv"}');
    """
    db = _database(tmp_path / "opencode.db", sql)
    copies = opencode_db.copy_sessions(db, tmp_path / "copies")
    assert [c.session_id for c in copies] == ["ses_a"]  # an id unfit for a file name: left
    parsed = opencode.parse(copies[0].path)
    assert [t.text for t in parsed.transcript.turns] == ["use uv"]
    assert parsed.transcript.project == "/p" and parsed.unknown == 1  # the unreadable message
    without_parts = (
        sql.split("CREATE TABLE part")[0] + sql.split("'x');")[-1].split("INSERT INTO part")[0]
    )
    no_parts = _database(tmp_path / "old" / "opencode.db", without_parts)
    assert opencode_db.copy_sessions(no_parts, tmp_path / "old-copies") == []


def test_a_subagents_session_names_its_parent(tmp_path: Path) -> None:
    db = _database(tmp_path / "opencode.db")
    con = sqlite3.connect(db)
    con.execute(
        "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version,"
        " time_created, time_updated) VALUES ('ses_child', 'global', ?, 's', '/tmp/ocrec/proj',"
        " 't', '1.18.33', 1796496600000, 1796496600000)",
        (SESSION,),
    )
    con.commit()
    con.close()
    found = {f.path.stem: f for f in locations.opencode_discover(tmp_path)}
    assert (found["ses_child"].session_id, found["ses_child"].subagent) == (SESSION, "ses_child")
    child = opencode.parse(found["ses_child"].path).transcript
    assert (child.session_id, child.subagent) == (SESSION, "ses_child")


def test_harvest_finds_opencode_sessions_and_takes_an_export_by_path(
    tmp_path: Path, home: Path
) -> None:
    Brain.init(home)
    # A day earlier, every time in it: a session as quiet as the harvest wants one.
    sql = re.sub(
        r"\b1796\d{9}\b",
        lambda m: str(int(m.group()) - 86_400_000),
        (RECORDED / "opencode.sql").read_text(),
    )
    _database(Path(os.environ["HOME"]) / ".local" / "share" / "opencode" / "opencode.db", sql)
    out = cli_json("harvest", "--source", "opencode", "--all")
    assert out["message"] == "harvest: 1 new session, 0 grown (opencode 1)", out
    copies = Path(os.environ["HOME"]) / ".cache" / "brain" / "opencode"
    assert [p.name for p in copies.iterdir()] == [f"{SESSION}.jsonl"]
    exported = tmp_path / "shared-session.json"
    exported.write_bytes((RECORDED / "export.json").read_bytes())
    by_path = cli_json("harvest", "--path", str(exported))
    assert [(s["source"], s["new"]) for s in by_path["sources"]] == [("opencode", 1)]


def test_a_channels_database_and_one_opencode_db_names_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = Path(os.environ["HOME"]) / ".local" / "share" / "opencode"
    _database(data / "opencode-dev.db")
    named = _database(tmp_path / "elsewhere" / "mine.db")
    monkeypatch.setenv("OPENCODE_DB", str(named))
    roots = locations.opencode_roots()
    assert roots == [data, named]
    found = [f for root in roots for f in locations.opencode_discover(root)]
    assert [f.session_id for f in found] == [SESSION, SESSION]  # one copy, from either
    assert locations.opencode_session(SESSION) == found[0].path
    monkeypatch.setenv("OPENCODE_DB", "opencode-dev.db")  # a name in the folder, found anyway
    assert locations.opencode_roots() == [data]
