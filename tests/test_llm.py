"""The model boundary: real HTTP through litellm to a scripted local server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from brain.errors import BrainError
from brain.models.base import ConsolidateTask, ModelError, ModelOutputError
from brain.models.budget import Budget, BudgetExceeded, Estimate, Usage
from brain.models.litellm_model import complete_json, estimate
from brain.models.registry import get_model
from brain.models.schema import Consolidation, Extraction
from tests import fakemodel
from tests.fakemodel import FakeModel

# Fixtures used here, bound as names so pytest finds them in this module.
fake_model = fakemodel.fake_model
no_model_calls = fakemodel.no_model_calls

MODEL = "openai/fake-small"
MESSAGES = [{"role": "user", "content": "Reply with JSON."}]
GOOD = {
    "memories": [
        {
            "key": "use-uv-not-pip",
            "type": "correction",
            "description": "Use uv, not pip",
            "body": "The user corrected the agent: this repo installs packages with uv.",
            "tags": ["project:demo"],
            "confidence": 0.9,
            "evidence": [[3, 4]],
        }
    ],
    "summary": "Set up the dev environment.",
}


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 where a connection is refused: bound and never listened on,
    and held so for the test, so no other test's server takes it meanwhile."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


def test_valid_answer_through_real_http(fake_model: FakeModel) -> None:
    fake_model.push(GOOD)
    budget = Budget(max_tokens=10_000)

    reply = complete_json(
        MODEL,
        MESSAGES,
        shape=Extraction,
        api_base=fake_model.url,
        max_tokens=500,
        budget=budget,
    )

    assert reply.answer.summary == GOOD["summary"]
    assert reply.attempts == 1
    assert reply.usage.prompt_tokens == 11
    assert reply.usage.completion_tokens == 7
    assert budget.used.total_tokens == 18
    assert budget.calls == 1
    sent = fake_model.requests[0]
    assert sent["model"] == "fake-small"
    assert sent["messages"] == MESSAGES
    assert sent["max_tokens"] == 500
    (memory,) = reply.answer.memories
    assert memory.key == "use-uv-not-pip" and memory.type == "correction"
    assert memory.evidence == ((3, 4),)
    assert memory.tags == ("project:demo",)


def test_fenced_json_is_accepted(fake_model: FakeModel) -> None:
    fake_model.push("Here you go:\n```json\n" + json.dumps({"operations": []}) + "\n```")
    reply = complete_json(
        MODEL,
        MESSAGES,
        shape=Consolidation,
        api_base=fake_model.url,
        max_tokens=100,
        budget=Budget(max_tokens=None),
    )
    assert reply.answer == Consolidation(operations=())


def test_malformed_json_gets_one_repair(fake_model: FakeModel) -> None:
    fake_model.push("{not json", GOOD)
    budget = Budget(max_tokens=10_000)

    reply = complete_json(
        MODEL,
        MESSAGES,
        shape=Extraction,
        api_base=fake_model.url,
        max_tokens=500,
        budget=budget,
    )

    assert reply.attempts == 2
    assert [m.key for m in reply.answer.memories] == ["use-uv-not-pip"]
    assert len(fake_model.requests) == 2
    repair = fake_model.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "{not json"}
    assert "not valid JSON" in repair[-1]["content"]
    assert budget.used.total_tokens == 36  # both attempts are charged
    assert reply.usage.total_tokens == 36


def test_schema_failure_twice_raises_model_output_error(fake_model: FakeModel) -> None:
    bad = {"memories": [{"key": "Bad Key", "type": "fact"}], "summary": "x"}
    fake_model.push(bad, bad, GOOD)

    with pytest.raises(ModelOutputError) as caught:
        complete_json(
            MODEL,
            MESSAGES,
            shape=Extraction,
            api_base=fake_model.url,
            max_tokens=500,
            budget=Budget(max_tokens=10_000),
        )

    assert len(fake_model.requests) == 2  # one repair, not more
    repair = fake_model.requests[1]["messages"][-1]["content"]
    assert "does not match the schema at memories/0/key" in repair
    assert '(got "Bad Key")' in repair
    assert MODEL in str(caught.value)
    assert json.loads(caught.value.raw) == bad
    assert isinstance(caught.value, BrainError)


def test_dead_endpoint_fails_fast_naming_the_model(closed_port: int) -> None:
    api_base = f"http://127.0.0.1:{closed_port}/v1"
    estimate(MODEL, MESSAGES, 100)  # litellm's import (seconds on a loaded machine) is not timed
    started = time.monotonic()

    with pytest.raises(ModelError) as caught:
        complete_json(
            MODEL,
            MESSAGES,
            shape=Extraction,
            api_base=api_base,
            max_tokens=100,
            budget=Budget(max_tokens=10_000),
            timeout=5,
        )

    # Far below what retries with backoff would take; loose enough for a loaded machine.
    assert time.monotonic() - started < 15
    message = str(caught.value)
    assert f"model {MODEL} at {api_base} is unreachable" in message
    assert "check model_api_base or start the server" in message
    assert caught.value.model == MODEL
    assert type(caught.value.__cause__).__module__.startswith("litellm")


def test_missing_key_says_which_setting(closed_port: int) -> None:
    api_base = f"http://127.0.0.1:{closed_port}"
    model = "anthropic/claude-3-5-haiku-20241022"
    with pytest.raises(ModelError) as caught:
        complete_json(
            model,
            MESSAGES,
            shape=Extraction,
            api_base=api_base,
            max_tokens=10,
            budget=Budget(max_tokens=10_000),
            timeout=5,
        )
    assert str(caught.value).startswith(f"model {model} at {api_base} failed")
    assert caught.value.hint == "set the provider's key (OPENAI_API_KEY, ANTHROPIC_API_KEY...)"


def test_server_error_is_wrapped(fake_model: FakeModel) -> None:
    # No scripted reply: the fake answers HTTP 500.
    with pytest.raises(ModelError) as caught:
        complete_json(
            MODEL,
            MESSAGES,
            shape=Extraction,
            api_base=fake_model.url,
            max_tokens=100,
            budget=Budget(max_tokens=10_000),
        )
    assert str(caught.value).startswith(f"model {MODEL} at {fake_model.url}")
    assert len(fake_model.requests) == 1  # no retry storm


def test_budget_exceeded_before_any_call(fake_model: FakeModel) -> None:
    fake_model.push(GOOD)
    budget = Budget(max_tokens=50)

    with pytest.raises(BudgetExceeded) as caught:
        complete_json(
            MODEL,
            MESSAGES,
            shape=Extraction,
            api_base=fake_model.url,
            max_tokens=100,
            budget=budget,
        )

    assert fake_model.requests == []
    assert budget.used.total_tokens == 0
    assert "over the budget" in str(caught.value)


def test_budget_counts_across_calls(fake_model: FakeModel) -> None:
    fake_model.push(GOOD, GOOD)
    ceiling = estimate(MODEL, MESSAGES, 10).total_tokens
    budget = Budget(max_tokens=18 + ceiling - 1)  # room for one call only
    kwargs = {"shape": Extraction, "api_base": fake_model.url, "max_tokens": 10}

    complete_json(MODEL, MESSAGES, budget=budget, **kwargs)  # type: ignore[arg-type]
    assert budget.would_exceed(ceiling)
    with pytest.raises(BudgetExceeded):
        complete_json(MODEL, MESSAGES, budget=budget, **kwargs)  # type: ignore[arg-type]
    assert len(fake_model.requests) == 1


def test_mock_response_needs_no_server(no_model_calls: None) -> None:
    reply = complete_json(
        "openai/gpt-4o-mini",
        MESSAGES,
        shape=Extraction,
        max_tokens=200,
        budget=Budget(max_tokens=10_000),
        mock_response=json.dumps(GOOD),
    )
    assert reply.answer.memories[0].key == "use-uv-not-pip"
    assert reply.usage.total_tokens > 0
    assert reply.usage.cost is not None and reply.usage.cost > 0  # a priced model


def test_mock_response_malformed_twice(no_model_calls: None) -> None:
    with pytest.raises(ModelOutputError) as caught:
        complete_json(
            "openai/gpt-4o-mini",
            MESSAGES,
            shape=Extraction,
            max_tokens=200,
            budget=Budget(max_tokens=10_000),
            mock_response="sorry, no JSON today",
        )
    assert caught.value.raw == "sorry, no JSON today"


def test_builtin_never_reaches_litellm(monkeypatch: pytest.MonkeyPatch) -> None:
    from brain.models import litellm_model

    def refuse(call: str, kwargs: dict) -> None:
        raise AssertionError(f"the built-in model called litellm.{call}")

    monkeypatch.setattr(litellm_model, "send", refuse)
    model = get_model("builtin")
    task = ConsolidateTask((), (), max_tokens=100)
    assert model.offline and model.estimate(task) == Estimate(0, 0, 0.0)
    assert model.consolidate(task, Budget(100)) == Consolidation(operations=())


def test_estimate_uses_local_price_table() -> None:
    known = estimate("openai/gpt-4o-mini", MESSAGES, 1000)
    unknown = estimate(MODEL, MESSAGES, 1000)
    assert known.prompt_tokens > 0
    assert known.total_tokens == known.prompt_tokens + 1000
    assert known.cost is not None and 0 < known.cost < 0.01
    assert unknown.cost is None
    assert unknown.prompt_tokens == known.prompt_tokens


def test_budget_cost_ceiling() -> None:
    budget = Budget(max_tokens=None, max_cost=0.001)
    assert not budget.would_exceed(Estimate(100, 100, 0.0005))
    budget.charge(Usage(100, 100, 0.0008))
    assert budget.would_exceed(Estimate(100, 100, 0.0005))
    assert not budget.would_exceed(Estimate(100, 100, None))  # unknown price cannot be held


def test_unexpected_model_call_fails_the_test() -> None:
    # The autouse guard is on. Its failure is a BaseException: neither the model boundary
    # (which wraps litellm's exceptions as ModelError) nor a broad handler swallows it.
    swallowed: list[Exception] = []
    with pytest.raises(pytest.fail.Exception, match="unexpected model call: openai/gpt-4o-mini"):
        try:
            complete_json(
                "openai/gpt-4o-mini",
                [{"role": "user", "content": "hi"}],
                shape=Extraction,
                max_tokens=5,
                budget=Budget(None),
            )
        except Exception as exc:  # noqa: BLE001 - the point: even this does not catch it
            swallowed.append(exc)
    assert swallowed == []


def test_unexpected_embedding_call_fails_the_test() -> None:
    from brain.models.embedding import embed

    with pytest.raises(pytest.fail.Exception, match="unexpected model call: openai/text-emb"):
        embed("openai/text-emb", ["hello"])


def test_importing_the_models_does_not_import_litellm_or_pydantic() -> None:
    code = (
        "import brain.models.builtin.model, brain.models.litellm_model, brain.models.schema, "
        "brain.models.registry, brain.pipeline.extract, brain.pipeline.consolidate, "
        "brain.assets, sys\n"
        "heavy = [m for m in ('litellm', 'pydantic', 'jsonschema') if m in sys.modules]\n"
        "assert not heavy, heavy"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_model_named_without_its_provider_is_a_setting_to_fix(fake_model: FakeModel) -> None:
    with pytest.raises(ModelError) as caught:
        complete_json(
            "gpt4o-mini",
            MESSAGES,
            shape=Extraction,
            api_base=fake_model.url,
            max_tokens=10,
            budget=Budget(max_tokens=10_000),
            timeout=5,
        )
    assert caught.value.kind == "model"  # stops the run; sessions are not put off
    assert caught.value.hint == "name the provider: provider/model, e.g. openai/gpt-4o-mini"
    assert fake_model.requests == []
