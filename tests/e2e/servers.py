"""Scripted model servers for the real agent programs, on 127.0.0.1, stdlib only.

One HTTP server speaks the three wire formats the pinned CLIs use:

* Anthropic Messages (``POST /v1/messages``, streaming SSE) for Claude Code;
* OpenAI Responses (``POST /v1/responses``, SSE) for Codex CLI;
* Gemini ``:streamGenerateContent?alt=sse`` (and ``:generateContent``) for Gemini CLI;
* OpenAI Chat Completions (``POST /v1/chat/completions``, SSE or not) for Qwen Code.

Every request is logged (path and JSON body) so a test can assert what the model was
shown. A turn the agent's main loop asks for (a request that offers tools) takes the
next scripted :class:`Reply`: text, or a call of the tool whose name ends with the
given name (each CLI prefixes MCP tool names its own way: mcp__brain__, brain-); so does, with
:attr:`ModelServer.match` set, any request whose text holds it (a CLI asked to use no
tools offers none). Side requests (titles, routing, quota checks) and an empty script get
a short text answer.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted answer: ``text``, or a call of ``tool`` with ``args``; with ``fill``,
    the text is ``fill(request)``, made from the request it answers (its body as JSON)."""

    text: str = "Done."
    tool: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    fill: Callable[[str], str] | None = None


@dataclass
class Logged:
    """A request as the server received it."""

    path: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        """The whole body as JSON text, for substring assertions."""
        return json.dumps(self.body, ensure_ascii=False)


class ModelServer:
    """The script, the log and the running server."""

    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.requests: list[Logged] = []
        self.match: str | None = None
        self.refuse: int | None = None
        self.stall = False
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> ModelServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def push(self, *replies: Reply) -> None:
        """Queue answers for the agent's main-loop turns, in order."""
        self.script.extend(replies)

    def turns(self) -> list[Logged]:
        """The main-loop requests (the ones that take scripted replies), in order."""
        return [r for r in self.requests if self._scripted(r)]

    def _scripted(self, request: Logged) -> bool:
        if _json_side_request(request.body):
            return False
        return bool(_tool_names(request.body)) or bool(self.match and self.match in request.text)

    def next_reply(self, path: str, body: dict[str, Any]) -> tuple[Reply, list[str]]:
        with self._lock:
            logged = Logged(path, body)
            self.requests.append(logged)
            names = _tool_names(body)
            if self.script and self._scripted(logged):
                reply = self.script.popleft()
                if reply.fill is not None:
                    reply = replace(reply, text=reply.fill(logged.text))
                return reply, names
            return Reply(), names


def _tool_names(body: dict[str, Any]) -> list[str]:
    names: list[str] = []
    # Codex offers some tools inside its input, as an "additional_tools" item.
    extra = [i for i in body.get("input") or [] if isinstance(i, dict)]
    offered = [
        t for i in extra if i.get("type") == "additional_tools" for t in i.get("tools") or []
    ]
    for tool in [*(body.get("tools") or []), *offered]:
        if not isinstance(tool, dict):
            continue
        if "name" in tool:
            names.append(str(tool["name"]))
        for decl in tool.get("functionDeclarations") or tool.get("function_declarations") or []:
            names.append(str(decl.get("name")))
        if isinstance(tool.get("function"), dict):
            names.append(str(tool["function"].get("name")))
        if tool.get("type") == "namespace":  # Codex groups an MCP server's tools
            names += [f"{tool['name']}::{inner.get('name')}" for inner in tool.get("tools") or []]
    return names


def _resolve(reply: Reply, names: list[str]) -> str:
    assert reply.tool is not None
    for name in names:
        if name == reply.tool or any(
            name.endswith(sep + reply.tool) for sep in ("__", "_", "::", "-")
        ):
            return name
    return reply.tool


def _sse(events: list[tuple[str | None, dict[str, Any]]]) -> Iterator[bytes]:
    for event, data in events:
        head = f"event: {event}\n" if event else ""
        yield f"{head}data: {json.dumps(data)}\n\n".encode()


# -- Anthropic Messages ---------------------------------------------------------------


