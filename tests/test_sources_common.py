"""Behaviour every adapter shares: registry, resuming, robustness, no binary payloads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brain.errors import BrainError
from brain.sessions import sources
from brain.sessions.sources import base, claude, codex, gemini, native
from brain.sessions.sources.base import JsonLines, cap, clean, parse_timestamp
from tests.helpers import examples

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
VALID = {
    "claude": FIXTURES / "claude-code" / "marot-spotter" / "short.jsonl",
    "codex": FIXTURES
    / "codex"
    / "claude-code-log-synthetic"
    / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    "gemini": FIXTURES / "gemini" / "agent-sessions-stage0" / "jsonl_v040.jsonl",
    "copilot": FIXTURES / "copilot" / "recorded-1.0.102" / "events.jsonl",
    "opencode": FIXTURES / "opencode" / "recorded-1.18.33" / "session.jsonl",
    "crush": FIXTURES / "crush" / "documented" / "session.jsonl",
    "qwen": next((FIXTURES / "qwen" / "recorded-0.24.4").glob("*.jsonl")),
    "antigravity": FIXTURES / "antigravity" / "as-published" / "transcript.jsonl",
    "brain": FIXTURES / "native" / "session.jsonl",
}
ALL_FIXTURES = [
    *(("claude", p) for p in sorted((FIXTURES / "claude-code").rglob("*.jsonl"))),
    *(("codex", p) for p in sorted((FIXTURES / "codex").rglob("*.jsonl"))),
    *(("gemini", p) for p in sorted((FIXTURES / "gemini").rglob("*.json*"))),
    *(("copilot", p) for p in sorted((FIXTURES / "copilot").rglob("*.jsonl"))),
    *(("opencode", p) for p in sorted((FIXTURES / "opencode").rglob("*.json*"))),
    *(("crush", p) for p in sorted((FIXTURES / "crush").rglob("*.jsonl"))),
    *(("qwen", p) for p in sorted((FIXTURES / "qwen").rglob("*.jsonl"))),
    *(("antigravity", p) for p in sorted((FIXTURES / "antigravity").rglob("*.jsonl"))),
]


def test_registry_lists_and_fails_fast() -> None:
    assert sources.names() == [
        "antigravity",
        "brain",
        "claude",
        "codex",
        "copilot",
        "crush",
        "gemini",
        "opencode",
        "qwen",
    ]
    assert sources.get("codex") is codex
    assert all(sources.get(name).name == name for name in sources.names())
    with pytest.raises(sources.UnknownSourceError) as info:
        sources.get("aider")
    assert isinstance(info.value, BrainError)
    assert str(info.value) == (
        "unknown transcript source 'aider'; known sources: "
        "antigravity, brain, claude, codex, copilot, crush, gemini, opencode, qwen"
    )


@pytest.mark.parametrize(("source", "path"), ALL_FIXTURES, ids=lambda v: getattr(v, "name", v))
def test_every_fixture_parses_without_binary_payloads(source: str, path: Path) -> None:
    result = sources.get(source).parse(path)
    assert result.offset == path.stat().st_size
    secrets = _binary_values(path)
    for turn in result.transcript.turns:
        assert turn.role in ("user", "assistant", "tool")
        assert turn.text.strip()
        for secret in secrets:
            assert secret not in turn.text


def _binary_values(path: Path) -> set[str]:
    """Every thinking signature, encrypted blob and image payload in the file."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                binary = key in ("signature", "encrypted_content", "data")
                if binary and isinstance(item, str) and len(item) > 40:
                    found.add(item[:40])
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for line in path.read_text(errors="replace").splitlines():
        try:
            walk(json.loads(line))
        except ValueError:
            continue
    return found


def test_base64_images_and_signatures_never_reach_turns(tmp_path: Path) -> None:
    blob = "iVBORw0KGgoAAAANSUhEUgAA" + "A" * 4000
    signature = "EsMCCkYICxgCKkDuNR00" + "x" * 600
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": blob},
                    },
                    {"type": "text", "text": f"see data:image/png;base64,{blob} here"},
                ],
            },
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "message": {
                "id": "m",
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": signature},
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Read",
                        "input": {"file_path": "/x.png"},
                    },
                ],
            },
        },
        {
            "type": "user",
            "uuid": "u2",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [
                            {"type": "image", "source": {"type": "base64", "data": blob}},
                            {"type": "text", "text": blob},
                        ],
                    },
                ],
            },
        },
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    turns = claude.parse(path).transcript.turns
    assert [t.role for t in turns] == ["user", "tool", "tool"]
    assert turns[0].text == "see [data URL removed] here"
    for turn in turns:
        assert blob[:64] not in turn.text and signature[:20] not in turn.text

    rollout = tmp_path / "rollout-y.jsonl"
    rollout.write_text(
        json.dumps(
            {
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "user",
                    "content": [
                        {"type": "input_text", "text": "what is this?"},
                        {"type": "input_image", "image_url": f"data:image/png;base64,{blob}"},
                    ],
                },
            }
        )
        + "\n"
        + json.dumps(
            {
                "type": "response_item",
                "payload": {"type": "reasoning", "summary": [], "encrypted_content": signature},
            }
        )
        + "\n"
    )
    assert [t.text for t in codex.parse(rollout).transcript.turns] == ["what is this?"]


