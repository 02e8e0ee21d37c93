"""What a change to redaction marks differently on real sessions: the values it adds, and
the values it no longer marks, beside a git revision.

Every string of every session file under the folders given (by default the real sessions
the benchmarks fetch: ``honest/local``, ``redact_tuning/local`` and each
``redact_blind*/local``; see their ``SOURCES.md`` and ``fetch_sources.py``) is read once,
as the JSON holds it, and ``find_secrets`` runs over each here and, in a subprocess, with
git revision ``REV``'s ``brain`` (``redact_same.py``'s way). Each value marked on one side
and nowhere on the other is printed with how often, where and the text around it, to be
judged: a new value that is a credential is recall gained, one that is not is precision
lost. Unlike ``redact_markers.py`` it reads whole sessions, not what phase 1 is sent.

Run: ``python benchmarks/redact_values.py [--baseline REV] [DIR ...]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import redact_same  # noqa: E402

HERE = Path(__file__).resolve().parent
_AROUND = 70


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def session_strings(folders: list[Path]) -> tuple[list[str], list[str]]:
    """Each distinct string of the session files in ``folders`` (longer than 8
    characters), and the name of the file it was first read in."""
    seen: set[str] = set()
    texts: list[str] = []
    names: list[str] = []
    for folder in folders:
        for path in sorted(p for p in folder.glob("*") if p.is_file() and p.name != ".gitignore"):
            raw = path.read_text("utf-8", errors="replace")
            try:
                records = [json.loads(raw)]
            except json.JSONDecodeError:
                records = [json.loads(line) for line in raw.splitlines() if _is_json(line)]
            for record in records:
                for text in _strings(record):
                    if len(text) > 8 and text not in seen:
                        seen.add(text)
                        texts.append(text)
                        names.append(path.name)
    return texts, names


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def _values(
    texts: list[str], names: list[str], found: list[list[Any]]
) -> tuple[Counter[str], dict[str, str]]:
    """How often each marked value stands, and where it was first seen with its text."""
    counts: Counter[str] = Counter()
    where: dict[str, str] = {}
    for text, name, spans in zip(texts, names, found, strict=True):
        for _kind, start, end in spans:
            value = text[start:end]
            counts[value] += 1
            if value not in where:
                before = text[max(0, start - _AROUND) : start].replace("\n", "⏎")
                after = text[end : end + 40].replace("\n", "⏎")
                where[value] = f"{name[:32]}: …{before}⟦{value[:80]}⟧{after}"
    return counts, where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("folders", nargs="*", type=Path)
    args = parser.parse_args()
    folders = args.folders or [
        HERE / "honest" / "local",
        HERE / "redact_tuning" / "local",
        *sorted(HERE.glob("redact_blind*/local")),
    ]
    texts, names = session_strings([f for f in folders if f.is_dir()])
    ours = redact_same.findings(texts)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "texts.json"
        path.write_text(json.dumps(texts), "utf-8")
        theirs = redact_same._baseline(args.baseline, path, no_library=False)
    here, where_here = _values(texts, names, ours)
    there, where_there = _values(texts, names, theirs)
    files = len(set(names))
    print(f"{files} session files, {len(texts)} strings; values marked: here {len(here)},")
    print(f"{args.baseline} {len(there)}")
    added = [v for v in here if v not in there]
    lost = [v for v in there if v not in here]
    print(f"\nmarked here, not at {args.baseline} ({len(added)}):")
    for value in sorted(added, key=lambda v: -here[v]):
        print(f"  {here[value]:3d} {where_here[value]}")
    print(f"\nmarked at {args.baseline}, not here ({len(lost)}):")
    for value in sorted(lost, key=lambda v: -there[v]):
        print(f"  {there[value]:3d} {where_there[value]}")


if __name__ == "__main__":
    main()
