"""Account endpoints: the profile. Security and subscription endpoints are in
``security_views.py`` and ``subscription_views.py``, on this blueprint."""
from __future__ import annotations

from flask import Blueprint
from flask_login import current_user, login_required

from app.account import schemas, service
from app.common.http import json_body, ok
from app.common.openapi import api_doc

bp = Blueprint("account", __name__, url_prefix="/api")


@bp.get("/account")
@login_required
@api_doc("Your account: profile, preferences, plan limits and live usage", tags=["account"], auth=True,
         responses={200: ("Account", schemas.AccountSchema)})
def get_account():
    return ok(schemas.AccountSchema().dump(service.account_of(current_user)))


@bp.put("/account")
@login_required
@api_doc("Change your name, avatar or preferences (preferences are merged key by key)", tags=["account"],
         auth=True, body=schemas.AccountUpdateSchema, responses={200: ("Updated account", schemas.AccountSchema)})
def update_account():
    account = service.update_profile(current_user, json_body(schemas.AccountUpdateSchema()))
    return ok(schemas.AccountSchema().dump(account), message="Account updated.")
