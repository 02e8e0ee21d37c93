"""Score redaction on the generated corpus of ``tests/secrets/generated.py``, seed by seed.

For each seed: the share of credentials caught (no piece of 12 characters of the value
left, all of a shorter one), per family and per form, and the look-alikes changed. The
first seed is the one the rules were tuned on, the others are read as unseen: the
figure that says how far the rules generalise is the unseen one.

With ``--keys`` the same corpus is scored on the key a person types (``remember --key``):
each text's ASCII letters and digits, lower-cased, joined by ``-`` (its first 120
characters), as ``secrets_holdout.py`` types one. A credential's key fails when it is
accepted and keeps a piece of the value (slugged the same way); a look-alike's fails
when it is refused.

Run: ``python benchmarks/secrets_generated.py --seed 1 --seed 2 [--per-form N]
[--show FORM] [--baseline REV] [--keys]`` (``--show`` prints what a form leaks or
changes on the last seed; ``--baseline`` adds, for each seed, the figures of git
revision ``REV``'s redaction on the same corpus, run in a subprocess that imports that
revision's ``brain``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

# Appended: a baseline's subprocess finds its revision's brain first, on PYTHONPATH.
sys.path.append(str(Path(__file__).resolve().parents[1]))

from brain.home.secrets.redact import redact  # noqa: E402
from tests.secrets.generated import Case, corpus, leaked  # noqa: E402


def typed_key(text: str) -> str:
    """A key a person typed for ``text``: its ASCII letters and digits, lower-cased, joined
    by ``-``, 120 characters at most."""
    words = "".join(c if c.isascii() and c.isalnum() else " " for c in text.lower()).split()
    return "-".join(words)[:120].strip("-")


def _key_fails(case: Case) -> tuple[bool, str]:
    """Whether the key typed for ``case`` goes wrong (see the module docstring), and it."""
    from brain.home.secrets.keysecrets import key_holds_secret

    key = typed_key(case.text)
    refused = not key or key_holds_secret(key)
    if not case.secret:
        return refused, key
    return not refused and leaked(typed_key(case.secret) or case.secret, key), key


def score(
    cases: list[Case], keys: bool = False
) -> tuple[Counter[str], Counter[str], list[tuple[Case, str]]]:
    """Per ``family/form``: how many cases, how many went wrong; and the wrong ones
    (``keys``: on the key typed for each, not on its redacted text)."""
    total: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    bad = []
    for case in cases:
        if keys:
            failed, out = _key_fails(case)
        else:
            out = redact(case.text)
            failed = leaked(case.secret, out) if case.secret else out != case.text
        for key in (case.family, f"{case.family}/{case.form}"):
            total[key] += 1
            wrong[key] += failed
        if failed:
            bad.append((case, out))
    return total, wrong, bad


def _baseline(
    rev: str, seeds: list[int], per_form: int, keys: bool = False
) -> list[tuple[Counter[str], Counter[str], list[tuple[Case, str]]]]:
    """``score`` of git revision ``rev``'s redaction on the same corpora."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", rev, "brain"], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        argv = [sys.executable, __file__, "--counts", "--per-form", str(per_form)]
        argv += [a for s in seeds for a in ("--seed", str(s))] + (["--keys"] if keys else [])
        env = {**os.environ, "PYTHONPATH": tmp}
        out = subprocess.run(argv, check=True, capture_output=True, text=True, env=env).stdout
    return [(Counter(t), Counter(w), []) for t, w in json.loads(out)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, action="append", help="first: tuned; others: unseen")
    parser.add_argument("--per-form", type=int, default=20)
    parser.add_argument("--show", default="", help="a form (or family) whose failures to print")
    parser.add_argument("--baseline", default="", help="a git revision to score beside")
    parser.add_argument("--keys", action="store_true", help="score the key typed for each text")
    parser.add_argument("--counts", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = args.seed or [1, 2]
    results = [score(corpus(seed, args.per_form), args.keys) for seed in seeds]
    if args.counts:  # a baseline's subprocess: the counts, as JSON
        print(json.dumps([[dict(t), dict(w)] for t, w, _ in results]))
        return
    names = [f"seed {s}" + (" (tuned)" if i == 0 else " (unseen)") for i, s in enumerate(seeds)]
    if args.baseline:
        base = _baseline(args.baseline, seeds, args.per_form, args.keys)
        results = [r for pair in zip(results, base, strict=True) for r in pair]
        names = [n for name in names for n in (name, f"{args.baseline}, {name[:6]}")]
    head = "  ".join(f"{n:>18}" for n in names)
    print(f"{'':32}{head}")
    keys = sorted(results[0][0], key=lambda k: (k.split("/")[0], "/" in k, k))
    for key in keys:
        cells = []
        for total, wrong, _ in results:
            n, w = total[key], wrong[key]
            if key.startswith("lookalike"):
                cells.append(f"{w:>4}/{n:<4} " + ("refused" if args.keys else "changed"))
            else:
                cells.append(f"{n - w:>4}/{n:<4} {100 * (n - w) / n:5.1f}%")
        print(f"{key:32}" + "  ".join(f"{c:>18}" for c in cells))
    if args.show:
        for case, out in results[-1][2]:
            if args.show in (case.form, case.family):
                print(f"--- {case.family}/{case.form}\n{case.text}\n=> {out}")


if __name__ == "__main__":
    main()
