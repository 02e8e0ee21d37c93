"""Score redaction on the generated corpus of ``tests/secrets/generated.py``, seed by seed.

For each seed: the share of credentials caught (no piece of 12 characters of the value
left, all of a shorter one), per family and per form, and the look-alikes changed. The
first seed is the one the rules were tuned on, the others are read as unseen: the
figure that says how far the rules generalise is the unseen one.

Run: ``python benchmarks/secrets_generated.py --seed 1 --seed 2 [--per-form N]
[--show FORM]`` (``--show`` prints what a form leaks or changes on the last seed).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from brain.home.secrets.redact import redact  # noqa: E402
from tests.secrets.generated import Case, corpus, leaked  # noqa: E402


def score(cases: list[Case]) -> tuple[Counter[str], Counter[str], list[tuple[Case, str]]]:
    """Per ``family/form``: how many cases, how many went wrong; and the wrong ones."""
    total: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    bad = []
    for case in cases:
        out = redact(case.text)
        failed = leaked(case.secret, out) if case.secret else out != case.text
        for key in (case.family, f"{case.family}/{case.form}"):
            total[key] += 1
            wrong[key] += failed
        if failed:
            bad.append((case, out))
    return total, wrong, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, action="append", help="first: tuned; others: unseen")
    parser.add_argument("--per-form", type=int, default=20)
    parser.add_argument("--show", default="", help="a form (or family) whose failures to print")
    args = parser.parse_args()
    seeds = args.seed or [1, 2]
    results = [score(corpus(seed, args.per_form)) for seed in seeds]
    head = "  ".join(
        f"{'seed ' + str(s) + (' (tuned)' if i == 0 else ' (unseen)'):>18}"
        for i, s in enumerate(seeds)
    )
    print(f"{'':32}{head}")
    keys = sorted(results[0][0], key=lambda k: (k.split("/")[0], "/" in k, k))
    for key in keys:
        cells = []
        for total, wrong, _ in results:
            n, w = total[key], wrong[key]
            if key.startswith("lookalike"):
                cells.append(f"{w:>4}/{n:<4} changed")
            else:
                cells.append(f"{n - w:>4}/{n:<4} {100 * (n - w) / n:5.1f}%")
        print(f"{key:32}" + "  ".join(f"{c:>18}" for c in cells))
    if args.show:
        for case, out in results[-1][2]:
            if args.show in (case.form, case.family):
                print(f"--- {case.family}/{case.form}\n{case.text}\n=> {out}")


if __name__ == "__main__":
    main()
