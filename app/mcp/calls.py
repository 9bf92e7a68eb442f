"""Running a tool call as its caller: the user behind the bearer, in the Flask app's context, counted
against the grant's rate limit, logged in the account's agent log, and failing the way the API fails
(the envelope's ``error``, ``code`` and ``details``, as the tool's error text)."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app
from limits import parse
from marshmallow import ValidationError
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.mcpserver.exceptions import ToolError

from app.agents import audit
from app.errors import ApiError, from_schema_error
from app.extensions import db, limiter
from app.users.models import User

T = TypeVar("T")


class Caller:
    """Who is calling: the user and the grant's name (which names the versions its edits make)."""

    def __init__(self, user: User, grant_id: str, name: str):
        self.user, self.grant_id, self.name = user, grant_id, name

    def author(self, tool: str) -> str:
        return f"{self.name}: {tool}"


class Calls:
    def __init__(self, flask_app: Flask, scopes_of_tool: dict[str, str]):
        self.flask_app, self.scopes_of_tool = flask_app, scopes_of_tool

    def run(self, tool: str, work: Callable[[Caller], T], resume_id: str | None = None) -> T:
        """``work(caller)`` in the app's context; an ApiError or a schema's refusal becomes a ToolError."""
        token = get_access_token()
        if token is None:  # the transport authenticates every request; a call without one is a bug
            raise ToolError(_said(ApiError("UNAUTHENTICATED", "Sign in to use this endpoint.")))
        if self.scopes_of_tool[tool] not in token.scopes:  # ScopeGate answered 403 before: a second lock
            raise ToolError(_said(ApiError("FORBIDDEN", "This agent's token lacks the scope %(scope)s.",
                                           {"scope": self.scopes_of_tool[tool]},
                                           values={"scope": self.scopes_of_tool[tool]})))
        with self.flask_app.app_context():
            # The verifier found the grant live a moment ago (this request): the user is all that is read again.
            user = db.session.get(User, token.subject)
            caller = Caller(user, token.client_id, (token.claims or {}).get("name", ""))
            reads = self.scopes_of_tool[tool] == "resumes:read"
            try:
                if user is None:
                    raise ApiError("UNAUTHENTICATED", "This agent's access was revoked.")
                self._count(caller.grant_id)
                try:
                    result = work(caller)
                except ValidationError as exc:
                    raise from_schema_error(exc) from None
                if not reads:  # the log keeps what agents changed and what was refused; reads show as last use
                    audit.record(user.id, caller.grant_id, tool, resume_id, "done")
                return result
            except ApiError as exc:
                db.session.rollback()
                if user is not None:
                    audit.record(user.id, caller.grant_id, tool, resume_id, exc.code)
                raise ToolError(_said(exc)) from None
            finally:
                db.session.remove()

    @staticmethod
    def _count(grant_id: str) -> None:
        """RATELIMIT_AGENT calls per grant (the API's limiter storage: Redis when configured)."""
        limit = parse(current_app.config["RATELIMIT_AGENT"])
        if not limiter.limiter.hit(limit, "agent", grant_id):
            reset = int(limiter.limiter.get_window_stats(limit, "agent", grant_id).reset_time)
            raise ApiError("RATE_LIMITED", "Too many tool calls from this agent: wait a minute and retry.",
                           {"resetAt": reset})


def _said(error: ApiError) -> str:
    """The API's error envelope as the tool's error text (English: an agent reads it)."""
    body = {"success": False, "error": error.message, "code": error.code, "status": error.status}
    if error.details:
        body["details"] = error.details
    return json.dumps(body, ensure_ascii=False, default=str)