@pytest.mark.parametrize(
    "source",
    ["claude", "codex", "gemini", "copilot", "opencode", "qwen", "antigravity", "crush", "brain"],
)
def test_partial_last_line_is_left_for_the_next_run(source: str, tmp_path: Path) -> None:
    data = VALID[source].read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    cut = last_start + (len(data) - last_start) // 2
    path = tmp_path / VALID[source].name
    path.write_bytes(data[:cut])
    adapter = sources.get(source)
    first = adapter.parse(path)
    assert first.offset == last_start
    assert first.malformed == 0
    with path.open("ab") as fh:
        fh.write(data[cut:])
    second = adapter.parse(path, start=first.offset)
    assert second.offset == len(data)
    assert second.lines_read == 1
    whole = adapter.parse(path)
    texts = [t.text for t in first.transcript.turns + second.transcript.turns]
    assert texts == [t.text for t in whole.transcript.turns]
    # The last line was read: a turn, a record of unknown type, or (Copilot CLI's
    # session.shutdown) bookkeeping whose time is the session's last.
    read = second.unknown + len(second.transcript.turns) >= 1
    assert read or second.last_timestamp == whole.last_timestamp != first.last_timestamp


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "message",
                    "content",
                    "payload",
                    "id",
                    "role",
                    "text",
                    "uuid",
                    "timestamp",
                    "$set",
                    "$rewindTo",
                    "messages",
                    "toolCalls",
                    "input",
                    "output",
                    "sessionId",
                    "projectHash",
                    "cwd",
                    "arguments",
                    "result",
                    "count",
                    "title",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=20,
)
_record_types = st.sampled_from(
    [
        "user",
        "assistant",
        "system",
        "attachment",
        "summary",
        "ai-title",
        "response_item",
        "event_msg",
        "session_meta",
        "compacted",
        "message",
        "eviction",
        "header",
        "gemini",
        "user.message",
        "assistant.message",
        "tool.execution_complete",
        "text",
        "tool",
        "x",
    ]
)
_lines = st.one_of(
    st.binary(max_size=60),
    st.builds(
        lambda t, body: json.dumps({**body, "type": t}).encode(),
        _record_types,
        st.dictionaries(
            st.sampled_from(
                [
                    "message",
                    "payload",
                    "content",
                    "id",
                    "role",
                    "text",
                    "timestamp",
                    "count",
                    "data",
                    "info",
                    "parts",
                ]
            ),
            _json_values,
        ),
    ),
)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    source=st.sampled_from(
        [
            "claude",
            "codex",
            "gemini",
            "copilot",
            "opencode",
            "qwen",
            "antigravity",
            "crush",
            "brain",
        ]
    ),
    extra=st.lists(_lines, max_size=8),
    newline=st.booleans(),
)
def test_appended_garbage_never_crashes(
    tmp_path: Path, source: str, extra: list[bytes], newline: bool
) -> None:
    base_bytes = VALID[source].read_bytes()
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(base_bytes + b"\n".join(extra) + (b"\n" if newline else b""))
    result = sources.get(source).parse(path)
    assert len(base_bytes) <= result.offset <= path.stat().st_size
    assert result.lines_read >= base_bytes.count(b"\n")


def test_helpers() -> None:
    assert parse_timestamp("2026-02-10T21:11:56.846Z").isoformat() == (
        "2026-02-10T21:11:56.846000+00:00"
    )
    assert parse_timestamp(1_767_000_000).year == 2025  # epoch seconds
    assert parse_timestamp(1_767_000_000_000) == parse_timestamp(1_767_000_000)  # epoch ms
    assert parse_timestamp("[trimmed for fixture]") is None
    assert parse_timestamp(True) is None
    assert cap("abcdef", 3) == "abc\n[... 3 more characters cut by brain]"
    assert clean("x" * 10, 100) == "x" * 10


def test_oversized_line_is_skipped_not_loaded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(base, "MAX_LINE_BYTES", 64)
    path = tmp_path / "big.jsonl"
    path.write_bytes(b'{"a":1}\n' + b'{"b":"' + b"x" * 500 + b'"}\n' + b'{"c":3}\n')
    reader = JsonLines(path)
    assert [record for _, record in reader] == [{"a": 1}, {"c": 3}]
    assert (reader.malformed, reader.lines, reader.offset) == (1, 3, path.stat().st_size)


def test_caps_every_field(tmp_path: Path) -> None:
    record = {"type": "user", "uuid": "u", "message": {"role": "user", "content": "y " * 5000}}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(record) + "\n")
    [turn] = claude.parse(path, max_field_chars=100).transcript.turns
    assert turn.text.startswith("y y") and "more characters cut by brain]" in turn.text
    assert len(turn.text) < 200
    assert gemini.name == "gemini" and native.name == "brain"


