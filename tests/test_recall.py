"""brain recall and the catalog: freshness, rebuild equivalence, as-of, use counts."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.git import packing
from brain.home.journal import machine_name
from brain.home.sync import remote as sync
from brain.home.uses.counts import all_uses
from brain.index.rank import parse_time
from tests import fakemodel
from tests.fakemodel import FakeModel
from tests.helpers import cli, cli_json, git, older_index

fake_model = fakemodel.fake_model

FACTS = {
    "webhook-retry-policy": "Webhook delivery retries with exponential backoff, capped at six.",
    "pkg-manager": "Use pnpm, never npm, in the frontend repository.",
    "deploy-day": "Production deploys go out on Tuesdays after the standup.",
    "db-migrations": "Database migrations run with alembic upgrade head before deploy.",
    "flaky-test": "The payments integration test is flaky when the sandbox is slow; rerun once.",
    "editor-tabs": "Indent Python with four spaces, Go with tabs.",
}
QUERIES = [
    "webhook retries",
    "which package manager npm",
    "when do we deploy",
    "database migrations alembic",
    "flaky payments test",
    "tabs or spaces",
    "deploy",
]


@pytest.fixture
def brain(home: Path) -> Brain:
    brain, _ = Brain.init(home)
    for key, text in FACTS.items():
        brain.remember(text, key=key)
    return brain


def ranked(home: Path) -> list[list[str]]:
    return [[h["key"] for h in cli_json("recall", q, "-k", "5")] for q in QUERIES]


def test_recall_finds_the_right_record(brain: Brain) -> None:
    hits = cli_json("recall", "how", "many", "webhook", "retries?")
    assert hits[0]["key"] == "webhook-retry-policy"
    for field in ("key", "type", "description", "score", "created", "updated", "path", "snippet"):
        assert field in hits[0]
    assert hits[0]["path"] == "memories/webhook-retry-policy.md"


def test_records_answer_before_session_summaries(brain: Brain, home: Path) -> None:
    brain.remember(
        "Use pnpm in the frontend; the lockfile and the CI cache expect it, and npm "
        "installs drift from the lockfile. Package manager: pnpm.",
        key="pm",
    )
    # Sessions that only asked about the package manager are summarised in its words.
    summaries = home / "rollout_summaries"
    summaries.mkdir(exist_ok=True)
    for n in range(5):
        (summaries / f"2026-01-0{n + 1}-claude-s{n}.md").write_text(
            f"# Package manager question {n}\n\nThe user asked which package manager to use. "
            "The agent ran brain recall package manager; the package manager was found.\n"
        )
    git(home, "add", "-A")
    git(home, "commit", "-qm", "summaries")
    hits = cli_json("recall", "package manager", "-k", "6")
    said = [(h["kind"], h["key"], h["score"]) for h in hits]
    # Both records naming a package manager (pkg-manager names pnpm alone) come first.
    assert {h["key"] for h in hits[:2]} == {"pm", "pkg-manager"}, said
    assert [h["kind"] for h in hits[:2]] == ["record", "record"], said


def test_first_recall_builds_the_index_with_a_notice(brain: Brain) -> None:
    first = cli("recall", "deploy")
    assert first.stderr == "index rebuilt: no index yet\n"
    assert cli("recall", "deploy").stderr == ""


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "NEAR(a b)", "deploy AND OR NOT", "col:umn*", "(((", "-x +y ^z", "a'b\"c"],
)
def test_operator_characters_never_break_the_parser(brain: Brain, query: str) -> None:
    result = cli("recall", "--json", "--", query)
    assert result.exit_code == 0, result.stderr
    assert isinstance(json.loads(result.stdout), list)


def test_empty_and_stopword_queries_return_nothing(brain: Brain) -> None:
    assert cli_json("recall", "   ") == []
    assert cli_json("recall", "the of and") == []


def test_unicode(brain: Brain) -> None:
    brain.remember(
        "Der Kunde möchte Straßenbahn-Fahrpläne als PDF; 東京 office uses JST.", key="unicode-fact"
    )
    assert cli_json("recall", "Straßenbahn")[0]["key"] == "unicode-fact"
    assert cli_json("recall", "möchte")[0]["key"] == "unicode-fact"


def test_empty_home(home: Path) -> None:
    Brain.init(home)
    assert cli_json("recall", "anything") == []
    assert cli("index", "--json").exit_code == 0


def test_rebuild_equals_incremental_after_mixed_changes(
    brain: Brain, home: Path, tmp_path: Path
) -> None:
    cli("recall", "warm up the index")
    brain.remember("Deploys moved to Wednesdays.", key="deploy-day")  # supersede
    brain.forget("editor-tabs")
    brain.archive("flaky-test", reason="fixed")
    # A second machine writes, we pull.
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(remote)], check=True)
    sync.remote_add(brain, str(remote))
    sync.push(brain)
    sync.clone(str(remote), tmp_path / "other")
    other = Brain.open(tmp_path / "other")
    other.remember("Staging deploys happen any day.", key="staging-deploys")
    sync.push(other)
    sync.pull(brain)
    # A hand edit, not committed.
    record = home / "memories" / "pkg-manager.md"
    record.write_text(record.read_text().replace("pnpm", "yarn"))
    incremental = ranked(home)
    assert cli("index", "--rebuild").exit_code == 0
    assert ranked(home) == incremental
    assert "staging-deploys" in incremental[2]
    assert "editor-tabs" not in sum(incremental, [])
    assert "flaky-test" not in incremental[4]
    assert cli_json("recall", "yarn")[0]["key"] == "pkg-manager"


def test_reverting_a_hand_edit_is_seen(brain: Brain, home: Path) -> None:
    record = home / "memories" / "pkg-manager.md"
    original = record.read_text()
    cli("recall", "warm")
    record.write_text(original.replace("pnpm", "bun"))
    assert cli_json("recall", "bun")[0]["key"] == "pkg-manager"
    git(home, "checkout", "--", "memories/pkg-manager.md")
    assert cli_json("recall", "bun") == []


def test_a_write_updates_the_index_in_the_same_step(brain: Brain, home: Path) -> None:
    cli("recall", "warm")
    report_before = cli_json("index")
    assert report_before["action"] == "fresh"
    brain.remember("Feature flags live in LaunchDarkly.", key="feature-flags")
    assert cli_json("index")["action"] == "fresh"  # nothing left for a read to do
    assert cli_json("recall", "launchdarkly")[0]["key"] == "feature-flags"


def test_index_deleted_or_corrupted_mid_use(brain: Brain, home: Path) -> None:
    cli("recall", "deploy")
    shutil.rmtree(home / ".brain")
    result = cli("recall", "deploy", "--json")
    assert result.exit_code == 0 and result.stderr == "index rebuilt: no index yet\n"
    index = home / ".brain" / "index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"this is not a database" * 100)
    result = cli("recall", "deploy", "--json")
    assert result.exit_code == 0
    assert result.stderr == "index rebuilt: the index was corrupt\n"
    assert json.loads(result.stdout)[0]["key"] == "deploy-day"


def _copy_counts(home: Path) -> dict[str, dict[str, list[object]]]:
    """This copy's committed use counts (uses/<copy>.json at HEAD)."""
    from brain.home.uses.counts import USES_DIR, copy_name

    rel = f"{USES_DIR}/{copy_name(Brain.open(home))}.json"
    records: dict[str, dict[str, list[object]]] = json.loads(git(home, "show", f"HEAD:{rel}"))[
        "records"
    ]
    return records


