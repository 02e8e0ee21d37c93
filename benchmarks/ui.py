"""``brain ui`` at 10,000 records: start-up, and whole requests of the main pages.

Usage: python benchmarks/ui.py [--records 10000] [--runs 15] [--json]

Builds a home of synthetic records with `brain import` (a tenth of them in each of
ten projects, five types, three tools, created over the last twelve weeks), with the
use counts of another machine that recalled every record over the last year (its
``uses/`` file, per-week counts included), starts `brain ui --no-open` as a real
process, and times, from a client on 127.0.0.1, each whole request (connect, the
server's work, the full answer read): the overview, the record list, a search, a
record's page and the runs page (medians of ``--runs``, after one warm-up request
each). ``overview_fresh_ms`` is the overview just after an agent's recall noted a use,
when the page reads the records, the stale report and the uses again. Start-up is the
time from starting the process to the address printed, median of five. The target is
under 300 ms for the overview and a search. The server is the standard library's; the
import cost of starlette and uvicorn, the alternative the environment holds, is printed
beside it for comparison when they are installed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

TYPES = ("fact", "preference", "instruction", "lesson", "decision")
TOOLS = ("claude", "codex", "gemini")


def brain(home: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), *args],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"brain {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def make_home(home: Path, data: Path, count: int) -> None:
    now = datetime.now(UTC)
    with data.open("w") as fh:
        for i in range(count):
            created = (now - timedelta(hours=i * 2016 / count)).strftime("%Y-%m-%dT%H:%M:%SZ")
            record = {
                "key": f"synthetic-{i:06d}",
                "type": TYPES[i % len(TYPES)],
                "description": f"Service-{i % 97} deploys in window {i % 13}",
                "body": f"Synthetic fact {i} about service-{i % 97} and its deploy window.",
                "tags": [f"project:proj-{i % 10}"],
                "profile": TOOLS[i % len(TOOLS)],
                "source": f"{TOOLS[i % len(TOOLS)]}:session-{i % 300}",
                "created": created,
                "updated": created,
            }
            fh.write(json.dumps(record) + "\n")
    brain(home, "init")
    brain(home, "import", str(data))
    other_machine_uses(home, count, now)
    brain(home, "index")
    brain(home, "recall", "warm the index")


def other_machine_uses(home: Path, count: int, now: datetime) -> None:
    """Another copy's ``uses/`` file, as a pull brings it: every record recalled, the
    last time spread over a year, and its per-week counts; committed."""
    lines = []
    for i in range(count):
        when = (now - timedelta(hours=i * 8760 / count)).strftime("%Y-%m-%dT%H:%M:%SZ")
        kinds = {"recalled": [1 + i % 7, when], "shown": [20, when]}
        lines.append(f'  "memories/synthetic-{i:06d}.md": {json.dumps(kinds)}')
    monday = (now - timedelta(days=now.weekday())).date()
    weeks = {(monday - timedelta(weeks=n)).isoformat(): count // 52 for n in range(51, -1, -1)}
    head = f'{{"version": 1, "machine": "other", "folded": [], "weeks": {json.dumps(weeks)}'
    (home / "uses").mkdir(exist_ok=True)
    (home / "uses" / "other-00000000.json").write_text(
        head + ', "records": {\n' + ",\n".join(lines) + "\n}}\n"
    )
    for args in (("add", "uses/other-00000000.json"), ("commit", "-qm", "uses: other")):
        subprocess.run(["git", "-C", str(home), *args], check=True)


def note_a_recall(home: Path, key: str) -> None:
    """A use, as an agent's recall notes it: one pending line, no commit."""
    line = {"ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "kind": "recalled",
            "paths": [f"memories/{key}.md"]}  # fmt: skip
    with (home / "uses" / "pending.jsonl").open("a") as fh:
        fh.write(json.dumps(line) + "\n")


def start(home: Path) -> tuple[subprocess.Popen[str], str, float]:
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "--home", str(home), "ui", "--no-open"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    took = time.perf_counter() - began
    if not line.startswith("brain ui at "):
        process.kill()
        raise SystemExit(f"brain ui did not start: {line!r}")
    return process, line.split()[3], took


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(timeout=10)


def request_ms(url: str, path: str) -> float:
    parts = urlsplit(url)
    began = time.perf_counter()
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    connection.request("GET", parts.path + path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    took = (time.perf_counter() - began) * 1000
    if response.status != 200 or not body:
        raise SystemExit(f"GET {path} answered {response.status}")
    return took


def import_ms(modules: str) -> float | None:
    code = f"import time; t = time.perf_counter(); import {modules}; print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return round(float(done.stdout) * 1000, 1) if done.returncode == 0 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name, value in (("NAME", "bench"), ("EMAIL", "bench@example.invalid")):
        os.environ.setdefault(f"GIT_AUTHOR_{name}", value)
        os.environ.setdefault(f"GIT_COMMITTER_{name}", value)
    figures: dict[str, object] = {"records": args.records}
    pages = {
        "overview_ms": "",
        "records_ms": "records",
        "search_ms": "records?q=service-42+deploy+window",
        "search_partial_ms": "records?q=deploy+window+7&partial=1",
        "record_ms": f"record/synthetic-{args.records // 2:06d}",
        "runs_ms": "runs",
    }
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        make_home(home, Path(tmp) / "records.jsonl", args.records)
        starts = []
        for _ in range(5):
            process, _, took = start(home)
            starts.append(took)
            stop(process)
        figures["startup_ms"] = round(statistics.median(starts) * 1000)
        process, url, _ = start(home)
        try:
            for name, path in pages.items():
                request_ms(url, path)  # warm: the first request opens the home and index
                times = [request_ms(url, path) for _ in range(args.runs)]
                figures[name] = round(statistics.median(times), 1)
            fresh = []
            for n in range(args.runs):
                note_a_recall(home, f"synthetic-{n:06d}")
                time.sleep(0.01)  # the pending file's time moves on
                fresh.append(request_ms(url, ""))
            figures["overview_fresh_ms"] = round(statistics.median(fresh), 1)
        finally:
            stop(process)
    figures["import_http_server_ms"] = import_ms("http.server")
    figures["import_starlette_uvicorn_ms"] = import_ms("starlette.applications, uvicorn")
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, value in figures.items():
        print(f"{name:28} {value}")


if __name__ == "__main__":
    main()
