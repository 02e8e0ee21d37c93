"""What model calls cost, and the per-run budget that caps it."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from brain.errors import BrainError


class BudgetExceeded(BrainError):
    """A call would spend more tokens or money than the run's budget allows."""


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens (and money, when the price is known) one or more calls consumed."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        cost = None if self.cost is None or other.cost is None else self.cost + other.cost
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            cost,
        )


@dataclass(frozen=True, slots=True)
class Estimate:
    """The most a call can cost: its prompt plus a full ``max_tokens`` answer.

    Attributes:
        prompt_tokens: tokens in the messages, counted with the model's tokenizer.
        max_completion_tokens: the answer's cap.
        cost: the upper bound in USD from litellm's local price table; None if unknown.
    """

    prompt_tokens: int
    max_completion_tokens: int
    cost: float | None

    @property
    def total_tokens(self) -> int:
        """The token ceiling of the call."""
        return self.prompt_tokens + self.max_completion_tokens


class Budget:
    """A per-run ceiling on tokens (and optionally USD), charged as calls return.

    Calls made at the same time each :meth:`hold` their ceiling first, so together
    they can never go past the budget: what is held counts as spent until the call's
    real usage is charged and the hold released.

    Args:
        max_tokens: the most tokens the run may use; None for no ceiling.
        max_cost: the most USD the run may spend; calls of unknown price pass.
    """

    def __init__(self, max_tokens: int | None, max_cost: float | None = None) -> None:
        self.max_tokens = max_tokens
        self.max_cost = max_cost
        self.used = Usage(cost=0.0)
        self.calls = 0
        self._lock = threading.Lock()
        self._held_tokens = 0
        self._held_cost = 0.0

    def charge(self, usage: Usage) -> None:
        """Record what a finished call consumed."""
        with self._lock:
            cost = (self.used.cost or 0.0) + (usage.cost or 0.0)
            self.used = Usage(
                self.used.prompt_tokens + usage.prompt_tokens,
                self.used.completion_tokens + usage.completion_tokens,
                cost,
            )
            self.calls += 1

    def hold(self, estimated: Estimate) -> bool:
        """Set a call's ceiling aside if the budget has room for it; False if not."""
        with self._lock:
            if self.would_exceed(estimated):
                return False
            self._held_tokens += estimated.total_tokens
            self._held_cost += estimated.cost or 0.0
            return True

    def release(self, estimated: Estimate) -> None:
        """Give back what :meth:`hold` set aside (charge the real usage first)."""
        with self._lock:
            self._held_tokens -= estimated.total_tokens
            self._held_cost -= estimated.cost or 0.0

    def would_exceed(self, estimated: Estimate | int) -> bool:
        """Whether a call of this estimate (or token count) would break the budget,
        counting what calls in flight hold."""
        tokens = estimated if isinstance(estimated, int) else estimated.total_tokens
        spent = self.used.total_tokens + self._held_tokens
        if self.max_tokens is not None and spent + tokens > self.max_tokens:
            return True
        cost = None if isinstance(estimated, int) else estimated.cost
        return (
            self.max_cost is not None
            and cost is not None
            and (self.used.cost or 0.0) + self._held_cost + cost > self.max_cost
        )

    def __repr__(self) -> str:
        return f"Budget(max_tokens={self.max_tokens}, used={self.used.total_tokens})"


def spent(budget: Budget) -> dict[str, int]:
    """What a run's calls used, for its journal line: calls, tokens in and out (as the
    provider reported them, or estimated where it said nothing)."""
    used = budget.used
    return {
        "calls": budget.calls,
        "tokens_in": used.prompt_tokens,
        "tokens_out": used.completion_tokens,
    }
