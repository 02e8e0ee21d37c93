"""The model boundary: with :mod:`brain.models.embedding`, the only code that talks to litellm.

:class:`LitellmModel` serves every ``provider/model`` name no other provider claims
(``openai/gpt-4o-mini``, ``ollama/llama3``...). litellm is imported inside functions, so
importing this module (and everything that imports it) costs nothing until a model is
really called. Every request leaves through :func:`send` and every litellm exception is
turned into :class:`ModelError` here; nothing above this module sees a litellm type.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from typing import Any, Generic

from brain.models.base import (
    ModelError,
    ModelOutputError,
    ModelSettings,
    PromptedModel,
    Task,
)
from brain.models.budget import Budget, BudgetExceeded, Estimate, Usage
from brain.models.schema import (
    A,
    AnswerError,
    answer_schema,
    parse_answer,
)

__all__ = ["LitellmModel", "ModelReply", "complete_json", "estimate", "missing_keys", "send"]

_ERROR_DETAIL_CHARS = 300
_MAX_WAIT = 60.0
TEMPERATURE = 0.1


@dataclass(frozen=True, slots=True)
class ModelReply(Generic[A]):
    """A model's answer, parsed and valid against the shape it was asked for.

    Attributes:
        answer: the answer, validated and tidied.
        usage: what all attempts together consumed.
        model: the model that answered.
        attempts: 1, or 2 when the first answer needed a repair.
    """

    answer: A
    usage: Usage
    model: str
    attempts: int


def _litellm() -> Any:
    # Never fetch the remote price table: offline by default, and a recall must not wait.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as exc:
        from brain.models.base import LITELLM_INSTALL

        raise ModelError(
            "API models are reached through litellm, which is not installed",
            hint=LITELLM_INSTALL + "; or learn with your agent's own login: "
            "'brain setup claude-code --learn' (or codex, gemini)",
            model="litellm",
            kind="model",
        ) from exc

    litellm.suppress_debug_info = True
    return litellm


def _price(model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
    litellm = _litellm()
    try:
        prompt_cost, completion_cost = litellm.cost_per_token(
            model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens
        )
    except Exception:  # litellm raises a bare Exception subclass for unmapped models
        return None
    return float(prompt_cost + completion_cost)


def estimate(model: str, messages: list[dict[str, Any]], max_tokens: int) -> Estimate:
    """Estimate a call's ceiling without making it (no network).

    Args:
        model: a litellm model name such as ``openai/gpt-4o-mini``.
        messages: the chat messages to send.
        max_tokens: the answer's cap.

    Returns:
        The prompt's token count and the cost upper bound (None if the price is unknown).
    """
    litellm = _litellm()
    try:
        prompt_tokens = int(litellm.token_counter(model=model, messages=messages))
    except Exception:  # an unknown tokenizer must not stop a run: fall back to ~4 chars/token
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in messages) // 4 + 1
    return Estimate(prompt_tokens, max_tokens, _price(model, prompt_tokens, max_tokens))


def missing_keys(model: str, api_base: str | None = None) -> list[str]:
    """The environment variables ``model``'s provider needs that are not set, as litellm
    knows them (read offline, nothing sent); none for a provider litellm does not know."""
    try:
        found = _litellm().validate_environment(model=model, api_base=api_base)
    except Exception:  # an unknown provider is the call's error to report, not this check's
        return []
    return [str(name) for name in found.get("missing_keys") or []]


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = re.sub(r"^(litellm\.\w+: )?(\w+Error: )?", "", text)
    return text[:_ERROR_DETAIL_CHARS]


def _wrap(exc: Exception, model: str, api_base: str | None, timeout: float) -> ModelError:
    """Turn a litellm exception into a ModelError that says what to do."""
    name = type(exc).__name__
    detail = _short(exc)
    where = f"model {model}" + (f" at {api_base}" if api_base else "")
    server_hint = (
        "check model_api_base or start the server"
        if api_base
        else "check your network and the provider's status"
    )
    if name == "Timeout" or "timed out" in detail.lower():
        return ModelError(
            f"{where} timed out after {timeout:g}s: {detail}",
            model=model,
            api_base=api_base,
            hint=f"{server_hint}, or raise the timeout",
            kind="timeout",
        )
    lowered = detail.lower()
    if name == "APIConnectionError" or "connection error" in lowered or "refused" in lowered:
        message = f"{where} is unreachable: {detail}"
        return ModelError(
            message, model=model, api_base=api_base, hint=server_hint, kind="unreachable"
        )
    hints = {
        "AuthenticationError": "set the provider's key (OPENAI_API_KEY, ANTHROPIC_API_KEY...)",
        "PermissionDeniedError": "check the API key's permissions",
        "NotFoundError": "check the model name (provider/model, e.g. openai/gpt-4o-mini)",
        "RateLimitError": "wait and run again, or lower the run's budget",
        "ContextWindowExceededError": "lower max input or use a model with a larger context",
        "BadRequestError": "check the model name (provider/model, e.g. openai/gpt-4o-mini)",
        "LiteLLMUnknownProvider": "name the provider: provider/model, e.g. openai/gpt-4o-mini",
    }
    # Some providers report a missing key as a server error; the text tells the truth.
    missing_key = any(word in lowered for word in ("api_key", "api key", "missing credentials"))
    name = "AuthenticationError" if missing_key else name
    # A model named without its provider ("gpt4o-mini") is a setting to fix, not a
    # session to retry: litellm says so in a BadRequestError.
    name = "LiteLLMUnknownProvider" if "llm provider not provided" in lowered else name
    kinds = {
        "AuthenticationError": "auth",
        "PermissionDeniedError": "auth",
        "NotFoundError": "model",
        "LiteLLMUnknownProvider": "model",
        "RateLimitError": "rate_limit",
    }
    return ModelError(
        f"{where} failed ({type(exc).__name__}): {detail}",
        model=model,
        api_base=api_base,
        hint=hints.get(name, server_hint),
        kind=kinds.get(name, "other"),
    )


def send(call: str, kwargs: dict[str, Any]) -> Any:
    """The one place a request leaves for a provider: ``litellm.<call>(**kwargs)``.

    Args:
        call: ``completion`` or ``embedding``.
        kwargs: litellm's arguments.

    Returns:
        litellm's response; its exceptions propagate for the caller to wrap.
    """
    return getattr(_litellm(), call)(**kwargs)


def _response_format(model: str, shape: type[Any] | None) -> dict[str, Any] | None:
    """The answer's JSON schema as ``response_format``, for models litellm says take one."""
    if shape is None:
        return None
    try:
        supported = bool(_litellm().supports_response_schema(model=model))
    except Exception:  # litellm raises a bare Exception for models it does not know
        return None
    if not supported:
        return None
    schema = {"name": shape.__name__.lower(), "schema": answer_schema(shape)}
    return {"type": "json_schema", "json_schema": schema}


