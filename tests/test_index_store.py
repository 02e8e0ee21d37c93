"""The search catalog on real SQLite files: writes, filters, ranking, meta, corruption."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from brain.errors import BrainError
from brain.index import META_COMMIT, Doc, Index, IndexCorruptError
from brain.index.db import MIGRATIONS
from brain.index.expand import expand_terms


@pytest.fixture
def index(tmp_path: Path) -> Index:
    ix = Index.open(tmp_path / ".brain" / "index.sqlite")
    yield ix
    ix.close()


def _filler(n: int) -> list[Doc]:
    """Unrelated documents, so BM25's idf has a background to work against."""
    return [
        Doc(path=f"filler/{i}.md", body=f"memo {i} about lunch plans and the weather")
        for i in range(n)
    ]


def test_open_records_migrations_in_order_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    Index.open(path).close()
    Index.open(path).close()  # a second open applies nothing twice
    conn = sqlite3.connect(path)
    names = [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY rowid")]
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert names == [name for name, _ in MIGRATIONS]
    assert mode == "wal"


def test_upsert_search_replace_and_remove(index: Index) -> None:
    index.upsert(
        [
            *_filler(20),
            Doc(
                path="memories/webhook-retry-policy.md",
                key="webhook-retry-policy",
                description="Webhook retries are capped at six attempts",
                body="Delivery retries use exponential backoff.",
                created="2026-08-22T19:44:02Z",
            ),
        ]
    )
    assert index.count() == 21
    hits = index.search("how many webhook retries?")
    assert hits[0].path == "memories/webhook-retry-policy.md"
    assert hits[0].updated == "2026-08-22T19:44:02Z"  # defaults to created

    index.upsert([Doc(path="memories/webhook-retry-policy.md", body="Now about queues.")])
    assert index.count() == 21
    assert index.search("webhook") == []
    assert index.search("queues")[0].path == "memories/webhook-retry-policy.md"

    assert index.remove(["memories/webhook-retry-policy.md", "missing.md"]) == 1
    assert index.search("queues") == []
    assert "memories/webhook-retry-policy.md" not in index.paths()


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "NEAR(a b", "a AND OR NOT", "col:value*", "^start", "(x", "-- ;", "ä ö ü ß"],
)
def test_pasted_operators_never_break_the_query(index: Index, query: str) -> None:
    index.upsert([Doc(path="a.md", body="value start x ä ö ü ß")])
    assert isinstance(index.search(query), list)


@pytest.mark.parametrize("query", ["", "   ", "the of and", "?!.,;", "what is it"])
def test_empty_or_stopword_queries_return_nothing(index: Index, query: str) -> None:
    index.upsert([Doc(path="a.md", body="what is the point of it")])
    assert index.search(query) == []


def test_unicode_terms_match(index: Index) -> None:
    index.upsert([Doc(path="a.md", body="Der Schlüssel liegt unter der Fußmatte"), *_filler(5)])
    assert [h.path for h in index.search("schlüssel")] == ["a.md"]


def test_filters_by_type_tag_profile_kind_and_since(index: Index) -> None:
    common = "deploy pipeline notes"
    index.upsert(
        [
            Doc(
                "a.md",
                type="fact",
                tags=("project:x", "ops"),
                profile="codex",
                body=common,
                created="2026-01-01T00:00:00Z",
            ),
            Doc(
                "b.md",
                type="lesson",
                tags=("project:x",),
                profile="claude",
                body=common,
                created="2026-03-01T00:00:00Z",
            ),
            Doc("c.md", kind="turn", session="s1", body=common, created="2026-05-01T00:00:00Z"),
            *_filler(10),
        ]
    )

    def paths(**kw: object) -> set[str]:
        return {h.path for h in index.search("deploy pipeline", **kw)}

    assert paths() == {"a.md", "b.md", "c.md"}
    assert paths(types=["fact"]) == {"a.md"}
    assert paths(tags=["project:x"]) == {"a.md", "b.md"}
    assert paths(tags=["project:x", "ops"]) == {"a.md"}
    assert paths(profile="claude") == {"b.md"}
    assert paths(kinds=["turn"]) == {"c.md"}
    assert paths(since="2026-02-01T00:00:00Z") == {"b.md", "c.md"}


