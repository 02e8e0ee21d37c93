"""What every model is: the :class:`Model` protocol, its typed tasks and its errors.

A model does the two pipeline phases and says what a call would cost. The built-in
rules, litellm's chat models and any later provider implement the same three methods;
the phases get a model from :func:`brain.models.registry.get_model` and never ask which
one it is. The answers are :mod:`brain.models.schema` shapes whichever model ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from brain.errors import BrainError
from brain.models.budget import Budget, Estimate
from brain.models.schema import A, Candidate, Consolidation, ExistingRecord, Extraction

if TYPE_CHECKING:  # the prompts (and the transcripts they read) load when one is rendered
    from brain.models.prompts import Message
    from brain.sessions.sources.base import Transcript

__all__ = [
    "ConsolidateTask",
    "ExtractTask",
    "Model",
    "ModelError",
    "ModelOutputError",
    "ModelSettings",
    "Prompt",
    "Task",
]


@dataclass(frozen=True, slots=True)
class ModelSettings:
    """What a provider needs besides the model's name.

    Attributes:
        api_base: the server URL, for local or proxy endpoints (``model_api_base``).
        program: the agent CLI to run, by absolute path (``model_program``), for the
            agent CLI model whose program it is; otherwise found on PATH.
        timeout: seconds before one call is abandoned (``model_timeout``).
        retries: how many times a call refused for its rate or timed out is tried again
            (``model_retries``).
        backoff: seconds before the first retry, doubled for each next one, unless the
            provider says how long to wait (``Retry-After``).
    """

    api_base: str | None = None
    program: str | None = None
    timeout: float = 120.0
    retries: int = 3
    backoff: float = 2.0


class Prompt(NamedTuple):
    """A task's prompt in the parts a provider sends apart: the instructions (a system
    prompt: ``--append-system-prompt``, a system message), the data (the user message),
    and the JSON schema the answer must satisfy (``response_format``,
    ``--output-schema``)."""

    system: str
    user: str
    schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ExtractTask:
    """Phase 1 for one session.

    Attributes:
        transcript: the normalised session.
        session_tokens: the most estimated tokens of the session a prompt shows
            (``extract_session_tokens``; see :mod:`brain.models.phase1_text`).
        max_tokens: the answer's cap.
        records: the key and description of each record the session's project (and
            the person) already has, so the same fact is given the same key.
        read_outside: the session read text from outside (a web page, an MCP tool, a
            download): its facts and lessons, too, must rest on what the person typed.
    """

    transcript: Transcript
    session_tokens: int
    max_tokens: int
    records: tuple[tuple[str, str], ...] = ()
    read_outside: bool = False

    def messages(self) -> list[Message]:
        """The prompt, rendered only for the models that send one."""
        from brain.models.prompts import extract_messages

        return extract_messages(
            self.transcript, self.session_tokens, self.records, read_outside=self.read_outside
        )

    def prompt(self) -> Prompt:
        """The prompt's instructions, data and answer schema, apart."""
        from brain.models.schema import Extraction

        return _prompt(self.messages(), Extraction)


def _prompt(messages: list[Message], shape: type[Any]) -> Prompt:
    from brain.models.schema import answer_schema

    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    user = "\n\n".join(m["content"] for m in messages if m["role"] != "system")
    return Prompt(system, user, answer_schema(shape))


@dataclass(frozen=True, slots=True)
class ConsolidateTask:
    """Phase 2 for one batch.

    Attributes:
        raw: new candidates from phase 1, oldest first.
        existing: the stored records they may touch.
        max_tokens: the answer's cap.
        origins: for each raw candidate, the date it was learned and its session, so
            a model told "newer wins" can see which is newer.
        strength: for each raw candidate, its evidence: the sessions it was learned in,
            the uses of its record (recall hits, citations) and the last use (ISO UTC).
        rollouts: ``(session, summary)`` of the sessions the candidates came from.
    """

    raw: tuple[Candidate, ...]
    existing: tuple[ExistingRecord, ...]
    max_tokens: int
    origins: tuple[tuple[str, str], ...] = ()
    strength: tuple[tuple[int, int, str], ...] = ()
    rollouts: tuple[tuple[str, str], ...] = ()

    def messages(self) -> list[Message]:
        """The prompt, rendered only for the models that send one."""
        from brain.models.prompts import consolidate_messages

        return consolidate_messages(
            self.raw, self.existing, self.origins, self.strength, self.rollouts
        )

    def prompt(self) -> Prompt:
        """The prompt's instructions, data and answer schema, apart."""
        from brain.models.schema import Consolidation

        return _prompt(self.messages(), Consolidation)


