"""Property tests: key validation, slugs, ids, and the record file round trip."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from brain.errors import BrainError
from brain.home.keys import KEY_MAX, validate_key
from brain.home.records import Record, new_id, parse, render, slugify


@given(st.text(max_size=300))
def test_validate_key_accepts_only_safe_slugs(key: str) -> None:
    try:
        validate_key(key)
    except BrainError:
        return
    assert 0 < len(key) <= KEY_MAX
    assert "/" not in key and "\\" not in key and ".." not in key
    assert not key.startswith(".") and key == key.lower()
    assert Path("memories", f"{key}.md").parent == Path("memories")


@given(st.text(max_size=500))
def test_slugify_always_gives_a_valid_key(text: str) -> None:
    assert validate_key(slugify(text))


def test_ids_are_time_ordered_and_distinct() -> None:
    ids = [new_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert [i[:18] for i in ids] == sorted(i[:18] for i in ids)


printable = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc"), blacklist_characters="\r\x85\u2028\u2029"
    ),
    min_size=1,
    max_size=80,
)


@given(
    description=printable,
    body=printable.filter(lambda s: s.strip() and "---" not in s),
    tags=st.lists(printable, max_size=4),
)
def test_render_then_parse_round_trips(description: str, body: str, tags: list[str]) -> None:
    record = Record(
        id=new_id(),
        key="k",
        type="fact",
        description=description,
        body=body.strip("\n"),
        tags=tuple(tags),
        created="2026-01-01T00:00:00Z",
        updated="2026-01-01T00:00:00Z",
    )
    again = parse(render(record), Path("memories/k.md"))
    assert again.description == record.description
    assert again.tags == record.tags
    assert again.body.strip() == record.body.strip()
