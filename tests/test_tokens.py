"""Token counting: cl100k_base when it loads offline, the documented estimate otherwise."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brain.models import tokens
from brain.models.tokens import count_tokens, truncate_to_tokens

ROOT = Path(__file__).resolve().parent.parent
CL100K = tokens.TOKENIZER == "cl100k_base"


def _run_isolated(code: str, *, no_site: bool, env_extra: dict[str, str] | None = None) -> str:
    """Run code in a fresh interpreter that sees this checkout; return its stdout.

    With ``no_site`` the interpreter skips site-packages, so neither tiktoken nor litellm
    can be found: that is how a machine without them looks.
    """
    args = [sys.executable, *(["-S"] if no_site else []), "-c", code]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", **(env_extra or {})}
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


ESTIMATE_PROBE = """
import json
from brain.models.tokens import TOKENIZER, count_tokens, truncate_to_tokens
texts = ["", "a b c", "{}", "hello world", "日本語", "x" * 40]
print(json.dumps({
    "tokenizer": TOKENIZER,
    "counts": [count_tokens(t) for t in texts],
    "cut": truncate_to_tokens("one two three four five six seven", 3),
    "cut_cjk": truncate_to_tokens("日本語のテキスト", 2),
}))
"""


def test_estimate_is_used_without_tiktoken() -> None:
    result = json.loads(_run_isolated(ESTIMATE_PROBE, no_site=True))
    assert result["tokenizer"].startswith("estimate: ")
    # words floor, bytes/4 + punctuation/2, UTF-8 bytes for Japanese.
    assert result["counts"] == [0, 3, 2, 3, 3, 10]
    assert result["cut"] == "one two thre"  # 12 bytes / 4; a 13th byte makes 4
    assert result["cut_cjk"] == "日本"


def test_import_is_lazy() -> None:
    code = (
        "import sys, brain.models.tokens\n"
        "print(sorted(m for m in ('tiktoken', 'litellm', 'regex') if m in sys.modules))"
    )
    assert _run_isolated(code, no_site=False).strip() == "[]"


@pytest.mark.skipif(not CL100K, reason="cl100k_base is not available offline here")
def test_cl100k_known_counts() -> None:
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    # Special-token strings in a transcript are plain text, never an error.
    assert count_tokens("<|endoftext|>") > 1


@pytest.mark.skipif(not CL100K, reason="cl100k_base is not available offline here")
def test_cl100k_found_in_tiktoken_cache_dir(tmp_path: Path) -> None:
    # A copy in TIKTOKEN_CACHE_DIR is found even when litellm is not installed.
    name = hashlib.sha1(tokens._CL100K_URL.encode()).hexdigest()
    source = next(p for p in tokens._candidate_files() if p.is_file())
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / name).write_bytes(source.read_bytes())
    site = next(p for p in sys.path if p.endswith("site-packages"))
    code = (
        f"import sys; sys.path.append({site!r}); sys.modules['litellm'] = None\n"
        "from brain.models.tokens import TOKENIZER, count_tokens\n"
        "print(TOKENIZER, count_tokens('hello world'))"
    )
    out = _run_isolated(code, no_site=True, env_extra={"TIKTOKEN_CACHE_DIR": str(cache)})
    assert out.split() == ["cl100k_base", "2"]


def test_corrupt_cache_file_is_ignored(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tiktoken"
    bad.write_bytes(b"aGVsbG8= 0\n")
    assert tokens._read_ranks(bad) is None
    assert tokens._read_ranks(tmp_path / "missing") is None


def test_truncate_edges() -> None:
    assert truncate_to_tokens("anything at all", 0) == ""
    assert truncate_to_tokens("anything at all", -3) == ""
    assert truncate_to_tokens("short", 100) == "short"
    long = "word " * 1000
    cut = truncate_to_tokens(long, 50)
    assert long.startswith(cut)
    assert 40 <= count_tokens(cut) <= 50


@given(st.text(max_size=300), st.integers(min_value=0, max_value=60))
@settings(max_examples=200, deadline=None)
def test_truncate_gives_a_fitting_prefix(text: str, limit: int) -> None:
    cut = truncate_to_tokens(text, limit)
    assert text.startswith(cut)
    assert count_tokens(cut) <= limit
    if count_tokens(text) <= limit:
        assert cut == text


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_count_is_between_one_and_the_byte_length(text: str) -> None:
    # BPE is not additive ("TRUE" is 1 token, "TRUETRUE" 5), but every token holds at
    # least one byte and any non-empty text holds at least one token.
    count = count_tokens(text)
    assert count <= len(text.encode("utf-8", "replace"))
    assert (count >= 1) == (text != "")
