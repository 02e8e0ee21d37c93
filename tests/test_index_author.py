"""Author-aware ranking: a query naming a document's author prefers that author's documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.index import Doc, Index
from brain.index.author import named_authors, reward_author
from brain.index.db import migrate
from brain.index.rank import Candidate
from tests.helpers import older_index


@pytest.fixture
def index(tmp_path: Path) -> Index:
    ix = Index.open(tmp_path / "index.sqlite")
    yield ix
    ix.close()


def _turns() -> list[Doc]:
    """Two speakers who both talk about painting; each turn names the other person."""
    said = [
        ("Caroline", "Melanie, my painting class was fun"),
        ("Caroline", "Melanie, look at my painting"),
        ("Melanie", "Caroline, I finished painting a lake sunrise after work last week"),
        ("Melanie", "Caroline, we went camping in the mountains"),
    ]
    filler = [
        Doc(
            path=f"f{i}",
            kind="turn",
            body=f"Caroline: Melanie, lunch {i} was fine",
            author="Caroline",
        )
        for i in range(12)
    ]
    turns = [
        Doc(path=f"t{i}", kind="turn", body=f"{who}: {text}", author=who)
        for i, (who, text) in enumerate(said)
    ]
    return turns + filler


def test_named_author_ranks_first(index: Index) -> None:
    index.upsert(_turns())
    plain = index.search("what painting was done", k=3, expand=False)
    named = index.search("what has Melanie been painting", k=3, expand=False)
    assert plain[0].path != "t2"  # the other speaker's turns are shorter
    assert named[0].path == "t2"


def test_no_author_named_changes_nothing(index: Index) -> None:
    index.upsert([Doc(path=d.path, kind=d.kind, body=d.body) for d in _turns()])
    without = [h.path for h in index.search("Melanie painting", k=4, expand=False)]
    index.upsert(_turns())
    both = [h.path for h in index.search("Melanie and Caroline painting", k=4, expand=False)]
    assert without[0] != "t2"
    assert both == [h.path for h in index.search("painting Caroline Melanie", k=4, expand=False)]
    assert both[0] != "t2"  # naming every author tells no document apart


def test_named_authors_needs_every_name_word() -> None:
    pool = [
        Candidate(1, 1.0, "turn", "", 0, "", "Ada Lovelace"),
        Candidate(2, 1.0, "turn", "", 0, "", "Alan"),
        Candidate(3, 1.0, "turn", "", 0, ""),
    ]
    assert named_authors(pool, ("ada", "notes")) == frozenset()
    assert named_authors(pool, ("ada", "lovelace", "notes")) == {"Ada Lovelace"}
    assert named_authors(pool, ("alan", "ada", "lovelace")) == {"Ada Lovelace", "Alan"}
    assert named_authors(pool[:2], ("alan", "ada", "lovelace")) == frozenset()
    boosted = reward_author(pool, frozenset({"Alan"}), weight=0.5)
    assert [c.relevance for c in boosted] == [1.0, 1.5, 1.0]


def test_older_index_gains_the_author_column(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    conn = older_index(path, 3)
    conn.execute("INSERT INTO docs(path, kind, body) VALUES ('old', 'turn', 'kept text')")
    assert migrate(conn) == [
        "0004_docs_author",
        "0005_docs_asked",
        "0006_uses",
        "0007_view_projects",
    ]
    conn.close()
    with Index.open(path) as index:
        assert [h.path for h in index.search("kept text")] == ["old"]
        index.upsert([Doc(path="new", kind="turn", body="kept words", author="Ada")])
        assert index.search("Ada kept")[0].path == "new"
