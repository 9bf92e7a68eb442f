"""The authorization server's endpoints (OAuth 2.1 for agents, ``app.agents.oauth``): its metadata
(RFC 8414), the consent page, the token and revocation endpoints."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.agents import clients, grants, oauth
from app.common.http import allow_form_target
from app.extensions import db

bp = Blueprint("agents", __name__)
_SEAL_SALT = "agents-consent"
_SEAL_AGE = 600  # seconds a consent page stays good for


def _seal() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=_SEAL_SALT)


@bp.get("/.well-known/oauth-authorization-server")
def metadata():
    base = current_app.config["BASE_URL"]
    return jsonify({
        "issuer": base + "/", "authorization_endpoint": base + "/oauth/authorize",
        "token_endpoint": base + "/oauth/token", "revocation_endpoint": base + "/oauth/revoke",
        "response_types_supported": ["code"], "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"], "scopes_supported": list(grants.SCOPES),
        "client_id_metadata_document_supported": True,
        "authorization_response_iss_parameter_supported": True})


def _back(redirect_uri: str, state: str | None, **params):
    """The answer to the client, on its redirect URI."""
    query = {**params, **({"state": state} if state else {}), "iss": current_app.config["BASE_URL"] + "/"}
    return redirect(redirect_uri + ("&" if "?" in redirect_uri else "?") + urlencode(query), 302)


def _refused_page(reason: str):
    return render_template("pages/message.html", user=current_user, title=gettext("This agent cannot connect"),
                           message=gettext("Its request is not valid: %(reason)s.", reason=reason)), 400


@bp.route("/oauth/authorize", methods=["GET", "POST"], endpoint="authorize")
def authorize():
    args = request.args
    if request.method == "POST":
        try:
            args = _seal().loads(request.form.get("request", ""), max_age=_SEAL_AGE)
        except BadSignature:
            return _refused_page(gettext("the consent page expired; start again from the agent"))
    try:
        asked = oauth.check_request(args)
    except clients.ClientRefused as refused:
        return _refused_page(str(refused))
    except oauth.OAuthError as error:  # the client and its redirect URI hold: the client is told
        return _back(error.redirect_uri, args.get("state"), error=error.error, error_description=error.description)
    if not current_user.is_authenticated:
        return redirect(url_for("pages.login", callbackUrl=request.full_path))
    if request.method == "GET":
        if args.get("user") and args["user"] != current_user.id:
            return _refused_page(gettext("the page was opened for another account"))
        sealed = _seal().dumps({**args.to_dict(), "user": current_user.id})
        allow_form_target(asked.redirect_uri)  # the answer (allow or deny) is a redirect there
        return render_template("pages/consent.html", user=current_user, client=asked.client, sealed=sealed,
                               scopes=[(scope, grants.SCOPES[scope]) for scope in asked.scopes.split()])
    if args.get("user") != current_user.id:
        return _refused_page(gettext("the page was opened for another account"))
    if request.form.get("decision") != "allow":
        return _back(asked.redirect_uri, asked.state, error="access_denied", error_description="the person declined")
    try:
        code = oauth.approve(current_user, asked, " ".join(request.form.getlist("scope")))
    except oauth.OAuthError as error:
        db.session.rollback()
        return _back(asked.redirect_uri, asked.state, error=error.error, error_description=error.description)
    return _back(asked.redirect_uri, asked.state, code=code)


def _oauth_answer(body: dict, status: int = 200):
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/oauth/token")
def token():
    form = request.form
    try:
        if form.get("grant_type") == "authorization_code":
            return _oauth_answer(oauth.exchange_code(form))
        if form.get("grant_type") == "refresh_token":
            return _oauth_answer(oauth.refresh(form))
        raise oauth.OAuthError("unsupported_grant_type", "grant_type is authorization_code or refresh_token")
    except oauth.OAuthError as error:
        db.session.rollback()
        return _oauth_answer({"error": error.error, "error_description": error.description}, error.status)


@bp.post("/oauth/revoke")
def revoke():
    oauth.revoke(request.form)
    return _oauth_answer({})