def test_use_counts_ride_along_with_the_next_commit(brain: Brain, home: Path) -> None:
    commits = int(git(home, "rev-list", "--count", "HEAD"))
    cli("recall", "webhook retries")
    cli("recall", "webhook backoff")
    assert int(git(home, "rev-list", "--count", "HEAD")) == commits  # no commit per query
    assert (home / "uses" / "pending.jsonl").exists()
    assert git(home, "status", "--porcelain") == ""  # the pending file is git-ignored
    brain.remember("Something new.", key="something-new")
    assert int(git(home, "rev-list", "--count", "HEAD")) == commits + 1
    assert _copy_counts(home)["memories/webhook-retry-policy.md"]["recalled"][0] == 2
    assert not list((home / "uses").glob("*.jsonl"))
    assert not [x for x in (home / "journal.jsonl").read_text().splitlines() if '"recall"' in x]


def test_as_of_recalls_the_past(brain: Brain, home: Path) -> None:
    time.sleep(1.1)
    cut = git(home, "log", "-1", "--format=%cI").strip()
    time.sleep(1.1)
    brain.remember("Deploys moved to Fridays.", key="deploy-day")
    now_hit = cli_json("recall", "deploys")[0]
    assert "Fridays" in now_hit["snippet"]
    past = cli_json("recall", "deploys", "--as-of", cut)
    assert past[0]["key"] == "deploy-day" and "Tuesdays" in past[0]["snippet"]
    assert cli_json("recall", "deploys", "--as-of", "2001-01-01") == []


