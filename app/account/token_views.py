"""API token endpoints for people (``app.account.api_tokens``): list, create with a name, revoke. The
account page's "API tokens" section uses them; ``POST /api/auth/token`` stays the way scripts get and
renew tokens."""
from __future__ import annotations

from flask import Blueprint
from flask_login import current_user, login_required

from app.account import api_tokens
from app.auth.sudo import sudo_required
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.messages import N_

bp = Blueprint("account_tokens", __name__, url_prefix="/api")


@bp.get("/account/tokens")
@login_required
@api_doc("Your live API tokens (refresh-token families), the newest first: those you created here, with "
         "their names, and those from password grants", tags=["account"], auth=True,
         responses={200: ("The tokens (never their values)", api_tokens.ApiTokensSchema)})
def list_tokens():
    return ok(api_tokens.ApiTokensSchema().dump({"tokens": api_tokens.tokens_of(current_user)}))


@bp.post("/account/tokens")
@login_required
@sudo_required  # a token must not mint a longer-lived one, nor a stolen session one of its own
@api_doc("Create a named API token: the answer carries its value (a refresh token) this once. A security "
         "change: a browser session that signed in or re-authenticated lately (403 SESSION_REQUIRED with a bearer "
         "token, 403 REAUTHENTICATION_REQUIRED past SUDO_LIFETIME); 403 FORBIDDEN past 50 live tokens",
         tags=["account"], auth=True, body=api_tokens.ApiTokenCreateSchema,
         responses={201: ("The token, with its value", api_tokens.ApiTokenCreatedSchema)})
def create_token():
    data = json_body(api_tokens.ApiTokenCreateSchema())
    created = api_tokens.create_token(current_user, data["name"])
    return ok(api_tokens.ApiTokenCreatedSchema().dump(created), status=201,
              message=N_("API token created. Copy it now: it is not shown again."))


@bp.delete("/account/tokens/<token_id>")
@login_required
@api_doc("Revoke an API token: it and every token exchanged from it stop working (404 NOT_FOUND when you "
         "have no live token of that id)", tags=["account"], auth=True,
         responses={200: ("The tokens left", api_tokens.ApiTokensSchema)})
def revoke_token(token_id: str):
    api_tokens.revoke_token(current_user, token_id)
    return ok(api_tokens.ApiTokensSchema().dump({"tokens": api_tokens.tokens_of(current_user)}),
              message=N_("API token revoked."))
