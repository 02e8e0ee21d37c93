"""Appending lines to the home's append-only files."""

from __future__ import annotations

import json
from pathlib import Path

from brain.home import journal
from brain.home.files import append_line


def test_a_line_is_never_glued_to_a_last_line_without_its_newline(tmp_path: Path) -> None:
    path = tmp_path / journal.JOURNAL
    path.write_text(json.dumps({"op": "init"}))  # an editor dropped the final newline
    append_line(path, json.dumps({"op": "remember", "key": "a"}))
    append_line(path, json.dumps({"op": "forget", "key": "a"}))
    assert [e["op"] for e in journal.read(tmp_path)] == ["init", "remember", "forget"]
    assert path.read_text().endswith("}\n") and path.read_text().count("\n") == 3


def test_appending_to_a_new_or_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "uses.jsonl"
    append_line(path, "one")
    path.write_text("")
    append_line(path, "two\n")
    assert path.read_text() == "two\n"
