"""The MCP SDK's own client over HTTP, for the tests: ``connect(url, bearer)`` and ``call``."""
from __future__ import annotations

import json
from contextlib import asynccontextmanager

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
