"""Auth endpoints: HTTP only. Sign-in/out/session and the token endpoint use their own formats, the rest
the envelope."""
from __future__ import annotations

import logging
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import Blueprint, current_app, g, jsonify, redirect, request
from flask_limiter.util import get_remote_address
from flask_login import current_user
from werkzeug.exceptions import HTTPException

from app.auth import oauth, passkeys, schemas, service, sudo
from app.auth import sessions as auth_sessions
from app.common.http import json_body, ok
from app.common.negotiation import accepts_form, is_form_post
from app.common.openapi import api_doc
from app.common.ratelimit import configured, counting_failures, email_key, failed
from app.common.security import same_origin_url
from app.errors import ApiError, Unauthenticated
from app.extensions import limiter
from app.messages import N_

log = logging.getLogger(__name__)
bp = Blueprint("auth", __name__, url_prefix="/api")

SAME_ANSWER = "If an account with this email exists, we have sent it a mail."


def _login_error_url(code: str) -> str:
    params = {"error": code}
    if g.get("two_factor_code_used"):
        params["reason"] = "used"  # the page says the code was right but spent: wait for the next one
    try:
        callback = request.form.get("callbackUrl")
    except HTTPException:  # the form cannot be read: it is the error being reported (413)
        callback = None
    if callback:
        params["callbackUrl"] = callback
    return f"{current_app.config['BASE_URL']}/login?{urlencode(params)}"


def session_body(user, expires_at) -> dict:
    return schemas.SessionSchema().dump({"user": user, "expires": expires_at})


def _not_a_password_grant() -> bool:
    """Whether the token request is not a password grant (its limits are per email). Never raises (see email_key)."""
    try:
        data = request.form if is_form_post() else request.get_json(silent=True, force=True)
    except HTTPException:
        data = None
    return not (hasattr(data, "get") and data.get("grant_type") == "password")


def sign_in_limits(*, exempt_when=None):
    """The limits of password sign-ins, shared by the sign-in and token endpoints: failures per email
    and per address, and wrong two-factor codes per email. Each counts only the requests marked by
    ``counting_failures`` with its flag."""

    def email() -> str:
        return "email:" + email_key()

    limits = [
        limiter.shared_limit(configured("SIGNIN_EMAIL"), scope="signin-email", key_func=email,
                             deduct_when=failed("signin_failed"), exempt_when=exempt_when),
        limiter.shared_limit(configured("SIGNIN_IP"), scope="signin-ip", key_func=get_remote_address,
                             deduct_when=failed("signin_failed")),
        limiter.shared_limit(configured("TWO_FACTOR"), scope="two-factor", key_func=email,
                             deduct_when=failed("two_factor_failed"), exempt_when=exempt_when),
    ]

    def decorate(view):
        for limit in reversed(limits):
            view = limit(view)
        return view

    return decorate


def _authenticate(data):
    """The user of a password sign-in; marks failures for the limits of ``sign_in_limits``."""
    try:
        with counting_failures("signin_failed", "INVALID_CREDENTIALS", "EMAIL_NOT_VERIFIED"), \
                counting_failures("two_factor_failed", "INVALID_TWO_FACTOR_CODE"):
            return service.authenticate(data["email"], data["password"], data.get("code"))
    except ApiError as exc:
        g.two_factor_code_used = (exc.details or {}).get("reason") == "used"
        raise


@bp.post("/register")
@limiter.shared_limit(configured("REGISTER_IP"), scope="register", key_func=get_remote_address)
@api_doc("Register an account (sends a verification mail)", tags=["auth"], body=schemas.RegisterSchema,
         responses={201: ("Registered", schemas.RegisteredUserSchema)})
def register():
    data = json_body(schemas.RegisterSchema())
    user = service.register(**data)
    return ok(schemas.RegisteredUserSchema().dump(user), status=201,
              message=N_("Registered. Check your email for a verification link."))


@bp.post("/verify-email")
@api_doc("Verify an email address with the mailed token", tags=["auth"], body=schemas.TokenSchema,
         responses={200: ("Verified", None)})
def verify_email():
    service.verify_email(json_body(schemas.TokenSchema())["token"])
    return ok(message=N_("Email verified. You can sign in now."))