def test_as_of_a_date_holds_what_that_day_wrote(brain: Brain, home: Path) -> None:
    from datetime import UTC, datetime

    today = datetime.now(UTC).date().isoformat()
    result = cli("recall", "deploys", "--as-of", today)
    assert result.exit_code == 0 and "did not exist yet" not in result.output + result.stderr
    assert cli_json("recall", "deploys", "--as-of", today)[0]["key"] == "deploy-day"


def test_filters(brain: Brain) -> None:
    brain.remember(
        "Prefer short commit subjects.", key="commit-style", type="preference", tags=["style"]
    )
    assert [h["key"] for h in cli_json("recall", "commit", "--type", "preference")] == [
        "commit-style"
    ]
    assert [h["key"] for h in cli_json("recall", "commit", "--tag", "style")] == ["commit-style"]
    assert cli_json("recall", "commit", "--since", "2099-01-01") == []
    bad = cli("recall", "x", "--since", "someday")
    assert bad.exit_code == 1
    assert bad.stderr == (
        "Error: cannot read 'someday' as a date; use YYYY-MM-DD, an ISO time, or a span such as "
        "7d or 2w\n"
    )


READER = """
import sys, json
from pathlib import Path
from brain.home.sync import remote as sync
from brain.api import Brain
brain = Brain.open(Path(sys.argv[1]))
for i in range(40):
    hits = brain.recall("deploy tuesdays").hits
    assert hits and hits[0].key == "deploy-day", hits
print("ok")
"""

WRITER = """
import sys
from pathlib import Path
from brain.home.sync import remote as sync
from brain.api import Brain
brain = Brain.open(Path(sys.argv[1]))
for i in range(20):
    brain.remember(f"unrelated note {i}", key=f"note-{i}")
print("ok")
"""


def test_two_readers_and_a_writer(brain: Brain, home: Path) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(home)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for code in (READER, READER, WRITER)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    assert cli_json("index")["documents"] == len(FACTS) + 20


def test_semantic_layer_from_config(brain: Brain) -> None:
    cli("recall", "warm")
    assert cli("config", "set", "semantic", "true").exit_code == 0
    first = cli("recall", "retries", "--json")
    assert first.exit_code == 0, first.stderr
    assert first.stderr == "index rebuilt: the semantic layer was set to wordllama\n"
    assert json.loads(first.stdout)[0]["key"] == "webhook-retry-policy"
    assert cli("recall", "retries").stderr == ""


def test_semantic_layer_with_an_embedding_model_through_litellm(
    brain: Brain, fake_model: FakeModel
) -> None:
    cli("recall", "warm")
    cli("config", "set", "model_api_base", fake_model.url)
    cli("config", "set", "embedding_model", "openai/fake-embedding")
    assert cli("config", "set", "semantic", "true").exit_code == 0
    first = cli("recall", "payments", "sandbox", "--json")
    assert first.exit_code == 0, first.stderr
    assert first.stderr == "index rebuilt: the semantic layer was set to openai/fake-embedding\n"
    assert json.loads(first.stdout)[0]["key"] == "flaky-test"
    embedded = [r for r in fake_model.requests if "input" in r]
    assert embedded and all(r["model"] == "fake-embedding" for r in embedded)
    assert sum(len(r["input"]) for r in embedded) >= len(FACTS)


def test_unreachable_embedding_model_is_a_clear_error(brain: Brain) -> None:
    cli("config", "set", "model_api_base", "http://127.0.0.1:9/v1")
    cli("config", "set", "embedding_model", "openai/fake-embedding")
    cli("config", "set", "semantic", "true")
    result = cli("recall", "payments")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "Error: model openai/fake-embedding at http://127.0.0.1:9/v1 is unreachable"
    )