Task = ExtractTask | ConsolidateTask


class Model(Protocol):
    """A model that can do both pipeline phases.

    Implementations raise :class:`ModelError` (or :class:`brain.models.budget.BudgetExceeded`
    before a call that would break the budget) and nothing else of their own; what they
    answer is filtered for safety by the registry, not by them.
    """

    @property
    def name(self) -> str:
        """The name it was asked for by (``builtin``, ``openai/gpt-4o-mini``...)."""
        ...

    @property
    def offline(self) -> bool:
        """Runs on this machine at no cost: a dry run may run it, and it has no prompt."""
        ...

    def extract(self, task: ExtractTask, budget: Budget) -> Extraction:
        """Phase 1: a few candidate memories (often none) and a summary of the session."""
        ...

    def consolidate(self, task: ConsolidateTask, budget: Budget) -> Consolidation:
        """Phase 2: the operations that fold the candidates into the records."""
        ...

    def estimate(self, task: Task) -> Estimate:
        """The most the task's call can cost, without making it."""
        ...


class PromptedModel:
    """A model that answers a rendered prompt: the two phases as one ``_ask`` each.

    Subclasses implement :meth:`_ask` (send the prompt, parse the answer into ``shape``,
    charge ``budget``) and :meth:`estimate`.
    """

    def _ask(self, task: Task, shape: type[A], budget: Budget) -> A:
        raise NotImplementedError

    def extract(self, task: ExtractTask, budget: Budget) -> Extraction:
        """Phase 1 through the extract prompt."""
        return self._ask(task, Extraction, budget)

    def consolidate(self, task: ConsolidateTask, budget: Budget) -> Consolidation:
        """Phase 2 through the consolidate prompt; no candidates, no call."""
        if not task.raw:
            return Consolidation(())
        return self._ask(task, Consolidation, budget)


# What to run for a model of any provider litellm serves, when litellm is not installed.
LITELLM_INSTALL = (
    "install brain's litellm extra: pip install 'brain-memory[litellm]' "
    "(with pipx: pipx inject brain-memory litellm; with uv: uv tool install "
    "'brain-memory[litellm]')"
)


class ModelError(BrainError):
    """A model call failed; the message names the model and what to do.

    ``kind`` says what failed: ``unreachable``, ``timeout``, ``auth``, ``model`` (no such
    model or provider), ``rate_limit``, ``output`` (unusable answer) or ``other``.
    """

    # Failures every later call of the run would repeat: a run stops on them.
    REPEATING = frozenset({"unreachable", "timeout", "auth", "model", "rate_limit"})

    def __init__(
        self,
        message: str,
        *,
        model: str,
        api_base: str | None = None,
        hint: str | None = None,
        kind: str = "other",
    ) -> None:
        super().__init__(message, hint=hint)
        self.model = model
        self.api_base = api_base
        self.kind = kind
        # Seconds the provider asked to wait before the next call (Retry-After), if said.
        self.retry_after: float | None = None

    @property
    def passes(self) -> bool:
        """Whether waiting and calling again may succeed (a rate limit, a timeout)."""
        return self.kind in ("rate_limit", "timeout")

    @property
    def repeats(self) -> bool:
        """Whether the next call to this model would fail the same way."""
        return self.kind in self.REPEATING


class ModelOutputError(ModelError):
    """The model answered, twice, with text that is not JSON valid against the schema."""

    def __init__(self, message: str, *, model: str, raw: str, hint: str | None = None) -> None:
        super().__init__(message, model=model, hint=hint, kind="output")
        self.raw = raw
