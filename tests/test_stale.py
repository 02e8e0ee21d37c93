"""Records tied to the code they are about: possibly stale when a file they rest on
changed since their commit, on real git checkouts."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from brain.agents.context import context
from brain.home.reader import Reader
from tests.helpers import cli, cli_json, commit_count, git


@pytest.fixture
def web(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home, and a checkout ``web`` at commit A with src/pay.py and README.md, as the
    current directory."""
    assert cli("init").exit_code == 0
    checkout = tmp_path / "web"
    (checkout / "src").mkdir(parents=True)
    (checkout / "src" / "pay.py").write_text("RETRIES = 6\n")
    (checkout / "README.md").write_text("# web\n")
    git(checkout, "init", "-q")
    git(checkout, "add", ".")
    git(checkout, "commit", "-qm", "A")
    monkeypatch.chdir(checkout)
    return checkout


def change(checkout: Path, rel: str, text: str, message: str) -> str:
    (checkout / rel).write_text(text)
    git(checkout, "commit", "-qam", message)
    return git(checkout, "rev-parse", "HEAD").strip()


def remember_pay(home: Path) -> dict[str, object]:
    done = cli("remember", "--tag", "project:web", "--key", "pay-web",
               "Payment retries are capped at six in src/pay.py")  # fmt: skip
    assert done.exit_code == 0, done.output
    return cli_json("show", "pay-web")["record"]  # type: ignore[no-any-return]


def index_lines(home: Path, checkout: Path) -> list[str]:
    text = context(Reader.open(home), project=checkout).text
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_a_record_remembered_in_a_checkout_rests_on_its_commit_and_the_file_it_names(
    home: Path, web: Path
) -> None:
    record = remember_pay(home)
    assert record["checkout"] == "web"
    assert record["commit"] == git(web, "rev-parse", "HEAD").strip()
    assert record["paths"] == ["src/pay.py"]
    text = (home / "memories" / "pay-web.md").read_text()
    assert "checkout: web\n" in text and "paths: [src/pay.py]\n" in text


def test_a_change_to_its_file_makes_it_possibly_stale_and_one_to_another_does_not(
    home: Path, web: Path
) -> None:
    done = cli(
        "remember", "--tag", "project:web", "--key", "deploy-web", "Deploys go out on Fridays"
    )
    assert done.exit_code == 0
    remember_pay(home)  # the newer record
    change(web, "README.md", "# web\nmore\n", "readme only")
    assert index_lines(home, web) == [
        "- pay-web: Payment retries are capped at six in src/pay.py",
        "- deploy-web: Deploys go out on Fridays",
    ]
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    # Marked, and ranked below the fresh record although it is the newer one.
    assert index_lines(home, web) == [
        "- deploy-web: Deploys go out on Fridays",
        "- pay-web: Payment retries are capped at six in src/pay.py "
        "(possibly stale: src/pay.py changed)",
    ]
    shown = cli("stale")
    assert shown.exit_code == 0
    assert "pay-web  web @" in shown.output
    assert "  src/pay.py changed\n" in shown.output
    assert "pay: eight retries" in shown.output
    assert "deploy-web" not in shown.output


@pytest.fixture
def learned_at_a(home: Path, web: Path) -> str:
    """``pay-web`` remembered at commit A; returns A."""
    remember_pay(home)
    return git(web, "rev-parse", "HEAD").strip()


def test_stale_names_the_commits_that_changed_the_file(
    home: Path, web: Path, learned_at_a: str
) -> None:
    change(web, "README.md", "# web\nmore\n", "readme only")
    assert cli_json("stale")["records"] == []
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    report = cli_json("stale")
    assert report["checked"] == 1
    [record] = report["records"]
    assert record["key"] == "pay-web" and record["commit"] == learned_at_a
    [file] = record["files"]
    logged = git(web, "log", "--oneline", f"{learned_at_a}..HEAD", "--", "src/pay.py")
    assert file["path"] == "src/pay.py" and file["status"] == "changed"
    assert file["commits"] == logged.splitlines()
    assert record["held"] is False
    assert "(possibly stale: src/pay.py changed)" in index_lines(home, web)[0]


