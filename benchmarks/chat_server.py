"""A scripted OpenAI-compatible chat endpoint on 127.0.0.1, for the benchmarks that run
brain's model path without a model.

``serve(answer)`` starts it in a thread: every ``POST`` is parsed, kept in
``ChatServer.requests`` and answered with ``answer(body)`` as the assistant's message
(litellm's ``openai/...`` models reach it at ``ChatServer.url``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[dict[str, Any]], str]


class ChatServer:
    """The running server, what it was asked, and how to stop it."""

    def __init__(self, answer: Answer) -> None:
        self.requests: list[dict[str, Any]] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self, answer))
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        """The endpoint's base, ``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def serve(answer: Answer) -> ChatServer:
    """A scripted chat endpoint answering each request with ``answer(body)``."""
    return ChatServer(answer)


def _handler(server: ChatServer, answer: Answer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            server.requests.append(body)
            reply = {
                "id": "scripted",
                "object": "chat.completion",
                "model": body.get("model", "scripted"),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": answer(body)},
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            }
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            """Quiet."""

    return Handler
