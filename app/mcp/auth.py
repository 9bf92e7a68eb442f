"""Who may call the MCP server, and with what scopes.

The server is an OAuth 2.1 resource server (RFC 9728): an unauthenticated request gets 401 with a
``WWW-Authenticate`` challenge naming the protected-resource metadata (the SDK's), which names this
service as the authorization server. A bearer is a personal agent key (``app.agents.grants``) or an
access token the authorization server issued for this resource (audience checked). A tool call whose
token lacks the tool's scope is refused before it runs: 403 with ``error="insufficient_scope"`` and
the scope it needs (``ScopeGate``), so that a client can ask the person for more.
"""
from __future__ import annotations

import json

import anyio.to_thread
from flask import Flask
from mcp.server.auth.provider import AccessToken, TokenVerifier

from app.agents import grants, oauth
from app.extensions import db

MAX_BODY = 1024 * 1024  # the JSON-RPC message a tool call may send (the API's own body limit)


class GrantVerifier(TokenVerifier):
    """A bearer → the grant behind it, looked up in the Flask app's database (in a worker thread)."""

    def __init__(self, flask_app: Flask, resource: str):
        self.flask_app, self.resource = flask_app, resource

    async def verify_token(self, token: str) -> AccessToken | None:
        return await anyio.to_thread.run_sync(self._verify, token)

    def _verify(self, token: str) -> AccessToken | None:
        with self.flask_app.app_context():
            try:
                if token.startswith(grants.KEY_PREFIX):
                    bearer, scopes = grants.bearer_for_key(token), None
                else:
                    read = oauth.read_access_token(token, self.resource)
                    bearer, scopes = (grants.bearer_for_grant(read[0]), read[1]) if read else (None, None)
            finally:
                db.session.remove()
        if bearer is None:
            return None
        held = [scope for scope in bearer.scopes if scopes is None or scope in scopes]
        return AccessToken(token=token, client_id=bearer.grant_id, scopes=held, subject=bearer.user_id,
                           resource=self.resource, claims={"name": bearer.name})


class ScopeGate:
    """ASGI middleware, inside the SDK's authentication: a ``tools/call`` of a tool whose scope the token
    lacks is answered 403 ``insufficient_scope`` (MCP's authorization spec, "scope challenge")."""

    def __init__(self, app, scopes_of_tool: dict[str, str], resource_metadata_url: str):
        self.app, self.scopes_of_tool, self.metadata = app, scopes_of_tool, resource_metadata_url

    async def __call__(self, scope, receive, send):
        user = scope.get("user") if scope["type"] == "http" else None
        token = getattr(user, "access_token", None)
        if token is None or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                break  # the transport refuses it with its own error
        needed = self._needed(body, set(token.scopes))
        if needed:
            return await self._refuse(send, needed)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _needed(self, body: bytes, held: set[str]) -> str | None:
        try:
            message = json.loads(body)
        except ValueError:
            return None
        for call in message if isinstance(message, list) else [message]:
            if isinstance(call, dict) and call.get("method") == "tools/call" and isinstance(call.get("params"), dict):
                needed = self.scopes_of_tool.get(call["params"].get("name"))
                if needed and needed not in held:
                    return needed
        return None

    async def _refuse(self, send, needed: str) -> None:
        body = json.dumps({"error": "insufficient_scope",
                           "error_description": f"This tool needs the scope {needed}."}).encode()
        challenge = (f'Bearer error="insufficient_scope", scope="{needed}", '
                     f'resource_metadata="{self.metadata}", error_description="This tool needs the scope {needed}."')
        await send({"type": "http.response.start", "status": 403, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"www-authenticate", challenge.encode())]})
        await send({"type": "http.response.body", "body": body})