def test_record_outranks_a_turn_saying_the_same(index: Index) -> None:
    when = "2026-01-01T00:00:00Z"
    index.upsert(
        [
            Doc("turn/1", kind="turn", body="postgres vacuum settings", created=when),
            Doc("memories/pg.md", kind="record", body="postgres vacuum settings", created=when),
            *_filler(10),
        ]
    )
    assert [h.path for h in index.search("postgres vacuum")] == ["memories/pg.md", "turn/1"]


def test_decay_lowers_old_documents_but_never_hides_them(index: Index) -> None:
    index.upsert(
        [
            Doc("old.md", body="redis eviction policy", created="2020-01-01T00:00:00Z"),
            Doc("new.md", body="redis eviction policy", created="2026-01-01T00:00:00Z"),
            *_filler(10),
        ]
    )
    hits = index.search("redis eviction")
    assert [h.path for h in hits] == ["new.md", "old.md"]
    assert 0 < hits[1].score < hits[0].score


def test_use_count_lifts_a_document_and_survives_upsert(index: Index) -> None:
    when = "2026-01-01T00:00:00Z"
    a = Doc("a.md", body="kafka consumer lag", created=when)
    b = Doc("b.md", body="kafka consumer lag", created=when)
    index.upsert([a, b, *_filler(10)])
    for _ in range(5):
        index.bump_use(["b.md"], "2026-01-02T00:00:00Z")
    index.upsert([b])  # re-indexing the file must not forget its uses
    assert index.search("kafka lag", now=None)[0].path == "b.md"


def test_recency_words_put_strong_matches_newest_first(index: Index) -> None:
    index.upsert(
        [
            Doc(
                "jan.md", body="release notes for the billing service", created="2026-01-01T00:00Z"
            ),
            Doc("mar.md", body="release notes billing", created="2026-03-01T00:00Z"),
            Doc("weak.md", body="notes", created="2026-06-01T00:00Z"),
            *_filler(10),
        ]
    )
    hits = [h.path for h in index.search("latest billing release notes")]
    assert hits[:2] == ["mar.md", "jan.md"]
    assert hits[-1] == "weak.md"  # a weak match stays below, however new


def test_snippet_shows_the_matching_part(index: Index) -> None:
    body = " ".join(["filler"] * 60 + ["the", "flaky", "integration", "test"] + ["end"] * 60)
    index.upsert([Doc("a.md", body=body), *_filler(5)])
    snippet = index.search("flaky test")[0].snippet
    assert "flaky integration test" in snippet
    assert snippet.startswith("…") and snippet.endswith("…")


def test_meta_round_trips(index: Index) -> None:
    assert index.get_meta(META_COMMIT) is None
    index.set_meta(META_COMMIT, "abc123")
    index.set_meta(META_COMMIT, "def456")
    assert index.get_meta(META_COMMIT) == "def456"


def test_unknown_kind_is_rejected(index: Index) -> None:
    with pytest.raises(ValueError, match="unknown document kind"):
        index.upsert([Doc("a.md", kind="blob")])