@bp.post("/resend-verification")
@limiter.shared_limit(configured("MAIL_EMAIL"), scope="resend-verification", key_func=email_key)
@api_doc("Mail a new verification link", tags=["auth"], body=schemas.EmailOnlySchema,
         responses={200: ("Same answer whether or not the email exists", None)})
def resend_verification():
    service.resend_verification(json_body(schemas.EmailOnlySchema())["email"])
    return ok(message=SAME_ANSWER)


@bp.post("/forgot-password")
@limiter.shared_limit(configured("MAIL_EMAIL"), scope="forgot-password", key_func=email_key)
@api_doc("Mail a password reset link", tags=["auth"], body=schemas.EmailOnlySchema,
         responses={200: ("Same answer whether or not the email exists", None)})
def forgot_password():
    service.forgot_password(json_body(schemas.EmailOnlySchema())["email"])
    return ok(message=SAME_ANSWER)


@bp.post("/reset-password")
@api_doc("Set a new password with the mailed token", tags=["auth"], body=schemas.ResetPasswordSchema,
         responses={200: ("Password changed; every session ended", None)})
def reset_password():
    data = json_body(schemas.ResetPasswordSchema())
    service.reset_password(data["token"], data["password"])
    return ok(message=N_("Your password has been changed. Sign in with the new one."))


@bp.post("/auth/signin")
@accepts_form(error_redirect=_login_error_url)
@sign_in_limits()
@api_doc("Sign in with email and password (and a two-factor code when it is on)", tags=["auth"],
         body=schemas.SignInSchema, form_body=schemas.SignInFormSchema, envelope=False,
         responses={200: ("JSON request: the session and the callback address", schemas.SignInResultSchema),
                    302: ("Form post: redirect to callbackUrl (or /login?error=CODE)", None)})
def signin():
    form = is_form_post()
    data = schemas.SignInFormSchema().load(request.form.to_dict()) if form else json_body(schemas.SignInSchema())
    user = _authenticate(data)
    auth_session, raw = service.start_session(user, replaces=auth_sessions.current_cookie(),
                                              ip_address=request.remote_addr,
                                              user_agent=request.headers.get("User-Agent"))
    url = same_origin_url(data.get("callbackUrl"), current_app.config["BASE_URL"])
    response = redirect(url, 302) if form else jsonify({**session_body(user, auth_session.expires_at), "url": url})
    auth_sessions.set_cookie(response, raw, auth_session.expires_at)
    return response


@bp.post("/auth/signout")
@accepts_form(error_redirect=lambda code: f"{current_app.config['BASE_URL']}/login?error={code}")
@api_doc("Sign out: ends the session and redirects to the login page", tags=["auth"], envelope=False,
         responses={302: ("Redirect to {BASE_URL}/login", None)})
def signout():
    raw = auth_sessions.current_cookie()
    if raw:
        service.end_session(raw)
    response = redirect(f"{current_app.config['BASE_URL']}/login", 302)
    auth_sessions.clear_cookie(response)
    return response


@bp.get("/auth/session")
@api_doc("The current session, or {} when nobody is signed in", tags=["auth"], envelope=False,
         responses={200: ("Session object", schemas.SessionSchema)})
def session():
    if not current_user.is_authenticated:
        return jsonify({})
    return jsonify(session_body(current_user, g.session_expires_at))


@bp.post("/auth/token")
@auth_sessions.ignores_authorization
@accepts_form(error_redirect=None)  # OAuth clients post forms, and read errors as JSON
@sign_in_limits(exempt_when=_not_a_password_grant)
@api_doc("API tokens: grant_type=password (email, password, code) or grant_type=refresh_token", tags=["auth"],
         body=schemas.TokenRequestSchema, form_body=schemas.TokenRequestFormSchema, envelope=False,
         responses={200: ("An access token (Bearer, 1 hour) and the next refresh token", schemas.TokenResponseSchema)})
def token():
    if is_form_post():
        data = schemas.TokenRequestFormSchema().load(request.form.to_dict())
    else:
        data = json_body(schemas.TokenRequestSchema())
    if data["grant_type"] == "password":
        user = _authenticate(data)
        result = service.grant_password(user)
    else:
        with counting_failures("signin_failed"):  # per address only: a refresh grant names no email
            result = service.grant_refresh(data["refresh_token"])
    response = jsonify(schemas.TokenResponseSchema().dump(result))
    response.headers["Pragma"] = "no-cache"  # RFC 6749 §5.1, beside Cache-Control: no-store
    return response


