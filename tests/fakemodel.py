"""Fakes at the model boundary, and a guard against model calls.

* :func:`fake_model`: a scripted OpenAI-compatible chat server on 127.0.0.1 that litellm
  really calls (HTTP, errors, usage).
* :func:`canned_model`: a model registered through brain's model registry under
  ``canned/<name>``, answering scripted JSON text; no litellm at all.
* :func:`guard_model_calls`: any request leaving through brain's one litellm call site
  fails the test unless it is mocked or aimed at 127.0.0.1.

Bind the fixtures in the test module that uses them (an assignment, not an import,
so ruff does not report the test parameters as redefinitions)::

    from tests import fakemodel

    fake_model = fakemodel.fake_model
"""

from __future__ import annotations

import json
import threading
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from brain.models import litellm_model, registry
from brain.models.base import ConsolidateTask, ExtractTask, ModelError, ModelSettings, Task
from brain.models.budget import Budget, Estimate
from brain.models.schema import Consolidation, Extraction, parse_answer

_PATHS = ("/v1/chat/completions", "/chat/completions")
_EMBEDDING_PATHS = ("/v1/embeddings", "/embeddings")
EMBEDDING_WIDTH = 64


@dataclass
class FakeModel:
    """The server's script and what it was asked.

    Attributes:
        url: the api_base to hand to litellm (``http://127.0.0.1:<port>/v1``).
        replies: answers still to give, oldest first; each is the message content.
        requests: the JSON bodies received, in order.
        prompt_tokens: usage reported with every answer.
        completion_tokens: usage reported with every answer.
    """

    url: str = ""
    replies: deque[str] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 11
    completion_tokens: int = 7
    fail_with: int | None = None  # answer every chat request with this HTTP status
    fail_next: deque[int] = field(default_factory=deque)  # then these, one per request
    # With no scripted reply left, the reply made from the request's JSON body, if set.
    answer: Callable[[dict[str, Any]], str] | None = None

    def push(self, *replies: str | dict[str, Any]) -> None:
        """Queue answers; dicts are sent as their JSON text."""
        for reply in replies:
            self.replies.append(reply if isinstance(reply, str) else json.dumps(reply))

    def completion(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Record one request and build the (status, JSON) answer for it."""
        self.requests.append(body)
        if self.fail_with is not None:
            return self.fail_with, {"error": {"message": "Incorrect API key provided"}}
        if self.fail_next:
            return self.fail_next.popleft(), {"error": {"message": "Rate limit reached"}}
        if not self.replies and self.answer is None:
            return 500, {"error": {"message": "fake model has no scripted reply left"}}
        content = self.replies.popleft() if self.replies else self.answer(body)  # type: ignore[misc]
        return 200, {
            "id": f"chatcmpl-fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens,
            },
        }


def fake_vector(text: str) -> list[float]:
    """A deterministic bag-of-words vector: texts sharing words point the same way."""
    vector = [0.0] * EMBEDDING_WIDTH
    for word in text.lower().split():
        vector[zlib.crc32(word.strip(".,;:!?").encode()) % EMBEDDING_WIDTH] += 1.0
    return vector


def _embeddings(model: FakeModel, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    model.requests.append(body)
    texts = body.get("input") or []
    texts = [texts] if isinstance(texts, str) else texts
    return 200, {
        "object": "list",
        "model": body.get("model", "fake"),
        "data": [
            {"object": "embedding", "index": i, "embedding": fake_vector(str(t))}
            for i, t in enumerate(texts)
        ],
        "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)},
    }


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            route = self.path.rstrip("/")
            if route not in (*_PATHS, *_EMBEDDING_PATHS):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            if route in _EMBEDDING_PATHS:
                self._send(*_embeddings(model, body))
            else:
                self._send(*model.completion(body))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if status >= 400:
                self.send_header("Retry-After", "0")  # a retrying client need not wait
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # keep test output clean

    return Handler


@pytest.fixture
def fake_model() -> Iterator[FakeModel]:
    """A running fake chat server; use ``openai/<any-name>`` with ``api_base=fake_model.url``."""
    model = FakeModel()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(model))
    model.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield model
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class CannedModel:
    """A model that answers each call with the next scripted JSON text.

    Attributes:
        name: the name it was asked for by (``canned/<anything>``).
        answers: texts still to give, oldest first.
        tasks: what it was asked, in order.
    """

    name: str = "canned/model"
    answers: deque[str | ModelError] = field(default_factory=deque)
    tasks: list[Task] = field(default_factory=list)
    offline: bool = False

    def push(self, *answers: str | dict[str, Any] | ModelError) -> None:
        """Queue answers; dicts are given as their JSON text, an error is raised."""
        for answer in answers:
            text = answer if isinstance(answer, str | ModelError) else json.dumps(answer)
            self.answers.append(text)

    def extract(self, task: ExtractTask, budget: Budget) -> Extraction:
        """The next answer, parsed as phase 1's."""
        self.tasks.append(task)
        answer = self.answers.popleft()
        if isinstance(answer, ModelError):
            raise answer
        return parse_answer(answer, Extraction)

    def consolidate(self, task: ConsolidateTask, budget: Budget) -> Consolidation:
        """The next answer, parsed as phase 2's."""
        self.tasks.append(task)
        answer = self.answers.popleft()
        if isinstance(answer, ModelError):
            raise answer
        return parse_answer(answer, Consolidation)

    def estimate(self, task: Task) -> Estimate:
        """A fixed, free estimate."""
        return Estimate(10, task.max_tokens, 0.0)


@pytest.fixture
def canned_model() -> Iterator[CannedModel]:
    """A :class:`CannedModel` served for every ``canned/...`` name while the test runs."""
    model = CannedModel()

    def factory(name: str, settings: ModelSettings) -> CannedModel:
        model.name = name
        return model

    registry.register("canned/", factory)
    try:
        yield model
    finally:
        registry.unregister("canned/")


def _is_local(api_base: Any) -> bool:
    return isinstance(api_base, str) and api_base.startswith(
        ("http://127.0.0.1", "http://localhost")
    )


def guard_model_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any request that would leave this machine for a model fail the test.

    Wraps :func:`brain.models.litellm_model.send`, the one function that calls litellm
    (chat and embeddings), so the guard imports nothing heavy. Calls with
    ``mock_response`` (no network) or to a server on 127.0.0.1 (the fake model) pass
    through. ``pytest.fail`` raises a BaseException, so a broad ``except Exception`` in
    the code under test cannot swallow it.
    """
    real = litellm_model.send

    def guarded(call: str, kwargs: dict[str, Any]) -> Any:
        if kwargs.get("mock_response") is not None or _is_local(kwargs.get("api_base")):
            return real(call, kwargs)
        pytest.fail(f"unexpected model call: {kwargs.get('model')}", pytrace=False)

    monkeypatch.setattr(litellm_model, "send", guarded)


@pytest.fixture
def no_model_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test on any model call that is not mocked or aimed at 127.0.0.1."""
    guard_model_calls(monkeypatch)
