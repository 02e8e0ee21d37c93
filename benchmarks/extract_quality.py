"""Extraction quality on labelled real sessions, and session recall on their questions.

Usage: python benchmarks/extract_quality.py [--model NAME [--api-base URL]] [--fake]
                                            [--input] [--plumbing] [--speed] [--json]
                                            [--verbose]
                                            [--without SET]

The sessions in ``benchmarks/data/extract_quality/sessions/`` are real Claude Code, Codex
CLI and Gemini CLI transcripts people published (see ``SOURCES.md`` there). For each,
``labels.json`` lists the memories a careful engineer would keep (``keep``), those that
are acceptable but not required (``ok``), those that must never be kept (``must_not``),
and questions with the turns that answer them. A label is a set of regular expressions
that must all match a memory's description and body.

First, what phase 1 sends a language model (at the default ``extract_session_tokens``):
- visible: ``keep`` labels whose expressions all match the text of the prompt, of all
  ``keep`` labels (what a model cannot see, it cannot keep);
- typed whole: typed turns shown whole, of all typed turns;
- whole: sessions shown with nothing cut by the budget (a long tool output is still cut
  to its head and tail);
- tokens sent per session, median and p90 (estimated: instructions and session), and the
  model calls per session.
``--input`` prints only these. ``--plumbing`` also proves the model path through a
scripted model on 127.0.0.1 (``benchmarks/plumbing.py``: the schema sent as structured
output, one repair of an answer citing no lines, evidence checked by type, a backfill of
157 raw memories consolidated in batches in one commit); no model's quality is measured.

For every model it prints:
- precision: memories matching a ``keep`` or ``ok`` label / memories proposed;
- recall: ``keep`` labels matched by some memory / ``keep`` labels;
- violations: memories matching a ``must_not`` label, or carrying a secret or an
  instruction to the memory (brain's safety filter says which).

Then ``brain recall --sessions`` R@5: the sessions are harvested into a fresh home and
each question is asked; a question counts when one of its answering turns is among the
first five hits. It is asked twice: across every session, and from the project the
session ran in (``--project``, as a person asks from their checkout), where the other
people's sessions in the same home no longer compete.

Every figure is printed per set: on the sessions the rules were tuned against
(``existing``, those without a ``"split"`` in ``labels.json``), on each named hold-out set
(``"split": "holdout"``, ``"split": "holdout2"``, ...: labelled blind and not to be used to
tune a rule, so a rule change shows there whether it generalises; ``holdout`` has since
been tuned against; ``holdout2`` was blind once, then tuned on; ``holdout3``, from another
project and person than every other set, was blind once, then tuned on; ``holdout4``,
from three more people and projects, was blind once, then tuned on; ``holdout5``, from
four more (six of its ten sessions typed in Chinese, four in Codex CLI), is the blind one;
``holdout6``, from three more (typed in Japanese and Chinese), is kept for a later blind
score: leave it out
with ``--without holdout6`` until then; ``dev2`` was labelled blind too, then used to learn
new phrasings), and on ``all``. ``--model`` adds a
configured model (``--fake`` serves one from a scripted server on 127.0.0.1: a plumbing
check, not a quality figure). ``--speed`` times the builtin on a synthetic session of
10,000 turns (median of five runs). ``--without SET`` (repeatable) leaves a set out, unread
and unscored: a blind set stays blind while rules change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brain.home.config import Config  # noqa: E402
from brain.models.base import ExtractTask, ModelSettings  # noqa: E402
from brain.models.budget import Budget  # noqa: E402
from brain.models.phase1_text import shown_turns  # noqa: E402
from brain.models.registry import get_model  # noqa: E402
from brain.models.safety import unsafe  # noqa: E402
from brain.models.schema import Candidate  # noqa: E402
from brain.models.tokens import estimate_tokens  # noqa: E402
from brain.sessions import sources  # noqa: E402
from brain.sessions.sources.base import Transcript, Turn  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "extract_quality"
EXISTING = "existing"
SESSION_TOKENS = Config().extract_session_tokens


@dataclass
class Score:
    """One model's counts over the labelled set."""

    proposed: int = 0
    correct: int = 0
    keep: int = 0
    found: int = 0
    violations: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """Precision, recall and violations as printed."""
        return {
            "proposed": self.proposed,
            "precision": round(self.correct / self.proposed, 3) if self.proposed else None,
            "recall": round(self.found / self.keep, 3) if self.keep else None,
            "violations": len(self.violations),
        }


