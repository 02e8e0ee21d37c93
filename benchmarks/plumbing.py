"""The model path's plumbing, through a scripted model on 127.0.0.1 (for extract_quality.py).

No model's quality is measured here: a scripted server answers by rule. What it shows is
that what brain sends and does with an answer works on real sessions:

- schema: every phase 1 request carries the closed answer schema as structured output
  (litellm's ``response_format``) and a low temperature;
- repair: a first answer whose memory cites no lines is sent back once, and the second
  is used;
- evidence by type: the second answer gives, per session, a preference citing the
  person's first typed line, a lesson citing the first tool line and an instruction
  citing that tool line, each quoting the first words of the line it cites (honest
  memories); brain keeps the preference, keeps the lesson unless the tool line it cites
  is outside text (a web page, an MCP result, someone else's file), and never keeps the
  instruction (a tool's output is nobody's instruction); those it keeps but holds for
  ``brain review`` are counted too (an honest memory held is a false hold);
- batching: a backfill of 157 raw memories in a fresh home goes to phase 2 in batches
  whose answers each fit the answer's cap, and is written in one commit.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.chat_server import serve
from brain.models.base import ExtractTask, ModelSettings
from brain.models.budget import Budget
from brain.models.registry import get_model
from brain.models.schema import Extraction, answer_schema
from brain.pipeline.trust.candidates import tainted, vet

MODEL = "openai/gpt-4o-mini"  # litellm sends a response schema to it
_TYPED = re.compile(r"^\[L(\d+)-(\d+)\] user:\n(.*)$", re.M)
_TOOL = re.compile(r"^\[L(\d+)-(\d+)\] tool [^\n]*\n(.*)$", re.M)
_RAW = re.compile(r"^### ([a-z0-9-]+) \(", re.M)


def _memory(key: str, kind: str, lines: tuple[int, int] | None, said: str = "") -> dict[str, Any]:
    # An honest memory: the first words of the line it cites, as a model quoting it would.
    words = " ".join(said.split()[:15]) or f"A {kind} of the session"
    memory: dict[str, Any] = {
        "key": key,
        "type": kind,
        "description": words[:200],
        "body": f"{words}.",
        "tags": [],
        "confidence": 0.5,
    }
    if lines is not None:
        memory["evidence"] = [list(lines)]
    return memory


def _answer(body: dict[str, Any]) -> str:
    messages = body["messages"]
    data = messages[1]["content"] if len(messages) > 1 else messages[0]["content"]
    if "## New raw memories" in data:  # phase 2: add every raw memory asked about
        asked = data.split("## New raw memories", 1)[1].split("## The sessions they came")[0]
        ops = [
            {"op": "add", "key": k, "reason": "new", "type": "fact", "description": k, "body": k}
            for k in dict.fromkeys(_RAW.findall(asked))
        ]
        return json.dumps({"operations": ops})
    if len(messages) <= 2:  # the first answer cites nothing: it must be repaired
        return json.dumps(
            {"memories": [_memory("x", "fact", None)], "summary": "s", "outcome": "unclear"}
        )
    typed = _TYPED.search(data)
    tool = _TOOL.search(data)
    memories = []
    if typed:
        lines = (int(typed[1]), int(typed[2]))
        memories.append(_memory("a-preference", "preference", lines, typed[3]))
    if tool:
        lines = (int(tool[1]), int(tool[2]))
        memories += [
            _memory("a-lesson", "lesson", lines, tool[3]),
            _memory("a-rule", "instruction", lines, tool[3]),
        ]
    return json.dumps({"memories": memories, "summary": "Task: x", "outcome": "done"})


def phase1(labelled: list[dict[str, Any]], session_tokens: int) -> dict[str, Any]:
    """Every labelled session through phase 1's model path and brain's evidence check."""
    server = serve(_answer)
    try:
        model = get_model(MODEL, ModelSettings(api_base=server.url, timeout=60, retries=0))
        kept: dict[str, int] = {"preference": 0, "lesson": 0, "instruction": 0}
        offered: dict[str, int] = dict.fromkeys(kept, 0)
        held: dict[str, int] = dict.fromkeys(kept, 0)
        outside = 0
        for session in labelled:
            transcript = session["transcript"]
            answer = model.extract(ExtractTask(transcript, session_tokens, 2_000), Budget(None))
            for memory in answer.memories:
                offered[memory.type] += 1
            outside += tainted(transcript)
            for memory in vet(answer, transcript)[0].memories:
                kept[memory.type] += 1
                held[memory.type] += "review:pending" in memory.tags
        requests = list(server.requests)
    finally:
        server.stop()
    schema = answer_schema(Extraction)
    structured = sum(
        1
        for r in requests
        if (r.get("response_format") or {}).get("json_schema", {}).get("schema") == schema
    )
    repairs = sum(1 for r in requests if len(r["messages"]) > 2)
    return {
        "sessions": len(labelled),
        "read_outside": outside,
        "calls": len(requests),
        "calls_per_session": round(len(requests) / max(1, len(labelled)), 2),
        "structured_output": f"{structured}/{len(requests)}",
        "temperature": sorted({r.get("temperature") for r in requests}, key=str),
        "repairs": repairs,
        "offered": offered,
        "kept": kept,
        "of_which_held_for_review": held,
    }


def phase2(count: int = 157) -> dict[str, Any]:
    """A backfill of ``count`` raw memories in a fresh home, consolidated through the
    scripted model."""
    from brain.api import Brain
    from brain.home.records import iso, new_id, utcnow
    from brain.pipeline.consolidate import consolidate
    from brain.pipeline.consolidate_calls import CONSOLIDATE_MAX_TOKENS
    from brain.pipeline.runs import RawMemory, append_raw

    server = serve(_answer)
    saved = {k: os.environ.get(k) for k in ("BRAIN_CONSOLIDATION_MODEL", "BRAIN_MODEL_API_BASE")}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            brain, _ = Brain.init(home)
            long = " and it matters because the build breaks without it" * 6
            raws = [
                RawMemory(
                    new_id(),
                    f"fact-{n:03d}",
                    "fact",
                    f"Fact {n}{long}",
                    f"Fact {n}{long}.",
                    session=f"codex:s{n % 40}",
                    evidence=((1, 1),),
                    date=iso(utcnow()),
                )
                for n in range(count)
            ]
            with brain.transaction() as tx:
                tx.commit([append_raw(brain, raws)], "extract: a backfill", "extract")
            os.environ["BRAIN_CONSOLIDATION_MODEL"] = MODEL
            os.environ["BRAIN_MODEL_API_BASE"] = server.url
            brain = Brain.open(home)
            before = _commits(home)
            result = consolidate(brain, catalog=brain.catalog)
            records = len(list((home / "memories").glob("*.md")))
            commits = _commits(home) - before
    finally:
        server.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    caps = sorted({r.get("max_tokens") for r in server.requests}, key=str)
    return {
        "raw": count,
        "calls": result.calls,
        "answer_cap": caps,
        "cap_setting": CONSOLIDATE_MAX_TOKENS,
        "raw_used": result.raw_used,
        "records_written": records,
        "commits": commits,
    }


def _commits(home: Path) -> int:
    done = subprocess.run(
        ["git", "-C", str(home), "rev-list", "--count", "HEAD"], capture_output=True, text=True
    )
    return int(done.stdout.strip() or 0)