def test_a_confirmed_record_is_fresh_again_in_one_commit(
    home: Path, web: Path, learned_at_a: str
) -> None:
    head = change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    before = commit_count(home)
    done = cli("confirm", "pay-web")
    assert done.exit_code == 0, done.output
    assert commit_count(home) == before + 1
    assert git(home, "log", "-1", "--format=%s").strip() == "confirm: pay-web"
    assert cli_json("show", "pay-web")["record"]["commit"] == head
    assert cli_json("stale")["records"] == []
    assert index_lines(home, web) == ["- pay-web: Payment retries are capped at six in src/pay.py"]


def test_a_record_whose_files_are_all_deleted_is_held_for_review(
    home: Path, web: Path, learned_at_a: str
) -> None:
    git(web, "rm", "-q", "src/pay.py")
    git(web, "commit", "-qm", "pay: gone")
    [record] = cli_json("stale")["records"]
    assert record["held"] is True
    assert record["files"][0]["status"] == "deleted"
    assert "(possibly stale: src/pay.py moved or gone)" in index_lines(home, web)[0]
    listed = cli("review")
    assert listed.exit_code == 0
    assert "pay-web" in listed.output and "src/pay.py" in listed.output


def test_a_renamed_file_is_reported_with_its_new_name(
    home: Path, web: Path, learned_at_a: str
) -> None:
    git(web, "mv", "src/pay.py", "src/payment.py")
    git(web, "commit", "-qm", "pay: renamed")
    [record] = cli_json("stale")["records"]
    assert record["held"] is False
    assert record["files"][0]["status"] == "renamed"
    assert record["files"][0]["renamed"] == "src/payment.py"
    assert "src/pay.py renamed to src/payment.py" in cli("stale").output
    # At session start the one cheap look cannot tell a rename from a deletion: it says
    # neither, never "gone" for a file that lives on under another name.
    assert index_lines(home, web) == [
        "- pay-web: Payment retries are capped at six in src/pay.py "
        "(possibly stale: src/pay.py moved or gone)"
    ]
    assert cli("confirm", "pay-web").exit_code == 0  # follows the file to its new name
    assert cli_json("show", "pay-web")["record"]["paths"] == ["src/payment.py"]
    assert cli_json("stale")["records"] == []