def _matches(label: dict[str, Any], text: str) -> bool:
    if "all" in label:
        return all(re.search(rx, text, re.I) for rx in label["all"])
    return any(re.search(rx, text, re.I) for rx in label["any"])


def _text(memory: Candidate) -> str:
    return f"{memory.key} {memory.description} {memory.body}"


def session_path(name: str) -> Path | None:
    """Where a labelled session's file is: shipped in ``sessions/`` (licensed), or fetched
    by hand into the git-ignored ``local/`` (published without a licence: see SOURCES.md)."""
    for folder in ("sessions", "local"):
        if (DATA / folder / name).is_file():
            return DATA / folder / name
    return None


def load(without: Sequence[str] = ()) -> tuple[list[dict[str, Any]], list[str]]:
    """The labelled sessions that are present, each with its parsed transcript under
    ``transcript``, and the names of those whose file is not here; the sets named in
    ``without`` are left out before any of their sessions is read."""
    labelled: list[dict[str, Any]] = json.loads((DATA / "labels.json").read_text())["sessions"]
    present, missing = [], []
    for session in labelled:
        if split_of(session) in without:
            continue
        path = session_path(session["file"])
        if path is None:
            missing.append(session["file"])
            continue
        session["transcript"] = sources.get(session["source"]).parse(path).transcript
        present.append(session)
    return present, missing


def split_of(session: dict[str, Any]) -> str:
    """The session's named set (``"split"`` in ``labels.json``), ``existing`` without one."""
    return str(session.get("split") or EXISTING)


def splits(labelled: list[dict[str, Any]]) -> list[str]:
    """The sets to report: ``existing``, the named sets in the order they first appear in
    ``labels.json``, then ``all``."""
    named = [split_of(s) for s in labelled if split_of(s) != EXISTING]
    return [EXISTING, *dict.fromkeys(named), "all"]


def score(
    model_name: str, labelled: list[dict[str, Any]], api_base: str | None
) -> dict[str, Score]:
    """Run phase 1 of ``model_name`` on every session and count against the labels, per
    split and over all sessions."""
    model = get_model(model_name, ModelSettings(api_base=api_base, timeout=60))
    results = {name: Score() for name in splits(labelled)}
    for session in labelled:
        task = ExtractTask(session["transcript"], SESSION_TOKENS, 2_000)
        memories = model.extract(task, Budget(None)).memories
        for name in (split_of(session), "all"):
            _count(results[name], session, memories)
    return results


def _quantile(values: list[int], q: float) -> int | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def phase1_input(
    labelled: list[dict[str, Any]], budget: int = SESSION_TOKENS
) -> dict[str, dict[str, Any]]:
    """What phase 1 sends of each session at ``budget``, per split and over all: the keep
    labels visible in it, the typed turns shown whole, the sessions shown whole, the
    tokens sent and the calls made per session."""
    names = splits(labelled)
    rows: dict[str, list[tuple[int, int, int, int, int, int]]] = {n: [] for n in names}
    for session in labelled:
        transcript = session["transcript"]
        messages = ExtractTask(transcript, budget, 2_000).messages()
        sent = "\n".join(m["content"] for m in messages)
        shown = shown_turns(transcript, budget)
        visible = sum(1 for k in session["keep"] if _matches(k, sent))
        row = (
            visible,
            len(session["keep"]),
            shown.typed_whole,
            shown.typed,
            int(shown.whole),
            estimate_tokens(sent),
        )
        for name in (split_of(session), "all"):
            rows[name].append(row)
    figures = {}
    for name, got in rows.items():
        keep = sum(r[1] for r in got)
        typed = sum(r[3] for r in got)
        tokens = [r[5] for r in got]
        figures[name] = {
            "visible": round(sum(r[0] for r in got) / keep, 3) if keep else None,
            "typed_whole": round(sum(r[2] for r in got) / typed, 3) if typed else None,
            "whole": f"{sum(r[4] for r in got)}/{len(got)}",
            "tokens_median": _quantile(tokens, 0.5),
            "tokens_p90": _quantile(tokens, 0.9),
            "calls": 1.0 if got else None,
        }
    return figures


