"""What a first run over a history produced, as digests to compare before and after a change.

Usage: python benchmarks/first_run_digest.py (--person DIR | --fixtures) [--json]

Runs ``brain init``, ``brain harvest`` and ``brain extract --all`` (the built-in model)
as processes against a new home, then prints one sha256 for each thing a change to the
reading of transcripts must leave as it was:

- ``marks``: every harvest watermark (each transcript's offset, size, head hash, the
  session's project, title, times, turn count and conversation digest), without the time
  of the harvest;
- ``turns``: every turn of every harvested session as ``load_transcript`` reads it (role,
  text, time, tool, flags, lines, call) and the transcript's own fields;
- ``raw_memories``: ``raw_memories.md`` without ids, dates and run ids;
- ``summaries``: every rollout summary without the time it was written;
- ``harvest``: what ``harvest --json`` said, without times and the commit.

``--person DIR`` reads the history of a person whose home is ``DIR`` (``harvest --all``
over the tools' own folders: ``big_history.py --keep DIR`` leaves one in ``DIR/person``);
``--fixtures`` harvests each recorded transcript of ``tests/fixtures/transcripts`` by name
(``harvest --path``). Run it with the code before the change (``PYTHONPATH=<old checkout>``,
which this process and the ``brain`` it starts both import) and after; the digests must be
the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"
_SCRIPT = Path(sys.executable).with_name("brain")
BRAIN = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "brain"]
# What differs between two runs of the same code: ids, clocks, the run.
_VOLATILE = re.compile(r"^(- (?:id|date|run): ).*$|(extracted: )\S+", re.M)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--person", type=Path, help="the HOME whose history is read")
    which.add_argument("--fixtures", action="store_true", help="the recorded transcripts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="brain-digest-") as tmp:
        person = args.person or Path(tmp) / "person"
        person.mkdir(exist_ok=True)
        report = first_run(person, Path(tmp) / "home", None if args.person else fixture_files())
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name, value in report.items():
        print(f"{name:<14}{value}")


def fixture_files() -> list[Path]:
    """Every recorded transcript file (not the notes beside them)."""
    notes = {".md", ".txt"}
    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix not in notes)


def first_run(person: Path, home: Path, paths: list[Path] | None) -> dict[str, Any]:
    env = {**os.environ, "HOME": str(person), "BRAIN_HOME": str(home)}
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_DATA_HOME"):
        env.pop(name, None)
    for name in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{name}_NAME", "digest")
        env.setdefault(f"GIT_{name}_EMAIL", "digest@example.invalid")
    brain(env, "init")
    named = [arg for path in paths or () for arg in ("--path", str(path))]
    harvested = json.loads(brain(env, "harvest", "--all", "--json", *named))
    brain(env, "extract", "--all", "--json")
    os.environ.update(HOME=str(person), BRAIN_HOME=str(home))
    return {
        "sessions": len(harvested["sessions"]),
        "marks": marks(home),
        "turns": turns(home),
        "raw_memories": _sha(_VOLATILE.sub(r"\1\2", _read(home / "raw_memories.md"))),
        "summaries": summaries(home),
        "harvest": _sha(json.dumps(_stable(harvested), sort_keys=True)),
    }


def brain(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([*BRAIN, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"brain {' '.join(args[:2])} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def marks(home: Path) -> str:
    entries = []
    for path in sorted((home / "harvest").glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8"))["sessions"]:
            entry.pop("harvested", None)
            entries.append(entry)
    return f"{len(entries)} {_sha(json.dumps(entries, sort_keys=True))}"


def turns(home: Path) -> str:
    from brain.home.home import Home
    from brain.sessions.watermarks import harvested_sessions, load_transcript

    digest, count = hashlib.sha256(), 0
    for ref in sorted(harvested_sessions(Home.open(home)), key=lambda r: r.path):
        transcript = load_transcript(ref)
        head = {k: getattr(transcript, k) for k in transcript.__slots__ if k != "turns"}
        digest.update(repr(sorted(head.items())).encode())
        for turn in transcript.turns:
            digest.update(repr(turn).encode())
            count += 1
    return f"{count} {digest.hexdigest()[:16]}"


def summaries(home: Path) -> str:
    folder = home / "rollout_summaries"
    texts = [(p.name, _VOLATILE.sub(r"\1\2", _read(p))) for p in sorted(folder.glob("*.md"))]
    return f"{len(texts)} {_sha(json.dumps(texts))}"


def _stable(value: Any) -> Any:
    """``value`` without what differs between two runs: times, the commit."""
    if isinstance(value, dict):
        gone = {"elapsed", "commit", "harvested"}
        return {k: _stable(v) for k, v in value.items() if k not in gone}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


if __name__ == "__main__":
    main()
