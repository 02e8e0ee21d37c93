"""What the two pipeline phases answer: one frozen dataclass per shape.

Phase 1 (extract) answers ``{"memories": [...], "summary": "..."}`` (:class:`Extraction`);
phase 2 (consolidate) answers ``{"operations": [...]}`` (:class:`Consolidation`). Each class
is the only definition of its shape: the built-in model builds it directly, and a language
model's JSON is validated into it by pydantic (:func:`parse_answer`), which also derives
the JSON schema from it (:func:`json_schema`). So everything after a model call sees one
set of types whichever model ran.

The classes are plain dataclasses, not pydantic models, and pydantic is imported only
when an answer is validated: the built-in model, and every command that never asks a
language model, do not pay for importing it. Field constraints are written as
:class:`Check` annotations, which pydantic reads through its annotation hook.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, Self, TypeVar, get_args

if TYPE_CHECKING:
    from pydantic import TypeAdapter

MemoryType = Literal["preference", "instruction", "decision", "lesson", "fact", "correction"]
OpKind = Literal["add", "update", "merge", "archive", "none"]
Outcome = Literal["done", "partial", "failed", "unclear"]

MEMORY_TYPES: tuple[str, ...] = get_args(MemoryType)
OP_KINDS: tuple[str, ...] = get_args(OpKind)
OUTCOMES: tuple[str, ...] = get_args(Outcome)
WRITING_OPS = frozenset({"add", "update", "merge"})
MAX_MEMORIES = 5
MAX_RECORDS = 120  # records a phase 1 prompt lists by key and description, a line each
KEY_PATTERN = r"^[a-z0-9][a-z0-9-]{0,79}$"
_INPUT_CHARS = 80


class Check:
    """Constraints on one field, in pydantic-core's words (``pattern``, ``min_length``, ``ge``...).

    Pydantic calls :meth:`__get_pydantic_core_schema__` on ``Annotated`` metadata when it
    builds a validator, so the constraint lands in both the validation and the JSON
    schema while this module never imports pydantic.
    """

    def __init__(self, **constraints: object) -> None:
        self.constraints = constraints

    def __get_pydantic_core_schema__(self, source: object, handler: Callable[[object], Any]) -> Any:
        """The field's core schema with these constraints added."""
        return {**handler(source), **self.constraints}


class Unasked:
    """A field brain fills in after a model answers: left out of the JSON schema a model
    is sent, as pydantic's ``SkipJsonSchema`` does, without importing pydantic here."""

    def __get_pydantic_json_schema__(self, core_schema: object, handler: object) -> Any:
        """Omit the field from the schema."""
        from pydantic_core import PydanticOmit

        raise PydanticOmit


Key = Annotated[str, Check(pattern=KEY_PATTERN)]
Line = Annotated[int, Check(ge=0)]
Evidence = tuple[tuple[Line, Line], ...]
Description = Annotated[str, Check(min_length=1, max_length=200)]
Body = Annotated[str, Check(min_length=1)]
Confidence = Annotated[float, Check(ge=0, le=1)]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One memory phase 1 proposes; phase 2 decides whether it is kept.

    Attributes:
        key: slug naming the fact; a later memory with the same key supersedes it.
        type: preference, instruction, decision, lesson, fact or correction.
        description: one line, shown in the index.
        body: the fact in full, with its reason when one was given.
        tags: free tags; ``project:<name>`` ties it to a project.
        confidence: 0..1, how sure the extractor is that this is durable.
        evidence: 1-based inclusive source line ranges the memory rests on.
    """

    key: Key
    type: MemoryType
    description: Description
    body: Body
    tags: tuple[str, ...] = ()
    confidence: Confidence = 0.5
    evidence: Evidence = ()

    def tidied(self) -> Candidate:
        """Whitespace folded, tags deduplicated: how a model's memory is stored."""
        return replace(
            self,
            description=" ".join(self.description.split()),
            body=self.body.strip(),
            tags=tuple(dict.fromkeys(self.tags)),
        )


