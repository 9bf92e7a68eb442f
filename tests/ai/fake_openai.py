"""A fake OpenAI-compatible chat-completions service, served over real HTTP on loopback.

``POST /v1/chat/completions`` records the request (body and Authorization header) and answers a chat
completion whose content suits what was asked (a summary, a cover letter, or a JSON object of bullets
when ``response_format`` asks for JSON; for an import's reading of a file, ``reading``, a JSON object
of content: ``{}`` unless a test sets it). Tests change its behaviour: ``content`` replaces the content,
``raw`` the whole body, ``status`` the status; ``hang`` makes it wait (until ``release`` or 30 s) before
answering, so a caller's time-out passes. A request offering ``tools`` (the editor's assistant) is answered
by the next of ``turns``: a message ({"content"} or {"tool_calls"}, see ``call``), or a function of the
request's body that returns one (to read what the tools answered before); with none left, a plain reply.
"""
from __future__ import annotations

import json
import threading

from flask import Flask, Response, request
from werkzeug.serving import make_server

from tests.auth.fake_provider import QuietHandler
from tests.support import start_serving, stop_serving

MODEL = "fake-writer-1"
API_KEY = "sk-test-do-not-leak-4f9a"
SUMMARY = "Backend engineer with eight years of Python and PostgreSQL, building payment APIs that stay up."
LETTER = ("Dear hiring team,\n\nI am applying for the Backend Engineer role. For eight years I have built "
          "payment APIs in Python and PostgreSQL.\n\nAt Acme I led the move to a queue-based design.\n\n"
          "Kind regards,\nAda Lovelace")
BULLETS = ["Led the move of the payment API to a queue-based design", "Cut p99 latency by 40 % with caching",
           "Mentored four engineers"]


def call(name: str, **arguments) -> dict:
    """An assistant message that calls the function ``name`` with ``arguments``."""
    call.count = getattr(call, "count", 0) + 1
    return {"content": None, "tool_calls": [{"id": f"call_{call.count}", "type": "function",
                                             "function": {"name": name, "arguments": json.dumps(arguments)}}]}


def tool_results(body: dict) -> list[dict]:
    """What the tools answered so far in a request's conversation, parsed, oldest first."""
    return [json.loads(message["content"]) for message in body["messages"] if message["role"] == "tool"]


def is_import(body: dict) -> bool:
    """Whether a request is an import's reading of a file (app/ai/import_reading.py's prompt)."""
    return body["messages"][0]["content"].startswith("You read resumes.")


class FakeOpenAI:
    def __init__(self):
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._released = threading.Event()
        self.reset()
        app = Flask("fake-openai")
        app.add_url_rule("/v1/chat/completions", view_func=self._complete, methods=["POST"])
        self.server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"
        start_serving(self.server)

    def settings(self) -> dict[str, str]:
        """The variables that point the app at this service."""
        return {"AI_BASE_URL": self.url, "AI_MODEL": MODEL, "AI_API_KEY": API_KEY}

    def reset(self) -> None:
        self.content: str | None = None
        self.reading: dict = {}
        self.raw: bytes | None = None
        self.status = 200
        self.hang = False
        self.turns: list = []
        self._released.set()
        with self._lock:
            self.requests.clear()

    def release(self) -> None:
        """End a hang (the caller has given up by then)."""
        self._released.set()

    def close(self) -> None:
        self.release()
        stop_serving(self.server)

    def _complete(self):
        body = request.get_json(force=True)
        with self._lock:
            self.requests.append({"body": body, "authorization": request.headers.get("Authorization")})
        if self.hang:
            self._released.clear()
            self._released.wait(30)
        if self.status != 200:
            return Response(json.dumps({"error": {"message": f"upstream secret trouble {API_KEY}"}}),
                            status=self.status, mimetype="application/json")
        if self.raw is not None:
            return Response(self.raw, mimetype="application/json")
        if body.get("tools"):
            turn = self.turns.pop(0) if self.turns else {"content": "How can I help with your resume?"}
            message = {"role": "assistant", **(turn(body) if callable(turn) else turn)}
            return {"id": "chatcmpl-1", "object": "chat.completion", "model": MODEL,
                    "choices": [{"index": 0, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                                 "message": message}]}
        return {"id": "chatcmpl-1", "object": "chat.completion", "model": MODEL,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": self._content(body)}}]}

    def _content(self, body: dict) -> str:
        if self.content is not None:
            return self.content
        if is_import(body):
            return json.dumps(self.reading, ensure_ascii=False)
        if (body.get("response_format") or {}).get("type") == "json_object":
            return json.dumps({"bullets": BULLETS})
        return LETTER if "cover letter" in body["messages"][0]["content"] else SUMMARY
