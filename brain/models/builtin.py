"""The built-in model: a small set of rules that runs offline, free, and predictably.

This is not a language model and does not understand a session. It reads only what a
person typed (user turns that are neither injected context nor compaction summaries)
and keeps a sentence only when it matches one of a few explicit phrasings of something
durable: "I prefer X", "please always/never ...", "from now on ...", "remember that
...", "no, use X not Y", "we decided X because Y", "lesson learned: ...". Anything
subtler (a preference shown but never stated, a lesson the agent learned) is missed:
the price of never inventing one. Most sessions yield zero memories, as intended. A real
model configured through litellm does the same job with judgement. :class:`BuiltinModel`
is how the registry serves these rules under the name ``builtin``.

A turn that tries to steer the memory ("ignore previous instructions", "remember the
password ...") is skipped whole; a statement carrying a secret is dropped.

:func:`consolidate` is the matching rule-based phase 2: same key supersedes, a
near-duplicate (token Jaccard >= 0.8) folds into the existing record, the rest is added.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import cast

from brain.home.records import slugify
from brain.home.redact import redact
from brain.models.base import ConsolidateTask, ExtractTask, ModelSettings, Task
from brain.models.budget import Budget, Estimate
from brain.models.safety import INJECTION, STORE_SECRET, states_credential, unsafe
from brain.models.schema import (
    MAX_MEMORIES,
    Candidate,
    Consolidation,
    ExistingRecord,
    Extraction,
    MemoryType,
    Operation,
)
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["BuiltinModel", "consolidate", "extract"]

DUPLICATE_JACCARD = 0.8
_DESCRIPTION_CHARS = 120
_MAX_STATEMENT_CHARS = 400
_MAX_TYPED_CHARS = 4000

_DEICTIC = re.compile(
    r"^(?:this|that|it|these|those|what|where|how|when|the way you|your|them)\b", re.I
)
_LEAD = r"^(?:(?:ok(?:ay)?|also|and|btw|oh|hey|so|fyi|one more thing|note|ps)[,:!]?\s+)*"
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!;])\s+(?=[A-Z\"'(])")

Rule = tuple[str, "re.Pattern[str]", MemoryType, float]


def _rule(name: str, kind: str, confidence: float, pattern: str) -> Rule:
    # The table below is literal rows; the cast names their type for the checker.
    return (name, re.compile(_LEAD + pattern, re.IGNORECASE), cast(MemoryType, kind), confidence)


# Order matters: the first rule that matches a sentence classifies it.
# fmt: off
_RULES: tuple[Rule, ...] = tuple(_rule(*row) for row in (
    ("from_now_on", "instruction", 0.9,
     r"(?:please\s+)?(?:from now on|going forward|in future)[,:]?\s+(?P<what>.+)"),
    ("remember", "fact", 0.9,
     r"(?:please\s+)?(?:always\s+)?(?:remember|keep in mind|note for the future)"
     r"(?:\s+that|:|,)\s+(?P<what>.+)"),
    ("lesson", "lesson", 0.8,
     r"(?:lesson learned|the lesson (?:here )?is|TIL|today I learned)[:,]?\s+"
     r"(?:that\s+)?(?P<what>.+)"),
    ("decision", "decision", 0.8,
     r"(?:we|I)\s+(?:have\s+|'ve\s+)?(?:decided|chose|agreed|settled)\s+"
     r"(?:to\s+|on\s+)?(?P<what>.+?)\s+(?:because|since|as|so that)\s+(?P<why>.+)"),
    ("lets", "decision", 0.75,
     r"(?:let'?s|we(?:'ll| will)|we're going to)\s+(?:use|go with|stick with|switch to|keep"
     r"|standardi[sz]e on)\s+(?P<what>.+?),?\s+(?:because|since|so that)\s+(?P<why>.+)"),
    ("no_use", "correction", 0.75,
     r"no[,.!]?\s+(?:please\s+)?(?:use|we use|prefer)\s+(?P<what>.+?),?\s+"
     r"(?:not|instead of|rather than)\s+(?P<not>.+)"),
    ("dont_use", "correction", 0.75,
     r"(?:no[,.!]?\s+)?(?:please\s+)?(?:don't|do not|never)\s+use\s+"
     r"(?P<not>.+?)[,;]\s*(?:use|we use|prefer)\s+(?P<what>.+)"),
    ("use_instead", "correction", 0.65,
     r"(?:please\s+)?(?:use|prefer)\s+(?P<what>.+?),?\s+(?:instead of|rather than|not)\s+"
     r"(?P<not>.+)"),
    ("actually", "correction", 0.6,
     r"actually[,:]?\s+(?P<what>(?:we|our|this project|the project|in this repo)\b.*"
     r"\b(?:use|uses|prefer|always|never|don't|do not|require|requires|must)\b.*)"),
    ("always", "instruction", 0.85,
     r"(?:(?P<cond>(?:when|whenever|if|before|after|for)\b[^,]{3,80}),\s*)?(?:please\s+)?"
     r"(?:you should\s+|make sure (?:to|you)\s+|we\s+)?"
     r"(?P<what>(?:always|never|don't ever|do not ever)\s+(?!mind\b).+)"),
    ("prefer", "preference", 0.8,
     r"I\s+(?:really\s+|strongly\s+|generally\s+|usually\s+|personally\s+)?"
     r"(?P<verb>prefer|like|love|hate|dislike|don't like|do not like|can't stand)\s+"
     r"(?P<what>.+)"),
    ("rather", "preference", 0.7, r"I(?:'d| would) rather\s+(?P<what>.+)"),
    ("my_pref", "preference", 0.8, r"my preference is\s+(?:to\s+|for\s+)?(?P<what>.+)"),
))
_VERB_TO_DESCRIPTION = {
    "prefer": "Prefers", "like": "Likes", "love": "Likes", "hate": "Dislikes",
    "dislike": "Dislikes", "don't like": "Dislikes", "do not like": "Dislikes",
    "can't stand": "Dislikes",
}
# fmt: on
_KEY_STOP = frozenset(
    "a an the to of for in on and or is are be that this with we i you please our my it "
    "should must".split()
)


def _redact(text: str) -> str:

    return redact(text)


def human_turns(transcript: Transcript) -> Iterator[Turn]:
    """The turns a person typed: user role, not injected, not a compaction summary."""
    for turn in transcript.turns:
        if turn.role == "user" and not turn.injected and not turn.summary and turn.text.strip():
            yield turn


def _statements(text: str) -> Iterator[str]:
    """Prose sentences of a user turn; code blocks, quotes and pasted logs are skipped."""
    for line in _FENCE.sub("\n", text).splitlines():
        line = line.strip()
        if not line or line.startswith((">", "$", "#", "|", "at ", "File ", "Traceback")):
            continue
        for sentence in _SENTENCE_END.split(line):
            sentence = sentence.strip().lstrip("-*• ").strip()
            if 12 <= len(sentence) <= _MAX_STATEMENT_CHARS:
                yield sentence


def _looks_pasted(text: str) -> bool:
    """A long turn with markdown headings is a pasted document or a tool's prompt.

    Rules written for agents (CLAUDE.md, a compaction prompt) say "NEVER ..." all
    the time; they are not the person stating a preference in their own words.
    """
    headings = sum(1 for line in text.splitlines() if line.lstrip().startswith("#"))
    return len(text) > _MAX_TYPED_CHARS or headings >= 2


def _one_line(text: str) -> str:
    text = " ".join(text.split()).rstrip(" .;,!")
    if len(text) <= _DESCRIPTION_CHARS:
        return text[:1].upper() + text[1:]
    cut = text[: _DESCRIPTION_CHARS - 3].rsplit(" ", 1)[0]
    return cut[:1].upper() + cut[1:] + "..."


def _describe(name: str, match: re.Match[str]) -> str | None:
    """The one-line description for a matched statement, or None to reject it."""
    what = match.group("what").strip()
    if name == "prefer":
        if _DEICTIC.match(what):
            return None  # "I like this" is about the moment, not a durable taste
        return _one_line(f"{_VERB_TO_DESCRIPTION[match.group('verb').lower()]} {what}")
    if name in ("no_use", "dont_use", "use_instead"):
        return _one_line(f"Use {what.rstrip(' .')} instead of {match.group('not')}")
    if name in ("decision", "lets"):
        return _one_line(f"{what} because {match.group('why').strip()}")
    if name == "rather":
        return _one_line(f"Would rather {what}")
    if name == "my_pref":
        return _one_line(f"Prefers {what}")
    if name == "always" and match.group("cond"):
        return _one_line(f"{match.group('cond')}, {what}")
    return _one_line(what)


def _key(description: str) -> str:
    unmarked = re.sub(r"\[REDACTED:[^\]]*\]", " ", description)
    words = [w for w in re.findall(r"[a-z0-9]+", unmarked.lower()) if w not in _KEY_STOP]
    return slugify(" ".join(words), max_words=6, stopwords=False)


def _project_name(project: str | None) -> str | None:
    if not project:
        return None
    name = re.split(r"[\\/]", project.rstrip("/\\"))[-1]
    return name or None


def _match(sentence: str) -> tuple[str, re.Match[str], MemoryType, float] | None:
    if sentence.rstrip().endswith("?"):
        return None  # a question asks; it does not state
    for name, pattern, kind, confidence in _RULES:
        found = pattern.match(sentence)
        # "use uv not pip" and "let's use click because ..." name their subject in one
        # word; the other rules need a phrase.
        least = 1 if kind in ("correction", "decision") else 2
        if found and len(found.group("what").split()) >= least:
            return name, found, kind, confidence
    return None


def _candidates(transcript: Transcript) -> Iterator[Candidate]:
    project = _project_name(transcript.project)
    tags = (f"project:{project}",) if project else ()
    for turn in human_turns(transcript):
        if INJECTION.search(turn.text) or STORE_SECRET.search(turn.text):
            continue  # a turn that tries to steer the memory is not trusted at all
        if _looks_pasted(turn.text):
            continue
        evidence = (turn.lines,) if turn.lines != (0, 0) else ()
        for sentence in _statements(turn.text):
            hit = _match(sentence)
            if hit is None or unsafe(sentence) or states_credential(sentence):
                continue
            name, found, kind, confidence = hit
            described = _describe(name, found)
            if described is None:
                continue
            description = _redact(described)  # the key is derived from redacted text only
            yield Candidate(
                key=_key(description),
                type=kind,
                description=description,
                body=_redact(" ".join(sentence.split())),
                tags=tags,
                confidence=confidence,
                evidence=evidence,
            )


def _summary(transcript: Transcript) -> str:
    human = list(human_turns(transcript))
    # Never quote a request that carries a credential or tries to steer the memory.
    quotable = [t.text for t in human if not unsafe(t.text) and not states_credential(t.text)]
    title = transcript.title or (quotable[0] if quotable else "") or "(no quotable request)"
    title = _one_line(title.splitlines()[0] if title.strip() else title)
    tools = Counter(t.tool for t in transcript.turns if t.tool)
    tool_list = ", ".join(name for name, _ in tools.most_common(6)) or "none"
    where = f" in {_project_name(transcript.project)}" if transcript.project else ""
    return _redact(
        f"{title} ({transcript.source} session{where}; {len(transcript.turns)} turns, "
        f"{len(human)} typed by the user; tools: {tool_list})"
    )


def extract(transcript: Transcript) -> Extraction:
    """Phase 1 by rules: explicit durable statements a person typed, at most five.

    Args:
        transcript: one normalised session.

    Returns:
        The candidates (usually none) and a one-line summary of the session.
    """
    best: dict[str, Candidate] = {}
    for memory in _candidates(transcript):
        kept = best.get(memory.key)
        if kept is None:
            best[memory.key] = memory
        else:  # said twice: keep the first wording, all the evidence, the surer confidence
            evidence = tuple(dict.fromkeys(kept.evidence + memory.evidence))
            confidence = max(kept.confidence, memory.confidence)
            best[memory.key] = replace(kept, evidence=evidence, confidence=confidence)
    order = list(best)
    top = sorted(best.values(), key=lambda m: -m.confidence)[:MAX_MEMORIES]
    memories = tuple(sorted(top, key=lambda m: order.index(m.key)))
    return Extraction(memories=memories, summary=_summary(transcript))


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def jaccard(a: str, b: str) -> float:
    """Token Jaccard similarity of two texts (0 when both are empty)."""
    left, right = _tokens(a), _tokens(b)
    return len(left & right) / len(left | right) if left or right else 0.0


def _projects(tags: Iterable[str]) -> frozenset[str]:
    return frozenset(t for t in tags if t.startswith("project:"))


def _same_scope(a: Iterable[str], b: Iterable[str]) -> bool:
    """Records in different projects never merge; a global record matches any project."""
    pa, pb = _projects(a), _projects(b)
    return not pa or not pb or bool(pa & pb)


def _similar(memory: Candidate, record: ExistingRecord | Candidate) -> float:
    return max(jaccard(memory.description, record.description), jaccard(memory.body, record.body))


def _write(op: str, memory: Candidate, reason: str, **changes: object) -> Operation:
    fields: dict[str, object] = {
        "type": memory.type,
        "description": memory.description,
        "body": memory.body,
        "tags": memory.tags,
        "confidence": memory.confidence,
        "evidence": memory.evidence,
    }
    fields.update(changes)
    return Operation(op=op, key=memory.key, reason=reason, **fields)  # type: ignore[arg-type]


def _against_existing(memory: Candidate, existing: list[ExistingRecord]) -> Operation:
    """What one new memory does to the stored records."""
    for record in existing:
        if record.key == memory.key:
            if (record.description, record.body.strip()) == (memory.description, memory.body):
                return Operation(op="none", key=record.key, reason="already recorded verbatim")
            tags = tuple(dict.fromkeys(record.tags + memory.tags))
            return _write("update", memory, f"supersedes {record.key} (same key)", tags=tags)
    for record in existing:
        score = _similar(memory, record)
        if score < DUPLICATE_JACCARD or not _same_scope(memory.tags, record.tags):
            continue
        tags = tuple(dict.fromkeys(record.tags + memory.tags))
        if tags == record.tags:  # nothing new to fold in
            return Operation("none", record.key, f"duplicate of {record.key} ({score:.2f})")
        return replace(
            _write("merge", memory, f"near-duplicate of {record.key} ({score:.2f}); tags merged"),
            key=record.key,
            type=cast(MemoryType, record.type),  # a stored record keeps the type it has
            description=record.description,
            body=record.body,
            tags=tags,
            merged_keys=(memory.key,) if memory.key != record.key else (),
        )
    return _write("add", memory, "new")


def _fold(memories: list[Candidate]) -> list[Candidate]:
    """Collapse same-key and near-duplicate memories within one batch (later wording wins)."""
    kept: list[Candidate] = []
    for memory in memories:
        for i, earlier in enumerate(kept):
            if earlier.key == memory.key or (
                _similar(memory, earlier) >= DUPLICATE_JACCARD
                and _same_scope(memory.tags, earlier.tags)
            ):
                kept[i] = replace(
                    memory,
                    key=earlier.key,
                    tags=tuple(dict.fromkeys(earlier.tags + memory.tags)),
                    evidence=tuple(dict.fromkeys(earlier.evidence + memory.evidence)),
                    confidence=max(earlier.confidence, memory.confidence),
                )
                break
        else:
            kept.append(memory)
    return kept


def consolidate(raw: list[Candidate], existing: list[ExistingRecord]) -> list[Operation]:
    """Phase 2 by rules: supersede on the same key, fold near-duplicates, add the rest.

    Args:
        raw: new candidates from phase 1, oldest first.
        existing: the records currently stored.

    Returns:
        One operation per surviving candidate, grouped by project tag (global first).
        Duplicates of stored records come back as ``none`` with the reason.
    """
    groups: dict[str, list[Candidate]] = {}
    for memory in raw:
        project = min(_projects(memory.tags), default="")
        groups.setdefault(project, []).append(memory)
    ordered = (memory for project in sorted(groups) for memory in _fold(groups[project]))
    return [_against_existing(memory, existing) for memory in ordered]


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
        """Phase 2 by rules (see :func:`consolidate`)."""
        return Consolidation(tuple(consolidate(list(task.raw), list(task.existing))))

    def estimate(self, task: Task) -> Estimate:
        """Nothing: the rules cost no tokens."""
        return Estimate(0, 0, 0.0)