# -- Passkey sign-in (app/auth/passkeys.py; decisions "Passkeys") -----------------------------------------

@bp.post("/auth/passkey/options")
@limiter.shared_limit(configured("PASSKEY_OPTIONS"), scope="passkey-options", key_func=get_remote_address)
@api_doc("Start a passkey sign-in: the options of navigator.credentials.get (no allowCredentials: the browser "
         "offers this site's passkeys; user verification required), with a single-use challenge", tags=["auth"],
         responses={200: ("The request options", schemas.PasskeyOptionsSchema)})
def passkey_options():
    return ok(schemas.PasskeyOptionsSchema().dump({"publicKey": passkeys.authentication_options()}))


@bp.post("/auth/passkey/signin")
@limiter.shared_limit(configured("SIGNIN_IP"), scope="signin-ip", key_func=get_remote_address,
                      deduct_when=failed("signin_failed"))
@api_doc("Sign in with a passkey: the credential navigator.credentials.get answered; no email, password or "
         "two-factor code (the passkey verified its user). 401 PASSKEY_REJECTED (details.reason challenge, "
         "unknown or verification)", tags=["auth"], body=schemas.PasskeySignInSchema, envelope=False,
         responses={200: ("The session and the callback address (session cookie set)", schemas.SignInResultSchema)})
def passkey_signin():
    data = json_body(schemas.PasskeySignInSchema())
    with counting_failures("signin_failed", "PASSKEY_REJECTED"):
        user = passkeys.authenticate(data["credential"])
    auth_session, raw = service.start_session(user, replaces=auth_sessions.current_cookie(),
                                              ip_address=request.remote_addr,
                                              user_agent=request.headers.get("User-Agent"))
    url = same_origin_url(data.get("callbackUrl"), current_app.config["BASE_URL"])
    response = jsonify({**session_body(user, auth_session.expires_at), "url": url})
    auth_sessions.set_cookie(response, raw, auth_session.expires_at)
    return response


# -- OAuth sign-in and linking (app/auth/oauth.py; decisions "OAuth sign-in") -----------------------------

_OAUTH_SIGNIN_RESPONSES = {302: ("Redirect to the provider's authorization page (404 when the provider is not "
                                 "configured)", None)}
_OAUTH_LINK_RESPONSES = {302: ("Redirect to the provider's authorization page; the callback links its account "
                               "(404 when the provider is not configured, 401 when not signed in, 403 "
                               "SESSION_REQUIRED with a bearer token, 403 REAUTHENTICATION_REQUIRED when the "
                               "session did not sign in or re-authenticate within SUDO_LIFETIME, 409 "
                               "PROVIDER_ALREADY_LINKED when an account of the provider is linked already)",
                               None)}
_OAUTH_CALLBACK_RESPONSES = {302: ("Sign-in: redirect to the callbackUrl given at the start, signed in (session "
                                   "cookie set); any failure: to {BASE_URL}/login?error=OAuthCallback. Link: to "
                                   "the callbackUrl with ?linked=<provider> or ?link_error=<CODE>", None)}


def _cookie_user_id() -> str | None:
    """The id of the user signed in by the session cookie (a bearer token does not start or finish a link:
    the flow is a browser's)."""
    if current_user.is_authenticated and g.get("authenticated_by") == "session":
        return current_user.id
    return None


def _with_param(url: str, name: str, value: str) -> str:
    """``url`` with ``name=value`` in its query (replacing one already there), before any fragment."""
    parts = urlsplit(url)
    query = [(key, val) for key, val in parse_qsl(parts.query, keep_blank_values=True) if key != name]
    return urlunsplit(parts._replace(query=urlencode([*query, (name, value)])))


def _oauth_signin(provider: str):
    callback = same_origin_url(request.args.get("callbackUrl"), current_app.config["BASE_URL"])
    return oauth.authorize_redirect(provider, callback)


