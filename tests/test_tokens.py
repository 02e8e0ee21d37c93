"""Token counting: cl100k_base through tiktoken when it loads offline, else the estimate."""

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
from brain.models.tokens import (
    ESTIMATE_RANGE,
    count_tokens,
    estimate_tokens,
    truncate_to_estimate,
    truncate_to_tokens,
)

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


def _encoding_file() -> Path:
    name = hashlib.sha1(tokens._CL100K_URL.encode()).hexdigest()
    return next(Path(d) / name for d in tokens._cache_dirs() if (Path(d) / name).is_file())


def _site_packages() -> str:
    return next(p for p in sys.path if p.endswith("site-packages"))


@pytest.mark.skipif(not CL100K, reason="cl100k_base is not available offline here")
def test_cl100k_found_in_tiktoken_cache_dir(tmp_path: Path) -> None:
    # A copy in TIKTOKEN_CACHE_DIR is found even when litellm is not installed.
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / _encoding_file().name).write_bytes(_encoding_file().read_bytes())
    code = (
        f"import sys; sys.path.append({_site_packages()!r}); sys.modules['litellm'] = None\n"
        "from brain.models.tokens import TOKENIZER, count_tokens\n"
        "print(TOKENIZER, count_tokens('hello world'))"
    )
    out = _run_isolated(code, no_site=True, env_extra={"TIKTOKEN_CACHE_DIR": str(cache)})
    assert out.split() == ["cl100k_base", "2"]


def test_without_an_encoding_file_tiktoken_is_never_asked(tmp_path: Path) -> None:
    # tiktoken would download a missing file; brain must fall back to the estimate
    # before tiktoken is even imported. TMPDIR moves tiktoken's default cache too.
    empty = tmp_path / "empty"
    empty.mkdir()
    code = (
        f"import sys; sys.path.append({_site_packages()!r}); sys.modules['litellm'] = None\n"
        "from brain.models.tokens import TOKENIZER, count_tokens\n"
        "print(count_tokens('hello world'), 'tiktoken' in sys.modules, TOKENIZER)"
    )
    env = {"TIKTOKEN_CACHE_DIR": str(empty), "TMPDIR": str(empty)}
    out = _run_isolated(code, no_site=True, env_extra=env)
    assert out.split()[:3] == ["3", "False", "estimate:"]


def test_a_corrupt_cache_file_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = hashlib.sha1(tokens._CL100K_URL.encode()).hexdigest()
    (tmp_path / name).write_bytes(b"aGVsbG8= 0\n")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    assert tokens._verified_dir() != str(tmp_path)
    assert (tmp_path / name).read_bytes() == b"aGVsbG8= 0\n"  # left as it was


# Real text of the kinds brain counts: its docs, prompts, templates and sources, agent
# transcripts as recorded, and prose in scripts other than Latin.
REAL_TEXT_GLOBS = (
    "README.md",
    "CHANGELOG.md",
    "docs/*.md",
    "prompts/*",
    "templates/**/*",
    "brain/**/*.py",
    "tests/fixtures/transcripts/**/*.json*",
    "tests/fixtures/transcripts/**/*.md",
)
SAMPLES = {
    "ja": "ユーザーは小さくレビューされた変更を好みます。デプロイは必ずステージングを経由します。",
    "zh": "用户喜欢小而经过审查的改动。部署总是先经过预发布环境。测试绝不能访问生产数据库。",
    "ru": "Пользователь предпочитает небольшие проверенные изменения. Развёртывание всегда "
    "проходит через промежуточную среду.",
    "fr": "L'utilisateur préfère des modifications petites et relues. Le déploiement passe "
    "toujours par l'environnement de préproduction.",
    "de": "Der Benutzer bevorzugt kleine, geprüfte Änderungen. Die Bereitstellung läuft immer "
    "über die Staging-Umgebung.",
}


def _real_texts() -> dict[str, str]:
    texts = dict(SAMPLES)
    for pattern in REAL_TEXT_GLOBS:
        for path in sorted(p for p in ROOT.glob(pattern) if p.is_file()):
            text = path.read_text(encoding="utf-8", errors="replace")
            if text.strip():
                texts[path.relative_to(ROOT).as_posix()] = text
    return texts


@pytest.mark.skipif(not CL100K, reason="cl100k_base is not available offline here")
def test_estimate_is_within_the_stated_factor_on_real_text() -> None:
    texts = _real_texts()
    assert len(texts) > 50  # the globs found the files
    low, high = ESTIMATE_RANGE
    outside = {}
    for name, text in texts.items():
        ratio = estimate_tokens(text) / count_tokens(text)
        if not low <= ratio <= high:
            outside[name] = round(ratio, 2)
    assert outside == {}


@given(st.text(max_size=300), st.integers(min_value=0, max_value=60))
@settings(max_examples=100, deadline=None)
def test_truncate_to_estimate_gives_the_longest_fitting_prefix(text: str, limit: int) -> None:
    cut = truncate_to_estimate(text, limit)
    assert text.startswith(cut)
    assert estimate_tokens(cut) <= limit
    if cut != text:
        assert estimate_tokens(text[: len(cut) + 1]) > limit


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
