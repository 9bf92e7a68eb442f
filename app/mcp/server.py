"""The MCP server assembled: the tools, the ``resume://{id}`` and ``schema://content`` resources, the
tailoring and review prompts, and the Streamable HTTP app with its resource-server auth.

The app answers the 2026-07-28 protocol sessionless (any process serves any request) and older clients
statelessly too (``stateless_http``); input-required rounds (``trash_resume``'s confirmation) are sealed
with a key derived from SECRET_KEY, so a retry may reach another process.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlsplit

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask
from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer, RequestStateSecurity
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from app.agents import grants
from app.content.schema import ContentSchema
from app.mcp import tools
from app.mcp.auth import GrantVerifier, ScopeGate
from app.mcp.calls import Calls
from app.resumes import patching, service

NAME = "resume-service"
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
_STATE_LABEL = b"resume-service/mcp-request-state/v1"


def resource_url(flask_app: Flask) -> str:
    return flask_app.config["BASE_URL"] + "/mcp"


def content_schema() -> dict:
    """The JSON Schema of ``contentJson`` (as the OpenAPI document gives it), with the schemas it uses."""
    spec = APISpec(title="content", version="1", openapi_version="3.0.3", plugins=[MarshmallowPlugin()])
    spec.components.schema("Content", schema=ContentSchema)
    return spec.to_dict()["components"]["schemas"]


def build(flask_app: Flask) -> MCPServer:
    resource = resource_url(flask_app)
    key = hmac.new(flask_app.config["SECRET_KEY"].encode(), _STATE_LABEL, hashlib.sha256).hexdigest()
    server = MCPServer(
        NAME, title="Resume service", version="1",
        instructions="Read and edit the person's resumes. Read a resume (get_resume) before editing it, and "
                     "edit with apply_resume_patch from the version you read; every edit you make is kept as "
                     "a version the person can revert. Ask the person when a request is ambiguous.",
        token_verifier=GrantVerifier(flask_app, resource),
        auth=AuthSettings(issuer_url=AnyHttpUrl(flask_app.config["BASE_URL"]), resource_server_url=AnyHttpUrl(resource),
                          required_scopes=[], validate_token_resource=True),
        request_state_security=RequestStateSecurity(keys=[key]))
    calls = Calls(flask_app, tools.SCOPES)
    tools.register(server, calls)

    @server.resource("resume://{resume_id}", mime_type="application/json")
    def resume(resume_id: str) -> str:
        """A resume as get_resume answers it (needs resumes:read)."""
        try:
            return json.dumps(calls.run("get_resume", lambda caller: patching.document_of(
                service.get_owned_resume(caller.user, resume_id)), resume_id), ensure_ascii=False)
        except ToolError as exc:  # the same words (the API's envelope), as a resource's error
            raise ResourceError(str(exc)) from None

    @server.resource("schema://content", mime_type="application/schema+json")
    def schema() -> str:
        """The JSON Schema of a resume's contentJson: what apply_resume_patch may write."""
        return json.dumps(content_schema())

    @server.prompt()
    def tailor_resume(resume_id: str, job_description: str) -> str:
        """Tailor a resume to a job ad, as reviewable edits."""
        return (f"Tailor the resume {resume_id} to this job. Read it with get_resume and compare it with the job "
                "using analyze_job. Then propose edits that bring out the experience the job asks for, without "
                "inventing anything the resume does not say. Show the edits, and apply them with "
                "apply_resume_patch (dry_run first) only once I agree.\n\nThe job:\n" + job_description)

    @server.prompt()
    def review_resume(resume_id: str) -> str:
        """A reviewer's reading of a resume: what to fix first."""
        return (f"Review the resume {resume_id} (get_resume) as a recruiter would: what is unclear, missing or "
                "too long, section by section, the most important first. Suggest concrete rewrites; do not "
                "change the resume.")

    return server


def transport_security(flask_app: Flask) -> TransportSecuritySettings:
    """Requests are answered only for BASE_URL's host (DNS-rebinding protection); a loopback BASE_URL
    also admits the other loopback names."""
    base = urlsplit(flask_app.config["BASE_URL"])
    hosts = [base.netloc, f"{base.hostname}:*"]
    origins = [f"{base.scheme}://{base.netloc}"]
    if base.hostname in ("localhost", "127.0.0.1", "::1"):
        hosts += [name + suffix for name in LOOPBACK for suffix in ("", ":*")]
        origins += [f"http://{name}:*" for name in LOOPBACK]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


def asgi_app(flask_app: Flask) -> tuple[Starlette, MCPServer]:
    """The Streamable HTTP app at /mcp, its protected-resource metadata, and the scope gate."""
    server = build(flask_app)
    app = server.streamable_http_app(stateless_http=True, transport_security=transport_security(flask_app))
    resource = AnyHttpUrl(resource_url(flask_app))
    # The metadata names every scope a token may carry (the SDK's lists only those every token must carry).
    metadata = create_protected_resource_routes(resource_url=resource,
                                                authorization_servers=[AnyHttpUrl(flask_app.config["BASE_URL"])],
                                                scopes_supported=list(grants.SCOPES), resource_name="Resume service")
    paths = {route.path for route in metadata}
    app.router.routes[:] = [route for route in app.router.routes
                            if not (isinstance(route, Route) and route.path in paths)] + metadata
    app.user_middleware.append(Middleware(ScopeGate, scopes_of_tool=tools.SCOPES,
                                          resource_metadata_url=str(build_resource_metadata_url(resource))))
    return app, server
