"""import/export and brain.yaml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import cli, cli_json, commit_count, git, status


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def test_import_is_one_commit_and_supersedes_by_key(
    brain: Brain, home: Path, tmp_path: Path
) -> None:
    cli("remember", "old text", "--key", "b")
    lines = [
        {"key": "a", "type": "preference", "description": "A", "tags": ["x"], "body": "alpha"},
        {"key": "b", "body": "beta, relearned"},
        {"key": "c", "body": "gamma", "created": "2025-01-02T03:04:05Z"},
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    before = commit_count(home)
    out = cli_json("import", str(src))
    assert out["added"] == 3 and out["superseded"] == 1
    assert commit_count(home) == before + 1
    assert git(home, "log", "-1", "--format=%s").strip() == "import: 3 records, 1 superseded"
    assert cli_json("show", "b")["record"]["body"] == "beta, relearned"
    assert cli_json("show", "c")["record"]["created"] == "2025-01-02T03:04:05Z"
    assert status(home) == ""


def test_import_from_stdin_and_export_round_trip(brain: Brain, home: Path) -> None:
    data = '{"key": "k1", "body": "one"}\n{"key": "k2", "body": "two", "tags": ["t"]}\n'
    assert cli("import", "-", input=data).exit_code == 0
    exported = cli("export").stdout
    rows = [json.loads(line) for line in exported.splitlines()]
    assert sorted(r["key"] for r in rows) == ["k1", "k2"]
    assert cli_json("export")[0]["body"] in {"one", "two"}
    # Re-importing the export into a second home reproduces the records.
    other = home.parent / "other"
    Brain.init(other)
    assert cli("--home", str(other), "import", "-", input=exported).exit_code == 0
    again = {r["key"]: r for r in cli_json("--home", str(other), "export")}
    assert again["k2"]["tags"] == ["t"] and again["k1"]["id"] == next(
        r["id"] for r in rows if r["key"] == "k1"
    )


def test_bad_import_line_imports_nothing(brain: Brain, home: Path) -> None:
    data = '{"key": "ok", "body": "fine"}\n{"key": "../evil", "body": "x"}\n'
    before = commit_count(home)
    result = cli("import", "-", input=data)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: <stdin>:2: invalid key '../evil'")
    assert commit_count(home) == before
    assert not (home / "memories" / "ok.md").exists()
    bad_json = cli("import", "-", input="{not json\n")
    assert bad_json.exit_code == 1 and "<stdin>:1: invalid JSON" in bad_json.stderr


def test_config_set_keeps_comments_and_commits(brain: Brain, home: Path) -> None:
    path = home / "brain.yaml"
    path.write_text(path.read_text() + "# my own note\nsemantic: false  # trailing note\n")
    result = cli("config", "set", "summary_token_limit", "900")
    assert result.exit_code == 0
    text = path.read_text()
    assert "# my own note" in text and "# trailing note" in text
    assert "summary_token_limit: 900" in text
    assert cli("config", "get", "summary_token_limit").stdout == "900\n"
    assert git(home, "log", "-1", "--format=%s").strip() == "config: summary_token_limit = 900"


def test_config_rejects_unknown_keys_and_bad_values(brain: Brain, home: Path) -> None:
    result = cli("config", "set", "colour", "blue")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: brain config: unknown key 'colour'; known keys: ")
    bad = cli("config", "set", "max_tokens_per_run", "lots")
    assert bad.exit_code == 1
    assert bad.stderr == (
        "Error: brain config set: max_tokens_per_run must be a whole number such as 200000, "
        "not 'lots'\n"
    )
    bad = cli("config", "set", "max_age_days", "ten")
    assert bad.stderr == (
        "Error: brain config set: max_age_days must be a whole number such as 30, not 'ten'\n"
    )


def test_unknown_key_in_file_names_file_and_key(brain: Brain, home: Path) -> None:
    (home / "brain.yaml").write_text("colour: blue\n")
    result = cli("config", "list")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {home}/brain.yaml: unknown key 'colour'; known keys:")


def test_a_retired_key_in_the_file_says_what_took_its_place(brain: Brain, home: Path) -> None:
    (home / "brain.yaml").write_text("trim_head_chars: 15000\n")
    result = cli("config", "list")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {home}/brain.yaml: 'trim_head_chars' is no longer a setting; remove it; its "
        "place is taken by extract_session_tokens (phase 1 now cuts a session to tokens)\n"
    )


def test_environment_beats_file(brain: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("config", "set", "summary_token_limit", "100")
    monkeypatch.setenv("BRAIN_SUMMARY_TOKEN_LIMIT", "200")
    values = {v["name"]: v for v in cli_json("config", "list")}
    assert values["summary_token_limit"] == {
        "name": "summary_token_limit",
        "value": 200,
        "origin": "env",
        "synced": None,
    }
    assert values["max_tokens_per_run"]["origin"] == "file"
    assert values["semantic"]["origin"] == "default"