@pytest.mark.parametrize("first", ["recall", "a write", "citations"])
def test_an_index_of_an_older_format_is_rebuilt_once(brain: Brain, home: Path, first: str) -> None:

    cli("recall", "deploy")
    index = home / ".brain" / "index.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    conn = older_index(index, 4)
    conn.execute("INSERT INTO docs(path, kind, body) VALUES ('stale.md', 'record', 'deploy')")
    conn.close()
    # Whatever opens the old file first, the next read still rebuilds it.
    if first == "a write":
        brain.remember("Deploy freezes start on the 20th of December.", key="deploy-freeze")
    elif first == "citations":
        brain.catalog.record_uses(["memories/deploy-day.md"])
    result = cli("recall", "deploy", "--json")
    assert result.stderr == "index rebuilt: the index format changed\n"
    keys = [h["key"] for h in json.loads(result.stdout)]
    assert "stale" not in keys and keys[0] in ("deploy-day", "deploy-freeze")
    assert cli("recall", "deploy").stderr == ""


def test_an_as_of_catalog_of_an_older_format_is_rebuilt(brain: Brain, home: Path) -> None:
    rev = git(home, "rev-parse", "HEAD").strip()
    time.sleep(1.1)
    when = git(home, "log", "-1", "--format=%cI").strip()
    assert cli_json("recall", "deploys", "--as-of", when)[0]["key"] == "deploy-day"
    path = home / ".brain" / "as-of" / f"{rev}.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = older_index(path, 4)
    conn.execute("INSERT INTO docs(path, kind, body) VALUES ('stale.md', 'record', 'deploys')")
    conn.execute("INSERT INTO meta VALUES ('indexed_commit', ?)", (rev,))
    conn.close()
    hits = cli_json("recall", "deploys", "--as-of", when)
    assert [h["key"] for h in hits][:1] == ["deploy-day"]
    assert "stale.md" not in [h["path"] for h in hits]


def test_a_hand_added_file_with_a_non_ascii_name_is_indexed(brain: Brain, home: Path) -> None:
    cli("recall", "deploy")
    record = (home / "memories" / "deploy-day.md").read_text()
    record = record.replace("deploy-day", "creme").replace("Tuesdays", "okapi days")
    (home / "memories" / "crème.md").write_text(record)
    git(home, "add", "memories/crème.md")
    git(home, "commit", "-qm", "hand-written record")
    assert cli_json("recall", "okapi")[0]["path"] == "memories/crème.md"


def test_as_of_in_a_home_with_memory_md(brain: Brain, home: Path) -> None:
    (home / "MEMORY.md").write_text("# Memory\n\n## Deploys\nTuesdays, after the standup.\n")
    git(home, "add", "MEMORY.md")
    git(home, "commit", "-qm", "views")
    when = git(home, "log", "-1", "--format=%cI").strip()
    hits = cli_json("recall", "standup", "--as-of", when)
    assert {"memories/deploy-day.md", "MEMORY.md#000-deploys"} <= {h["path"] for h in hits}


def test_a_write_never_fails_on_a_busy_index(brain: Brain, home: Path) -> None:
    from brain.home.lock import home_lock
    from brain.index import sync as catalog

    cli("recall", "deploy")
    with home_lock(home / ".brain" / "index.lock"):
        catalog.AFTER_COMMIT_WAIT, wait = 0.2, catalog.AFTER_COMMIT_WAIT
        try:
            brain.remember("Deploy freezes start on the 20th.", key="deploy-freeze")
        finally:
            catalog.AFTER_COMMIT_WAIT = wait
    assert git(home, "log", "-1", "--format=%s").strip() == "remember: deploy-freeze"
    assert cli_json("recall", "freezes")[0]["key"] == "deploy-freeze"  # caught up


def test_a_rebuild_cut_short_is_done_again(brain: Brain, home: Path) -> None:
    from brain.index import Index

    cli("recall", "deploy")
    with Index.open(home / ".brain" / "index.sqlite") as index:
        index.clear()  # a rebuild killed right after emptying the index
    result = cli("recall", "deploy", "--json")
    assert result.stderr == "index rebuilt: the last rebuild did not finish\n"
    assert json.loads(result.stdout)[0]["key"] == "deploy-day"
    assert brain.catalog.open()[1].action == "fresh"


