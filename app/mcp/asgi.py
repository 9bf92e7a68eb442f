"""The ASGI entry points.

- ``app``: the MCP server alone, the Procfile's ``mcp`` process (``uvicorn app.mcp.asgi:app``); a reverse
  proxy sends ``/mcp`` and ``/.well-known/oauth-protected-resource/mcp`` to it, the rest to ``web``.
- ``embedded``: the MCP server and the Flask app in one process (``make run``): the same two paths go to
  the MCP server, every other to Flask (through a2wsgi, in a thread pool).
"""
from __future__ import annotations

from contextlib import asynccontextmanager

from a2wsgi import WSGIMiddleware

from app.factory import create_app
from app.mcp.server import asgi_app

MCP_PATHS = ("/mcp", "/.well-known/oauth-protected-resource/mcp")


def _mcp_app():
    return asgi_app(create_app())[0]


class Embedded:
    """Dispatch by path: the MCP paths to the MCP app, everything else to the Flask app."""

    def __init__(self):
        flask_app = create_app()
        self.mcp, self.server = asgi_app(flask_app)
        self.web = WSGIMiddleware(flask_app, workers=8)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        if scope["type"] == "http" and scope["path"].rstrip("/") in MCP_PATHS:
            return await self.mcp(scope, receive, send)
        return await self.web(scope, receive, send)

    async def _lifespan(self, receive, send):
        @asynccontextmanager
        async def running():
            async with self.server.session_manager.run():
                yield

        message = await receive()
        async with running():
            await send({"type": "lifespan.startup.complete"})
            while message["type"] != "lifespan.shutdown":
                message = await receive()
        await send({"type": "lifespan.shutdown.complete"})


def __getattr__(name: str):
    """Built on first use, so that importing this module starts nothing."""
    if name == "app":
        globals()["app"] = value = _mcp_app()
        return value
    if name == "embedded":
        globals()["embedded"] = value = Embedded()
        return value
    raise AttributeError(name)
