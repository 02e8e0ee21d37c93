"""Check that redaction finds the same as a git revision's, over many texts.

A change made for speed must not change what is found. This builds some twenty-three
thousand texts: the cleaned turns of the sessions of ``data/extract_quality`` (as
``redact.py real`` reads them) and their join, slices of the join from 300 B to 300 KB,
the corpora (``secrets_corpus.py``, ``data/secrets_*.json``), five seeds of the generated
corpus (``tests/secrets/generated.py``) alone and each case inside a real turn, and
variants beyond ASCII (a turn with ``ſ``, ``İ``, ``K``, ``é`` or ``日本`` put in, a case
upper-cased). It runs ``find_secrets`` over each, here and in a subprocess that imports
git revision ``REV``'s ``brain`` (``git archive``), and prints the texts whose findings
differ (none, when the two find the same).

Run: ``python benchmarks/redact_same.py [--baseline REV] [--no-library] [--quick]``
(``--baseline`` defaults to ``main``; ``--no-library`` runs both without ahocorasick-rs,
so every text takes ``re``'s passes; ``--quick`` takes one text in ten).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Put in a turn: characters lower-casing changes the length of (İ), that case-insensitive
# matching takes for ASCII letters (ſ, K), beyond ASCII in latin-1 (é) and beyond it (日本).
_ODD = ("ſ", "İ", "\u212a", "é", "日本", "ı")


def texts(quick: bool = False) -> list[str]:
    """The texts to compare findings on."""
    sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
    from redact import session_turns  # benchmarks/redact.py
    from secrets_corpus import LOOKALIKES, SECRETS

    from tests.secrets.generated import corpus

    turns = list(dict.fromkeys(session_turns()))  # every turn once
    rng = random.Random(20)
    out = list(turns)
    join = "\n".join(turns)
    out.append(join)
    for size in (300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000):
        for _ in range(max(2, 3_000_000 // size // 40)):
            at = rng.randrange(max(1, len(join) - size))
            out.append(join[at : at + size])
    out += [text for _, text, _ in SECRETS] + list(LOOKALIKES)
    for name in ("secrets_blind", "secrets_blind3", "secrets_holdout"):
        doc = json.loads((ROOT / "benchmarks" / "data" / f"{name}.json").read_text("utf-8"))
        out += [x["text"] for x in doc["secrets"]] + [x["text"] for x in doc["lookalikes"]]
    cases = [case.text for seed in (1, 2, 3, 4177, 90211) for case in corpus(seed)]
    out += cases
    for case in cases:
        turn = rng.choice(turns)
        at = rng.randrange(len(turn) + 1)
        out.append(f"{turn[:at]}\n{case}\n{turn[at:]}")
    for case in cases[::7]:
        out.append(case.upper())
    for turn in turns[::5]:
        at = rng.randrange(len(turn) + 1)
        out.append(turn[:at] + rng.choice(_ODD) + turn[at:])
    for case in cases[::3]:
        at = rng.randrange(len(case) + 1)
        out.append(case[:at] + rng.choice(_ODD) + case[at:])
    return out[::10] if quick else out


def findings(items: list[str]) -> list[list[tuple[str, int, int]]]:
    """``find_secrets`` of each text, as plain tuples."""
    from brain.home.secrets.redact import find_secrets

    return [[tuple(f) for f in find_secrets(text)] for text in items]


def _without_library() -> None:
    sys.modules["ahocorasick_rs"] = None  # type: ignore[assignment]  (import fails)


def _baseline(rev: str, path: Path, no_library: bool) -> list[list[list[str | int]]]:
    """The findings of revision ``rev``'s ``brain`` on the texts in ``path``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "brain"], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        out = Path(tmp) / "findings.json"
        flags = ["--no-library"] if no_library else []
        subprocess.run(
            [sys.executable, __file__, "inner", str(path), str(out), *flags],
            check=True,
            env={**os.environ, "PYTHONPATH": tmp},
            cwd=tmp,
        )
        found: list[list[list[str | int]]] = json.loads(out.read_text())
        return found


def main() -> None:
    if sys.argv[1:2] == ["inner"]:
        if "--no-library" in sys.argv:
            _without_library()
        items = json.loads(Path(sys.argv[2]).read_text("utf-8"))
        Path(sys.argv[3]).write_text(json.dumps(findings(items)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--no-library", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    items = texts(args.quick)
    if args.no_library:
        _without_library()
    ours = [[list(f) for f in one] for one in findings(items)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "texts.json"
        path.write_text(json.dumps(items), "utf-8")
        theirs = _baseline(args.baseline, path, args.no_library)
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
    size = sum(map(len, items)) / 1e6
    found = sum(map(len, ours))
    print(
        f"{len(items)} texts, {size:.1f} MB, {found} findings here;"
        f" {len(differ)} differ from {args.baseline}"
        + (" (without the library)" if args.no_library else "")
    )
    for i in differ[:20]:
        print(f"  text {i} ({len(items[i])} chars): here {ours[i]}, {args.baseline} {theirs[i]}")
        print(f"    {items[i][:200]!r}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
