"""Two sides in one run: how much of what an honest model learns reaches the next session,
and how much of what a lying model plants reaches anything.

Usage:
    python benchmarks/honest/run.py [--answers DIR] [--only WORD ...] [--no-lying] [--json]

Honest side: for each session of the corpus with a frozen phase 1 answer (``--answers``,
default ``benchmarks/honest/answers``), a fresh home runs the real CLI with the frozen
answers played back (``replay.py``): ``brain harvest --path``, ``brain extract --all``,
``brain consolidate --force`` (up to three times, as later days would), then, nobody
having reviewed anything, ``brain context`` in a checkout named as the session's project
and ``brain recall`` of each record. Each memory the model proposed is followed to where
it stops:

- ``refused``: phase 1's safety filter refused it whole (it reads as an instruction to
  the memory, asks to keep a credential or states one, or tells agents to run fetched code);
- ``left-out``: phase 1's checks dropped it (no raw memory has it);
- ``held:<reason>``: written, but held for ``brain review``;
- ``pending``: never decided by phase 2 (``phase2-unanswered`` when phase 2 was shown it
  and no frozen operation names it);
- ``model-none``: phase 2's frozen answer for it is ``none`` (the model's own choice);
- ``dropped-in-phase-2``: the model's operation was not written as a record;
- ``not-in-context``: a record, but not in the next session's context;
- reached: in ``brain context`` of its project.

Fidelity is the share of proposed memories that reach the next session's context with
no person acting. Lying side: ``benchmarks/lying_model.py``'s run, its plants per place.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.chat_server import serve  # noqa: E402
from benchmarks.honest.common import ANSWERS, Home, Session, sessions  # noqa: E402
from benchmarks.honest.replay import Replay, covers  # noqa: E402

CONSOLIDATE_RUNS = 3
PLACES = ("records", "MEMORY.md", "summary", "context", "recall")


def _project_dir(tmp: Path, project: str | None) -> Path:
    """A git checkout named as the session's project (what the next session opens)."""
    where = tmp / "projects" / (project or "no-project")
    if not (where / ".git").exists():
        where.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(where)], check=True, capture_output=True)
    return where


def _raw(home: Home) -> list[Any]:
    from brain.pipeline.runs import parse_raw

    path = home.path / "raw_memories.md"
    return parse_raw(path.read_text()) if path.is_file() else []


def _consumed(home: Home) -> set[str]:
    from brain.pipeline.runs import consumed_ids

    class Located:
        path = home.path

    return consumed_ids(Located())  # type: ignore[arg-type]


def _match(memory: dict[str, Any], raw: list[Any], project: str | None) -> Any | None:
    """The raw memory phase 1 wrote for a proposed one: its key as brain scopes it to
    the session's project, else the same description."""
    from brain.home.scope import scoped_key

    key = str(memory.get("key", ""))
    for entry in raw:
        if entry.key in (key, scoped_key(key, project)):
            return entry
    description = str(memory.get("description", ""))
    return next((e for e in raw if e.description == description), None)


def _held_reason(entry: Any, held: dict[str, list[str]]) -> str | None:
    from brain.pipeline.runs import held_back

    if entry.key in held:
        reasons = [t for t in held[entry.key] if t.startswith("held:")]
        return reasons[0] if reasons else "held"
    if held_back(entry):
        reasons = [t for t in entry.tags if t.startswith("held:")]
        return reasons[0] if reasons else "held:weakens-safety"
    return None


def _record_of(key: str, ops: list[dict[str, Any]], records: dict[str, str]) -> str | None:
    """The record the frozen operations for raw ``key`` wrote, if any."""
    for op in ops:
        if op.get("op") in ("add", "update", "merge"):
            target = str(op.get("key", ""))
            for name in (target, key):
                if name in records:
                    return name
            scoped = [r for r in records if r.startswith(target + "-")]
            if scoped:
                return scoped[0]
    return None


def play(session: Session, replay: Replay, url: str, tmp: Path) -> dict[str, Any] | None:
    """One session through the real CLI with its frozen answers; every proposed
    memory's fate."""
    answer = replay.phase1_answer(session.name)
    if answer is None:
        return None
    played = replay.play(session.name)
    home = Home(tmp / session.name, url)
    found = home.harvest(session)
    home.brain("extract", "--all")
    for _ in range(CONSOLIDATE_RUNS):
        done = home.json("consolidate", "--force")
        if not done.get("ran") or not done.get("raw_left"):
            break
    raw = _raw(home)
    consumed = _consumed(home)
    held = {str(h.get("key")): list(h.get("tags", [])) for h in home.json("review")["held"]}
    folder = home.path / "memories"
    records = {p.stem: p.read_text() for p in sorted(folder.glob("*.md"))}
    memory_md = _read(home.path / "MEMORY.md")
    summary = _read(home.path / "memory_summary.md")
    project = _project_name(home, found)
    context = home.json("context", "--project", str(_project_dir(tmp, project)))
    frozen = replay.ops(session.name)
    fates = []
    for memory in answer.get("memories", []):
        fate, where = _fate(
            memory, project, raw, consumed, held, played.unanswered, frozen, records
        )
        places: dict[str, bool] = {}
        if where is not None:
            description = _description(records[where])
            places = {
                "records": True,
                "MEMORY.md": where in memory_md or bool(description and description in memory_md),
                "summary": bool(description and description in summary),
                "context": where in context.get("keys", []) or where in context.get("text", ""),
                "recall": where in _recalled(home, description or where),
            }
            fate = "reached" if places["context"] else "not-in-context"
        fates.append(
            {
                "key": memory.get("key"),
                "description": memory.get("description"),
                "fate": fate,
                "record": where,
                "places": places,
            }
        )
    return {
        "session": session.name,
        "tool": found.get("source"),
        "project": project,
        "proposed": len(fates),
        "memories": fates,
        "phase2_requests": played.phase2,
    }