def test_a_rebuild_keeps_when_each_record_was_last_used(brain: Brain, home: Path) -> None:
    import sqlite3

    def last_used() -> dict[str, str]:
        with sqlite3.connect(home / ".brain" / "index.sqlite") as conn:
            return dict(conn.execute("SELECT path, last_used FROM docs WHERE last_used != ''"))

    cli("recall", "webhook retries")
    brain.remember("Something new.", key="something-new")  # folds the use into uses/
    used = last_used()
    assert list(used) == ["memories/webhook-retry-policy.md"]
    cli("index", "--rebuild")
    rebuilt = last_used()
    assert list(rebuilt) == list(used)
    # A use keeps the time it was noted: the same second as the index's bump, or one later.
    assert 0 <= (parse_time(rebuilt[list(used)[0]]) - parse_time(used[list(used)[0]])).seconds < 5


def test_uses_a_killed_fold_left_behind_are_kept(brain: Brain, home: Path) -> None:
    cli("recall", "webhook retries")
    pending = home / "uses" / "pending.jsonl"
    pending.rename(home / "uses" / "folding-killed.jsonl")  # a fold killed mid-way
    cli("recall", "webhook backoff")
    brain.remember("Something new.", key="something-new")
    assert _copy_counts(home)["memories/webhook-retry-policy.md"]["recalled"][0] == 2
    assert not list((home / "uses").glob("*.jsonl"))
    # A fold killed after its commit, before deleting its file: counted once, not twice.
    cli("recall", "webhook retries")
    brain.remember("Something else.", key="something-else")
    folded = json.loads(
        git(home, "show", "HEAD:" + next(f"uses/{p.name}" for p in (home / "uses").glob("*.json")))
    )["folded"]
    (home / "uses" / f"folding-{folded[0]}.jsonl").write_text(
        json.dumps({"ts": "2026-12-01T00:00:00Z", "kind": "recalled",
                    "paths": ["memories/webhook-retry-policy.md"]}) + "\n"
    )  # fmt: skip
    assert all_uses(brain)["memories/webhook-retry-policy.md"] == 3
    brain.remember("A third.", key="a-third")
    assert _copy_counts(home)["memories/webhook-retry-policy.md"]["recalled"][0] == 3


def _use_counts(home: Path) -> dict[str, int]:
    import sqlite3

    with sqlite3.connect(home / ".brain" / "index.sqlite") as conn:
        return dict(conn.execute("SELECT path, use_count FROM docs WHERE use_count > 0"))


def _rebuilt_use_counts(home: Path, tmp: Path) -> dict[str, int]:
    copy = tmp / "copy"
    assert packing.wait_for_background_gc(home)  # no folder of .git goes away under the copy
    shutil.copytree(home, copy)
    assert cli("--home", str(copy), "index", "--rebuild").exit_code == 0
    return _use_counts(copy)


@pytest.mark.parametrize("rebuild_while_archived", [False, True])
def test_uses_survive_archive_and_restore_as_a_rebuild_has_them(
    brain: Brain, home: Path, tmp_path: Path, rebuild_while_archived: bool
) -> None:
    for _ in range(3):
        cli("recall", "webhook retries")
    brain.archive("webhook-retry-policy")
    if rebuild_while_archived:
        cli("index", "--rebuild")
    brain.restore("webhook-retry-policy")
    cli("index")
    assert _use_counts(home)["memories/webhook-retry-policy.md"] == 3
    assert _use_counts(home) == _rebuilt_use_counts(home, tmp_path)


