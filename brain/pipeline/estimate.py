"""What extracting a batch of sessions would cost, before any of it is spent.

``brain harvest --since 180d --dry-run`` shows what reading a person's history would
bring in; this says what phase 1 would then cost with the configured ``extract_model``:
nothing for the built-in rules, the prompt tokens (and a price, where the provider has
one) for any other model. Each session's prompt shows at most ``extract_session_tokens``
of it, so its size is bounded by the transcript file and that budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brain.models.base import ExtractTask, ModelSettings
from brain.models.budget import Estimate
from brain.models.registry import get_model
from brain.pipeline.extract_calls import EXTRACT_MAX_TOKENS
from brain.sessions.sources.base import Transcript, Turn

if TYPE_CHECKING:
    from collections.abc import Sequence

    from brain.home.config import Config
    from brain.home.home import Home
    from brain.sessions.watermarks import SessionRef

__all__ = ["ExtractionEstimate", "estimate_extraction", "session_tokens"]


@dataclass(frozen=True, slots=True)
class ExtractionEstimate:
    """The most phase 1 would use on some sessions.

    Attributes:
        model: the ``extract_model``.
        sessions: how many sessions.
        prompt_tokens: their prompts' tokens, at most.
        max_tokens: the answers' caps, summed.
        cost: USD at most; None when the provider has no price (an agent CLI's quota).
        offline: the model runs locally for free (the built-in rules).
    """

    model: str
    sessions: int
    prompt_tokens: int
    max_tokens: int
    cost: float | None
    offline: bool


def _sized(chars: int, session_tokens: int) -> ExtractTask:
    """A stand-in task whose prompt is as long as a session of ``chars`` characters."""
    turn = Turn("user", "word " * (chars // 5), lines=(1, 1))
    return ExtractTask(
        Transcript("brain", "estimate", "-", turns=(turn,)), session_tokens, EXTRACT_MAX_TOKENS
    )


def estimate_extraction(home: Home, refs: Sequence[SessionRef]) -> ExtractionEstimate:
    """What extracting ``refs`` with the configured model would use, without a call."""
    config = home.config
    model = get_model(config.extract_model, ModelSettings(api_base=config.model_api_base))
    if model.offline:
        return ExtractionEstimate(model.name, len(refs), 0, 0, 0.0, True)
    budget = config.extract_session_tokens
    seen: dict[int, Estimate] = {}  # most long sessions hit the cap: estimate each size once
    tokens = answers = 0
    cost: float | None = 0.0
    for ref in refs:
        path = Path(ref.path)
        # The stand-in's text is estimated at four characters a token.
        chars = min(path.stat().st_size if path.is_file() else 0, budget * 4)
        if chars not in seen:
            seen[chars] = model.estimate(_sized(chars, budget))
        one = seen[chars]
        tokens, answers = tokens + one.prompt_tokens, answers + one.max_completion_tokens
        cost = None if cost is None or one.cost is None else cost + one.cost
    return ExtractionEstimate(model.name, len(refs), tokens, answers, cost, False)


def session_tokens(model_name: str, sizes: Sequence[int], config: Config) -> list[int]:
    """The most one phase 1 call of ``model_name`` would use (prompt plus answer cap)
    on a transcript of each size in bytes, as ``extract_session_tokens`` cuts it (a
    transcript's file is larger than the text phase 1 shows: an upper bound)."""
    model = get_model(model_name, ModelSettings(api_base=config.model_api_base))
    budget = config.extract_session_tokens
    seen: dict[int, int] = {}
    for size in sizes:
        chars = min(size, budget * 4)  # the stand-in's text is estimated at 4 chars a token
        if chars not in seen:
            seen[chars] = model.estimate(_sized(chars, budget)).total_tokens
    return [seen[min(size, budget * 4)] for size in sizes]