def _oauth_link(provider: str):
    oauth.require_provider(provider)
    if not current_user.is_authenticated:
        raise Unauthenticated()
    sudo.require_recent(current_user)  # a new way in is a security change (a bearer token: SESSION_REQUIRED)
    service.check_no_identity_of(current_user, provider)
    callback = same_origin_url(request.args.get("callbackUrl") or "/account", current_app.config["BASE_URL"])
    return oauth.authorize_redirect(provider, callback, link_user_id=current_user.id)


def _oauth_callback(provider: str):
    oauth.require_provider(provider)
    failed_url = f"{current_app.config['BASE_URL']}/login?error=OAuthCallback"
    try:
        done = oauth.complete(provider)
        if done.link_user_id:
            return _finish_link(provider, done)
        _user, auth_session, raw = service.sign_in_with_provider(
            done.profile, replaces=auth_sessions.current_cookie(), ip_address=request.remote_addr,
            user_agent=request.headers.get("User-Agent"))
    except oauth.OAuthFailure as exc:
        log.warning("%s %s failed: %s", provider, "link" if exc.link_user_id else "sign-in", exc)
        if exc.link_user_id:
            return redirect(_with_param(exc.callback_url, "link_error", "OAuthCallback"), 302)
        return redirect(failed_url, 302)
    except ApiError as exc:  # the account may not sign in this way (no verified email, two-factor on)
        log.warning("%s sign-in refused: %s", provider, exc.code)
        return redirect(failed_url, 302)
    response = redirect(done.callback_url, 302)
    auth_sessions.set_cookie(response, raw, auth_session.expires_at)
    return response


def _finish_link(provider: str, done):
    """Link the provider account to the user who started the flow, if that user is still the one signed in
    in this browser (signed out, or another account since: refused). The session is left as it is."""
    signed_in = _cookie_user_id()
    if signed_in != done.link_user_id:
        code = "UNAUTHENTICATED" if signed_in is None else "FORBIDDEN"
        log.warning("%s link refused: %s", provider, code)
        return redirect(_with_param(done.callback_url, "link_error", code), 302)
    try:
        service.link_provider(current_user, done.profile)
    except ApiError as exc:
        log.warning("%s link refused: %s", provider, exc.code)
        return redirect(_with_param(done.callback_url, "link_error", exc.code), 302)
    return redirect(_with_param(done.callback_url, "linked", provider), 302)


@bp.get("/auth/signin/github")
@api_doc("Sign in with GitHub: redirects to GitHub (state and PKCE kept in the rs_state cookie)", tags=["auth"],
         query=schemas.OAuthSignInQuerySchema, envelope=False, responses=_OAUTH_SIGNIN_RESPONSES)
def signin_github():
    return _oauth_signin("github")


@bp.get("/auth/signin/google")
@api_doc("Sign in with Google: redirects to Google (state and PKCE kept in the rs_state cookie)", tags=["auth"],
         query=schemas.OAuthSignInQuerySchema, envelope=False, responses=_OAUTH_SIGNIN_RESPONSES)
def signin_google():
    return _oauth_signin("google")


@bp.get("/auth/link/github")
@api_doc("Link a GitHub account to the signed-in user (session cookie): redirects to GitHub", tags=["auth"],
         query=schemas.OAuthSignInQuerySchema, envelope=False, responses=_OAUTH_LINK_RESPONSES)
def link_github():
    return _oauth_link("github")


@bp.get("/auth/link/google")
@api_doc("Link a Google account to the signed-in user (session cookie): redirects to Google", tags=["auth"],
         query=schemas.OAuthSignInQuerySchema, envelope=False, responses=_OAUTH_LINK_RESPONSES)
def link_google():
    return _oauth_link("google")


@bp.get("/auth/callback/github")
@api_doc("GitHub's redirect back: signs in (linking or creating the account), or links, and redirects", tags=["auth"],
         query=schemas.OAuthCallbackQuerySchema, envelope=False, responses=_OAUTH_CALLBACK_RESPONSES)
def callback_github():
    return _oauth_callback("github")


@bp.get("/auth/callback/google")
@api_doc("Google's redirect back: signs in (linking or creating the account), or links, and redirects", tags=["auth"],
         query=schemas.OAuthCallbackQuerySchema, envelope=False, responses=_OAUTH_CALLBACK_RESPONSES)
def callback_google():
    return _oauth_callback("google")
