"""Compare brain's secret rules with Yelp's detect-secrets on the same corpus.

Run: ``python benchmarks/detect_secrets_compare.py [MEGABYTES]`` with detect-secrets
importable (it is not a dependency of brain: install it in a scratch environment and put
its site-packages on ``PYTHONPATH``); without it the script says so and exits 0.

For each corpus entry (``secrets_corpus.py``), written to a file (``.txt`` as a
transcript, and ``.yaml``, where its keyword plugin reads ``key: value``), detect-secrets
scans it with all its plugins and default filters (``scan_file``, what
``detect-secrets scan`` does; ``scan_line`` is for ad-hoc strings and reports every
word). An entry counts as caught when anything is reported on it, and as *located* when
a reported value and the secret contain one another. A look-alike with any report is a
false positive. Brain's figures are ``redact()``'s: the
secret gone, the look-alike unchanged. Throughput is measured on the synthetic transcript
of ``redact.py``: detect-secrets through ``scan_file``, brain through ``redact``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from redact import synthetic
from secrets_corpus import LOOKALIKES, SECRETS

from brain.home.secrets.redact import redact

try:
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings
except ImportError:  # not a dependency: the comparison is optional
    scan_file = default_settings = None


def _reports(text: str, where: Path) -> list[Any]:
    where.write_text(text)
    return list(scan_file(str(where)))


def _detect_secrets_row(where: Path) -> tuple[str, list[str]]:
    flagged, located, missed = 0, 0, []
    for kind, text, secret in SECRETS:
        values = [s.secret_value or "" for s in _reports(text, where)]
        flagged += bool(values)
        located += any(v and (v in secret or secret in v) for v in values)
        if not values:
            missed.append(kind)
    false_positives = [x for x in LOOKALIKES if _reports(x, where)]
    n, m = len(SECRETS), len(LOOKALIKES)
    label = f"detect-secrets {where.suffix}"
    row = (
        f"  {label:20} {flagged:8} {n - flagged:7} {len(false_positives):4}/{m}"
        f"   (located {located}: the report holds the secret)"
    )
    notes = [f"  {label} missed: {', '.join(missed)}"]
    notes += [f"  {label} false+: {x[:70]!r}" for x in false_positives]
    return row, notes


def _recall(tmp: Path) -> list[str]:
    brain_missed = [kind for kind, text, secret in SECRETS if secret in redact(text)]
    brain_fp = [x for x in LOOKALIKES if redact(x) != x]
    n, m = len(SECRETS), len(LOOKALIKES)
    rows = [_detect_secrets_row(tmp / f"entry{suffix}") for suffix in (".txt", ".yaml")]
    return [
        f"{n} secrets, {m} look-alikes; caught = secret gone (brain) or reported (detect-secrets)",
        f"  {'':20} {'caught':>8} {'missed':>7} {'false+':>7}",
        f"  {'brain redact()':20} {n - len(brain_missed):8} {len(brain_missed):7} "
        f"{len(brain_fp):4}/{m}",
        *(row for row, _ in rows),
        *(note for _, notes in rows for note in notes),
    ]


def _rate(run: Any, size: float, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return size / statistics.median(times)


def _speed(megabytes: float) -> list[str]:
    text = synthetic(1)[: int(megabytes * 1_000_000)]
    size = len(text) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "transcript.txt"
        path.write_text(text)
        by_file = _rate(lambda: list(scan_file(str(path))), size)
    by_brain = _rate(lambda: redact(text), size)
    return [
        f"throughput on {size:.1f} MB (CPU time, median of 3):",
        f"  brain redact()             {by_brain:8.2f} MB/s",
        f"  detect-secrets scan_file   {by_file:8.2f} MB/s",
    ]


def _import_ms(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    times = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        for _ in range(5)
    ]
    return statistics.median(times) * 1000


def main() -> None:
    if scan_file is None:
        print("detect-secrets is not installed; nothing to compare (see this file's docstring)")
        return
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
    with default_settings(), tempfile.TemporaryDirectory() as tmp:
        lines = _recall(Path(tmp)) + _speed(megabytes)
    lines.append("import time (median of 5, fresh interpreter):")
    for module in ("brain.home.secrets.redact", "detect_secrets.core.scan"):
        lines.append(f"  {module:26} {_import_ms(module):8.1f} ms")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
