"""Connected agents on the account page (``app.agents``): list them with their scopes and last use,
make a personal agent key, revoke one, and read the log of what they did."""
from __future__ import annotations

from flask import Blueprint
from flask_login import current_user, login_required
from marshmallow import fields, validate

from app.agents import audit, grants
from app.auth.schemas import Name
from app.auth.sudo import sudo_required
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.common.schemas import InputSchema, OutputSchema, StrictString, Timestamp
from app.messages import N_

bp = Blueprint("account_agents", __name__, url_prefix="/api")

_SCOPES = {"description": "what it may do: " + ", ".join(grants.SCOPES)}


class AgentKeyCreateSchema(InputSchema):
    name = Name(required=True, validate=validate.Length(min=1, max=100),
                metadata={"description": "the agent or client it is for (\"Claude Desktop\"): its edits are "
                                         "named after it in the version history"})
    scopes = fields.List(StrictString(validate=validate.OneOf(list(grants.SCOPES))), required=True,
                         validate=validate.Length(min=1), metadata=_SCOPES)


class AgentSchema(OutputSchema):
    id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["key", "oauth"]),
                         metadata={"description": "a personal agent key, or an OAuth client you consented to"})
    name = fields.String(required=True)
    clientId = fields.String(required=True, allow_none=True, attribute="client_id",
                             metadata={"description": "an OAuth client's id (its metadata document's URL)"})
    scopes = fields.Function(lambda grant: grants.scope_list(grant.scopes), required=True, metadata=_SCOPES)
    createdAt = Timestamp(required=True, attribute="created_at")
    lastUsedAt = Timestamp(required=True, allow_none=True, attribute="last_used_at")


class AgentsSchema(OutputSchema):
    agents = fields.List(fields.Nested(AgentSchema), required=True)


class AgentKeyCreatedSchema(AgentSchema):
    key = fields.Function(lambda grant: grant.key, required=True, metadata={
        "description": "the key, shown this once: send it as Authorization: Bearer <key> to /mcp"})


class AgentActionSchema(OutputSchema):
    id = fields.String(required=True)
    agentId = fields.String(required=True, attribute="agent_id")
    agentName = fields.String(required=True, attribute="agent_name")
    tool = fields.String(required=True)
    resumeId = fields.String(required=True, allow_none=True, attribute="resume_id")
    outcome = fields.String(required=True, metadata={"description": "done, or the error's code"})
    createdAt = Timestamp(required=True, attribute="created_at")


def _agents():
    return AgentsSchema().dump({"agents": grants.grants_of(current_user)})


@bp.get("/account/agents")
@login_required
@api_doc("Your connected agents: personal agent keys and OAuth clients, with their scopes and last use",
         tags=["account"], auth=True, responses={200: ("The agents", AgentsSchema)})
def list_agents():
    return ok(_agents())


@bp.post("/account/agents")
@login_required
@sudo_required
@api_doc("Make a personal agent key with the scopes given: the answer carries the key this once. A security "
         "change (403 SESSION_REQUIRED with a bearer token, 403 REAUTHENTICATION_REQUIRED past SUDO_LIFETIME); 403 "
         "FORBIDDEN past 50 agents", tags=["account"], auth=True, body=AgentKeyCreateSchema,
         responses={201: ("The agent, with its key", AgentKeyCreatedSchema)})
def create_agent_key():
    data = json_body(AgentKeyCreateSchema())
    grant, grant.key = grants.create_key(current_user, data["name"], data["scopes"])
    return ok(AgentKeyCreatedSchema().dump(grant), status=201,
              message=N_("Agent key created. Copy it now: it is not shown again."))


@bp.delete("/account/agents/<agent_id>")
@login_required
@api_doc("Revoke an agent: its key or tokens stop working at once (404 NOT_FOUND when you have no live agent "
         "of that id)", tags=["account"], auth=True, responses={200: ("The agents left", AgentsSchema)})
def revoke_agent(agent_id: str):
    grants.revoke(current_user, agent_id)
    return ok(_agents(), message=N_("Agent disconnected."))


@bp.get("/account/agent-log")
@login_required
@api_doc("What your agents did: their latest 50 tool calls, newest first", tags=["account"], auth=True,
         responses={200: ("The calls", AgentActionSchema(many=True))})
def agent_log():
    return ok(AgentActionSchema(many=True).dump(audit.recent(current_user)))