def _call(
    model: str,
    messages: list[dict[str, Any]],
    *,
    api_base: str | None,
    max_tokens: int,
    timeout: float,
    mock_response: str | None,
    shape: type[Any] | None = None,
) -> tuple[str | None, str | None, Usage]:
    """One litellm call; returns (content, finish_reason, usage) or raises ModelError."""
    kwargs: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "max_tokens": max_tokens,
        # Extraction is reading, not writing: the same session should give the same
        # memories. A model that takes no temperature has it dropped (drop_params).
        "temperature": TEMPERATURE,
        "drop_params": True,
        "timeout": timeout,
        # One attempt per call: the repair retry is ours, and a dead server must fail fast.
        "num_retries": 0,
        "max_retries": 0,
    }
    if api_base:
        kwargs["api_base"] = api_base
        # Local OpenAI-compatible servers (Ollama, llama.cpp) need no key, but the client
        # refuses to start without one.
        if model.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
            kwargs["api_key"] = "no-key-required"
    if mock_response is not None:
        kwargs["mock_response"] = mock_response
    response_format = _response_format(model, shape)
    if response_format is not None:
        kwargs["response_format"] = response_format
    try:
        response = send("completion", kwargs)
    except Exception as exc:
        error = _wrap(exc, model, api_base, timeout)
        error.retry_after = _retry_after(exc)
        raise error from exc
    choice = response.choices[0]
    usage = getattr(response, "usage", None)
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    cost = _price(model, prompt, completion)
    return choice.message.content, choice.finish_reason, Usage(prompt, completion, cost)


