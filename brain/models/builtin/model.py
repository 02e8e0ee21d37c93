"""The built-in model as the registry serves it: phase 1's readers in turn, phase 2's merge."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from brain.home.scope import project_name
from brain.home.secrets.redact import redact
from brain.models.base import ConsolidateTask, ExtractTask, ModelSettings, Task
from brain.models.budget import Budget, Estimate
from brain.models.builtin import recorded
from brain.models.builtin.memo import redact_once
from brain.models.builtin.merge import DUPLICATE_JACCARD, consolidate, jaccard
from brain.models.builtin.said import CUT, candidates, human_turns, one_line
from brain.models.safety import states_credential, unsafe
from brain.models.schema import MAX_MEMORIES, Candidate, Consolidation, Extraction
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["DUPLICATE_JACCARD", "BuiltinModel", "consolidate", "extract", "human_turns", "jaccard"]


def _summary(transcript: Transcript) -> str:
    human = list(human_turns(transcript))
    # Never quote a request that carries a credential or tries to steer the memory.
    quotable = next(
        (t.text for t in human if not unsafe(t.text) and not states_credential(t.text)), ""
    )
    title = transcript.title or quotable or "(no quotable request)"
    title = one_line(title.splitlines()[0] if title.strip() else title)
    tools = Counter(t.tool for t in transcript.turns if t.tool)
    tool_list = ", ".join(name for name, _ in tools.most_common(6)) or "none"
    where = f" in {project_name(transcript.project)}" if transcript.project else ""
    return redact(
        f"{title} ({transcript.source} session{where}; {len(transcript.turns)} turns, "
        f"{len(human)} typed by the user; tools: {tool_list})"
    )


# A tool's output longer than this is not redacted here: no reader quotes one, and
# redacting every long output made the built-in model five times slower.
_OUTPUT_CHARS = 2_000


def redacted(transcript: Transcript) -> Transcript:
    """``transcript`` with each turn's text redacted whole before any reader reads it: a
    reader cuts a statement, a description or a body to a length, and a cut inside a
    secret leaves a half that redaction no longer knows (``WP_APP_PASSWORD="Abcd EFgh
    1234...``, its closing quote cut off). What was said, and each tool call (its JSON
    arguments) and short result, is redacted; a long tool output is not (see
    :data:`_OUTPUT_CHARS`)."""
    turns = tuple(
        replace(t, text=redact_once(t.text)) if _read_whole(t) else t for t in transcript.turns
    )
    title = redact(transcript.title) if transcript.title else transcript.title
    return replace(transcript, turns=turns, title=title)


def _read_whole(turn: Turn) -> bool:
    text = turn.text
    return turn.role != "tool" or len(text) <= _OUTPUT_CHARS or text.lstrip().startswith("{")


def _said(transcript: Transcript, tags: tuple[str, ...]) -> dict[str, Candidate]:
    """The person's statements, one per key: first wording, all evidence, surest confidence."""
    best: dict[str, Candidate] = {}
    for memory in candidates(transcript, tags):
        kept = best.get(memory.key)
        if kept is None:
            best[memory.key] = memory
        else:
            evidence = tuple(dict.fromkeys(kept.evidence + memory.evidence))
            confidence = max(kept.confidence, memory.confidence)
            best[memory.key] = replace(kept, evidence=evidence, confidence=confidence)
    return best


def extract(transcript: Transcript) -> Extraction:
    """Phase 1 by rules: what the person said outright is meant to last.

    Args:
        transcript: one normalised session.

    Returns:
        At most five candidates (usually none): the rules the person stated, then what they
        asked to have written down, each those said in most turns first, kept in the order
        seen; and a one-line summary of the session.
    """
    transcript = redacted(transcript)
    project = project_name(transcript.project)
    tags = (f"project:{project}",) if project else ()
    best = _said(transcript, tags)
    tier = dict.fromkeys(best, 0)
    # A note the person asked to have kept ("add this to CLAUDE.md so you remember it").
    for memory in recorded.recorded(transcript, tags):
        tier.setdefault(memory.key, 1)
        best.setdefault(memory.key, memory)
    # What is too long to say in a line is not one rule: cut, it says half.
    best = {key: memory for key, memory in best.items() if not memory.description.endswith(CUT)}
    seen = {key: n for n, key in enumerate(best)}
    # A person repeating a rule is the surest sign it lasts.
    top = sorted(
        best.values(),
        key=lambda m: (tier[m.key], -len(m.evidence), -m.confidence),
    )[:MAX_MEMORIES]
    memories = tuple(sorted(top, key=lambda m: seen[m.key]))
    return Extraction(memories=memories, summary=_summary(transcript))


class BuiltinModel:
    """The rules above behind the model protocol: offline, free, no prompt, no budget.

    Args:
        name: ``builtin``.
        settings: unused; the rules need no endpoint.
    """

    offline = True

    def __init__(self, name: str = "builtin", settings: ModelSettings | None = None) -> None:
        self.name = name

    def extract(self, task: ExtractTask, budget: Budget) -> Extraction:
        """Phase 1 by rules (see :func:`extract`)."""
        return extract(task.transcript)

    def consolidate(self, task: ConsolidateTask, budget: Budget) -> Consolidation:
        """Phase 2 by rules (see :func:`brain.models.builtin.merge.consolidate`)."""
        return Consolidation(tuple(consolidate(list(task.raw), list(task.existing))))

    def estimate(self, task: Task) -> Estimate:
        """Nothing: the rules cost no tokens."""
        return Estimate(0, 0, 0.0)