@dataclass(frozen=True, slots=True)
class Extraction:
    """Phase 1's answer for one transcript: a few candidates (often none), a summary of
    the session (its task, outcome, what failed, reusable steps, files and commands),
    and its outcome: ``done``, ``partial``, ``failed`` or ``unclear``."""

    memories: Annotated[tuple[Candidate, ...], Check(max_length=MAX_MEMORIES)]
    summary: str
    outcome: Outcome = "unclear"
    # Why each memory the safety filter refused whole was refused (brain.models.safety):
    # brain's to say, never the model's, so no model is asked for it.
    refused: Annotated[tuple[str, ...], Unasked()] = ()

    def tidied(self) -> Extraction:
        """Each memory tidied, one per key (the first), the summary stripped."""
        seen: dict[str, Candidate] = {}
        for memory in self.memories[:MAX_MEMORIES]:
            seen.setdefault(memory.key, memory.tidied())
        return replace(self, memories=tuple(seen.values()), summary=self.summary.strip())


@dataclass(frozen=True, slots=True)
class ExistingRecord:
    """The view of a stored record that consolidation needs (no file or git detail)."""

    key: str
    type: str
    description: str
    body: str
    tags: tuple[str, ...] = ()
    id: str | None = None
    updated: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class Operation:
    """One change phase 2 asks for.

    ``add`` creates ``key``; ``update`` supersedes the record ``key`` with new fields;
    ``merge`` rewrites the record ``key`` to absorb ``merged_keys`` (raw candidates or
    other records; any of those that exist as records are retired); ``archive`` retires
    ``key``; ``none`` changes nothing and says why in ``reason``. add, update and merge
    must give ``type``, ``description`` and ``body``.
    """

    op: OpKind
    key: Key
    reason: str
    type: MemoryType | None = None
    description: Description | None = None
    body: Body | None = None
    tags: tuple[str, ...] = ()
    confidence: Confidence | None = None
    evidence: Evidence = ()
    merged_keys: tuple[Key, ...] = ()

    def __post_init__(self) -> None:
        # An operation that writes a record must say what the record is. Raised as a
        # ValueError, pydantic reports it at the operation's place in the answer.
        if self.op in WRITING_OPS:
            missing = [f for f in ("type", "description", "body") if getattr(self, f) is None]
            if missing:
                raise ValueError(f"an '{self.op}' operation needs {', '.join(missing)}")

    def tidied(self) -> Operation:
        """Whitespace folded, tags deduplicated, the key itself not among merged_keys."""
        return replace(
            self,
            reason=self.reason.strip(),
            description=" ".join(self.description.split()) if self.description else None,
            body=self.body.strip() if self.body is not None else None,
            tags=tuple(dict.fromkeys(self.tags)),
            merged_keys=tuple(k for k in dict.fromkeys(self.merged_keys) if k != self.key),
        )


@dataclass(frozen=True, slots=True)
class Consolidation:
    """Phase 2's answer: the operations, in the order they apply (may be empty)."""

    operations: tuple[Operation, ...]

    def tidied(self) -> Consolidation:
        """Every operation tidied."""
        return Consolidation(tuple(op.tidied() for op in self.operations))


class Answer(Protocol):
    """A shape a model answers in: it can tidy itself once validated."""

    def tidied(self) -> Self: ...


A = TypeVar("A", bound=Answer)


class AnswerError(ValueError):
    """A model's text is not JSON of the shape asked for; the message says what is wrong."""


_adapters: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(shape: type[Any]) -> TypeAdapter[Any]:
    if shape not in _adapters:
        from pydantic import TypeAdapter  # at the first validation, not with this module

        _adapters[shape] = TypeAdapter(shape)
    return _adapters[shape]


def json_schema(shape: type[Any]) -> dict[str, Any]:
    """The JSON schema of an answer shape, as pydantic derives it from the class."""
    return dict(_adapter(shape).json_schema())


def _strict(schema: Any) -> Any:
    """``schema`` as structured-output modes take it: every object closed
    (``additionalProperties: false``) and every property required; pydantic's tuple
    form (``prefixItems``) and titles, defaults and descriptions left out."""
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {
        k: {name: _strict(sub) for name, sub in v.items()}
        if k in ("properties", "$defs")
        else _strict(v)
        for k, v in schema.items()
        if k not in ("title", "default", "description", "prefixItems")
    }
    if "prefixItems" in schema:  # a pair of line numbers: an array of two of them
        out["items"] = _strict(schema["prefixItems"][0])
    if out.get("type") == "object" and "properties" in out:
        out["additionalProperties"] = False
        out["required"] = list(out["properties"])
    return out