def test_the_answer_is_kept_while_head_stays_so_a_start_runs_no_git(
    home: Path, web: Path, learned_at_a: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    assert "possibly stale" in index_lines(home, web)[0]
    cache = json.loads((home / ".brain" / "cache" / "checkouts.json").read_text())
    assert cache["tops"][str(web)]["head"] == git(web, "rev-parse", "HEAD").strip()
    empty = tmp_path / "no-git"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no git to run at all
    assert "possibly stale" in index_lines(home, web)[0]


def test_two_tools_starting_in_turn_keep_each_others_answers(
    home: Path, web: Path, learned_at_a: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A record mirrored from Claude Code's own memory is not shown to Claude Code: its
    # start sees fewer records than Codex's, and must not drop what Codex's start kept.
    change(web, "README.md", "# web\nmore\n", "B")
    done = cli("remember", "--tag", "project:web", "--tag", "from:claude-memory", "--key",
               "pay-mirror", "Payment retries live in src/pay.py")  # fmt: skip
    assert done.exit_code == 0, done.output
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")

    def marked(tool: str) -> list[str]:
        text = context(Reader.open(home), project=web, tool=tool).text
        return sorted(
            line.split(":")[0][2:] for line in text.splitlines() if "possibly stale" in line
        )

    assert marked("codex") == ["pay-mirror", "pay-web"]
    change(web, "src/pay.py", "RETRIES = 9\n", "pay: nine retries")  # HEAD moves
    assert marked("claude-code") == ["pay-web"]  # the one git process this HEAD needs
    empty = tmp_path / "no-git"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # HEAD has not moved since: no git is needed
    assert marked("codex") == ["pay-mirror", "pay-web"]
    assert marked("claude-code") == ["pay-web"]


def test_without_git_nothing_is_marked(
    home: Path, web: Path, learned_at_a: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    empty = tmp_path / "no-git"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert index_lines(home, web) == ["- pay-web: Payment retries are capped at six in src/pay.py"]


def test_records_of_no_checkout_are_not_touched(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("init").exit_code == 0
    elsewhere = tmp_path / "scratch"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert cli("remember", "--key", "tabs", "I prefer tabs in src/pay.py").exit_code == 0
    record = cli_json("show", "tabs")["record"]
    assert {"checkout", "commit", "paths"} & set(record) == set()
    assert cli_json("stale") == {"records": [], "checked": 0, "unchecked": [], "unknown": []}


def test_a_preference_said_in_a_checkout_naming_none_of_its_files_rests_on_nothing(
    home: Path, web: Path
) -> None:
    assert cli("remember", "--key", "tabs", "I prefer tabs everywhere").exit_code == 0
    record = cli_json("show", "tabs")["record"]
    assert "commit" not in record


def test_confirm_of_a_record_resting_on_nothing_says_so(home: Path, web: Path) -> None:
    assert cli("remember", "--key", "tabs", "I prefer tabs everywhere").exit_code == 0
    done = cli("confirm", "tabs")
    assert done.exit_code == 1
    assert done.stderr == (
        "Error: tabs rests on no commit of a checkout; there is nothing to confirm; "
        "only records learned or remembered in a git checkout are checked\n"
    )


def test_a_hand_written_record_with_malformed_fields_stays_readable(home: Path, web: Path) -> None:
    (home / "memories" / "odd.md").write_text(
        "---\nid: 20260101-000000000-abcdef\nkey: odd\ntype: fact\ndescription: Odd\n"
        "tags: [project:web]\ncheckout: web\ncommit: not-a-sha\npaths: src/pay.py\n---\nOdd.\n"
    )
    assert index_lines(home, web) == ["- odd: Odd"]
    assert cli_json("stale")["checked"] == 0


def test_a_held_record_is_kept_or_archived_by_review(
    home: Path, web: Path, learned_at_a: str
) -> None:
    assert cli("remember", "--tag", "project:web", "--key", "readme-web",
               "README.md says how to start").exit_code == 0  # fmt: skip
    git(web, "rm", "-q", "src/pay.py", "README.md")
    git(web, "commit", "-qm", "everything gone")
    before = commit_count(home)
    done = cli("review", "--accept", "pay-web", "--reject", "readme-web")
    assert done.exit_code == 0, done.output
    assert commit_count(home) == before + 1
    kept = cli_json("show", "pay-web")["record"]
    assert kept["commit"] == git(web, "rev-parse", "HEAD").strip() and "paths" not in kept
    archived = cli_json("show", "readme-web")
    assert archived["archived"] is True
    assert "README.md" in archived["record"]["archive_reason"]
    assert cli_json("stale")["records"] == []
    assert cli("review").output == "nothing held for review\n"


def test_an_edit_in_the_checkout_moves_the_record_to_its_head(
    home: Path, web: Path, learned_at_a: str
) -> None:
    from brain.api import Brain

    head = change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    brain = Brain.open(home)
    text = brain.edit_text("pay-web").replace("capped at six", "capped at eight")
    assert brain.edit("pay-web", text, where=web).commit is not None
    assert cli_json("show", "pay-web")["record"]["commit"] == head
    assert cli_json("stale")["records"] == []


def test_an_edit_that_names_the_commit_itself_keeps_it(
    home: Path, web: Path, learned_at_a: str
) -> None:
    from brain.api import Brain

    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    brain = Brain.open(home)
    text = brain.edit_text("pay-web").replace(learned_at_a, learned_at_a[:12])
    brain.edit("pay-web", text, where=web)
    assert cli_json("show", "pay-web")["record"]["commit"] == learned_at_a[:12]
    assert len(cli_json("stale")["records"]) == 1


def test_a_start_in_the_checkout_runs_no_git_while_its_head_stays(
    home: Path, web: Path, learned_at_a: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_startup import imported

    # Every git the hook starts goes through this wrapper, which logs its arguments.
    real, wrappers, log = shutil.which("git"), tmp_path / "wrappers", tmp_path / "git.log"
    wrappers.mkdir()
    (wrappers / "git").write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {real} "$@"\n')
    (wrappers / "git").chmod(0o755)
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    monkeypatch.setenv("PATH", f"{wrappers}{os.pathsep}{os.environ['PATH']}")
    payload = json.dumps({"hook_event_name": "SessionStart", "cwd": str(web)})
    first = imported("hook", "session-start", stdin=payload)
    # HEAD moved since the record: git is asked once, started without subprocess.
    assert log.read_text().splitlines() == [f"-C {web} cat-file --batch-check"]
    assert "brain.home.staleness.check" in first and "subprocess" not in first
    again = imported("hook", "session-start", stdin=payload)
    assert "brain.home.staleness.check" in again
    assert again & {"brain.home.git.runner", "subprocess"} == set()
    assert len(log.read_text().splitlines()) == 1  # HEAD stayed: no git at all
    verdicts = json.loads((home / ".brain" / "cache" / "checkouts.json").read_text())
    assert str(web) in json.dumps(verdicts)  # the answer the second start used


# -- show and MCP read say so ----------------------------------------------------------


def test_show_says_a_record_is_possibly_stale_in_the_words_of_stale(
    home: Path, web: Path, learned_at_a: str
) -> None:
    assert cli_json("show", "pay-web")["stale"] is None
    assert not cli("show", "pay-web").output.startswith("possibly stale")
    change(web, "src/pay.py", "RETRIES = 7\n", "pay: seven")
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight")
    said = (
        f"possibly stale: src/pay.py changed in 2 commits since {learned_at_a[:7]} — "
        "`brain confirm pay-web` if it still holds"
    )
    shown = cli("show", "pay-web")
    assert shown.exit_code == 0
    assert shown.output.splitlines()[:2] == [said, "---"]
    stale = cli_json("show", "pay-web")["stale"]
    assert stale["note"] == said and stale["held"] is False
    assert stale["commit"] == learned_at_a
    assert [f["path"] for f in stale["files"]] == ["src/pay.py"]
    assert (
        stale["files"][0]["commits"]
        == git(web, "log", "--oneline", f"{learned_at_a}..HEAD", "--", "src/pay.py").splitlines()
    )
    assert cli("confirm", "pay-web").exit_code == 0
    assert cli_json("show", "pay-web")["stale"] is None


def test_show_names_a_rename_and_a_deletion_as_stale_does(
    home: Path, web: Path, learned_at_a: str
) -> None:
    git(web, "mv", "src/pay.py", "src/payment.py")
    git(web, "commit", "-qm", "pay: renamed")
    assert cli("show", "pay-web").output.splitlines()[0] == (
        f"possibly stale: src/pay.py renamed to src/payment.py in 1 commit since "
        f"{learned_at_a[:7]} — `brain confirm pay-web` if it still holds"
    )
    git(web, "rm", "-q", "src/payment.py")
    git(web, "commit", "-qm", "pay: gone")
    # The commits are git's log of the path, src/pay.py: the one that moved it away.
    assert cli("show", "pay-web").output.splitlines()[0] == (
        f"possibly stale: src/pay.py deleted in 1 commit since {learned_at_a[:7]}; every "
        "file it rests on was deleted, so `brain review` holds it — `brain confirm pay-web` "
        "if it still holds"
    )
    assert cli_json("show", "pay-web")["stale"]["held"] is True


def test_show_says_nothing_when_the_checkout_is_not_on_this_machine(
    home: Path, web: Path, learned_at_a: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    assert cli_json("show", "pay-web")["stale"] is not None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no harvested session ran in web: brain does not know it
    assert cli_json("show", "pay-web")["stale"] is None
    assert cli("show", "pay-web").output.startswith("---\n")


def test_show_says_nothing_of_a_commit_the_checkout_does_not_have(home: Path, web: Path) -> None:
    (home / "memories" / "elsewhere.md").write_text(
        "---\nid: 20260101-000000000-abcdef\nkey: elsewhere\ntype: fact\n"
        "description: Learned on another machine\ntags: [project:web]\ncheckout: web\n"
        f"commit: {'ab' * 20}\npaths: [src/pay.py]\n---\nRetries in src/pay.py.\n"
    )
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    assert cli_json("show", "elsewhere")["stale"] is None
    assert cli_json("stale")["unknown"] == ["elsewhere"]


def test_mcp_read_carries_the_same_note(home: Path, web: Path, learned_at_a: str) -> None:
    from tests.test_mcp_protocol import exchange, initialize

    def read(cwd: Path) -> dict[str, Any]:
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
        call["params"] = {"name": "read", "arguments": {"key": "pay-web"}}
        answers = exchange(home, cwd, [initialize("2025-06-18"), call])
        return answers[1]["result"]  # type: ignore[no-any-return]

    assert read(web)["structuredContent"]["stale"] is None
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")
    said = (
        f"possibly stale: src/pay.py changed in 1 commit since {learned_at_a[:7]} — "
        "`brain confirm pay-web` if it still holds"
    )
    result = read(web)
    assert result["structuredContent"]["stale"] == said
    assert said in result["content"][0]["text"]
    assert result["structuredContent"]["body"] == "Payment retries are capped at six in src/pay.py"
    elsewhere = web.parent / "elsewhere"
    elsewhere.mkdir()
    assert read(elsewhere)["structuredContent"]["stale"] is None


# -- a record whose files all went ---------------------------------------------------


def test_review_says_why_a_record_is_held_and_confirm_takes_it_out(
    home: Path, web: Path, learned_at_a: str
) -> None:
    git(web, "rm", "-q", "src/pay.py")
    git(web, "commit", "-qm", "pay: gone")
    listed = cli("review")
    assert listed.exit_code == 0
    assert listed.output == (
        "pay-web  Payment retries are capped at six in src/pay.py  (record of web; held: "
        f"every file it rests on was deleted since {learned_at_a[:7]}: src/pay.py; "
        "'brain confirm pay-web' or --accept keeps it, --reject archives it)\n"
    )
    before = commit_count(home)
    done = cli("confirm", "pay-web")
    assert done.exit_code == 0, done.output
    assert commit_count(home) == before + 1
    kept = cli_json("show", "pay-web")
    assert kept["record"]["commit"] == git(web, "rev-parse", "HEAD").strip()
    assert "paths" not in kept["record"] and kept["stale"] is None
    assert cli("review").output == "nothing held for review\n"
    assert cli_json("stale")["records"] == []
    assert index_lines(home, web) == ["- pay-web: Payment retries are capped at six in src/pay.py"]


def test_the_context_says_each_record_once_with_its_stale_mark(home: Path, web: Path) -> None:
    from brain.api import Brain
    from brain.pipeline.views import regenerate_views

    remember_pay(home)
    for args in (
        ("--tag", "project:web", "--key", "deploy-web", "Deploys go out on Fridays"),
        ("--type", "preference", "--key", "formatter", "Use ruff format, not black"),
    ):
        assert cli("remember", *args).exit_code == 0
    regenerate_views(Brain.open(home))  # the summary and MEMORY.md name all three
    summary = (home / "memory_summary.md").read_text()
    assert "Payment retries" in summary and "Payment retries" in (home / "MEMORY.md").read_text()
    change(web, "src/pay.py", "RETRIES = 8\n", "pay: eight retries")

    shown = context(Reader.open(home), project=web)
    text = shown.text
    assert sorted(shown.keys) == ["deploy-web", "formatter", "pay-web"]  # each shown once
    for key, words in (
        ("pay-web", "Payment retries are capped"),
        ("deploy-web", "Deploys go out on Fridays"),
        ("formatter", "Use ruff format, not black"),
    ):
        assert text.count(words) == 1, (key, text)
        [line] = [line for line in text.splitlines() if words in line]
        assert line.startswith(f"- {key}: "), line
    assert text.count("possibly stale") == 1
    [marked] = [line for line in text.splitlines() if "possibly stale" in line]
    assert marked.startswith("- pay-web: ")
    assert marked.endswith("(possibly stale: src/pay.py changed)")
    # The person's own preference leads the summary; the project's records are said with
    # its group; the index is left nothing to repeat.
    summary_part = text.split("## This project")[0]
    assert "- formatter: Use ruff format, not black" in summary_part
    assert "pay-web" not in summary_part and "deploy-web" not in summary_part
    project_part = text.split("## This project")[1].split("## Records")[0]
    assert "- deploy-web: Deploys go out on Fridays" in project_part


@pytest.mark.parametrize("commit", [123456789012, "123456789012"])
def test_a_commit_id_of_digits_alone_reads_as_the_id_whether_quoted_or_not(
    commit: object,
) -> None:
    from brain.home.anchors import from_extra

    anchor = from_extra({"checkout": "web", "commit": commit, "paths": ["src/pay.py"]})
    assert anchor is not None and anchor.commit == "123456789012"
    assert from_extra({"checkout": "web", "commit": True}) is None


def test_an_edit_naming_a_commit_of_digits_alone_writes_it_back_as_the_id(
    home: Path, web: Path, learned_at_a: str
) -> None:
    from brain.api import Brain

    brain = Brain.open(home)
    text = brain.edit_text("pay-web").replace(learned_at_a, "123456789012")
    assert "commit: 123456789012\n" in text  # as a person would type it: a YAML number
    brain.edit("pay-web", text, where=web)
    assert cli_json("show", "pay-web")["record"]["commit"] == "123456789012"
    assert "commit: '123456789012'\n" in (home / "memories" / "pay-web.md").read_text()
