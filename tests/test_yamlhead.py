"""A record's frontmatter written without PyYAML is the text PyYAML writes."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from brain.home.records import FIELDS, Record, new_id, parse, render
from brain.home.yaml import head as yamlhead
from tests.helpers import examples


def pyyaml(meta: dict[str, Any]) -> str:
    return yaml.safe_dump(
        meta, sort_keys=False, allow_unicode=True, default_flow_style=None, width=1000
    )


# Strings made of what trips YAML up: indicators, quotes, spaces, digits, dates, words
# YAML reads as booleans or nulls, characters beyond ASCII, and breaks and tabs.
PIECES = st.sampled_from(
    ["a", "Z", "0", "7", "_", "-", ".", ":", ": ", "#", " #", "'", '"', "[", "]", "{", "}"]
    + [",", "?", "&", "*", "!", "|", ">", "%", "@", "`", "~", "<<", "=", "---", "..."]
    + ["yes", "No", "on", "OFF", "null", "true", "0x1F", "0o7", "1e5", ".inf", ".NaN"]
    + ["2026-12-01", "2026-12-01T00:49:34Z", "20261201-004934780-4f8e3d", "1_000", "12:30"]
    + [" ", "  ", "\t", "\n", "é", "密码", "\u2028", "\x85", "\ufeff", "😀", "\x7f", "\xa0"]
)
TEXT = st.lists(PIECES, max_size=6).map("".join) | st.text(max_size=30)
SCALAR = st.one_of(
    TEXT, st.integers(-(10**6), 10**6), st.floats(allow_nan=True), st.booleans(), st.none()
)
KEYS = st.sampled_from([*FIELDS, "mirror_sha256", "on", "null", "Key", "x-y", "a b", "k1"])
META = st.dictionaries(KEYS, SCALAR | st.lists(SCALAR, max_size=4), max_size=8)


# Metadata the short way writes: one-line strings, finite numbers, a list among them.
ONE_LINE = st.lists(
    PIECES.filter(lambda p: p.isprintable() and p not in "\u2028\ufeff"), max_size=6
).map("".join)
PLAIN_SCALAR = st.one_of(
    ONE_LINE, st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans()
)
SIMPLE_META = st.dictionaries(
    KEYS, PLAIN_SCALAR | st.lists(PLAIN_SCALAR, max_size=4), min_size=1, max_size=8
).filter(lambda meta: any(isinstance(v, list) for v in meta.values()))


@given(META | SIMPLE_META)
@settings(max_examples=examples(250))
def test_what_it_writes_is_what_pyyaml_writes(meta: dict[str, Any]) -> None:
    fast = yamlhead.dump(meta)
    if fast is not None:
        assert fast == pyyaml(meta)


@given(st.lists(PIECES, min_size=1, max_size=6).map("".join))
def test_a_one_line_string_is_written_like_pyyaml_or_left_to_it(text: str) -> None:
    for meta in ({"description": text, "tags": []}, {"tags": [text, "project:brain"]}):
        fast = yamlhead.dump(meta)
        if fast is not None:
            assert fast == pyyaml(meta)
        else:
            assert any(c in text for c in "\t\n\x85\u2028\ufeff\x7f") or text != text.strip()


@pytest.mark.parametrize(
    "meta",
    [
        {"id": "20261201-004934780-4f8e3d", "key": "deploy-day", "tags": ["ops"]},
        {"description": "Use pnpm: always, never npm # really", "tags": ["project:brain", "x"]},
        {"created": "2026-12-01T00:49:34Z", "confidence": 0.85, "supersedes": []},
        {"description": "yes", "profile": "null", "source": "claude:memory:/a/b.md", "tags": []},
        {"description": "It's the 'one' — 密码 ok", "tags": ["from:claude-memory"]},
    ],
)
def test_common_frontmatter_takes_the_short_way(meta: dict[str, Any]) -> None:
    assert yamlhead.dump(meta) == pyyaml(meta)


def test_a_record_renders_and_parses_back_the_same() -> None:
    record = Record(
        id=new_id(),
        key="deploy-day",
        type="decision",
        description="Deploys go out on Tuesdays: the team said so.",
        body="Deploys go out on Tuesdays.\n\nWhy: the on-call rota.",
        tags=("project:brain", "ops"),
        created="2026-12-01T00:49:34Z",
        updated="2026-12-01T00:49:34Z",
        confidence=0.9,
        extra={"evidence": ["s1#4"]},
    )
    text = render(record)
    assert text.startswith("---\nid: " + record.id + "\nkey: deploy-day\ntype: decision\n")
    assert parse(text, __import__("pathlib").Path("deploy-day.md")) == record


# -- reading ---------------------------------------------------------------------------


def frontmatter_parse(text: str) -> tuple[dict[str, Any], str]:
    import frontmatter

    return frontmatter.parse(text)


@given(SIMPLE_META, ONE_LINE)
@settings(max_examples=examples(150))
def test_what_pyyaml_writes_is_read_back_as_python_frontmatter_reads_it(
    meta: dict[str, Any], body: str
) -> None:
    text = f"---\n{pyyaml(meta)}---\n{body}\n"
    read = yamlhead.load(text)
    if read is not None:
        assert read == frontmatter_parse(text)
    strings = all(
        isinstance(v, str) or (isinstance(v, list) and all(isinstance(i, str) for i in v))
        for v in meta.values()
    )
    if yamlhead.dump(meta) is not None and strings:
        assert read is not None  # what the short way writes, it reads


# Frontmatter lines as a person might edit them: comments, odd spacing, other YAML.
HAND_LINE = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", KEYS, st.lists(PIECES, max_size=5).map("".join)),
    st.builds(lambda k, vs: f"{k}: [{', '.join(vs)}]", KEYS, st.lists(ONE_LINE, max_size=3)),
    st.sampled_from(["# a comment", "  indented: x", "- item", "key:", "key:value", "..."]),
)


@given(st.lists(HAND_LINE, min_size=1, max_size=6), ONE_LINE)
@settings(max_examples=examples(200))
def test_an_edited_frontmatter_is_read_as_python_frontmatter_reads_it_or_left_to_it(
    lines: list[str], body: str
) -> None:
    text = "---\n" + "\n".join(lines) + f"\n---\n{body}\n"
    read = yamlhead.load(text)
    if read is None:
        return
    try:
        expected = frontmatter_parse(text)
    except yaml.YAMLError:
        raise AssertionError(f"read what PyYAML refuses: {text!r}") from None
    assert read == expected


@pytest.mark.parametrize(
    "text",
    [
        "---\nid: x\ntype: fact\ncreated: 2026-12-01T00:49:34Z\ntags: []\n---\nb\n",  # a date
        "---\nid: x\ntype: fact # why\ntags: []\n---\nb\n",  # a comment
        "---\nid: x\ntype: &a fact\ntags: []\n---\nb\n",  # an anchor
        "---\nid: x\ntype: fact\ntags:\n- a\n---\nb\n",  # a block list
        "---\nid: x\ndescription: two\n  lines\ntags: []\n---\nb\n",  # a folded value
        "---\nid: x\ntype: yes\ntags: []\n---\nb\n",  # a YAML 1.1 boolean
    ],
)
def test_other_yaml_is_left_to_pyyaml(text: str) -> None:
    assert yamlhead.load(text) is None


def test_reading_a_record_needs_no_pyyaml(tmp_path: Any) -> None:
    import subprocess
    import sys

    record = Record(id=new_id(), key="k", type="fact", description="d: x", body="b", tags=("t",))
    (tmp_path / "k.md").write_text(render(record))
    code = (
        "import sys; from pathlib import Path; from brain.home.records import load; "
        f"r = load(Path({str(tmp_path / 'k.md')!r})); "
        "assert 'yaml' not in sys.modules and 'frontmatter' not in sys.modules; "
        "print(r.description)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "d: x\n"