def _laptop_and_desk(tmp_path: Path, *, recall_on_desk: bool) -> tuple[Path, Path]:
    """Two homes of one memory: the laptop recalls "deploys" three times, journals the
    uses and pushes; the desk (which had its index, and one recall if asked) pulls."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(remote)], check=True)
    laptop, desk = tmp_path / "laptop", tmp_path / "desk"
    Brain.init(laptop)
    cli("--home", str(laptop), "remember", "Deploys go out on Tuesdays.", "--key", "deploy-day")
    cli("--home", str(laptop), "remote", "add", str(remote))
    cli("--home", str(laptop), "push")
    cli("clone", str(remote), "--home", str(desk))
    cli("--home", str(desk), *(["recall", "deploys"] if recall_on_desk else ["index"]))
    for _ in range(3):
        cli("--home", str(laptop), "recall", "deploys")
    cli("--home", str(laptop), "remember", "Use pnpm.", "--key", "pkg")  # journals the uses
    # Both homes run on this one machine here: name the laptop's lines after another one.
    journal = laptop / "journal.jsonl"
    here = f'"machine": "{machine_name()}"'
    journal.write_text(journal.read_text().replace(here, '"machine": "laptop"'))
    git(laptop, "commit", "-qam", "as if written on the laptop")
    cli("--home", str(laptop), "push")
    assert cli("--home", str(desk), "pull").exit_code == 0
    return laptop, desk


def test_uses_another_machine_journaled_arrive_with_a_pull(tmp_path: Path) -> None:
    _, desk = _laptop_and_desk(tmp_path, recall_on_desk=True)
    cli("--home", str(desk), "index")
    assert _use_counts(desk)["memories/deploy-day.md"] == 4  # one here, three there
    assert _use_counts(desk) == _rebuilt_use_counts(desk, tmp_path)


def test_pulled_uses_are_counted_once_when_a_catch_up_is_cut_short(tmp_path: Path) -> None:
    from brain.index import Index
    from brain.index import sync as catalog

    _, b = _laptop_and_desk(tmp_path, recall_on_desk=False)
    # A catch-up that counted the pulled uses and died before it moved the index on.
    home_b = Brain.open(b)
    with Index.open(b / ".brain" / "index.sqlite") as index:
        indexed = index.get_meta("indexed_commit") or ""
        catalog._count_pulled_uses(
            home_b.catalog, index, indexed, git(b, "rev-parse", "HEAD").strip()
        )
    cli("--home", str(b), "index")
    assert _use_counts(b)["memories/deploy-day.md"] == 3
    assert _use_counts(b) == _rebuilt_use_counts(b, tmp_path)


def test_a_span_reaching_before_year_one_is_a_clear_error(brain: Brain) -> None:
    result = cli("recall", "deploys", "--since", "9999999d")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot read '9999999d' as a date")


def _old_and_new(root: Path, half_life_days: str) -> list[str]:
    """Keys recalled in a home with an old strong match and a new weaker one."""
    brain = Brain.init(root)[0]
    records = [
        {
            "key": "old-cache-rule",
            "type": "fact",
            "description": "Cache invalidation: cache keys carry the schema version",
            "body": "Cache invalidation: bump the cache version on every schema change.",
            "updated": "2024-01-01T00:00:00Z",
            "created": "2024-01-01T00:00:00Z",
        },
        {
            "key": "new-cache-note",
            "type": "fact",
            "description": "The build cache lives in /var/cache/build",
            "body": "Invalidation of it happens nightly, along with the rest of the build tree.",
        },
    ]
    brain.import_(json.dumps(r) for r in records)
    brain.config_set("decay_half_life_days", half_life_days)
    return [hit.key for hit in brain.recall("cache invalidation").hits]


def test_decay_half_life_setting_changes_the_ranking(tmp_path: Path) -> None:
    # The old record matches better; whether that beats its age is the half-life's call.
    assert _old_and_new(tmp_path / "slow", "100000") == ["old-cache-rule", "new-cache-note"]
    assert _old_and_new(tmp_path / "fast", "7") == ["new-cache-note", "old-cache-rule"]


def test_as_of_keeps_only_the_most_recently_used_catalogs(brain: Brain, home: Path) -> None:
    moments = []
    for n in range(6):
        time.sleep(1.1)  # commit times have whole seconds
        brain.remember(f"Deploys moved to weekday {n}.", key="deploy-day")
        moments.append(git(home, "log", "-1", "--format=%cI").strip())
    revs = git(home, "log", "-6", "--format=%H").split()[::-1]
    folder = home / ".brain" / "as-of"
    for when in moments[:5]:
        assert cli_json("recall", "deploys", "--as-of", when)
    assert sorted(p.stem for p in folder.glob("*.sqlite")) == sorted(revs[1:5])
    # Asking for the oldest kept date again makes it the newest: it outlives the next.
    cli_json("recall", "deploys", "--as-of", moments[1])
    cli_json("recall", "deploys", "--as-of", moments[5])
    assert sorted(p.stem for p in folder.glob("*.sqlite")) == sorted([revs[1], *revs[3:6]])
    assert not list(folder.glob(f"{revs[2]}*"))  # its -wal and -shm files went too
