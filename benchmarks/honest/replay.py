"""Frozen answers played back to brain through a chat server on 127.0.0.1.

Phase 1 is answered by the session being played: the answer a careful model wrote to that
session's recorded prompt (``phase1/<session>.answer.json``).

Phase 2 is composed per raw memory. Which phase 1 memories reach phase 2 depends on the
checks brain runs in between, which change; so phase 2 was recorded with every phase 1
memory let through, and its answers are kept as the operations each raw memory got
(``phase2/<session>.ops.json``, made by :func:`freeze`). A phase 2 request is answered
with the frozen operations of the raw memories it shows; a raw memory with none is
counted ``phase2-unanswered``.

Usage:
    python benchmarks/honest/replay.py check --answers DIR    # answers brain would refuse
    python benchmarks/honest/replay.py freeze --answers DIR   # per-batch answers -> ops

``DIR`` holds ``phase1/`` and ``phase2/`` as ``record.py`` wrote them, with the answer
files beside the prompts.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.honest.common import (  # noqa: E402
    ANSWERS,
    is_phase2,
    raw_keys,
    read_json,
    write_json,
)

EMPTY_PHASE1 = {"memories": [], "summary": "", "outcome": "unclear"}


@dataclass
class Played:
    """What the server was asked while one session was played."""

    phase1: int = 0
    phase2: int = 0
    shown: list[str] = field(default_factory=list)  # raw keys phase 2 was shown
    unanswered: list[str] = field(default_factory=list)  # of those, keys with no frozen op


class Replay:
    """The answering side of the chat server for frozen answers under ``answers``.

    ``play(session)`` names the session whose answers are given until the next call.
    """

    def __init__(self, answers: Path) -> None:
        self.answers = answers
        self.session = ""
        self.played: dict[str, Played] = {}

    def play(self, session: str) -> Played:
        self.session = session
        self.played[session] = Played()
        return self.played[session]

    def phase1_answer(self, session: str) -> dict[str, Any] | None:
        path = self.answers / "phase1" / f"{session}.answer.json"
        return read_json(path) if path.is_file() else None

    def ops(self, session: str) -> dict[str, list[dict[str, Any]]]:
        path = self.answers / "phase2" / f"{session}.ops.json"
        return read_json(path)["by_raw_key"] if path.is_file() else {}

    def __call__(self, body: dict[str, Any]) -> str:
        played = self.played.setdefault(self.session, Played())
        if not is_phase2(body):
            played.phase1 += 1
            return json.dumps(self.phase1_answer(self.session) or EMPTY_PHASE1)
        played.phase2 += 1
        frozen = self.ops(self.session)
        operations: list[dict[str, Any]] = []
        for key in raw_keys(body):
            played.shown.append(key)
            if key not in frozen:
                played.unanswered.append(key)
                continue
            for op in frozen[key]:
                if op not in operations:
                    operations.append(op)
        return json.dumps({"operations": operations})


# -- freezing phase 2 answers per raw memory -----------------------------------------------


def covers(op: dict[str, Any]) -> list[str]:
    """The raw keys an operation decides: its own key and those it merges."""
    return [str(op.get("key", "")), *[str(k) for k in op.get("merged_keys") or []]]


def freeze_session(phase2: Path, session: str) -> dict[str, Any] | None:
    """The per-raw-memory operations of one session, from the answers to its recorded
    phase 2 requests (``<session>.<n>.json`` each answered by ``<session>.<n>.answer.json``).

    An operation goes to every raw key of its request it names (its key, its merged
    keys); one that names none of them goes to every raw key of its request, so it is
    sent whenever any of them is. A raw key no operation names gets none: when it is
    shown again it is ``phase2-unanswered``, unless an operation of its request names
    no raw key (then it is sent with those).
    """
    requests = sorted(phase2.glob(f"{session}.[0-9]*.json"))
    requests = [r for r in requests if not r.name.endswith((".answer.json", ".ops.json"))]
    if not requests:
        return None
    by_key: dict[str, list[dict[str, Any]]] = {}
    missing = []
    for request in requests:
        answer = request.with_name(request.name[: -len(".json")] + ".answer.json")
        if not answer.is_file():
            missing.append(answer.name)
            continue
        keys = raw_keys(read_json(request))
        for op in read_json(answer).get("operations", []):
            named = [k for k in covers(op) if k in keys]
            for key in named or keys:
                by_key.setdefault(key, [])
                if op not in by_key[key]:
                    by_key[key].append(op)
    return {"session": session, "by_raw_key": by_key, "missing_answers": missing}


_REQUEST = re.compile(r"(.+)\.\d+\.json")


def freeze(answers: Path) -> list[str]:
    """Write ``phase2/<session>.ops.json`` for every session with recorded phase 2
    requests; returns one line per session."""
    phase2 = answers / "phase2"
    lines = []
    # (a session's name may hold dots: a repository named personalize.design-app)
    requests = phase2.glob("*.[0-9]*.json") if phase2.is_dir() else ()
    names = {m.group(1) for p in requests if (m := _REQUEST.fullmatch(p.name))}
    for session in sorted(names):
        frozen = freeze_session(phase2, session)
        if frozen is None:
            continue
        write_json(phase2 / f"{session}.ops.json", frozen)
        ops = sum(len(v) for v in frozen["by_raw_key"].values())
        gap = f", missing {frozen['missing_answers']}" if frozen["missing_answers"] else ""
        lines.append(f"{session}: {len(frozen['by_raw_key'])} raw keys, {ops} operations{gap}")
    return lines


def check(answers: Path) -> list[str]:
    """Every answer file under ``answers`` read as brain reads a model's answer
    (``brain.models.schema.parse_answer``); one line per file that brain would refuse,
    and per recorded prompt with no answer yet."""
    from brain.models.schema import AnswerError, Consolidation, Extraction, parse_answer

    problems = []
    for phase, shape in (("phase1", Extraction), ("phase2", Consolidation)):
        folder = answers / phase
        if not folder.is_dir():
            continue
        for prompt in sorted(folder.glob("*.prompt.txt")):
            answer = prompt.with_name(prompt.name[: -len(".prompt.txt")] + ".answer.json")
            if not answer.is_file():
                problems.append(f"{phase}/{answer.name}: no answer yet")
                continue
            try:
                parse_answer(answer.read_text(), shape)  # type: ignore[type-var]
            except AnswerError as exc:
                problems.append(f"{phase}/{answer.name}: {exc}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    freezing = sub.add_parser("freeze", help="turn per-request phase 2 answers into per-raw ops")
    freezing.add_argument("--answers", type=Path, default=ANSWERS)
    checking = sub.add_parser("check", help="read every answer as brain reads a model's")
    checking.add_argument("--answers", type=Path, default=ANSWERS)
    args = parser.parse_args()
    lines = freeze(args.answers) if args.command == "freeze" else check(args.answers)
    for line in lines:
        print(line)
    if args.command == "check" and not lines:
        print("every recorded prompt has an answer brain reads")


if __name__ == "__main__":
    main()
