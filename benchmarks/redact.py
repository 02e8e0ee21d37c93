"""Measure redaction: throughput, and what a corpus of secrets leaves on disk.

Run: ``python benchmarks/redact.py [MEGABYTES [RUNS]]`` (default 50 MB, 5 runs) prints
the median MB/s on a synthetic transcript with sparse secrets, as one text and as 2 KB
messages (a tenth of it), the way sessions are redacted turn by turn. Both rows are
texts over 512 characters, whose rules' literals (gitleaks' keywords, brain's hint words
and heads) ahocorasick-rs's automaton finds in one pass (``brain/home/secrets/
literals.py``); without the library installed they measure ``re``'s passes, which find
the same.
``python benchmarks/redact.py keywords [MEGABYTES [RUNS]]`` (default 10 MB, 3 runs) prints
what a keyword of a gitleaks rule whose matches need not start at it adds to the
redaction of that text when it stands five times in it (CPU time, median of the runs,
the text with and without it redacted in turn), for all such rules' first keywords at
once and for each alone.
``python benchmarks/redact.py corpus`` pushes the
corpus of ``secrets_corpus.py`` (100 kinds, as people write them, and innocent
look-alikes) through every entry path and prints caught / missed / false positives per
path (see ``secrets_paths.py``).
"""

from __future__ import annotations

import random
import statistics
import string
import sys
import time

from brain.home.secrets.redact import find_secrets, redact

_LINES = (
    "The test suite failed because the fixture path was wrong; I fixed conftest.py.",
    'def load(path: str) -> dict:\n    return json.loads(Path(path).read_text("utf-8"))',
    '{"type": "tool_use", "name": "Bash", "input": {"command": "git log --oneline -5"}}',
    "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 Author: Dev <dev@example.com>",
    '  File "/home/dev/project/app/models.py", line 42, in save\n    raise ValueError(msg)',
    "token_count = 5  # password_reset_url = https://example.com/reset",
    "Use the config key `api_timeout: 30` and set max_tokens to 4096 for long answers.",
    "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "id 550e8400-e29b-41d4-a716-446655440000 ran for 12.5s on http://localhost:8080/api",
)


def _secret(rng: random.Random) -> str:
    alnum = string.ascii_letters + string.digits
    body = "".join(rng.choice(alnum) for _ in range(40))
    return rng.choice(
        (
            f"export GITHUB_TOKEN=ghp_{body[:36]}",
            f"aws_access_key_id = AKIA{body[:16].upper()}",
            f'"password": "{body[:14]}"',
            f"curl -H 'Authorization: Bearer {body}' https://api.example.com",
            f"OPENAI_API_KEY=sk-proj-{body}",
        )
    )


def synthetic(megabytes: int, seed: int = 7) -> str:
    """About ``megabytes`` MB of transcript-like text with one secret per ~20 KB."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < megabytes * 1_000_000:
        line = _secret(rng) if rng.random() < 0.004 else rng.choice(_LINES)
        parts.append(line)
        size += len(line) + 1
    return "\n".join(parts)


def _median_rates(texts: list[str], runs: int) -> tuple[float, float]:
    """Median MB/s over ``runs`` redactions of ``texts``: wall clock, and CPU time (which
    other processes on a shared machine disturb less)."""
    size = sum(map(len, texts)) / 1e6
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for text in texts:
            redact(text)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return size / statistics.median(walls), size / statistics.median(cpus)


def _added_cpu(text: str, more: str, runs: int) -> tuple[float, float]:
    """The median CPU time of redacting ``text``, and what redacting ``more`` takes more,
    the two redacted in turn ``runs`` times (a shared machine's load drifts)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for which, one in enumerate((text, more)):
            cpu = time.process_time()
            redact(one)
            times[which].append(time.process_time() - cpu)
    base = statistics.median(times[0])
    return base, statistics.median(times[1]) - base


def _sprinkled(text: str, words: list[str], times: int = 5) -> str:
    """``text`` with each of ``words`` on a line of its own at ``times`` places."""
    lines = text.split("\n")
    step = len(lines) // (times * len(words) + 1)
    for i, word in enumerate(w for _ in range(times) for w in words):
        lines[(i + 1) * step] += f" {word}"
    return "\n".join(lines)


def keywords(megabytes: int = 10, runs: int = 3) -> None:
    """What each keyword of the gitleaks rules that run wherever it stands costs."""
    from brain.home.secrets import ruletable

    rules = [r for r in ruletable.RULES if r.group >= 0 and r.anywhere]
    words = list(dict.fromkeys(r.hints[0] for r in rules))
    text = synthetic(megabytes)
    redact(_sprinkled(text[:100_000], words))  # compiles the rules
    base, cost = _added_cpu(text, _sprinkled(text, words), runs)
    print(f"{len(text) / 1e6:.1f} MB: {base * 1000:.0f} ms (CPU, median of {runs})")
    print(f"{cost * 1000:7.0f} ms  all {len(words)} keywords at once")
    rows = []
    for word in words:
        _, cost = _added_cpu(text, _sprinkled(text, [word]), runs)
        kinds = [r.kind for r in rules if word in r.hints]
        rows.append((cost, word, kinds))
    for cost, word, kinds in sorted(rows, reverse=True):
        print(f"{cost * 1000:7.0f} ms  {word!r}: {', '.join(kinds)}")


def main() -> None:
    if sys.argv[1:] == ["corpus"]:
        import secrets_paths

        secrets_paths.main()
        return
    if sys.argv[1:2] == ["keywords"]:
        keywords(*(int(a) for a in sys.argv[2:4]))
        return
    megabytes = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    text = synthetic(megabytes)
    redact("password=warm-up")  # compiles the rules
    out = redact(text)
    found = len(find_secrets(text))
    print(f"{len(text) / 1e6:.1f} MB, {found} secrets, output {len(out) / 1e6:.1f} MB")
    wall, cpu = _median_rates([text], runs)
    print(f"one text:       {wall:.1f} MB/s (median of {runs}; CPU time {cpu:.1f} MB/s)")
    pieces = [text[i : i + 2_000] for i in range(0, len(text) // 10, 2_000)]
    wall, cpu = _median_rates(pieces, runs)
    print(f"2 KB messages:  {wall:.1f} MB/s (median of {runs}; CPU time {cpu:.1f} MB/s)")


if __name__ == "__main__":
    main()
