"""Auth endpoints: HTTP only. Sign-in/out/session use their own formats, the rest the envelope."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, current_app, g, jsonify, redirect, request
from flask_limiter.util import get_remote_address
from flask_login import current_user
from werkzeug.exceptions import HTTPException

from app.auth import schemas, service
from app.auth import sessions as auth_sessions
from app.common.http import accepts_form, is_form_post, json_body, ok
from app.common.openapi import api_doc
from app.common.ratelimit import configured, counting_failures, email_key, failed
from app.common.security import same_origin_url
from app.extensions import limiter

bp = Blueprint("auth", __name__, url_prefix="/api")

SAME_ANSWER = "If an account with this email exists, we have sent it a mail."


def _login_error_url(code: str) -> str:
    params = {"error": code}
    try:
        callback = request.form.get("callbackUrl")
    except HTTPException:  # the form cannot be read: it is the error being reported (413)
        callback = None
    if callback:
        params["callbackUrl"] = callback
    return f"{current_app.config['BASE_URL']}/login?{urlencode(params)}"


def session_body(user, expires_at) -> dict:
    return schemas.SessionSchema().dump({"user": user, "expires": expires_at})


@bp.post("/register")
@limiter.shared_limit(configured("REGISTER_IP"), scope="register", key_func=get_remote_address)
@api_doc("Register an account (sends a verification mail)", tags=["auth"], body=schemas.RegisterSchema,
         responses={201: ("Registered", schemas.RegisteredUserSchema)})
def register():
    data = json_body(schemas.RegisterSchema())
    user = service.register(**data)
    return ok(schemas.RegisteredUserSchema().dump(user), status=201,
              message="Registered. Check your email for a verification link.")


@bp.post("/verify-email")
@api_doc("Verify an email address with the mailed token", tags=["auth"], body=schemas.TokenSchema,
         responses={200: ("Verified", None)})
def verify_email():
    service.verify_email(json_body(schemas.TokenSchema())["token"])
    return ok(message="Email verified. You can sign in now.")


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
    return ok(message="Your password has been changed. Sign in with the new one.")


@bp.post("/auth/signin")
@accepts_form(error_redirect=_login_error_url)
@limiter.limit(configured("SIGNIN_EMAIL"), key_func=lambda: "email:" + email_key(), deduct_when=failed("signin_failed"),
               scope="signin-email")
@limiter.limit(configured("SIGNIN_IP"), key_func=get_remote_address, deduct_when=failed("signin_failed"), scope="signin-ip")
@api_doc("Sign in with email and password", tags=["auth"], body=schemas.SignInSchema,
         form_body=schemas.SignInFormSchema, envelope=False,
         responses={200: ("JSON request: the session and the callback address", schemas.SignInResultSchema),
                    302: ("Form post: redirect to callbackUrl (or /login?error=CODE)", None)})
def signin():
    form = is_form_post()
    data = schemas.SignInFormSchema().load(request.form.to_dict()) if form else json_body(schemas.SignInSchema())
    with counting_failures("signin_failed"):
        user = service.authenticate(data["email"], data["password"])
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
