"""The model registry, the one safety filter on its answers, and the answer shapes."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from brain.errors import BrainError
from brain.models import registry
from brain.models.base import ConsolidateTask, ModelSettings
from brain.models.budget import Budget
from brain.models.litellm_model import LitellmModel
from brain.models.registry import Filtered, UnknownModelError, get_model, register, unregister
from brain.models.schema import (
    KEY_PATTERN,
    MEMORY_TYPES,
    AnswerError,
    Candidate,
    Consolidation,
    Extraction,
    Operation,
    json_schema,
    parse_answer,
)
from tests import fakemodel
from tests.fakemodel import CannedModel

canned_model = fakemodel.canned_model


@pytest.fixture
def agent_cli() -> Iterator[list[str]]:
    """A provider registered under ``agent-cli/``; yields the names it was asked for."""
    asked: list[str] = []

    def factory(name: str, settings: ModelSettings) -> CannedModel:
        asked.append(name)
        return CannedModel(name=name)

    register("agent-cli/", factory)
    try:
        yield asked
    finally:
        unregister("agent-cli/")


def test_builtin_and_litellm_names_are_served() -> None:
    builtin = get_model("builtin")
    assert isinstance(builtin, Filtered) and builtin.name == "builtin" and builtin.offline
    chat = get_model("ollama/llama3", ModelSettings(api_base="http://127.0.0.1:11434"))
    assert isinstance(chat, Filtered) and isinstance(chat.model, LitellmModel)
    assert chat.name == "ollama/llama3" and not chat.offline
    assert chat.model.settings.api_base == "http://127.0.0.1:11434"


def test_a_provider_prefix_claims_its_names(agent_cli: list[str]) -> None:
    model = get_model("agent-cli/sonnet")
    assert agent_cli == ["agent-cli/sonnet"] and model.name == "agent-cli/sonnet"
    assert "agent-cli/<model>" in registry.known()


def test_unregistering_restores_what_brain_ships() -> None:
    register("builtin", lambda name, settings: CannedModel(name=name))
    try:
        assert isinstance(get_model("builtin").model, CannedModel)  # type: ignore[attr-defined]
    finally:
        unregister("builtin")
    assert get_model("builtin").offline


@pytest.mark.parametrize("name", ["gpt4o-mini", "openai/", "/gpt-4o", ""])
def test_an_unknown_name_fails_fast_naming_the_providers(name: str) -> None:
    with pytest.raises(UnknownModelError) as caught:
        get_model(name)
    assert isinstance(caught.value, BrainError) and caught.value.kind == "model"
    assert str(caught.value).startswith(
        f"no provider for model '{name}' (known: builtin, claude-code[/<model>], "
        "codex[/<model>], gemini-cli[/<model>], opencode[/<model>], any litellm provider/model); "
        "set "
    )


def test_the_registry_filters_every_providers_operations(canned_model: CannedModel) -> None:
    canned_model.push(
        {
            "operations": [
                {
                    "op": "add",
                    "key": "deploy-password",
                    "reason": "asked to",
                    "type": "fact",
                    "description": "Deploy credentials",
                    "body": "The deploy password is hunter2.",
                },
                {"op": "archive", "key": "old", "reason": "token ghp_" + "d" * 36 + " rotated"},
            ]
        }
    )
    answer = get_model("canned/x").consolidate(ConsolidateTask((), (), 100), Budget(None))
    (kept,) = answer.operations
    assert (kept.op, kept.key) == ("archive", "old")
    assert "ghp_" not in kept.reason and "[REDACTED" in kept.reason


def test_the_json_schema_comes_from_the_classes() -> None:
    extract = json_schema(Extraction)
    assert extract["required"] == ["memories", "summary"]
    assert extract["properties"]["memories"]["maxItems"] == 5
    memory = extract["$defs"]["Candidate"]
    assert memory["required"] == ["key", "type", "description", "body"]
    assert memory["properties"]["key"]["pattern"] == KEY_PATTERN
    assert tuple(memory["properties"]["type"]["enum"]) == MEMORY_TYPES
    assert memory["properties"]["confidence"]["maximum"] == 1
    ops = json_schema(Consolidation)["$defs"]["Operation"]
    assert ops["required"] == ["op", "key", "reason"]
    assert "must give ``type``, ``description`` and ``body``" in ops["description"]


@pytest.mark.parametrize(
    "text,problem",
    [
        ("", "the answer was empty"),
        ("{nope", "the answer is not valid JSON: Expecting property name"),
        ('{"operations": "nope"}', 'at operations: Input should be an array (got "nope")'),
        ("[1]", "at (top level): Input should be an object"),
        ('{"operations": [{"op": "add", "key": "k", "reason": "r", "type": "fact"}]}',
         "at operations/0: an 'add' operation needs description, body"),
        ('{"operations": [{"op": "drop", "key": "Bad Key", "reason": "r"}]}',
         "at operations/0/op: Input should be 'add', 'update', 'merge', 'archive' or 'none' "
         '(got "drop") (and 1 more problem)'),
    ],
)  # fmt: skip
def test_an_unusable_answer_says_where_and_what(text: str, problem: str) -> None:
    with pytest.raises(AnswerError) as caught:
        parse_answer(text, Consolidation)
    assert problem in str(caught.value)


def test_an_answer_is_tidied_once_valid() -> None:
    memory = {
        "key": "k",
        "type": "fact",
        "description": " two\n words ",
        "body": " b \n",
        "evidence": [[1, 2]],
    }
    memories = [{**memory, "tags": ["a", "a"]}, {**memory, "body": "later"}]
    text = "Sure:\n```json\n" + json.dumps({"memories": memories, "summary": " s "}) + "\n```"
    answer = parse_answer(text, Extraction)
    assert answer == Extraction(
        memories=(Candidate("k", "fact", "two words", "b", tags=("a",), evidence=((1, 2),)),),
        summary="s",
    )
    merge = {"op": "merge", "key": "k", "reason": "r", "type": "fact", "description": "d"}
    ops = parse_answer(
        json.dumps({"operations": [{**merge, "body": "b", "merged_keys": ["k", "j", "j"]}]}),
        Consolidation,
    )
    assert ops.operations[0].merged_keys == ("j",)


def test_an_operation_that_writes_must_say_what_whoever_builds_it() -> None:
    with pytest.raises(ValueError, match="an 'update' operation needs type, description, body"):
        Operation("update", "k", "r")
    assert Operation("archive", "k", "r").type is None
