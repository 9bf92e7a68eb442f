"""The MCP SDK's own client over HTTP, for the tests: ``connect(url, bearer)``, ``error_of(result)`` and
``run(work)``."""
from __future__ import annotations

import json
import threading
from contextlib import asynccontextmanager

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


@asynccontextmanager
async def connect(url: str, bearer: str | None = None, **options):
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(streamable_http_client(f"{url}/mcp", http_client=http), **options) as client:
            yield client


def error_of(result) -> dict:
    """The API envelope a failed tool call carries as its text."""
    assert result.is_error, result
    text = result.content[0].text
    return json.loads(text[text.index("{"):])


def run(work, *args):
    """``anyio.run(work, *args)`` on a thread of its own, its result or its exception here: in a test
    session that also drives the browser, Playwright's sync API keeps an event loop running on this thread."""
    outcome = {}

    def target():
        try:
            outcome["result"] = anyio.run(work, *args)
        except BaseException as exc:  # noqa: B036 (raised again on the test's thread)
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(300)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
