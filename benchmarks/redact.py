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
``python benchmarks/redact.py real [MEGABYTES [RUNS]] [--baseline REV]`` (default 20 MB, 3
runs) measures the same on real transcript text: the turns of the sessions of
``data/extract_quality`` as phase 1 redacts them (each turn's cleaned text), repeated to
the size, redacted turn by turn and as one long text; beside it, in the same run, the
code of git revision ``REV`` (default ``main``) on the same text, in a subprocess that
imports that revision's ``brain`` (``git archive``), and a plain pass (one regex search
for ``token`` over the text) that says what reading the text at all costs. Whether a
change finds what a revision's code finds is ``redact_same.py``'s question; what it costs a
turn in instructions, which a shared machine's load does not move, ``redact_instructions.py``'s.
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


def session_turns() -> list[str]:
    """The cleaned turn texts of the shipped sessions, as phase 1 redacts them."""
    import json
    from pathlib import Path

    from brain.models.phase1_text import clean_text
    from brain.sessions import sources

    data = Path(__file__).resolve().parent / "data" / "extract_quality"
    turns: list[str] = []
    for session in json.loads((data / "labels.json").read_text())["sessions"]:
        path = data / "sessions" / session["file"]
        if path.is_file():
            transcript = sources.get(session["source"]).parse(path).transcript
            turns.extend(t for t in map(clean_text, transcript.turns) if t)
    return turns


def real_turns(megabytes: float) -> list[str]:
    """The cleaned turn texts of the shipped sessions, repeated to ``megabytes`` MB."""
    turns = session_turns()
    out: list[str] = []
    size = 0
    while size < megabytes * 1_000_000:
        for turn in turns:
            out.append(turn)
            size += len(turn)
            if size >= megabytes * 1_000_000:
                break
    return out


def _real_rates(megabytes: float, runs: int) -> dict[str, float]:
    """MB/s (wall, median of ``runs``) turn by turn and as one text, and the markers made."""
    turns = real_turns(megabytes)
    text = "\n".join(turns)
    redact("password=warm-up")
    found = sum(len(find_secrets(t)) for t in turns)
    # CPU time: eight processes share two cores here, and wall time says more of them
    _, by_turn = _median_rates(turns, runs)
    _, whole = _median_rates([text], runs)
    return {
        "turns": len(turns),
        "mb": len(text) / 1e6,
        "by_turn": by_turn,
        "whole": whole,
        "found": found,
    }


def _plain_pass(megabytes: float, runs: int) -> float:
    import re

    text = "\n".join(real_turns(megabytes))
    word = re.compile("token")
    times = []
    for _ in range(runs):
        cpu = time.process_time()
        for _ in word.finditer(text):
            pass
        times.append(time.process_time() - cpu)
    return len(text) / 1e6 / statistics.median(times)


def _baseline(rev: str, megabytes: float, runs: int) -> dict[str, float]:
    """``_real_rates`` of the code of git revision ``rev``, run in a subprocess."""
    import io
    import json
    import os
    import subprocess
    import tarfile
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", rev, "brain"], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": tmp}
        out = subprocess.run(
            [sys.executable, __file__, "real-inner", str(megabytes), str(runs)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=root,
        ).stdout
    return json.loads(out)


def real(argv: list[str]) -> None:
    """Throughput on real transcript text, beside a revision's code and a plain pass."""
    rev = "main"
    if "--baseline" in argv:
        i = argv.index("--baseline")
        rev = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    megabytes = float(argv[0]) if argv else 20
    runs = int(argv[1]) if len(argv) > 1 else 3
    rows = [("this tree", _real_rates(megabytes, runs)), (rev, _baseline(rev, megabytes, runs))]
    first = rows[0][1]
    print(
        f"real transcript text: {first['mb']:.1f} MB, {first['turns']} turns"
        f" (CPU time, median of {runs})"
    )
    for name, r in rows:
        print(
            f"  {name:12} turn by turn {r['by_turn']:6.1f} MB/s   one text {r['whole']:6.1f} MB/s"
            f"   {r['found']} findings"
        )
    print(f"  plain pass   one regex search: {_plain_pass(megabytes, runs):.1f} MB/s")


def main() -> None:
    if sys.argv[1:2] == ["real-inner"]:
        import json

        print(json.dumps(_real_rates(float(sys.argv[2]), int(sys.argv[3]))))
        return
    if sys.argv[1:2] == ["real"]:
        real(sys.argv[2:])
        return
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