def _anthropic(
    reply: Reply, names: list[str], model: str, n: int
) -> list[tuple[str | None, dict[str, Any]]]:
    usage = {"input_tokens": 10, "output_tokens": 1}
    start = {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    events: list[tuple[str | None, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    if reply.tool:
        block = {
            "type": "tool_use",
            "id": f"toolu_{n}",
            "name": _resolve(reply, names),
            "input": {},
        }
        delta = {"type": "input_json_delta", "partial_json": json.dumps(reply.args)}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": reply.text}
        stop = "end_turn"
    events += [
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        ),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


def _anthropic_json(reply: Reply, names: list[str], model: str, n: int) -> dict[str, Any]:
    if reply.tool:
        content = [
            {
                "type": "tool_use",
                "id": f"toolu_{n}",
                "name": _resolve(reply, names),
                "input": reply.args,
            }
        ]
    else:
        content = [{"type": "text", "text": reply.text}]
    return {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if reply.tool else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


# -- OpenAI Responses -----------------------------------------------------------------


def _responses(
    reply: Reply, names: list[str], model: str, n: int
) -> list[tuple[str | None, dict[str, Any]]]:
    response = {
        "id": f"resp_{n}",
        "object": "response",
        "model": model,
        "status": "in_progress",
        "output": [],
    }
    if reply.tool:
        namespace, _, name = _resolve(reply, names).rpartition("::")
        item: dict[str, Any] = {
            "type": "function_call",
            "id": f"fc_{n}",
            "call_id": f"call_{n}",
            "name": name,
            "arguments": json.dumps(reply.args),
            "status": "completed",
        }
        if namespace:
            item["namespace"] = namespace
    else:
        item = {
            "type": "message",
            "id": f"msg_{n}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
        }
    done = {
        **response,
        "status": "completed",
        "output": [item],
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "total_tokens": 15,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    events: list[tuple[str | None, dict[str, Any]]] = [
        ("response.created", {"type": "response.created", "response": response}),
        (
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": 0, "item": item},
        ),
    ]
    if not reply.tool:
        events.append(
            (
                "response.output_text.delta",
                {
                    "type": "response.output_text.delta",
                    "item_id": f"msg_{n}",
                    "output_index": 0,
                    "content_index": 0,
                    "delta": reply.text,
                },
            )
        )
    events += [
        (
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": 0, "item": item},
        ),
        ("response.completed", {"type": "response.completed", "response": done}),
    ]
    return events


# -- OpenAI Chat Completions -----------------------------------------------------------


def _chat_message(reply: Reply, names: list[str], n: int) -> dict[str, Any]:
    if not reply.tool:
        return {"role": "assistant", "content": reply.text}
    call = {
        "index": 0,
        "id": f"call_{n}",
        "type": "function",
        "function": {"name": _resolve(reply, names), "arguments": json.dumps(reply.args)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _chat(reply: Reply, names: list[str], model: str, n: int) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": _chat_message(reply, names, n),
                "finish_reason": "tool_calls" if reply.tool else "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _chat_stream(reply: Reply, names: list[str], model: str, n: int) -> Iterator[bytes]:
    whole = _chat(reply, names, model, n)
    choice = whole["choices"][0]
    head = {**whole, "object": "chat.completion.chunk"}
    del head["usage"]
    chunks = [
        {**head, "choices": [{"index": 0, "delta": choice["message"], "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]},
        {**head, "choices": [], "usage": whole["usage"]},
    ]
    for chunk in chunks:
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    yield b"data: [DONE]\n\n"


# -- Gemini ---------------------------------------------------------------------------


def _gemini(reply: Reply, names: list[str]) -> dict[str, Any]:
    if reply.tool:
        part: dict[str, Any] = {
            "functionCall": {"name": _resolve(reply, names), "args": reply.args}
        }
    else:
        part = {"text": reply.text}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-flash",
    }


def _schema_answer(schema: dict[str, Any]) -> Any:
    """A value that satisfies a JSON schema (Gemini CLI asks JSON of side requests)."""
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: _schema_answer(sub) for name, sub in props.items()}
    if kind == "array":
        return []
    if kind in ("number", "integer"):
        return 10
    if kind == "boolean":
        return False
    return "ok"


def _json_side_request(body: dict[str, Any]) -> dict[str, Any] | None:
    """The schema of a Gemini side request (routing, checks) that asks for JSON, or None."""
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    return schema if isinstance(schema, dict) else None


def _gemini_json(body: dict[str, Any]) -> dict[str, Any] | None:
    schema = _json_side_request(body)
    if schema is None:
        return None
    return _gemini(Reply(json.dumps(_schema_answer(schema))), [])


def _handler_for(server: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            server.requests.append(Logged("GET " + self.path, {}))
            self._json(404, {"error": {"message": "not here"}})

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"raw": raw.decode("utf-8", "replace")}
            path = self.path.split("?")[0]
            if server.stall or server.refuse:
                server.requests.append(Logged(self.path, body))
                if server.stall:
                    server.stopping.wait()
                    return
                self._refuse(server.refuse or 500)
                return
            reply, names = server.next_reply(self.path, body)
            n = len(server.requests)
            model = str(body.get("model", "model"))
            if path.endswith("/messages/count_tokens"):
                self._json(200, {"input_tokens": 100})
            elif path.endswith("/messages"):
                if body.get("stream"):
                    self._stream(_sse(_anthropic(reply, names, model, n)))
                else:
                    self._json(200, _anthropic_json(reply, names, model, n))
            elif path.endswith("/chat/completions"):
                if body.get("stream"):
                    self._stream(_chat_stream(reply, names, model, n))
                else:
                    self._json(200, _chat(reply, names, model, n))
            elif path.endswith("/responses"):
                self._stream(_sse(_responses(reply, names, model, n)))
            elif path.endswith(":streamGenerateContent"):
                self._stream(_sse([(None, _gemini(reply, names))]))
            elif path.endswith(":generateContent"):
                self._json(200, _gemini_json(body) or _gemini(reply, names))
            elif path.endswith(":countTokens"):
                self._json(200, {"totalTokens": 100})
            else:
                self._json(404, {"error": {"message": f"no route {path}"}})

        def _refuse(self, status: int) -> None:
            message = "Resource has been exhausted (e.g. check quota)." if status == 429 else "no"
            if "/v1/messages" in self.path:
                kind = "rate_limit_error" if status == 429 else "api_error"
                self._json(status, {"type": "error", "error": {"type": kind, "message": message}})
            elif "/responses" in self.path:
                kind = "rate_limit_exceeded" if status == 429 else "server_error"
                self._json(status, {"error": {"type": kind, "code": kind, "message": message}})
            else:
                state = "RESOURCE_EXHAUSTED" if status == 429 else "INTERNAL"
                self._json(status, {"error": {"code": status, "message": message, "status": state}})

        def _json(self, status: int, data: dict[str, Any]) -> None:
            payload = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _stream(self, chunks: Iterator[bytes]) -> None:
            payload = b"".join(chunks)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler
