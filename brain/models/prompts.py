"""The chat messages a language model is sent: ``prompts/*.md.j2`` rendered with a task.

Every provider that sends a prompt (litellm's chat models, and agent CLIs) sends these,
so a bad memory traces back to one versioned prompt whichever model wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from brain import assets
from brain.home.redact import redact
from brain.models.schema import Candidate, ExistingRecord
from brain.sessions.sources.base import Transcript, Turn
from brain.sessions.text import trim_redacted

Message = dict[str, str]


def prompt_turns(transcript: Transcript, head_chars: int, tail_chars: int) -> list[Turn]:
    """The turns phase 1 shows a model: typed and tool turns, redacted, middle trimmed.

    The same rules as ``harvest.phase1_text`` (injected text left out, secrets redacted,
    head and tail kept), at turn granularity so the prompt keeps each turn's role and
    source lines.
    """

    turns = [t for t in transcript.turns if not t.injected and t.text.strip()]
    sizes = [len(t.text) for t in turns]
    head: list[int] = []
    used = 0
    while len(head) < len(turns) and used + sizes[len(head)] <= head_chars:
        used += sizes[len(head)]
        head.append(len(head))
    tail: list[int] = []
    used = 0
    i = len(turns) - 1
    while i >= len(head) and used + sizes[i] <= tail_chars:
        used += sizes[i]
        tail.insert(0, i)
        i -= 1
    keep = head + tail
    if not keep and turns:  # one huge turn: cut inside it
        keep = [0]
    out = []
    for n in keep:
        turn = turns[n]
        out.append(replace(turn, text=trim_redacted(turn.text, head_chars, tail_chars)))
        if n == len(head) - 1 and tail and tail[0] > n + 1:
            cut = sum(sizes[n + 1 : tail[0]])
            out.append(Turn("user", f"[... {cut} characters cut ...]", summary=True, lines=(0, 0)))
    return out


def extract_messages(transcript: Transcript, head_chars: int, tail_chars: int) -> list[Message]:
    """The chat messages phase 1 sends for one session."""

    turns = prompt_turns(transcript, head_chars, tail_chars)
    # The tool's own title (often the first prompt) and the paths come from the raw file.
    transcript = replace(
        transcript,
        title=redact(transcript.title) if transcript.title else None,
        project=redact(transcript.project) if transcript.project else None,
        git_branch=redact(transcript.git_branch) if transcript.git_branch else None,
    )
    text = assets.render("prompts", "extract.md.j2", transcript=transcript, turns=turns)
    return _split(text)


def consolidate_messages(
    raw: Sequence[Candidate],
    existing: Sequence[ExistingRecord],
    origins: Sequence[tuple[str, str]] = (),
) -> list[Message]:
    """The chat messages phase 2 sends; ``origins`` dates each raw candidate."""
    text = assets.render(
        "prompts",
        "consolidate.md.j2",
        raw=list(raw),
        existing=list(existing),
        origins=list(origins),
    )
    return _split(text)


_DATA_OPEN, _DATA_CLOSE = "<<data>>\n", "<</data>>\n"


def _split(text: str) -> list[Message]:
    """The instructions as the system message, the data (between the template's
    ``<<data>>`` markers) as the user message: a model weighs the two differently, and
    text in the data cannot pass itself off as the instructions."""
    head, found, rest = text.partition(_DATA_OPEN)
    if not found:
        return [{"role": "user", "content": text}]
    data, _, tail = rest.partition(_DATA_CLOSE)
    system = head.rstrip() + "\n\n" + tail.lstrip()
    return [{"role": "system", "content": system}, {"role": "user", "content": data}]
