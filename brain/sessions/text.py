"""Turning a transcript into text: the episodic recall documents, and the pieces phase 1
uses (the typed turns, a redacted cut).

Everything is redacted here, so no caller can forget to: a secret typed into a session
never reaches the search index. What phase 1 sends a model is
:mod:`brain.models.phase1_text`, redacted there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.records import iso
from brain.home.secrets.redact import redact, redact_slice
from brain.index import Doc
from brain.index.turns import questions_answered
from brain.sessions.sources.base import Transcript, Turn, unescaped
from brain.sessions.tooldocs import tool_docs, trimmed_result
from brain.sessions.watermarks import (
    SessionMissingError,
    SessionRef,
    find_session,
    harvested_sessions,
    load_transcript,
)

if TYPE_CHECKING:
    from brain.home.home import Home

DOC_BODY_CHARS = 4_000
CONTEXT_CHARS = 300
TAIL_CHARS = 1_000  # the end of a long turn read for the questions it asks
# Extra characters redacted on each side of a cut, so a secret straddling the cut
# is seen whole by the redactor before the text is trimmed.
_MARGIN = 2_000


def trim_redacted(text: str, head_chars: int, tail_chars: int) -> str:
    """Redact ``text`` and keep its first ``head_chars`` and last ``tail_chars``."""
    if len(text) <= head_chars + tail_chars:
        return redact(text)
    # Redact only the two windows that survive (in context), not the whole middle.
    head = redact_slice(text, 0, head_chars, _MARGIN)
    tail = redact_slice(text, len(text) - tail_chars, len(text), _MARGIN) if tail_chars else ""
    cut = len(text) - head_chars - tail_chars
    return f"{head}\n[... {cut} characters cut ...]\n{tail}"


def _doc_worthy(turn: Turn) -> bool:
    """Human-typed user turns and assistant text: what a person would search for."""
    if turn.injected or turn.summary:
        return False
    return turn.role in ("user", "assistant") and bool(turn.text.strip())


def _short(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def session_docs(ref: SessionRef, transcript: Transcript) -> list[Doc]:
    """One search document per typed user turn and per assistant text turn, and one per
    tool call with its result (:func:`brain.sessions.tooldocs.tool_docs`).

    Args:
        ref: the harvested session.
        transcript: its whole transcript.

    Returns:
        Docs with ``path`` ``session:<source>:<id>#<turn number>`` (1-based over all
        turns), redacted bodies capped at ~4,000 characters and the neighbouring
        turns' text as low-weight context, and the question a turn answers.
    """
    picked = [(n, t) for n, t in enumerate(transcript.turns, 1) if _doc_worthy(t)]
    # Redacted in context before the cap: a cut through a secret must not hide it.
    texts = [_head(t.text.strip()) for _, t in picked]
    asked = questions_answered(
        [(t.role, _with_tail(t, text)) for (_, t), text in zip(picked, texts, strict=True)]
    )
    started = transcript.started
    docs = []
    for i, (number, turn) in enumerate(picked):
        body = texts[i]
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(picked)]
        context = " | ".join(
            f"{picked[j][1].role}: {_short(texts[j], CONTEXT_CHARS)}" for j in near
        )
        stamp = turn.timestamp or started
        docs.append(
            Doc(
                path=f"session:{ref.source}:{ref.session_id}#{number}",
                kind="turn",
                type=turn.role,
                description=_short(body.splitlines()[0] if body else "", 100),
                body=body,
                source=f"{ref.source}:session:{ref.session_id}",
                session=ref.session_id,
                project=ref.project or "",
                created=iso(stamp) if stamp else "",
                context=context,
                asked=asked[i],
            )
        )
    return docs + tool_docs(ref, transcript)


def _shown(turn: Turn, *, whole: bool) -> str:
    """A turn's text as ``sessions show`` prints it, redacted: a tool's cut to its head,
    tail and failures when one turn is asked for; a tool's JSON read unescaped."""
    if turn.role != "tool":
        return redact(turn.text.strip())
    if not whole:
        return trimmed_result(turn.text)
    return redact(unescaped(turn.text).strip())


def _with_tail(turn: Turn, head: str) -> str:
    """A turn's redacted head, plus the redacted end of a turn longer than the head.

    An agent's closing question ("Shall I also update the docs?") ends a long reply,
    and the next turn answers it.
    """
    text = turn.text.strip()
    if len(text) <= DOC_BODY_CHARS:
        return head  # the head is the whole turn
    return head + "\n" + redact_slice(text, len(text) - TAIL_CHARS, len(text), _MARGIN)


def _head(text: str) -> str:
    """The first ``DOC_BODY_CHARS`` of a turn, redacted, marked when cut."""
    head = redact_slice(text, 0, DOC_BODY_CHARS, _MARGIN)
    return head + " […]" if len(text) > DOC_BODY_CHARS else head


def iter_session_docs(home: Home) -> Iterator[Doc]:
    """Docs for every harvested session whose transcript is still on disk."""
    for ref in harvested_sessions(home):
        try:
            transcript = load_transcript(ref)
        except SessionMissingError:
            continue
        yield from session_docs(ref, transcript)


@dataclass(frozen=True, slots=True)
class TurnView:
    """One turn as ``brain sessions show`` prints it (text redacted)."""

    number: int
    role: str
    lines: tuple[int, int]
    text: str
    tool: str | None = None
    injected: bool = False
    summary: bool = False


@dataclass(frozen=True, slots=True)
class SessionView:
    """A harvested session's metadata and its turns (around ``focus``, when one is asked)."""

    session: SessionRef
    turns: tuple[TurnView, ...]
    focus: int | None = None


class TurnNotFoundError(BrainError):
    """A session has no turn of the number asked for (``ID#TURN``)."""

    def __init__(self, session_id: str, number: int, count: int) -> None:
        super().__init__(
            f"session {session_id} has no turn {number}",
            hint=f"its turns are 1 to {count}; 'brain sessions show {session_id}' shows them all",
        )
        self.number = number


def show_session(
    home: Home, ident: str, *, turn: int | None = None, around: int = 3
) -> SessionView:
    """A harvested session by id or unique id prefix, re-read from disk.

    Args:
        home: the home.
        ident: a session id or a unique prefix of one.
        turn: show only this turn (1-based over all turns, as recall's ``ID#TURN``
            names it) and ``around`` turns on each side; a tool's output is then cut to
            its head, its failure lines and its tail, not to one line.
        around: neighbours shown on each side of ``turn``.

    Raises:
        SessionNotFoundError: no session, or several, match ``ident``.
        SessionMissingError: its transcript is gone.
        TurnNotFoundError: the session has no turn ``turn``.
    """
    ref = find_session(home, ident)
    transcript = load_transcript(ref)
    numbered = list(enumerate(transcript.turns, 1))
    if turn is not None:
        if not 1 <= turn <= len(numbered):
            raise TurnNotFoundError(ref.session_id, turn, len(numbered))
        numbered = numbered[max(0, turn - 1 - around) : turn + around]
    turns = tuple(
        TurnView(
            number=n,
            role=t.role,
            lines=t.lines,
            text=_shown(t, whole=turn is None),
            tool=t.tool,
            injected=t.injected,
            summary=t.summary,
        )
        for n, t in numbered
    )
    return SessionView(ref, turns, turn)