def _latin1_in_a_user_turn(source: str, path: Path, tmp_path: Path) -> tuple[Path, str, int]:
    """A copy of ``path`` in which a word of its first typed user turn starts with a
    byte of Latin-1 (``é`` as 0xE9, which is no UTF-8) wherever it is written; the rest
    of the word, and how many times it was written."""
    turn = next(
        t
        for t in sources.get(source).parse(path).transcript.turns
        if t.role == "user" and not t.injected and any(len(w) >= 5 for w in t.text.split())
    )
    word = next(w for w in turn.text.split() if len(w) >= 5 and w.isalpha())
    raw = path.read_bytes()
    copy = tmp_path / path.name
    copy.write_bytes(raw.replace(word.encode(), b"\xe9" + word[1:].encode()))
    return copy, word[1:], raw.count(word.encode())


@pytest.mark.parametrize(
    ("source", "path"),
    [
        *VALID.items(),
        ("gemini", FIXTURES / "gemini" / "agent-sessions-stage0" / "large.json"),
    ],
    ids=[*VALID, "gemini-legacy"],
)
def test_a_byte_that_is_not_utf8_keeps_its_turn(source: str, path: Path, tmp_path: Path) -> None:
    clean_read = sources.get(source).parse(path)
    copy, rest, times = _latin1_in_a_user_turn(source, path, tmp_path)
    result = sources.get(source).parse(copy)
    assert len(result.transcript.turns) == len(clean_read.transcript.turns)
    assert result.malformed == clean_read.malformed
    assert result.replaced == times
    assert any("\ufffd" + rest in t.text for t in result.transcript.turns if t.role == "user")


def test_loads_counts_each_byte_it_replaces() -> None:
    assert base.loads(b'{"a": "caf\xe9 \xff\xfe ok"}\n') == ({"a": "caf\ufffd \ufffd\ufffd ok"}, 3)
    assert base.loads('{"a": "café"}'.encode()) == ({"a": "café"}, 0)


def test_a_windows_programs_utf16_output_reads_as_words(tmp_path: Path) -> None:
    """PowerShell's UTF-16 output, read as bytes, puts a NUL between every two letters;
    the turn keeps the words, so a memory quoting them is found in the session."""
    said = "Windows Subsystem for Linux has no installed distributions."
    output = "Exit code: 1\nOutput:\n" + "".join(c + "\x00" for c in said)
    lines = [
        {"type": "session_meta", "payload": {"id": "s1", "cwd": "/p"}},
        {
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "c1", "output": output},
        },
    ]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    turns = codex.parse(path).transcript.turns
    assert any(said in turn.text for turn in turns)
    assert not any("\x00" in turn.text for turn in turns)


@pytest.mark.parametrize(
    "line",
    [
        b'{"n": NaN, "i": Infinity}',  # json's extensions
        b'{"big": 123456789012345678901234567890}',  # past 64 bits
        b'{"lone": "\\ud800 half a pair"}',  # a lone surrogate, escaped
        b'\xef\xbb\xbf{"bom": 1}',  # a UTF-8 byte order mark
        '{"wide": "utf-16"}'.encode("utf-16"),
        b'{"dup": 1, "dup": 2, "f": 1.0000000000000002, "e": 1e400}',
        b'{"ok": ["caf\xc3\xa9", -0.0, 18446744073709551615, {"a": null}]}',
    ],
)
def test_loads_reads_every_line_as_json_reads_it(line: bytes) -> None:
    """What msgspec refuses is read by json: no line reads otherwise than json reads it."""
    record, replaced = base.loads(line)
    assert replaced == 0
    assert json.dumps(record) == json.dumps(json.loads(line))


_RUNS = st.text(alphabet="aZ09+/= \n.-", min_size=0, max_size=1500) | st.builds(
    lambda head, run, tail: head + run + tail,
    st.text(alphabet="ab \n", max_size=600),
    st.text(alphabet="aZ09+/", min_size=500, max_size=1100),
    st.text(alphabet="ab \n=", max_size=600),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_RUNS)
def test_clean_removes_base64_runs_as_the_pattern_alone_does(text: str) -> None:
    """The block test in front of the base64 pattern never skips a run it would find."""
    expected = base._without_runs(text) if len(text) >= 512 else text
    assert base.clean(text, 10_000) == expected
    runs = base._BASE64_RUN.findall(text) if len(text) >= 512 else []
    assert base.clean(text, 10_000).count("[base64 removed]") <= len(runs)
    assert not any(run in base.clean(text, 10_000) for run in runs)


def test_a_jwt_whose_payload_is_a_base64_run_is_removed_whole() -> None:
    """Its long payload removed alone would leave the header and the signature, half a
    credential redaction no longer knows as one."""
    signature = "NLp2y9IE0vBpsr6sRXhcYhhPIfTcI4GQFoXWXdq4QWUF7gaBx3_0jOYmAQo56xrurv9"
    jwt = "eyJhbGciOiJSUzI1NiJ9.eyJ" + "hc2giOiJL" * 70 + "." + signature
    assert base.clean(f'{{"id_token": "{jwt}", "n": 1}}', 10_000) == (
        '{"id_token": "[base64 removed]", "n": 1}'
    )