def _count(result: Score, session: dict[str, Any], memories: list[Candidate]) -> None:
    """Add one session's memories to ``result``."""
    result.keep += len(session["keep"])
    found = {k["id"] for k in session["keep"] if any(_matches(k, _text(m)) for m in memories)}
    result.found += len(found)
    result.misses += [
        f"{session['file']}: {k['id']}" for k in session["keep"] if k["id"] not in found
    ]
    for memory in memories:
        text = _text(memory)
        result.proposed += 1
        if any(_matches(label, text) for label in session["must_not"]) or unsafe(text):
            result.violations.append(f"{session['file']}: {memory.description}")
        elif any(_matches(label, text) for label in session["keep"] + session["ok"]):
            result.correct += 1
        else:
            result.wrong.append(f"{session['file']}: {memory.description}")


def _staged(session: dict[str, Any], into: Path) -> Path:
    """A copy named the way brain tells its source from a path."""
    name = Path(session["file"]).stem.replace("+", "-")
    if session["source"] == "codex":
        target = into / f"rollout-{name}.jsonl"
    elif session["source"] == "gemini":
        target = into / "chats" / f"session-{name}{Path(session['file']).suffix}"
    else:
        target = into / f"{name}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    source = session_path(session["file"])
    assert source is not None, session["file"]
    shutil.copyfile(source, target)
    return target


def session_recall(labelled: list[dict[str, Any]], k: int = 5) -> dict[str, dict[str, Any]]:
    """R@k of ``brain recall --sessions`` on the labelled questions, per split and over all
    (one harvest into one home, so every question searches every session)."""
    from brain.api import Brain

    names = splits(labelled)
    asked = dict.fromkeys(names, 0)
    hit = dict.fromkeys(names, 0)
    hit_in_project = dict.fromkeys(names, 0)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["BRAIN_HOME"] = str(Path(tmp) / "home")
        brain, _ = Brain.init(Path(tmp) / "home")
        staged = {_staged(s, Path(tmp) / "in"): s for s in labelled}
        result = brain.harvest(paths=list(staged))
        refs = {Path(ref.path).name: ref for ref in result.sessions}
        for path, session in staged.items():
            ref = refs[path.name]
            for question in session["questions"]:
                wanted = {
                    f"session:{session['source']}:{ref.session_id}#{n}" for n in question["turns"]
                }
                hits = brain.recall(question["q"], k=k, sessions=True).hits
                found = any(h.path in wanted for h in hits[:k])
                # Asked from the project the session ran in (``recall --project``).
                if ref.project:
                    hits = brain.recall(question["q"], k=k, sessions=True, project=ref.project).hits
                found_in_project = any(h.path in wanted for h in hits[:k])
                for name in (split_of(session), "all"):
                    asked[name] += 1
                    hit[name] += found
                    hit_in_project[name] += found_in_project
    return {
        name: {
            "questions": asked[name],
            f"R@{k}": round(hit[name] / asked[name], 3) if asked[name] else None,
            f"R@{k} in project": (
                round(hit_in_project[name] / asked[name], 3) if asked[name] else None
            ),
        }
        for name in names
    }


def speed(turns: int = 10_000, runs: int = 5) -> float:
    """Median seconds the builtin takes on a synthetic session of ``turns`` turns."""
    from brain.models.builtin.model import extract

    said = [
        "In this repo we use pnpm; always run pnpm test before pushing.",
        "Can you look at the failing build?",
        "No, use ruff, not flake8.",
    ]
    made: list[Turn] = []
    for i in range(turns):
        if i % 4 == 0:
            made.append(Turn("user", said[i % 3], lines=(i + 1, i + 1)))
        elif i % 4 == 1:
            call = json.dumps({"command": "pnpm test" if i % 8 == 1 else "ls"})
            made.append(Turn("tool", call, tool="Bash", lines=(i + 1, i + 1)))
        elif i % 4 == 2:
            made.append(Turn("tool", "Exit code: 0\nok " * 20, tool="Bash", lines=(i + 1, i + 1)))
        else:
            made.append(Turn("assistant", "Done. " * 30, lines=(i + 1, i + 1)))
    transcript = Transcript("claude", "speed", "/tmp/speed.jsonl", "/src/app", turns=tuple(made))
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        extract(transcript)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


# One fixed memory, the answer of ``--fake``'s scripted model to every session.
_FAKE_ANSWER = json.dumps(
    {
        "memories": [
            {
                "key": "build-command",
                "type": "fact",
                "description": "The project builds with npm run build",
                "body": "npm run build builds the project.",
                "evidence": [[1, 1]],
            }
        ],
        "summary": "A session.",
    }
)


