"""remember, show, list, forget, archive, restore, log: effects checked through git."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import cli, cli_json, commit_count, git, status


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def journal(home: Path) -> list[dict]:
    return [json.loads(line) for line in (home / "journal.jsonl").read_text().splitlines()]


def test_remember_writes_one_record_one_commit_one_journal_line(brain: Brain, home: Path) -> None:
    result = cli(
        "remember",
        "Webhook retries are capped at six attempts.",
        "--key",
        "webhook-retry-policy",
        "--type",
        "fact",
        "--tag",
        "project:damage-control",
    )
    assert result.exit_code == 0
    path = home / "memories" / "webhook-retry-policy.md"
    text = path.read_text()
    assert text.startswith("---\nid: ")
    assert "key: webhook-retry-policy\n" in text and "tags: ['project:damage-control']" in text
    assert text.endswith("---\nWebhook retries are capped at six attempts.\n")
    assert commit_count(home) == 2
    assert git(home, "log", "-1", "--format=%s").strip() == "remember: webhook-retry-policy"
    assert journal(home)[-1]["op"] == "remember"
    assert journal(home)[-1]["key"] == "webhook-retry-policy"
    assert status(home) == ""


def test_same_key_supersedes_and_keeps_history(brain: Brain, home: Path) -> None:
    first = cli_json("remember", "Retries: six.", "--key", "retries")
    second = cli_json("remember", "Retries: eight since v2.", "--key", "retries")
    assert second["superseded"] == first["id"]
    shown = cli_json("show", "retries")
    assert shown["record"]["supersedes"] == [first["id"]]
    assert shown["record"]["body"] == "Retries: eight since v2."
    assert len(list((home / "memories").glob("*.md"))) == 1
    old = git(home, "show", "HEAD~1:memories/retries.md")
    assert "Retries: six." in old


def test_key_is_derived_from_text_when_omitted(brain: Brain) -> None:
    out = cli_json("remember", "Always run the linter before pushing to main")
    assert out["key"] == "always-run-linter-before-pushing-main"


def test_remember_reads_stdin(brain: Brain) -> None:
    result = cli("remember", "-", "--key", "from-stdin", input="piped text\n")
    assert result.exit_code == 0
    assert cli_json("show", "from-stdin")["record"]["body"] == "piped text"


def test_list_json_shape_and_filters(brain: Brain) -> None:
    cli("remember", "Tabs not spaces", "--key", "indent", "--type", "preference", "--tag", "style")
    cli("remember", "Use pnpm", "--key", "pkg", "--type", "decision")
    records = cli_json("list")
    assert [r["key"] for r in records] == ["pkg", "indent"]
    for field in ("key", "id", "type", "description", "tags", "created", "updated"):
        assert field in records[0]
    assert [r["key"] for r in cli_json("list", "--type", "preference")] == ["indent"]
    assert [r["key"] for r in cli_json("list", "--tag", "style")] == ["indent"]
    assert (
        cli("list").stdout == "pkg  [decision]  Use pnpm\nindent  [preference]  Tabs not spaces\n"
    )


def test_forget_deletes_and_commits(brain: Brain, home: Path) -> None:
    cli("remember", "temp", "--key", "temp")
    result = cli("forget", "temp")
    assert result.exit_code == 0
    assert not (home / "memories" / "temp.md").exists()
    assert git(home, "log", "-1", "--format=%s").strip() == "forget: temp"
    assert journal(home)[-1]["op"] == "forget"
    assert status(home) == ""


def test_forget_unknown_key(brain: Brain, home: Path) -> None:
    before = commit_count(home)
    result = cli("forget", "nope")
    assert result.exit_code == 1
    assert result.stderr == "Error: no record 'nope' in memory; see 'brain list'\n"
    assert commit_count(home) == before


def test_archive_and_restore(brain: Brain, home: Path) -> None:
    cli("remember", "Old API base is /v1", "--key", "api-base")
    assert cli("archive", "api-base", "--reason", "moved to /v2").exit_code == 0
    assert not (home / "memories" / "api-base.md").exists()
    assert "archive_reason: moved to /v2" in (home / "archive" / "api-base.md").read_text()
    assert cli_json("list") == []
    assert [r["key"] for r in cli_json("list", "--archived")] == ["api-base"]
    assert cli_json("show", "api-base")["archived"] is True
    assert git(home, "log", "-1", "--format=%s").strip() == "archive: api-base (moved to /v2)"
    assert cli("restore", "api-base").exit_code == 0
    assert [r["key"] for r in cli_json("list")] == ["api-base"]
    assert "archived" not in (home / "memories" / "api-base.md").read_text()
    assert status(home) == ""


def test_log_shows_history(brain: Brain) -> None:
    cli("remember", "a", "--key", "a")
    cli("forget", "a")
    entries = cli_json("log", "-n", "2")
    assert [e["message"] for e in entries] == ["forget: a", "remember: a"]
    assert entries[0]["files"] == [["D", "memories/a.md"], ["M", "journal.jsonl"]] or entries[0][
        "files"
    ] == [["M", "journal.jsonl"], ["D", "memories/a.md"]]


@pytest.mark.parametrize("key", ["../x", "a/b", "", "x" * 300, "UPPER", ".hidden", "a..b"])
def test_invalid_keys_are_rejected_and_change_nothing(brain: Brain, home: Path, key: str) -> None:
    before = commit_count(home)
    result = cli("remember", "text", "--key", key)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: invalid key ")
    assert len(result.stderr.splitlines()) == 1
    assert commit_count(home) == before
    assert status(home) == ""


def test_unknown_option_is_a_usage_error(brain: Brain) -> None:
    result = cli("remember", "x", "--bogus")
    assert result.exit_code == 2
    assert "No such option: --bogus" in result.stderr or "No such option '--bogus'" in result.stderr


def test_broken_yaml_is_reported_by_file_and_line(brain: Brain, home: Path) -> None:
    cli("remember", "good one", "--key", "good")
    (home / "memories" / "bad.md").write_text(
        "---\nid: x\ntype: fact\ntags: [unclosed\n---\nbody\n"
    )
    result = cli("list")
    assert result.exit_code == 0
    assert result.stdout == "good  [fact]  good one\n"
    assert result.stderr.startswith("warning: ")
    assert "memories/bad.md:" in result.stderr
    shown = cli("show", "bad")
    assert shown.exit_code == 1
    assert shown.stderr.startswith(f"Error: {home}/memories/bad.md:")
    assert cli("remember", "still works", "--key", "other").exit_code == 0


def test_non_utf8_record_is_a_clear_error(brain: Brain, home: Path) -> None:
    (home / "memories" / "latin.md").write_bytes(b"---\nid: x\ntype: fact\n---\ncaf\xe9\n")
    result = cli("show", "latin")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {home}/memories/latin.md is not valid UTF-8 text; fix or remove the file, "
        "then retry\n"
    )
    assert cli("list").exit_code == 0


def test_secrets_are_redacted_before_disk(brain: Brain, home: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    cli("remember", f"The CI token is {token} for now", "--key", "ci-token")
    text = (home / "memories" / "ci-token.md").read_text()
    assert token not in text
    assert "[REDACTED:" in text
    assert token not in git(home, "log", "-p")


def test_relearning_keeps_type_and_tags_unless_given(brain: Brain) -> None:
    cli("remember", "Use pnpm", "--key", "pkg", "--type", "preference", "--tag", "web")
    cli("remember", "Use pnpm 9", "--key", "pkg")
    record = cli_json("show", "pkg")["record"]
    assert (record["type"], record["tags"]) == ("preference", ["web"])
    cli("remember", "Use bun", "--key", "pkg", "--type", "decision", "--tag", "js")
    record = cli_json("show", "pkg")["record"]
    assert (record["type"], record["tags"]) == ("decision", ["js"])
    assert cli_json("remember", "Brand new", "--key", "fresh")["key"] == "fresh"
    assert cli_json("show", "fresh")["record"]["type"] == "fact"


def test_record_cache_sees_a_same_size_edit_made_right_after_a_read(
    brain: Brain, home: Path
) -> None:
    cli("remember", "Colour is blue", "--key", "colour")
    assert cli_json("show", "colour")["record"]["body"] == "Colour is blue"
    assert cli("list").stdout == "colour  [fact]  Colour is blue\n"  # cache written
    path = home / "memories" / "colour.md"
    path.write_text(path.read_text().replace("blue", "grey"))  # same size, same second
    assert cli("list").stdout == "colour  [fact]  Colour is grey\n"
    cache = home / ".brain" / "cache" / "records-memories.json"
    cache.write_text("{not json")
    assert cli("list").stdout == "colour  [fact]  Colour is grey\n"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ({"key": "bad", "body": "x", "profile": {"p": 1}}, "'profile' must be text, not dict"),
        ({"key": "bad", "body": "x", "tags": 5}, "'tags' must be a list of strings"),
        ({"key": "bad", "body": "x", "confidence": 7}, "'confidence' must be a number from 0"),
        ({"key": "bad", "body": "x", "confidence": "nan"}, "'confidence' must be a number from 0"),
        ({"key": "bad", "body": "x", "supersedes": "abc"}, "'supersedes' must be a list"),
    ],
)
def test_import_checks_field_types_and_imports_nothing(
    home: Path, line: dict, problem: str
) -> None:
    Brain.init(home)
    good = json.dumps({"key": "good", "body": "A fine record."})
    result = cli("import", "-", input=good + "\n" + json.dumps(line) + "\n")
    assert result.exit_code == 1
    assert ":2: " + problem in result.stderr and "nothing was imported" in result.stderr
    assert "good" not in cli("list").stdout
    assert cli("recall", "fine").exit_code == 0  # the index is never handed a bad value