def test_corrupt_file_raises_index_corrupt_error(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(IndexCorruptError) as info:
        Index.open(path)
    assert isinstance(info.value, BrainError)
    assert info.value.path == path
    assert "rebuild" in str(info.value)


def test_importing_the_index_does_not_load_numpy_or_embeddings() -> None:
    code = (
        "import sys, brain.index; "
        "print(sorted(m for m in ('numpy', 'wordllama') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_documents_and_meta_persist_and_clear_keeps_meta(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    with Index.open(path) as index:
        index.upsert([Doc("a.md", body="alpha"), Doc("b.md", body="beta")])
        index.set_meta(META_COMMIT, "abc123")
    with Index.open(path) as index:
        assert index.paths() == {"a.md", "b.md"}
        index.clear()
        assert index.count() == 0
        assert index.get_meta(META_COMMIT) == "abc123"


def test_record_outranks_the_views_that_repeat_it(index: Index) -> None:
    words = "Webhook retries are capped at six attempts with exponential backoff"
    index.upsert(
        [
            Doc(
                "memories/webhook-retry-policy.md",
                kind="record",
                key="webhook-retry-policy",
                description="Webhook retries are capped at six attempts",
                body=words,
                created="2025-06-01T00:00:00Z",  # older than both views
            ),
            Doc(
                "MEMORY.md#003-webhooks",
                kind="memory_section",
                key="MEMORY.md#webhooks",
                description="Webhooks",
                body=f"- {words} [webhook-retry-policy]",
            ),
            Doc(
                "rollout_summaries/2026-11-28-codex-1.md",
                kind="rollout_summary",
                key="2026-11-28-codex-1",
                description="Webhook retries",
                body=words,
                created="2026-11-28T00:00:00Z",
            ),
            Doc("turn/1", kind="turn", body=words, created="2026-11-28T00:00:00Z"),
            *_filler(10),
        ]
    )
    hits = index.search("webhook retries attempts", now=datetime(2026, 12, 1, tzinfo=UTC))
    assert hits[0].path == "memories/webhook-retry-policy.md"
    assert hits[-1].path == "turn/1"
    assert hits[0].score > 1.2 * max(h.score for h in hits[1:])


def test_a_word_in_most_documents_still_counts_through_coverage(index: Index) -> None:
    # "melanie" is in 16 of 22 documents, so BM25 gives it almost no weight; the turn
    # that has both the name and the topic must still beat the one with the topic only.
    chatter = [
        Doc(f"turn/{i}", kind="turn", body=f"melanie chat {i} about weather") for i in range(20)
    ]
    index.upsert(
        [
            *chatter[:15],
            *[
                Doc(d.path, kind="turn", body=f"caroline chat {i}")
                for i, d in enumerate(chatter[15:])
            ],
            Doc("turn/a", kind="turn", body="melanie: the kids loved the dinosaur exhibit"),
            Doc("turn/b", kind="turn", body="caroline: the kids loved the dinosaur exhibit"),
        ]
    )
    hits = index.search("What do Melanie's kids love about dinosaurs?", expand=False)
    assert [h.path for h in hits[:2]] == ["turn/a", "turn/b"]
    assert hits[0].score > 1.1 * hits[1].score


def test_feedback_prefers_words_of_short_strong_matches(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    with Index.open(path) as ix:
        ix.upsert(
            [
                Doc("a.md", body="glacier crampons"),
                Doc("b.md", body="glacier trip: we packed stoves, tents, ropes and lanterns"),
                Doc("c.md", body="crampons rental shop"),
                Doc("d.md", body="lanterns festival"),
                *_filler(10),
            ]
        )
    conn = sqlite3.connect(path)
    ranked = conn.execute(
        "SELECT rowid, -rank FROM docs_fts WHERE docs_fts MATCH 'glacier' ORDER BY rank"
    ).fetchall()
    # Both words are in two documents; "crampons" is half of the best match, "lanterns"
    # one word of eight in a weaker one, so it must come second.
    assert expand_terms(conn, ("glacier",), ranked)[:2] == ("crampons", "lanterns")
    conn.close()


def test_remove_prefix_deletes_that_range_only(tmp_path: Path) -> None:
    with Index.open(tmp_path / "index.sqlite") as index:
        index.upsert(
            [
                Doc("MEMORY.md#000-a", kind="memory_section", body="alpha"),
                Doc("MEMORY.md#001-b", kind="memory_section", body="beta"),
                Doc("MEMORY.md", body="gamma"),
                Doc("MEMORY.mdx", body="delta"),
                Doc("memories/a.md", body="epsilon"),
            ]
        )
        assert index.remove_prefix("MEMORY.md#") == 2
        assert index.paths() == {"MEMORY.md", "MEMORY.mdx", "memories/a.md"}
        with pytest.raises(ValueError, match="empty prefix"):
            index.remove_prefix("")
