"""Record the exact prompts brain sends a model for each session of the honest corpus.

Usage:
    python benchmarks/honest/record.py phase1 --out DIR [--only WORD ...]
    python benchmarks/honest/record.py phase2 --out DIR [--only WORD ...]

phase1: for each session, a fresh home harvests it (``brain harvest --path``) and runs
``brain extract --all`` with its extract model pointed at a chat server on 127.0.0.1,
which keeps each request and answers with no memories. Written to ``DIR/phase1/``:
``<session>.json`` (the request as sent: messages, response_format, the rest),
``<session>.prompt.txt`` (the messages' text as one prompt, then the answer format) and
``index.json`` (per session: tool, turns, typed turns, CJK or not, prompt tokens). The
answer a model gives goes to ``<session>.answer.json``.

phase2: for each session with a phase 1 answer, a fresh home harvests it, extracts with
that answer played back, lets every held memory through (``brain review --accept``) so
that every raw memory the checks did not leave out reaches phase 2, and runs
``brain consolidate --force``; the server keeps each request and answers with no
operations. Written to ``DIR/phase2/``: ``<session>.<n>.json`` and
``<session>.<n>.prompt.txt`` per request; the answers go to ``<session>.<n>.answer.json``
and are then frozen per raw memory (``replay.py freeze``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.chat_server import serve  # noqa: E402
from benchmarks.honest.common import (  # noqa: E402
    CJK,
    Home,
    Session,
    estimate_tokens,
    is_phase2,
    phase1_text,
    sessions,
    write_json,
)
from benchmarks.honest.replay import EMPTY_PHASE1, Replay  # noqa: E402

_SHOWN = re.compile(r"^\[L\d+-\d+\] ", re.M)  # a turn's head in the transcript shown


class Recorder:
    """Keeps every request; answers phase 1 from ``phase1`` (default: no memories) and
    phase 2 with no operations."""

    def __init__(self, phase1: Replay | None = None) -> None:
        self.requests: list[dict[str, Any]] = []
        self.phase1 = phase1

    def __call__(self, body: dict[str, Any]) -> str:
        if is_phase2(body):
            self.requests.append(body)
            return json.dumps({"operations": []})
        if self.phase1 is not None:
            return self.phase1(body)
        self.requests.append(body)
        return json.dumps(EMPTY_PHASE1)


def _typed_turns(home: Home, source_id: str) -> tuple[int, int, bool]:
    """(turns, typed turns, any CJK in a typed turn) as brain reads the session: a typed
    turn is the person's, not one a tool injected."""
    shown = home.json("sessions", "show", source_id)
    turns = shown.get("turns") or []
    typed = [t for t in turns if t.get("role") == "user" and not t.get("injected")]
    cjk = any(CJK.search(str(t.get("text", ""))) for t in typed)
    return len(turns), len(typed), cjk


def record_phase1(session: Session, out: Path, tmp: Path) -> dict[str, Any]:
    recorder = Recorder()
    server = serve(recorder)
    try:
        home = Home(tmp / session.name, server.url)
        found = home.harvest(session)
        source_id = str(found["session_id"])
        home.brain("extract", "--all")
        turns, typed, cjk = _typed_turns(home, source_id)
    finally:
        server.stop()
    if len(recorder.requests) != 1:
        raise RuntimeError(f"{session.name}: {len(recorder.requests)} phase 1 requests, not 1")
    body = recorder.requests[0]
    text = phase1_text(body)
    write_json(out / f"{session.name}.json", body)
    (out / f"{session.name}.prompt.txt").write_text(text)
    return {
        "session": session.name,
        "file": str(session.path.relative_to(session.path.parent.parent)),
        "tool": found["source"],
        "source_id": source_id,
        "turns": turns,
        "typed_turns": typed,
        "cjk": cjk,
        "shown_turns": len(_SHOWN.findall(text)),
        "prompt_tokens": estimate_tokens(text),
        "prompt_chars": len(text),
    }


def record_phase2(session: Session, out: Path, answers: Path, tmp: Path) -> int | None:
    replay = Replay(answers)
    if replay.phase1_answer(session.name) is None:
        return None
    replay.play(session.name)
    recorder = Recorder(phase1=replay)
    server = serve(recorder)
    try:
        home = Home(tmp / session.name, server.url)
        home.harvest(session)
        home.brain("extract", "--all")
        for held in home.json("review").get("held", []):
            home.brain("review", "--accept", str(held["key"]))
        home.brain("consolidate", "--force")
    finally:
        server.stop()
    for old in out.glob(f"{session.name}.[0-9]*.*"):
        if not old.name.endswith(".answer.json"):
            old.unlink()
    for n, body in enumerate(recorder.requests, 1):
        write_json(out / f"{session.name}.{n}.json", body)
        (out / f"{session.name}.{n}.prompt.txt").write_text(phase1_text(body))
    return len(recorder.requests)


def _merged(path: Path, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The index at ``path`` with ``rows`` in place of its rows of the same sessions
    (a run of some sessions keeps the others' rows), sessions no longer present dropped."""
    present = {s.name for s in sessions()}
    old = json.loads(path.read_text()) if path.is_file() else []
    by_name = {r["session"]: r for r in old if r["session"] in present}
    by_name.update({r["session"]: r for r in rows})
    return [by_name[n] for n in sorted(by_name)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phase", choices=("phase1", "phase2"))
    parser.add_argument("--out", type=Path, required=True, help="e.g. /work/honest-run")
    parser.add_argument("--only", nargs="*", help="sessions whose name holds one of these")
    args = parser.parse_args()
    chosen = sessions(args.only)
    with tempfile.TemporaryDirectory() as tmp:
        if args.phase == "phase1":
            out = args.out / "phase1"
            out.mkdir(parents=True, exist_ok=True)
            index = []
            for session in chosen:
                row = record_phase1(session, out, Path(tmp))
                index.append(row)
                print(
                    f"{row['session']}: {row['tool']}, {row['turns']} turns "
                    f"({row['typed_turns']} typed{', CJK' if row['cjk'] else ''}; "
                    f"{row['shown_turns']} shown), "
                    f"prompt ~{row['prompt_tokens']} tokens"
                )
            index = _merged(out / "index.json", index)
            write_json(out / "index.json", index)
            total = sum(r["prompt_tokens"] for r in index)
            print(f"{len(index)} phase 1 prompts in the index, ~{total} tokens, in {out}")
        else:
            out = args.out / "phase2"
            out.mkdir(parents=True, exist_ok=True)
            for session in chosen:
                n = record_phase2(session, out, args.out, Path(tmp))
                if n is None:
                    print(f"{session.name}: no phase 1 answer, skipped")
                else:
                    print(f"{session.name}: {n} phase 2 request(s)")


if __name__ == "__main__":
    main()