def answer_schema(shape: type[Any]) -> dict[str, Any]:
    """The JSON schema a model's answer of ``shape`` must satisfy, closed and strict,
    for providers that take one (litellm's ``response_format``, ``codex exec
    --output-schema``). A phase 1 memory must cite at least one line range."""
    schema: dict[str, Any] = _strict(json_schema(shape))
    if shape is Extraction:
        schema["$defs"]["Candidate"]["properties"]["evidence"]["minItems"] = 1
    return schema


def _json_text(text: str | None) -> Any:
    if not text or not text.strip():
        raise AnswerError("the answer was empty")
    body = text.strip()
    # Models often wrap JSON in a markdown fence or add a sentence around it.
    fenced = re.search(r"```(?:json)?\s*(.*?)```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1).strip()
    elif not body.startswith("{") and "{" in body:
        # Prose around the object; an unclosed brace keeps the rest, for json to refuse.
        end = body.rfind("}")
        body = body[body.index("{") : end + 1 if end > body.index("{") else len(body)]
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"the answer is not valid JSON: {exc}") from exc


# The list each answer shape holds: its field, its item's class and how many are kept.
# (Operations are capped by what the run sent, in ``brain.pipeline.trust.operations``.)
_ITEMS: dict[type[Any], tuple[str, type[Any], int]] = {
    Extraction: ("memories", Candidate, MAX_MEMORIES),
    Consolidation: ("operations", Operation, 10_000),
}

# pydantic names Python types; the model was asked for JSON.
_JSON_WORDS = {
    "tuple_type": "Input should be an array",
    "list_type": "Input should be an array",
    "dataclass_type": "Input should be an object",
    "dict_type": "Input should be an object",
    "missing": "a required field is missing",
}


def _problem(error: dict[str, Any], more: int) -> str:
    path = "/".join(str(part) for part in error["loc"]) or "(top level)"
    message = _JSON_WORDS.get(error["type"], error["msg"]).removeprefix("Value error, ")
    got = error.get("input")
    if error["type"] != "missing" and not isinstance(got, dict | list):
        message += f" (got {json.dumps(got)[:_INPUT_CHARS]})"
    extra = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"the JSON does not match the schema at {path}: {message}{extra}"


def _salvage(data: Any, shape: type[Any]) -> Any:
    """``data`` with its invalid list items left out and the list cut to its cap.

    One bad key among good memories, or a sixth memory, must not cost the good ones
    (nor a repair call that repeats them all): when at least one item is valid, only
    the valid ones, up to the cap, are kept. With none valid, ``data`` is returned as
    it was, for the validation error to say what is wrong.
    """
    from pydantic import ValidationError

    items = _ITEMS.get(shape)
    if items is None or not isinstance(data, dict) or not isinstance(data.get(items[0]), list):
        return data
    name, item, cap = items
    valid, uncited = [], 0
    for entry in data[name]:
        try:
            parsed = _adapter(item).validate_python(entry)
        except ValidationError:
            continue
        if item is Candidate and not parsed.evidence:
            uncited += 1  # a memory must say which lines it rests on
            continue
        valid.append(entry)
    if not valid and data[name]:
        if uncited == len(data[name]):
            raise AnswerError(
                f"the JSON does not match the schema at {name}/0/evidence: every memory "
                "needs at least one [first, last] line range"
            )
        return data
    return {**data, name: valid[:cap]}


def parse_answer(text: str | None, shape: type[A]) -> A:
    """A model's text as a tidied answer of ``shape``.

    Args:
        text: the model's reply; a markdown fence or a sentence around the JSON is allowed.
        shape: :class:`Extraction` or :class:`Consolidation`.

    Returns:
        The validated answer, tidied (whitespace folded, duplicates dropped).

    Raises:
        AnswerError: the text is empty, not JSON, or not of the shape; the message names
            the first problem's place (``memories/0/key``), what is wrong and what was given.
    """
    from pydantic import ValidationError

    data = _salvage(_json_text(text), shape)
    try:
        answer: A = _adapter(shape).validate_python(data)
    except ValidationError as exc:
        errors = exc.errors()
        raise AnswerError(_problem(dict(errors[0]), len(errors) - 1)) from None
    return answer.tidied()