def _retry_after(exc: Exception) -> float | None:
    """The seconds a provider's ``Retry-After`` header asks for, if it sent one."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        value = headers.get("retry-after")
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError, AttributeError):
        return None


def _call_patiently(
    model: str, messages: list[dict[str, Any]], *, retries: int, backoff: float, **kw: Any
) -> tuple[str | None, str | None, Usage]:
    """:func:`_call`, tried again after a rate limit or a timeout, waiting longer each
    time (or as long as the provider asks, up to a minute)."""
    for attempt in range(retries + 1):
        try:
            return _call(model, messages, **kw)
        except ModelError as exc:
            if not exc.passes or attempt == retries:
                raise
            wait = exc.retry_after if exc.retry_after is not None else backoff * 2**attempt
            time.sleep(min(wait, _MAX_WAIT))
    raise AssertionError("unreachable")  # the loop returns or raises


def _repair_message(error: str, finish_reason: str | None) -> dict[str, str]:
    cut = (
        " It was cut off at the token limit: answer more briefly."
        if finish_reason == "length"
        else ""
    )
    return {
        "role": "user",
        "content": (
            f"Your previous answer could not be used: {error}.{cut} Reply again with only "
            "one JSON object that matches the required shape, and no other text."
        ),
    }


def complete_json(
    model: str,
    messages: list[dict[str, Any]],
    *,
    shape: type[A],
    api_base: str | None = None,
    max_tokens: int,
    budget: Budget,
    timeout: float = 120,
    mock_response: str | None = None,
    retries: int = 0,
    backoff: float = 2.0,
) -> ModelReply[A]:
    """Ask a model for one JSON object of ``shape`` (a :mod:`brain.models.schema` class).

    An answer that is not JSON, or does not match, gets ONE repair attempt that shows
    the model its error; a second failure raises :class:`ModelOutputError`. The budget
    is checked before each attempt and charged after it.

    Args:
        model: a litellm model name (``openai/gpt-4o-mini``, ``ollama/llama3``...).
        messages: chat messages.
        shape: the answer's class; its JSON schema is what the answer must satisfy.
        api_base: the server URL, for local or proxy endpoints.
        max_tokens: the answer's cap.
        budget: the run's budget; charged with each attempt's usage.
        timeout: seconds before one attempt is abandoned.
        mock_response: a canned answer (litellm's mock; no network), for tests and demos.
        retries: times a rate-limited or timed-out call is tried again.
        backoff: seconds before the first of those, doubled for each next one.

    Returns:
        The validated answer and what it cost.

    Raises:
        BudgetExceeded: before any attempt that could break the budget.
        ModelError: the model could not be reached or refused the call.
        ModelOutputError: two answers in a row were unusable.
    """
    convo = list(messages)
    total = Usage(cost=0.0)
    raw = ""
    for attempt in (1, 2):
        ceiling = estimate(model, convo, max_tokens)
        if not budget.hold(ceiling):
            raise BudgetExceeded(
                f"a call to {model} could use {ceiling.total_tokens} tokens, over the budget "
                f"({budget.used.total_tokens} of {budget.max_tokens} used)",
                hint="raise the budget (brain config set max_tokens_per_run N); a "
                "consolidation also reads less with a lower max_raw_memories_for_consolidation",
            )
        try:
            content, finish, usage = _call_patiently(
                model,
                convo,
                retries=retries,
                backoff=backoff,
                api_base=api_base,
                max_tokens=max_tokens,
                timeout=timeout,
                mock_response=mock_response,
                shape=shape,
            )
            budget.charge(usage)
        finally:
            budget.release(ceiling)
        total = total + usage
        try:
            answer = parse_answer(content, shape)
        except AnswerError as exc:
            error = str(exc)
        else:
            return ModelReply(answer=answer, usage=total, model=model, attempts=attempt)
        raw = content or ""
        convo = [*convo, {"role": "assistant", "content": raw}, _repair_message(error, finish)]
    raise ModelOutputError(
        f"model {model} gave no usable JSON after a repair attempt: {error}",
        model=model,
        raw=raw,
        hint="try a stronger model or a larger max_tokens",
    )


class LitellmModel(PromptedModel):
    """Any chat model litellm speaks to, asked with the phase prompts for JSON.

    Args:
        name: ``provider/model`` as litellm spells it.
        settings: the endpoint (``model_api_base``) and the timeout.
    """

    offline = False

    def __init__(self, name: str, settings: ModelSettings) -> None:
        self.name = name
        self.settings = settings

    def _ask(self, task: Task, shape: type[A], budget: Budget) -> A:
        reply = complete_json(
            self.name,
            task.messages(),
            shape=shape,
            api_base=self.settings.api_base,
            max_tokens=task.max_tokens,
            budget=budget,
            timeout=self.settings.timeout,
            retries=self.settings.retries,
            backoff=self.settings.backoff,
        )
        return reply.answer

    def estimate(self, task: Task) -> Estimate:
        """The prompt's tokens plus a full answer, priced from litellm's local table."""
        return estimate(self.name, task.messages(), task.max_tokens)
