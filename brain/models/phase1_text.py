"""The session as phase 1 shows it to a model: typed turns whole, the rest cut to a budget.

What a person typed is the scarcest and most valuable text of a session, so every typed
turn is shown whole. Assistant prose and tool calls and output are cut first, each as
its head and its tail around an elision marker (an error's telling word is often past
its first few hundred characters), and only when the session is still over the budget
are whole turns of theirs left out, from the middle of the session outwards, a marker
standing where they were. Only a session whose typed turns alone pass the budget has
those cut too, the longest first.

Text brain or the agent tool wrote into the session is left out: turns the adapters
mark as injected, brain's own context block and the ``<memory_citation>`` blocks it
asks agents for, its instruction-file block, the system reminders a tool appends to a
tool result, and the text of a skill the tool loaded. Everything shown is redacted here.

The budget is in estimated tokens (:func:`brain.models.tokens.estimate_tokens`, which
leans high), so a model with a context of that size takes what is sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import NamedTuple

from brain.home.secrets.redact import redact, redact_slice
from brain.models.tokens import estimate_tokens
from brain.sessions.sources.base import Transcript, Turn, unescaped

__all__ = ["PROSE_CHARS", "TOOL_CHARS", "Shown", "clean_text", "phase1_text", "shown_turns"]

TOOL_CHARS = 2_400  # a tool call or its output: head and tail, before any budget cut
PROSE_CHARS = 6_000  # an assistant message or a compaction summary
FLOOR_CHARS = 300  # a turn is not cut shorter than this: it is left out instead
_HEAD_SHARE = 2 / 3  # of a cut turn's characters, those kept from its start
_MARGIN = 2_000  # characters the redactor sees on each side of a cut
_LINE_TOKENS = 8  # the ``[L12-L15] role:`` line each turn starts with
_CUT_TOKENS = 12  # ``[... 12345 characters cut ...]``
_MARKER_TOKENS = 26  # ``[... 3 turns left out: 2 tool, 1 assistant ...]``

# What brain writes into a session (its context block, its citation blocks, the block
# it keeps in instruction files) and the reminders a tool appends to a tool's output.
# The tags are brain.agents.context's and brain.agents.instructions', spelt here
# because this layer sits below them.
_INJECTED_BLOCK = re.compile(
    r"<brain-memory>.*?(?:</brain-memory>|\Z)"
    r"|<memory_citation\s*>.*?(?:</memory_citation\s*>|\Z)"
    r"|<!-- brain:begin -->.*?(?:<!-- brain:end -->|\Z)"
    r"|<system-reminder>.*?(?:</system-reminder>|\Z)",
    re.S | re.I,
)
# A turn that is a skill's text the tool loaded, though filed as the person's.
_SKILL_TEXT = ("<skill>", "Base directory for this skill")


@dataclass(frozen=True, slots=True)
class Shown:
    """What phase 1 sends of one session.

    Attributes:
        turns: the turns in order, text redacted and cut; a left-out stretch is one
            turn with ``lines == (0, 0)`` whose text is the elision marker.
        tokens: the estimated tokens of the turns as rendered.
        budget: the budget they were cut to.
        typed: typed turns in the session.
        typed_whole: typed turns shown whole (``typed`` unless the typed text alone
            passed the budget).
        cut: turns shown cut (head and tail), by their own cap or the budget.
        left_out: turns not shown at all.
        whole: the budget cut nothing (only the caps on one turn of tool output or
            prose did).
    """

    turns: tuple[Turn, ...]
    tokens: int
    budget: int
    typed: int
    typed_whole: int
    cut: int
    left_out: int
    whole: bool


class _Item(NamedTuple):
    turn: Turn
    text: str  # cleaned, not yet redacted
    kind: str  # typed, prose, tool
    density: float  # estimated tokens per character


def clean_text(turn: Turn) -> str:
    """A turn's text without what brain or the tool wrote into it; empty when nothing
    of it is the session's own (an injected turn, a skill's text)."""
    if turn.injected:
        return ""
    text = turn.text.strip()
    if turn.role == "user" and not turn.summary and text.startswith(_SKILL_TEXT):
        return ""
    if "<" in text:
        text = _INJECTED_BLOCK.sub("", text).strip()
    # Redacted as a person reads it: escaped in a JSON string, a value is no assignment.
    return unescaped(text).strip() if turn.role == "tool" else text


def _kind(turn: Turn) -> str:
    if turn.role == "user" and not turn.summary:
        return "typed"
    return "tool" if turn.role == "tool" else "prose"


def _items(transcript: Transcript) -> list[_Item]:
    items = []
    for turn in transcript.turns:
        text = clean_text(turn)
        if not text:
            continue
        kind = _kind(turn)
        sample = text[: PROSE_CHARS * 2]
        items.append(_Item(turn, text, kind, estimate_tokens(sample) / max(1, len(sample))))
    return items


def _caps(factor: float, typed_factor: float) -> dict[str, float]:
    return {
        "tool": max(FLOOR_CHARS, TOOL_CHARS * factor),
        "prose": max(FLOOR_CHARS, PROSE_CHARS * factor),
        "typed": float("inf") if typed_factor >= 1 else max(FLOOR_CHARS, 20_000 * typed_factor),
    }


def _guess(item: _Item, caps: dict[str, float]) -> float:
    """Estimated tokens of ``item`` shown within ``caps`` (without redaction's changes)."""
    shown = min(len(item.text), caps[item.kind])
    return _LINE_TOKENS + item.density * shown + (_CUT_TOKENS if shown < len(item.text) else 0)


def _fit(items: list[_Item], budget: int) -> tuple[dict[str, float], set[int]]:
    """The caps and the left-out turns that bring ``items`` within ``budget``."""
    full = _caps(1.0, 1.0)
    if sum(_guess(i, full) for i in items) <= budget:
        return full, set()
    lo, hi = 0.0, 1.0  # caps at ``lo`` fit (or are the floor), at ``hi`` they do not
    for _ in range(20):
        mid = (lo + hi) / 2
        if sum(_guess(i, _caps(mid, 1.0)) for i in items) <= budget:
            lo = mid
        else:
            hi = mid
    caps = _caps(lo, 1.0)
    sizes = [_guess(i, caps) for i in items]
    total = sum(sizes)
    dropped: set[int] = set()
    for n in _drop_order(items):
        if total <= budget:
            return caps, dropped
        # A left-out turn between two shown ones costs a marker; one beside a left-out
        # stretch joins it; one between two stretches makes them one.
        gaps = (n - 1 in dropped) + (n + 1 in dropped)
        total += _MARKER_TOKENS * (1 - gaps) - sizes[n]
        dropped.add(n)
    # Only typed turns are left and they alone pass the budget: cut them too.
    typed = [i for n, i in enumerate(items) if n not in dropped]
    markers = sum(1 for n in dropped if n - 1 not in dropped) * _MARKER_TOKENS
    lo, hi = 0.0, 1.0
    for _ in range(20):
        mid = (lo + hi) / 2
        if sum(_guess(i, _caps(0.0, mid)) for i in typed) + markers <= budget:
            lo = mid
        else:
            hi = mid
    return _caps(0.0, lo), dropped


def _drop_order(items: list[_Item]) -> list[int]:
    """Turns to leave out, first to last: tool turns, then prose, each from the middle
    of the session outwards; typed turns never."""
    middle = (len(items) - 1) / 2
    rank = {"tool": 0, "prose": 1}
    order = [n for n, i in enumerate(items) if i.kind in rank]
    return sorted(order, key=lambda n: (rank[items[n].kind], abs(n - middle)))


def _cut_text(text: str, cap: float) -> tuple[str, bool]:
    """``text`` redacted, as its head and tail around a marker when longer than ``cap``."""
    if len(text) <= cap:
        return redact(text), False
    head = int(cap * _HEAD_SHARE)
    tail = int(cap) - head
    kept = redact_slice(text, 0, head, _MARGIN)
    end = redact_slice(text, len(text) - tail, len(text), _MARGIN) if tail else ""
    return f"{kept}\n[... {len(text) - head - tail} characters cut ...]\n{end}", True


def _marker(count: int, kinds: list[str]) -> Turn:
    tools = kinds.count("tool")
    what = f"{count} turn{'s' if count != 1 else ''} left out"
    if tools and tools != count:
        what += f": {tools} tool, {count - tools} assistant"
    elif tools:
        what += ": tool calls and output"
    return Turn("assistant", f"[... {what} ...]", lines=(0, 0))


def shown_turns(transcript: Transcript, budget: int) -> Shown:
    """The turns phase 1 sends of ``transcript``, within ``budget`` estimated tokens.

    Args:
        transcript: a whole session.
        budget: the most estimated tokens the turns may take as rendered
            (``extract_session_tokens``).

    Returns:
        The turns to show and what was cut (see :class:`Shown`).
    """
    items = _items(transcript)
    aim = max(1, budget)
    for _ in range(3):  # the fit works on guesses; aim lower if the text came out over
        shown = _show(items, *_fit(items, aim), budget)
        if shown.tokens <= budget or aim == 1:
            break
        aim = max(1, aim * budget // shown.tokens - 1)
    return shown


def _show(items: list[_Item], caps: dict[str, float], dropped: set[int], budget: int) -> Shown:
    out: list[Turn] = []
    gap: list[str] = []
    cut = 0
    for n, item in enumerate(items):
        if n in dropped:
            gap.append(item.kind)
            continue
        if gap:
            out.append(_marker(len(gap), gap))
            gap = []
        text, was_cut = _cut_text(item.text, caps[item.kind])
        cut += was_cut
        out.append(replace(item.turn, text=text))
    if gap:
        out.append(_marker(len(gap), gap))
    typed = [i for i in items if i.kind == "typed"]
    typed_whole = sum(1 for i in typed if len(i.text) <= caps["typed"])
    tokens = sum(estimate_tokens(t.text) + _LINE_TOKENS for t in out)
    whole = caps == _caps(1.0, 1.0) and not dropped
    return Shown(tuple(out), tokens, budget, len(typed), typed_whole, cut, len(dropped), whole)


def render(turn: Turn) -> str:
    """One shown turn as a line: ``[L12-L15] role: text``, a marker as itself."""
    first, last = turn.lines
    if first == 0:
        return turn.text
    where = f"[L{first}]" if first == last else f"[L{first}-L{last}]"
    if turn.summary:
        return f"{where} summary of earlier turns (compacted): {turn.text}"
    if turn.role == "tool":
        return f"{where} tool({turn.tool or '?'}): {turn.text}"
    return f"{where} {turn.role}: {turn.text}"


def phase1_text(transcript: Transcript, budget: int) -> str:
    """The shown turns of :func:`shown_turns` as plain text, one rendered turn a line."""
    return "\n".join(render(t) for t in shown_turns(transcript, budget).turns)
