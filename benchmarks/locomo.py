"""Recall@k of brain's index on LoCoMo (Maharana et al., ACL 2024).

Each conversation's dialog turns are indexed through ``brain.index`` (one document per
turn, in a fresh SQLite file), each question is the query, and Recall@k is the share of
the question's evidence turns found in the top k, averaged over questions.

    python benchmarks/locomo.py --data /path/to/locomo10.json [--k 1,5,10,25] [--json]
    python benchmarks/locomo.py --data ... --only conv-41   # one conversation (held out)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brain.index import Doc, Index  # noqa: E402
from brain.index.turns import questions_answered  # noqa: E402

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
_SESSION = re.compile(r"session_(\d+)$")


def evidence_ids(evidence: list[str]) -> set[str]:
    """Normalise evidence strings ('D8:6; D9:17', 'D:11:26', 'D30:05') to 'D<s>:<t>' ids."""
    found = set()
    for item in evidence:
        for session, turn in _EVIDENCE.findall(item):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def session_time(text: str) -> datetime | None:
    """Parse LoCoMo's '1:56 pm on 8 May, 2023' into a UTC datetime."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def turns(conversation: dict) -> Iterator[tuple[int, str, dict]]:
    """Yield (session number, session date text, turn) in conversation order."""
    sessions = sorted((int(m.group(1)), key) for key in conversation if (m := _SESSION.match(key)))
    for number, key in sessions:
        when = conversation.get(f"{key}_date_time", "")
        for turn in conversation[key] or []:
            yield number, when, turn


def turn_text(date: str, turn: dict) -> str:
    """A turn as indexed: session date, speaker, words, and the caption of a shared image."""
    text = f"{date}: {turn['speaker']}: {turn.get('text', '')}"
    if turn.get("blip_caption"):
        text += f" [shared an image: {turn['blip_caption']}]"
    return text


def documents(sample: dict, window: int) -> list[Doc]:
    """One ``turn`` document per dialog turn; ``window`` neighbours each side as context.

    A turn also carries the question it answers (brain's ``questions_answered``, per
    session), as brain indexes a harvested transcript's turns.
    """
    rows = list(turns(sample["conversation"]))
    texts = [turn_text(date, turn) for _, date, turn in rows]
    asked = []
    for _, group in groupby(rows, key=lambda r: r[0]):
        asked += questions_answered([(t["speaker"], t.get("text", "")) for _, _, t in group])
    docs = []
    for i, (number, date, turn) in enumerate(rows):
        neighbours = [
            texts[j]
            for j in range(max(0, i - window), min(len(rows), i + window + 1))
            if j != i and rows[j][0] == number
        ]
        stamp = session_time(date)
        docs.append(
            Doc(
                path=turn["dia_id"],
                kind="turn",
                body=texts[i],
                session=f"{sample['sample_id']}/session_{number}",
                created=stamp.isoformat() if stamp else "",
                context="\n".join(neighbours),
                author=turn["speaker"],
                asked=asked[i],
            )
        )
    return docs


def evaluate(
    samples: list[dict],
    ks: list[int],
    window: int,
    expand: bool,
    semantic: bool = False,
    floor: float | None = None,
) -> dict:
    """Index each conversation, ask every question; return per-question recall rows.

    Each question is also asked for 10 hits: the top 10 must not depend on how many hits
    are asked for (``k_dependent`` counts the questions where it does), and ``shown`` is
    how many hits a search for 10 returns on average (the score floor cuts weak ones).
    """
    rows = []
    options = {} if floor is None else {"floor": floor}
    asked = max(*ks, 100)
    k_dependent = 0
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for sample in samples:
            docs = documents(sample, window)
            times = [d.created for d in docs if d.created]
            now = datetime.fromisoformat(max(times)) if times else None
            with Index.open(
                Path(tmp) / f"{sample['sample_id']}.sqlite", semantic=semantic
            ) as index:
                index.upsert(docs)
                for qa in sample["qa"]:
                    gold = evidence_ids(qa.get("evidence", []))
                    if not gold:
                        continue
                    question = qa["question"]
                    hits = index.search(question, k=asked, now=now, expand=expand, **options)
                    found = [h.path for h in hits]
                    ten = [
                        h.path
                        for h in index.search(question, k=10, now=now, expand=expand, **options)
                    ]
                    k_dependent += ten != found[:10]
                    shown += len(ten)
                    recall = {k: len(gold & set(found[:k])) / len(gold) for k in ks}
                    rows.append({"category": qa["category"], "recall": recall})
    result = summarise(rows, ks)
    result["k_dependent"] = k_dependent
    result["shown_at_10"] = round(shown / max(1, len(rows)), 2)
    return result


def summarise(rows: list[dict], ks: list[int]) -> dict:
    """Average Recall@k overall (all categories), without adversarial, and per category."""

    def mean(selected: list[dict]) -> dict[str, float]:
        n = max(1, len(selected))
        return {f"R@{k}": round(sum(r["recall"][k] for r in selected) / n, 4) for k in ks}

    by_cat: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_cat[row["category"]].append(row)
    return {
        "overall": mean(rows),
        "overall_without_adversarial": mean([r for r in rows if r["category"] != 5]),
        "by_category": {
            f"{c} {CATEGORIES.get(c, '?')}": {**mean(by_cat[c]), "questions": len(by_cat[c])}
            for c in sorted(by_cat)
        },
        "questions": len(rows),
    }


def table(result: dict, ks: list[int]) -> str:
    """A plain-text table of the result."""
    head = f"{'':28}" + "".join(f"{'R@' + str(k):>8}" for k in ks) + f"{'n':>6}"
    lines = [head]
    rows = [("overall", {**result["overall"], "questions": result["questions"]})]
    rows.append(("overall w/o adversarial", result["overall_without_adversarial"]))
    rows += list(result["by_category"].items())
    for name, values in rows:
        n = values.get("questions", "")
        lines.append(f"{name:28}" + "".join(f"{values[f'R@{k}']:>8.3f}" for k in ks) + f"{n:>6}")
    lines.append(
        f"top 10 of k=10 differs from the first 10 of k=100: {result['k_dependent']} of "
        f"{result['questions']} questions (want 0)"
    )
    lines.append(f"hits returned when 10 are asked for: {result['shown_at_10']} on average")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="locomo10.json or a subset")
    parser.add_argument("--k", default="1,5,10,25", help="comma-separated cut-offs")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--window", type=int, default=2, help="neighbour turns as context")
    parser.add_argument("--no-expand", action="store_true", help="no pseudo-relevance feedback")
    parser.add_argument(
        "--semantic", action="store_true", help="the wordllama layer: related words, fusion"
    )
    parser.add_argument("--only", default="", help="comma-separated sample ids to evaluate")
    parser.add_argument(
        "--floor", type=float, default=None, help="the relative score floor (default: the engine's)"
    )
    args = parser.parse_args(argv)
    ks = sorted({int(k) for k in args.k.split(",") if k.strip()})
    samples = json.loads(args.data.read_text())
    if args.only:
        wanted = set(args.only.split(","))
        samples = [s for s in samples if s["sample_id"] in wanted]
    result = evaluate(samples, ks, args.window, not args.no_expand, args.semantic, args.floor)
    print(json.dumps(result, indent=2) if args.json else table(result, ks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
