"""Charm's Crush adapter, on a database made from its published schema (no real Crush
runs here: its package downloads the program from GitHub at install)."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from brain.api import Brain
from brain.sessions.sources import crush, crush_db, locations
from brain.sessions.sources.sniff import sniff
from tests.helpers import cli_json

DOCUMENTED = Path(__file__).parent / "fixtures" / "transcripts" / "crush" / "documented"
SESSION = "8d5c0b6e-2f4a-4c1e-9d7b-1a2b3c4d5e6f"


def _project(folder: Path, data_dir: str = ".crush") -> Path:
    """A project Crush ran in: its database, and its line in Crush's projects.json."""
    db = folder / data_dir / "crush.db"
    db.parent.mkdir(parents=True)
    con = sqlite3.connect(db)
    con.executescript((DOCUMENTED / "crush.sql").read_text())
    con.commit()
    con.close()
    listing = locations.crush_roots()[0] / "projects.json"
    listing.parent.mkdir(parents=True, exist_ok=True)
    known = json.loads(listing.read_text()) if listing.exists() else {"projects": []}
    known["projects"].append({"path": str(folder), "data_dir": data_dir, "last_accessed": "x"})
    listing.write_text(json.dumps(known))
    return db


def test_a_projects_sessions_are_copied_and_read(tmp_path: Path) -> None:
    _project(tmp_path / "shop")
    found = list(locations.crush_discover(locations.crush_roots()[0]))
    assert [(f.session_id, f.subagent) for f in found] == [(SESSION, None)]
    assert sniff(found[0].path) == "crush"
    result = crush.parse(found[0].path)
    t = result.transcript
    assert [(turn.role, turn.tool, turn.text) for turn in t.turns] == [
        ("user", None, "Use pnpm, never npm, for installs in this repo."),
        ("tool", "ls", '{"path":"."}'),
        ("tool", "ls", "pnpm-lock.yaml\npackage.json"),
        ("assistant", None, "pnpm-lock.yaml is here: pnpm it is."),
    ]
    assert t.turns[1].call == t.turns[2].call == "call_1"
    assert not any("lockfile" in turn.text for turn in t.turns)  # reasoning left out
    assert (t.session_id, t.project) == (SESSION, str(tmp_path / "shop"))
    assert (result.malformed, result.unknown) == (0, 0)
    assert found[0].mtime == 1764000100  # the session's last update


def test_a_locked_or_strange_database_keeps_the_last_copy(tmp_path: Path) -> None:
    db = _project(tmp_path / "shop", "/" + str((tmp_path / "elsewhere").relative_to("/")))
    copies = crush_db.copy_sessions(db, tmp_path / "copies", tmp_path / "shop")
    assert [c.session_id for c in copies] == [SESSION]
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE sessions RENAME TO old_sessions")
    con.commit()
    con.close()
    assert crush_db.copy_sessions(db, tmp_path / "copies", tmp_path / "shop") == copies
    assert crush_db.copy_sessions(db, tmp_path / "none", tmp_path / "shop") == []


def test_harvest_reads_crush_sessions(tmp_path: Path, home: Path) -> None:
    Brain.init(home)
    _project(tmp_path / "shop")
    out = cli_json("harvest", "--source", "crush", "--all")
    assert out["message"] == "harvest: 1 new session, 0 grown (crush 1)", out
    copies = Path(os.environ["HOME"]) / ".cache" / "brain" / "crush"
    assert [p.name for p in copies.iterdir()] == [f"{SESSION}.jsonl"]
