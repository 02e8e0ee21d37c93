"""What each record is worth: its uses kept outside the index, summed across machines."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

from brain.api import Brain
from brain.home.uses.counts import copy_name, tallies
from brain.home.uses.weeks import weekly_used
from tests.helpers import cli, cli_json, git, status

RECORDS = [
    ("deploy-day", "Deploys go out on Tuesdays after the freeze."),
    ("deploy-window", "The deploy window is two hours on a Tuesday."),
    ("pkg-manager", "Use pnpm in the frontend, never npm."),
]


def _home(path: Path) -> Brain:
    brain, _ = Brain.init(path)
    for key, text in RECORDS:
        brain.remember(text, key=key)
    return brain


def _index_counts(home: Path) -> dict[str, int]:
    with sqlite3.connect(home / ".brain" / "index.sqlite") as conn:
        return dict(conn.execute("SELECT path, use_count FROM docs WHERE use_count > 0"))


def test_uses_not_yet_committed_survive_deleting_the_index(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _home(home)
    for _ in range(3):
        cli("--home", str(home), "recall", "deploy window hours")
    counts = _index_counts(home)
    assert counts["memories/deploy-window.md"] >= 3
    before = [hit["key"] for hit in cli_json("--home", str(home), "recall", "deploy")]
    assert before[0] == "deploy-window"  # the most used first, of two alike
    counts = _index_counts(home)
    assert (home / "uses" / "pending.jsonl").is_file()  # no commit was made for them
    shutil.rmtree(home / ".brain")
    assert cli("--home", str(home), "index", "--rebuild").exit_code == 0
    assert _index_counts(home) == counts
    after = [hit["key"] for hit in cli_json("--home", str(home), "recall", "deploy")]
    assert after == before
    # Once a commit folds them in, a rebuild finds them in the committed file.
    counts = _index_counts(home)
    Brain.open(home).remember("Tests run on two cores.", key="cores")
    assert not (home / "uses" / "pending.jsonl").exists()
    shutil.rmtree(home / ".brain")
    cli("--home", str(home), "index", "--rebuild")
    assert _index_counts(home) == counts


def test_two_machines_syncing_sum_their_counts_without_a_conflict(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(remote)], check=True)
    laptop, desk = tmp_path / "laptop", tmp_path / "desk"
    _home(laptop)
    cli("--home", str(laptop), "remote", "add", str(remote))
    assert cli("--home", str(laptop), "push").exit_code == 0
    assert cli("clone", str(remote), "--home", str(desk)).exit_code == 0
    for _ in range(3):
        cli("--home", str(laptop), "recall", "pnpm frontend")
    for _ in range(2):
        cli("--home", str(desk), "recall", "pnpm frontend")
    Brain.open(laptop).remember("Laptop fact.", key="laptop-fact")
    Brain.open(desk).remember("Desk fact.", key="desk-fact")
    assert cli("--home", str(laptop), "push").exit_code == 0
    synced = cli("--home", str(desk), "sync")
    assert synced.exit_code == 0, synced.stderr
    assert "conflict" not in synced.stdout + synced.stderr
    assert cli("--home", str(laptop), "pull").exit_code == 0
    names = {f"{copy_name(Brain.open(h))}.json" for h in (laptop, desk)}
    assert len(names) == 2  # each copy writes its own file
    for home in (laptop, desk):
        assert {p.name for p in (home / "uses").glob("*.json")} == names
        assert tallies(Brain.open(home))["memories/pkg-manager.md"].recalled == 5
        # A week's records used sum over the copies' files, as each copy counted them.
        files = [json.loads((home / "uses" / name).read_text()) for name in sorted(names)]
        assert weekly_used(Brain.open(home)) == dict(
            sum((Counter(f["weeks"]) for f in files), Counter())
        )
        assert sum(weekly_used(Brain.open(home)).values()) >= 2
        cli("--home", str(home), "index")
        assert _index_counts(home)["memories/pkg-manager.md"] == 5
        assert status(home) == ""
    shutil.rmtree(desk / ".brain")
    cli("--home", str(desk), "index", "--rebuild")
    assert _index_counts(desk)["memories/pkg-manager.md"] == 5


def test_the_copy_file_is_one_record_a_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    brain = _home(home)
    cli("--home", str(home), "recall", "pnpm frontend")
    brain.remember("Another.", key="another")
    text = (home / "uses" / f"{copy_name(brain)}.json").read_text()
    data = json.loads(text)
    assert data["version"] == 1 and len(data["folded"]) == 1
    line = next(x for x in text.splitlines() if "pkg-manager" in x)
    assert line.startswith('  "memories/pkg-manager.md": {"recalled": [1, "')
    assert git(home, "check-ignore", "uses/pending.jsonl").strip() == "uses/pending.jsonl"


def _index_keys(home: Path) -> list[str]:
    text = cli_json("--home", str(home), "context")["text"]
    block = text.split("## Records\n", 1)[1].split("\n## ", 1)[0]
    return [line[2:].split(":", 1)[0] for line in block.splitlines() if line.startswith("- ")]


def test_session_start_ranks_records_by_use_then_recurrence_not_confidence(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    brain, _ = Brain.init(home)
    lines = [
        {"key": "learned-thrice", "type": "fact", "body": "Builds run on two cores.",
         "sessions": ["s-1", "s-2", "s-3"], "confidence": 0.3,
         "updated": "2026-01-01T00:00:00Z", "created": "2026-01-01T00:00:00Z"},
        {"key": "used-often", "type": "fact", "body": "Staging lives at staging.example.",
         "confidence": 0.2, "updated": "2025-06-01T00:00:00Z", "created": "2025-06-01T00:00:00Z"},
        {"key": "sure-and-new", "type": "fact", "body": "Logs rotate weekly.",
         "confidence": 1.0},
    ]  # fmt: skip
    brain.import_(json.dumps(line) for line in lines)
    assert _index_keys(home) == ["learned-thrice", "sure-and-new", "used-often"]
    for _ in range(2):
        cli("--home", str(home), "recall", "staging example")
    assert _index_keys(home) == ["used-often", "learned-thrice", "sure-and-new"]
    shutil.rmtree(home / ".brain")  # the order does not live in the index
    assert _index_keys(home) == ["used-often", "learned-thrice", "sure-and-new"]


def test_session_start_counts_the_records_it_showed_without_a_commit(tmp_path: Path) -> None:
    from tests.helpers import commit_count, run_brain

    home = tmp_path / "home"
    _home(home)
    commits = commit_count(home)
    payload = json.dumps({"cwd": str(tmp_path), "session_id": "s"})
    env = {**__import__("os").environ, "BRAIN_HOME": str(home)}
    for _ in range(2):
        done = run_brain("hook", "session-start", input=payload, env=env, timeout=30)
        assert done.returncode == 0 and "pkg-manager" in done.stdout
    assert commit_count(home) == commits
    counts = tallies(Brain.open(home))
    assert {p: u.shown for p, u in counts.items()} == {
        f"memories/{key}.md": 2 for key, _ in RECORDS
    }
    assert all(u.used == 0 for u in counts.values())  # shown is no use
    # doctor's dry run of the hook counts nothing
    run_brain("hook", "session-start", input=payload, env={**env, "BRAIN_HOOK_CHECK": "1"})
    assert tallies(Brain.open(home))["memories/pkg-manager.md"].shown == 2


def test_brain_context_and_mcp_context_count_what_they_showed_as_the_hook_does(
    tmp_path: Path,
) -> None:
    from tests.helpers import commit_count, run_brain
    from tests.test_mcp_protocol import exchange, initialize

    home = tmp_path / "home"
    _home(home)
    commits = commit_count(home)
    env = {**__import__("os").environ, "BRAIN_HOME": str(home)}
    done = run_brain("context", env=env, cwd=tmp_path, timeout=30)
    assert done.returncode == 0 and "pkg-manager" in done.stdout
    assert run_brain("context", "--json", env=env, cwd=tmp_path, timeout=30).returncode == 0
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    call["params"] = {"name": "context", "arguments": {}}
    [_, answer] = exchange(home, tmp_path, [initialize("2025-06-18"), call])
    assert "pkg-manager" in answer["result"]["content"][0]["text"]
    assert commit_count(home) == commits
    counts = tallies(Brain.open(home))
    assert {p: u.shown for p, u in counts.items()} == {
        f"memories/{key}.md": 3 for key, _ in RECORDS
    }
    assert all(u.used == 0 for u in counts.values())
    # what a budget leaves out was not shown
    cut = run_brain("context", "--budget", "160", "--json", env=env, cwd=tmp_path, timeout=30)
    keys = json.loads(cut.stdout)["keys"]
    assert len(keys) < len(RECORDS)
    counts = tallies(Brain.open(home))
    assert {p: u.shown for p, u in counts.items()} == {
        f"memories/{key}.md": 4 if key in keys else 3 for key, _ in RECORDS
    }
    # doctor's dry run counts nothing
    check = {**env, "BRAIN_HOOK_CHECK": "1"}
    assert run_brain("context", env=check, cwd=tmp_path, timeout=30).returncode == 0
    assert tallies(Brain.open(home)) == counts


def _old_records(home: Path) -> Brain:
    brain, _ = Brain.init(home)
    old = {"updated": "2025-01-01T00:00:00Z", "created": "2025-01-01T00:00:00Z"}
    lines = [
        {"key": "used-long-ago", "type": "fact", "body": "Staging is on port 8443.", **old},
        {"key": "never-used", "type": "fact", "body": "The wiki is on Confluence.", **old},
        {"key": "used-lately", "type": "fact", "body": "Releases are cut on Mondays.", **old},
        {"key": "brand-new", "type": "fact", "body": "The API speaks gRPC now."},
    ]
    brain.import_(json.dumps(line) for line in lines)
    from brain.home.uses import counts as uses

    uses.note(brain, uses.RECALLED, ["memories/used-long-ago.md"], when="2025-03-01T00:00:00Z")
    uses.note(brain, uses.CITED, ["memories/used-lately.md"])
    for _ in range(5):
        uses.note(brain, uses.SHOWN, ["memories/never-used.md", "memories/used-lately.md"])
    uses.note(brain, uses.SHOWN, ["memories/brand-new.md"])
    return brain


def test_list_unused_and_since(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _old_records(home)
    ever = cli_json("--home", str(home), "list", "--unused")
    assert [r["key"] for r in ever] == ["never-used", "brand-new"]  # most shown first
    assert ever[0]["worth"]["shown"] == 5 and ever[0]["worth"]["learn_tokens"] is None
    recent = cli_json("--home", str(home), "list", "--unused", "--since", "90d")
    assert [r["key"] for r in recent] == ["never-used", "used-long-ago"]
    text = cli("--home", str(home), "list", "--unused", "--since", "90d").stdout
    assert text.splitlines()[0].startswith("never-used  [fact]  ")
    assert text.splitlines()[0].endswith("(shown 5x in context)")
    wrong = cli("--home", str(home), "list", "--since", "90d")
    assert wrong.exit_code == 2 and "--since goes with --unused" in wrong.stderr
    shutil.rmtree(home / ".brain")  # none of it lives in the index
    assert [r["key"] for r in cli_json("--home", str(home), "list", "--unused")] == [
        "never-used",
        "brand-new",
    ]


def test_show_says_how_often_a_record_was_of_use(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _old_records(home)
    shown = cli("--home", str(home), "show", "used-lately").stdout
    assert shown.rstrip().splitlines()[-1].startswith("[uses: shown in context 5 times, last ")
    assert "; recalled never; cited 1 time, last " in shown
    assert shown.rstrip().endswith(
        "; no cost to learn recorded (by hand, by remember, or before phase 2 kept it)]"
    )
    worth = cli_json("--home", str(home), "show", "used-long-ago")["worth"]
    assert (worth["recalled"], worth["recalled_last"]) == (1, "2025-03-01T00:00:00Z")


def test_what_a_record_cost_to_learn_is_its_share_of_the_runs_that_wrote_it(
    tmp_path: Path,
) -> None:
    from brain.pipeline.runs import RawMemory, append_raw

    home = tmp_path / "home"
    brain, _ = Brain.init(home)
    raws = [
        RawMemory(id=f"20261201-00000000{n}-00000{n}", key=key, type="instruction",
                  description=text, body=text, confidence=0.9, session=f"claude:s{n}",
                  evidence=((1, 1),), date="2026-12-01T00:00:00Z", run="phase-one")
        for n, (key, text) in enumerate(
            [("pkg-manager", "Always use pnpm, never npm"), ("no-push-main", "Never push to main")]
        )
    ]  # fmt: skip
    with brain.transaction() as tx:
        # A phase 1 run that spent 300 tokens and found these two.
        path = append_raw(brain, raws)
        tx.commit([path], "extract: 1 session, 2 raw memories", "extract",
                  run="phase-one", tokens=300, memories=2)  # fmt: skip
    assert cli("--home", str(home), "consolidate", "--force").exit_code == 0
    line = [json.loads(x) for x in (home / "journal.jsonl").read_text().splitlines()][-1]
    assert line["op"] == "consolidate"
    assert line["learned_tokens"] == {"pkg-manager": 150, "no-push-main": 150}
    shown = cli("--home", str(home), "show", "pkg-manager").stdout
    assert shown.rstrip().endswith("; learned with 150 tokens]")


def test_decay_archives_what_costs_context_unused_and_its_commit_says_so(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _old_records(home)
    done = cli("--home", str(home), "consolidate", "--force")
    assert done.exit_code == 0, done.stderr
    message = git(home, "log", "-1", "--format=%B")
    subject, *body = message.strip().splitlines()
    assert subject == "consolidate: 0 added, 0 superseded, 2 archived (2 by decay)"
    assert "Archived by decay, what costs context and was not used:" in body
    never = next(line for line in body if line.startswith("- never-used: "))
    assert "shown in context 5 times (~" in never and "tokens of it)" in never
    assert never.endswith(", never recalled or cited")
    assert "decay horizon 365 days" in never
    old = next(line for line in body if line.startswith("- used-long-ago: "))
    assert old.endswith("never shown in context, last recalled or cited 2025-03-01")
    archived = {p.stem for p in (home / "archive").glob("*.md")}
    assert archived == {"never-used", "used-long-ago"}  # used lately, or new: kept
    reason = (home / "archive" / "never-used.md").read_text()
    assert "archive_reason: 'unused for " in reason and "never recalled or cited" in reason


def test_the_hooks_counts_agree_with_the_full_count_as_uses_come_and_fold(
    tmp_path: Path,
) -> None:
    from brain.home.uses import counts as uses

    home = tmp_path / "home"
    brain = _home(home)

    def full() -> dict[str, int]:
        return {p: u.used for p, u in tallies(brain).items() if u.used}

    assert uses.all_uses(brain) == full() == {}
    uses.note(brain, uses.RECALLED, ["memories/pkg-manager.md"])
    uses.note(brain, uses.SHOWN, ["memories/pkg-manager.md", "memories/deploy-day.md"])
    assert uses.all_uses(brain) == full() == {"memories/pkg-manager.md": 1}
    uses.note(brain, uses.CITED, ["memories/deploy-day.md"])  # read from where it stopped
    with (home / "uses" / "pending.jsonl").open("a") as fh:
        fh.write('{"ts": "2026-12-01T00:00:00Z", "kind": "cited", "paths": ["memo')  # mid-write
    assert uses.all_uses(brain) == {"memories/pkg-manager.md": 1, "memories/deploy-day.md": 1}
    with (home / "uses" / "pending.jsonl").open("a") as fh:
        fh.write('ries/deploy-day.md"]}\n')
    assert (
        uses.all_uses(brain)
        == full()
        == {
            "memories/pkg-manager.md": 1,
            "memories/deploy-day.md": 2,
        }
    )
    brain.remember("Folds the pending uses.", key="fold")
    assert uses.all_uses(brain) == full()
    uses.note(brain, uses.RECALLED, ["memories/pkg-manager.md"])
    assert (
        uses.all_uses(brain)
        == full()
        == {
            "memories/pkg-manager.md": 2,
            "memories/deploy-day.md": 2,
        }
    )


def test_a_home_whose_gitignore_predates_uses_never_sees_the_pending_file(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    brain = _home(home)
    (home / ".gitignore").write_text(".brain/\nlocal.yaml\n")  # as an older home's
    git(home, "commit", "-qam", "an older .gitignore")
    (home / "uses").mkdir()  # as a pull of another machine's counts leaves it
    cli("--home", str(home), "recall", "pnpm frontend")
    assert (home / "uses" / "pending.jsonl").is_file()
    assert status(home) == ""
    assert "/uses/*.jsonl" in (home / ".git" / "info" / "exclude").read_text()
    brain.remember("Folds it.", key="fold")
    assert status(home) == ""


# -- the records used each week -----------------------------------------------------


def _ago(weeks: int) -> str:
    """An ISO UTC time ``weeks`` weeks before now, at its week's Wednesday noon."""
    from datetime import UTC, datetime, timedelta

    now = datetime.now(UTC)
    monday = (now - timedelta(days=now.weekday(), weeks=weeks)).replace(
        hour=12, minute=0, second=0, microsecond=0
    )
    return (monday + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _monday(when: str) -> str:
    from datetime import date, timedelta

    day = date.fromisoformat(when[:10])
    return (day - timedelta(days=day.weekday())).isoformat()


def test_each_week_counts_the_records_used_in_it_once(tmp_path: Path) -> None:
    from brain.home.uses.counts import CITED, RECALLED, SHOWN, note

    home = tmp_path / "home"
    brain = _home(home)
    deploy, window, pkg = (f"memories/{k}.md" for k, _ in RECORDS)
    old, last, now = _ago(3), _ago(1), _ago(0)
    note(brain, RECALLED, [deploy, window], when=old)
    note(brain, RECALLED, [deploy], when=old)  # twice in one week: one record that week
    note(brain, CITED, [deploy], when=last)
    note(brain, SHOWN, [pkg], when=last)  # shown at a session start: no use
    note(brain, RECALLED, [deploy, pkg], when=now)
    expected = {_monday(old): 2, _monday(last): 1, _monday(now): 2}
    assert weekly_used(brain) == expected  # pending, counted as the fold will
    brain.remember("Tests run on two cores.", key="cores")  # a commit folds them in
    assert not (home / "uses" / "pending.jsonl").exists()
    data = json.loads((home / "uses" / f"{copy_name(brain)}.json").read_text())
    assert data["weeks"] == expected
    assert weekly_used(Brain.open(home)) == expected
    note(brain, RECALLED, [deploy, window], when=now)  # deploy counted this week already
    assert weekly_used(brain) == {**expected, _monday(now): 3}


def test_the_weeks_kept_are_the_last_52(tmp_path: Path) -> None:
    from brain.home.uses.counts import RECALLED, note
    from brain.home.uses.weeks import WEEKS_KEPT

    home = tmp_path / "home"
    brain = _home(home)
    for weeks in (WEEKS_KEPT + 8, WEEKS_KEPT, WEEKS_KEPT - 1, 0):
        note(brain, RECALLED, ["memories/deploy-day.md"], when=_ago(weeks))
    brain.remember("Tests run on two cores.", key="cores")
    kept = json.loads((home / "uses" / f"{copy_name(brain)}.json").read_text())["weeks"]
    assert list(kept) == [_monday(_ago(WEEKS_KEPT - 1)), _monday(_ago(0))]
    assert weekly_used(brain) == kept
    assert tallies(brain)["memories/deploy-day.md"].recalled == 4  # the totals keep all


def test_a_copy_file_from_before_the_weeks_reads_and_folds(tmp_path: Path) -> None:
    from brain.home.uses.counts import RECALLED, note

    home = tmp_path / "home"
    brain = _home(home)
    note(brain, RECALLED, ["memories/deploy-day.md"], when=_ago(2))
    note(brain, RECALLED, ["memories/deploy-day.md", "memories/pkg-manager.md"], when=_ago(1))
    brain.remember("Tests run on two cores.", key="cores")
    path = home / "uses" / f"{copy_name(brain)}.json"
    text = path.read_text()
    data = json.loads(text)
    old = text.replace(f', "weeks": {json.dumps(data["weeks"])}', "")  # as brain wrote it
    assert "weeks" not in json.loads(old)
    path.write_text(old)
    git(home, "commit", "-qam", "uses: an older brain's file")
    before = tallies(Brain.open(home))
    assert before["memories/deploy-day.md"].recalled == 2
    # All an older file says of the weeks: each record in the week of its last use.
    assert weekly_used(brain) == {_monday(_ago(1)): 2}
    note(brain, RECALLED, ["memories/deploy-day.md"], when=_ago(0))
    brain.remember("Logs rotate weekly.", key="logs")
    weeks = json.loads(path.read_text())["weeks"]
    assert weeks == {_monday(_ago(1)): 2, _monday(_ago(0)): 1}
    assert tallies(Brain.open(home))["memories/deploy-day.md"].recalled == 3
