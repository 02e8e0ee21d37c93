"""Which code serves a model name, and the one safety filter on every answer.

A provider registers a factory under an exact name (``builtin``) or a provider prefix
ending in ``/`` (``claude-code/``); :data:`ANY_PROVIDER` (litellm) takes every other
``provider/model`` name. :func:`get_model` wraps whatever the factory builds in
:class:`Filtered`, so no answer reaches the pipeline without passing
:mod:`brain.models.safety`, whichever provider gave it.

Adding a provider is one module with a class implementing :class:`brain.models.base.Model`
and one line in :data:`_PROVIDERS` below (or a :func:`register` call, as tests do).
Factories import their module when first used, so a name lookup stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from brain.models.base import (
    LITELLM_INSTALL,
    ConsolidateTask,
    ExtractTask,
    Model,
    ModelError,
    ModelSettings,
    Task,
)
from brain.models.budget import Budget, Estimate
from brain.models.safety import safe_extraction, safe_operations
from brain.models.schema import Consolidation, Extraction

__all__ = [
    "ANY_PROVIDER",
    "Factory",
    "Filtered",
    "UnknownModelError",
    "get_model",
    "known",
    "register",
    "unregister",
]

Factory = Callable[[str, ModelSettings], Model]
ANY_PROVIDER = "*/"


class UnknownModelError(ModelError):
    """No provider serves this model name: a setting to fix, not a call to retry."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(
            f"no provider for model '{name}' (known: {', '.join(known)})",
            model=name,
            hint="set extract_model / consolidation_model to 'builtin', an agent CLI "
            "(claude-code, codex, gemini-cli, opencode) or provider/model, e.g. openai/gpt-4o-mini",
            kind="model",
        )


def _lazy(module: str, attr: str) -> Factory:
    """A factory that imports ``module`` only when a model of it is asked for."""

    def build(name: str, settings: ModelSettings) -> Model:
        cls: Factory = getattr(importlib.import_module(module), attr)
        return cls(name, settings)

    return build


# The providers brain ships. A new one is a module plus one line here.
_PROVIDERS: dict[str, Factory] = {
    "builtin": _lazy("brain.models.builtin.model", "BuiltinModel"),
    "claude-code/": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "codex/": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "gemini-cli/": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "opencode/": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "claude-code": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "codex": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "gemini-cli": _lazy("brain.models.agent_cli", "AgentCliModel"),
    "opencode": _lazy("brain.models.agent_cli", "AgentCliModel"),
    ANY_PROVIDER: _lazy("brain.models.litellm_model", "LitellmModel"),
}
_registry: dict[str, Factory] = dict(_PROVIDERS)

if TYPE_CHECKING:  # mypy checks that the shipped providers are factories of a Model
    from brain.models.agent_cli import AgentCliModel
    from brain.models.builtin.model import BuiltinModel
    from brain.models.litellm_model import LitellmModel

    _SHIPPED: tuple[Factory, ...] = (BuiltinModel, LitellmModel, AgentCliModel)


def register(name: str, factory: Factory) -> None:
    """Serve ``name`` with ``factory`` from now on.

    Args:
        name: an exact model name (``builtin``), a provider prefix ending in ``/``
            (``claude-code/`` serves ``claude-code/sonnet``), or :data:`ANY_PROVIDER`.
        factory: called with the full model name and the settings; returns the model.
    """
    _registry[name] = factory


def unregister(name: str) -> None:
    """Stop serving ``name``; a provider brain ships comes back as it was."""
    _registry.pop(name, None)
    if name in _PROVIDERS:
        _registry[name] = _PROVIDERS[name]


def known() -> list[str]:
    """The names and prefixes served, as a person would write them."""
    names = sorted((n for n in _registry if n != ANY_PROVIDER), key=lambda n: (n != "builtin", n))
    # A provider served bare and with a model ("codex", "codex/o3") is shown once.
    shown = [
        n + "[/<model>]" if n + "/" in _registry else n + "<model>" if n.endswith("/") else n
        for n in names
        if not (n.endswith("/") and n[:-1] in _registry)
    ]
    if ANY_PROVIDER in _registry:
        shown.append("any litellm provider/model")
    return shown


def _factory(name: str) -> Factory:
    found = _registry.get(name)
    provider, slash, model = name.partition("/")
    if found is None and slash and provider and model:
        found = _registry.get(provider + "/") or _registry.get(ANY_PROVIDER)
    if found is None:
        raise UnknownModelError(name, known())
    return found


def missing_library(name: str) -> str | None:
    """What model ``name`` needs that this Python lacks (litellm, for any provider it
    serves), as a sentence with the install line; None when nothing is missing."""
    from importlib.util import find_spec

    try:
        factory = _factory(name)
    except UnknownModelError:
        return None  # said when the model is used, with the names brain knows
    try:
        found = find_spec("litellm") is not None
    except (ImportError, ValueError):
        found = False
    if factory is _registry.get(ANY_PROVIDER) and not found:
        return f"{name} is reached through litellm, which is not installed; {LITELLM_INSTALL}"
    return None


def get_model(name: str, settings: ModelSettings | None = None) -> Model:
    """The model ``name`` names, its answers filtered for safety.

    Args:
        name: ``builtin``, ``<prefix>/<model>`` for a registered provider, or any
            ``provider/model`` litellm speaks to.
        settings: the endpoint and timeout; defaults for none.

    Returns:
        The model, wrapped in :class:`Filtered`.

    Raises:
        UnknownModelError: no provider serves the name; the message lists those known.
    """
    return Filtered(_factory(name)(name, settings or ModelSettings()))


@dataclass(frozen=True, slots=True)
class Filtered:
    """A model whose every answer passes :mod:`brain.models.safety`.

    The prompt tells a model not to keep credentials or obey a transcript; this makes
    sure. A memory or an operation carrying a secret or an instruction to the memory is
    dropped whole, and so is an instructing summary.
    """

    model: Model

    @property
    def name(self) -> str:
        """The wrapped model's name."""
        return self.model.name

    @property
    def offline(self) -> bool:
        """Whether the wrapped model runs locally at no cost."""
        return self.model.offline

    def extract(self, task: ExtractTask, budget: Budget) -> Extraction:
        """Phase 1, filtered."""
        return safe_extraction(self.model.extract(task, budget))

    def consolidate(self, task: ConsolidateTask, budget: Budget) -> Consolidation:
        """Phase 2, filtered; kept operations' reasons are redacted."""
        answer = self.model.consolidate(task, budget)
        return replace(answer, operations=tuple(safe_operations(answer.operations)))

    def estimate(self, task: Task) -> Estimate:
        """The wrapped model's estimate."""
        return self.model.estimate(task)