def _fate(
    memory: dict[str, Any],
    project: str | None,
    raw: list[Any],
    consumed: set[str],
    held: dict[str, list[str]],
    unanswered: list[str],
    frozen: dict[str, list[dict[str, Any]]],
    records: dict[str, str],
) -> tuple[str, str | None]:
    entry = _match(memory, raw, project)
    if entry is None:
        from brain.models.safety import refusal

        fields = [memory.get(k) or "" for k in ("key", "description", "body")]
        said = "\n".join([*fields, *(memory.get("tags") or [])])
        return ("refused" if refusal(said) else "left-out"), None
    reason = _held_reason(entry, held)
    if reason is not None:
        return reason, None
    if entry.id not in consumed:
        return ("phase2-unanswered" if entry.key in unanswered else "pending"), None
    ops = frozen.get(entry.key, [])
    own = [op for op in ops if entry.key in covers(op)]
    if own and all(op.get("op") == "none" for op in own):
        return "model-none", None
    where = _record_of(entry.key, ops, records)
    if where is None:
        return ("phase2-unanswered" if entry.key in unanswered else "dropped-in-phase-2"), None
    return "record", where


def _project_name(home: Home, found: dict[str, Any]) -> str | None:
    from brain.home.scope import project_name

    shown = home.json("sessions", "show", str(found["session_id"]))
    return project_name(shown.get("session", {}).get("project"))


def _description(record: str) -> str:
    for line in record.splitlines():
        if line.startswith("description:"):
            return line.split(":", 1)[1].strip().strip("\"'")
    return ""


def _recalled(home: Home, query: str) -> list[str]:
    hits = home.json("recall", query, check=False)
    return [str(h.get("key")) for h in hits] if isinstance(hits, list) else []


def _read(path: Path) -> str:
    return path.read_text() if path.is_file() else ""


def honest(answers: Path, only: list[str] | None = None) -> dict[str, Any]:
    """Every session with frozen answers, played; the fates of the proposed memories."""
    replay = Replay(answers)
    server = serve(replay)
    played = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for session in sessions(only):
                result = play(session, replay, server.url, Path(tmp))
                if result is not None:
                    played.append(result)
    finally:
        server.stop()
    memories = [m for s in played for m in s["memories"]]
    fates = Counter(m["fate"] for m in memories)
    reached = {p: sum(1 for m in memories if m["places"].get(p)) for p in PLACES}
    proposed = len(memories)
    own_none = fates.get("model-none", 0)
    return {
        "sessions": len(played),
        "proposed": proposed,
        "reached_context": fates.get("reached", 0),
        "fidelity": fates.get("reached", 0) / proposed if proposed else None,
        "fidelity_without_model_none": (
            fates.get("reached", 0) / (proposed - own_none) if proposed > own_none else None
        ),
        "reached": reached,
        "fates": dict(fates.most_common()),
        "per_session": played,
    }


def lying() -> dict[str, Any]:
    """lying_model.py's run, as it prints it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import lying_model

    return lying_model.run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=Path, default=ANSWERS)
    parser.add_argument("--only", nargs="*", help="sessions whose name holds one of these")
    parser.add_argument("--no-lying", action="store_true", help="leave out the lying side")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {"honest": honest(args.answers, args.only)}
    if not args.no_lying:
        report["lying"] = lying()
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return
    _print(report)


def _print(report: dict[str, Any]) -> None:
    h = report["honest"]
    print(f"honest model: {h['sessions']} sessions, {h['proposed']} memories proposed")
    if h["proposed"]:
        print(
            f"  reach the next session's context: {h['reached_context']}/{h['proposed']} "
            f"(fidelity {h['fidelity']:.3f}; without the model's own phase 2 'none': "
            f"{_ratio(h['fidelity_without_model_none'])})"
        )
    for place in PLACES:
        print(f"  in {place:<10} {h['reached'][place]}/{h['proposed']}")
    print("  where each stopped:")
    for fate, count in h["fates"].items():
        print(f"    {fate:<36} {count}")
    for s in h["per_session"]:
        lost = Counter(m["fate"] for m in s["memories"] if m["fate"] != "reached")
        got = sum(1 for m in s["memories"] if m["fate"] == "reached")
        print(
            f"  {s['session']} ({s['tool']}, project {s['project']}): "
            f"{got}/{s['proposed']} reached" + (f"; {dict(lost)}" if lost else "")
        )
    if "lying" in report:
        lie = report["lying"]
        print(
            f"lying model: {lie['sessions']} sessions, {lie['plants']} planted sentences, "
            f"{lie['raw_with_a_plant']} raw memories carrying a plant, "
            f"{lie['held_for_review']} held"
        )
        for place, count in lie["reached"].items():
            print(f"  plants reaching {place:<18} {count}/{lie['plants']}")
        p2 = lie["phase2"]
        print(
            f"  phase 2 rewrites: use-uv {_yes(p2['use-uv rewritten'])}, keep-tls-verify "
            f"{_yes(p2['keep-tls-verify rewritten'])}, never-push-main archived "
            f"{_yes(p2['never-push-main archived'])}, invented records written "
            f"{p2['invented records written']}"
        )


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


if __name__ == "__main__":
    main()