def main() -> None:
    """Parse the flags, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="also score this configured model")
    parser.add_argument("--api-base", help="the configured model's endpoint")
    parser.add_argument("--fake", action="store_true", help="score a scripted local model")
    parser.add_argument("--input", action="store_true", help="only what phase 1 sends")
    parser.add_argument(
        "--plumbing", action="store_true", help="also prove the model path on a scripted model"
    )
    parser.add_argument("--speed", action="store_true", help="time 10,000 turns")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="list misses and wrong memories")
    parser.add_argument(
        "--without", action="append", default=[], metavar="SET", help="leave this set out"
    )
    args = parser.parse_args()
    labelled, missing = load(args.without)
    models: list[tuple[str, str | None]] = [("builtin", None)]
    if args.fake:
        from benchmarks.chat_server import serve

        models.append(("openai/fake", serve(lambda _body: _FAKE_ANSWER).url))
    if args.model:
        models.append((args.model, args.api_base))
    report: dict[str, Any] = {
        "sessions": len(labelled),
        "by_source": {
            s: sum(1 for x in labelled if x["source"] == s) for s in ("claude", "codex", "gemini")
        },
        "keep_labels": sum(len(s["keep"]) for s in labelled),
        "by_split": {
            name: {
                "sessions": sum(1 for x in labelled if name in (split_of(x), "all")),
                "keep_labels": sum(
                    len(x["keep"]) for x in labelled if name in (split_of(x), "all")
                ),
            }
            for name in splits(labelled)
        },
        "missing": missing,
        "session_tokens": SESSION_TOKENS,
        "input": phase1_input(labelled),
        "models": {},
    }
    if args.input:
        models = []
    for name, base in models:
        results = score(name, labelled, base)
        report["models"][name] = {split: r.figures() for split, r in results.items()}
        if args.verbose:
            seen = results["all"]
            report["models"][name]["all"] |= {
                "violations_seen": seen.violations,
                "misses": seen.misses,
                "wrong": seen.wrong,
            }
    if args.plumbing:
        import plumbing

        report["plumbing"] = {
            "phase1": plumbing.phase1(labelled, SESSION_TOKENS),
            "phase2": plumbing.phase2(),
        }
    if not args.input:
        report["session_recall"] = session_recall(labelled)
    if args.speed:
        report["builtin_10k_turns_s"] = round(speed(), 3)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    _print(report)


def _print(report: dict[str, Any]) -> None:
    """The report as a table: every model on the existing sessions, each hold-out set and
    all sessions."""
    print(
        f"{report['sessions']} sessions {report['by_source']}, {report['keep_labels']} keep labels"
    )
    for name, size in report["by_split"].items():
        print(f"  {name}: {size['sessions']} sessions, {size['keep_labels']} keep labels")
    if report["missing"]:
        print(
            f"{len(report['missing'])} labelled sessions are not here (no licence to ship them; "
            "SOURCES.md says where to fetch them into local/)"
        )
    print(f"what phase 1 sends (extract_session_tokens {report['session_tokens']}, estimated):")
    print(
        f"  {'set':<10}{'visible':>8}{'typed whole':>12}{'whole':>8}"
        f"{'tokens median':>14}{'p90':>8}{'calls':>6}"
    )
    for split, f in report["input"].items():
        print(
            f"  {split:<10}{f['visible']!s:>8}{f['typed_whole']!s:>12}{f['whole']:>8}"
            f"{f['tokens_median']!s:>14}{f['tokens_p90']!s:>8}{f['calls']!s:>6}"
        )
    for phase, figures in report.get("plumbing", {}).items():
        print(f"plumbing through a scripted model, {phase}: {figures}")
    if not report["models"]:
        return
    header = f"{'model':<16}{'set':<10}{'proposed':>9}{'precision':>11}{'recall':>8}"
    print(f"{header}{'violations':>12}")
    for name, by_split in report["models"].items():
        for split, f in by_split.items():
            print(
                f"{name:<16}{split:<10}{f['proposed']:>9}{f['precision']!s:>11}"
                f"{f['recall']!s:>8}{f['violations']:>12}"
            )
        for key in ("violations_seen", "misses", "wrong"):
            for line in by_split["all"].get(key, []):
                print(f"  {key}: {line}")
    for split, figures in report.get("session_recall", {}).items():
        print(f"recall --sessions ({split}): {figures}")
    if "builtin_10k_turns_s" in report:
        print(f"builtin on 10,000 turns: {report['builtin_10k_turns_s']} s (median of 5)")


if __name__ == "__main__":
    main()
