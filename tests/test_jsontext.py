"""Edits of a JSON file's text: what goes in comes out again byte for byte, and the rest
of the file is never touched."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brain.agents import jsontext

_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_OBJECTS = st.dictionaries(st.text(max_size=6), _VALUES, max_size=4)
_LAYOUTS = st.sampled_from(
    [
        {"indent": 2},
        {"indent": 4},
        {"indent": "\t"},
        {"indent": None},
        {"indent": None, "separators": (",", ":")},
    ]
)


def _dump(data: Any, layout: dict[str, Any], crlf: bool, tail: str) -> str:
    text = json.dumps(data, ensure_ascii=False, **layout) + tail
    return text.replace("\n", "\r\n") if crlf else text


@given(_OBJECTS, _LAYOUTS, st.booleans(), st.sampled_from(["", "\n", "\n\n"]), _VALUES)
def test_a_member_put_in_and_dropped_gives_the_text_back(
    data: dict[str, Any], layout: dict[str, Any], crlf: bool, tail: str, value: Any
) -> None:
    data.pop("mcp", None)
    text = _dump(data, layout, crlf, tail)
    edited = jsontext.put(text, ("mcp", "brain"), value)
    assert json.loads(edited) == {**data, "mcp": {"brain": value}}
    assert edited.startswith(text[: text.rstrip().rfind("}")].rstrip())
    if "\n" in text:  # the file's own line ending (a one-line file's is LF)
        assert edited.count("\n") == edited.count("\r\n") if crlf else "\r" not in edited
    assert jsontext.drop(edited, ("mcp", "brain")) == text


@given(_OBJECTS, _LAYOUTS, st.booleans(), st.lists(st.text(max_size=5), max_size=3))
def test_strings_added_to_a_list_and_removed_give_the_text_back(
    data: dict[str, Any], layout: dict[str, Any], crlf: bool, theirs: list[str]
) -> None:
    ours = ["mcp_brain_recall", "mcp_brain_read"]
    data["permissions"] = {"allowed_tools": [t for t in theirs if t not in ours]}
    text = _dump(data, layout, crlf, "\n")
    edited = jsontext.add_strings(text, ("permissions", "allowed_tools"), ours)
    listed = json.loads(edited)["permissions"]["allowed_tools"]
    assert listed == [*data["permissions"]["allowed_tools"], *ours]
    assert jsontext.add_strings(edited, ("permissions", "allowed_tools"), ours) == edited
    back = jsontext.remove_strings(edited, ("permissions", "allowed_tools"), ours)
    if data["permissions"]["allowed_tools"]:
        assert back == text
    else:  # the list brain filled is left empty, and goes with the object it was in
        assert "permissions" not in json.loads(back)


def test_a_member_already_there_is_replaced_where_it_stands() -> None:
    text = '{\n  "mcp": {\n    "brain": {"type": "stdio"},\n    "other": {}\n  },\n  "x": 1\n}\n'
    edited = jsontext.put(text, ("mcp", "brain"), {"type": "stdio", "command": "b"})
    assert edited == (
        '{\n  "mcp": {\n    "brain": {\n      "type": "stdio",\n      "command": "b"\n    },'
        '\n    "other": {}\n  },\n  "x": 1\n}\n'
    )
    assert jsontext.put(edited, ("mcp", "brain"), {"type": "stdio", "command": "b"}) == edited
    first = jsontext.drop(edited, ("mcp", "brain"))
    assert first == '{\n  "mcp": {\n    "other": {}\n  },\n  "x": 1\n}\n'


_NO_NAME = "Expecting property name enclosed in double quotes"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": 1,}', f"not valid JSON (line 1: {_NO_NAME})"),
        ('{"a" 1}', "not valid JSON (line 1: Expecting ':' delimiter)"),
        ("[1, 2]", "expected a JSON object at the top"),
        ('{"a": 1} {"b": 2}', "has text after its JSON object"),
        ('{"mcp": {}, "mcp": {}}', "has 'mcp' twice in one object"),
        ('{"mcp": []}', "'mcp' is not an object"),
        ("{// note\n}", f"not valid JSON (line 1: {_NO_NAME})"),
    ],
)
def test_text_that_is_not_a_json_object_of_that_shape_is_an_error(text: str, said: str) -> None:
    with pytest.raises(jsontext.JsonTextError) as caught:
        jsontext.put(text, ("mcp", "brain"), {})
    assert str(caught.value) == said
