"""Server-rendered pages that mails and redirects lead to, and the health checks.

Usable without JavaScript: every action is a plain form post. Form posts from
another origin are refused. They speak the visitor's language (``app.i18n``: ``Accept-Language``
before signing in); what the services and schemas say is translated here, at the page, by ``said``:
the JSON API keeps its English messages for its clients.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, current_app, jsonify, redirect, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_limiter.util import get_remote_address
from flask_login import current_user
from marshmallow import EXCLUDE, ValidationError

from app import i18n
from app.auth import oauth, schemas, service
from app.auth.sessions import reads_no_user
from app.common import health
from app.common.ratelimit import configured, email_key
from app.common.wording import said
from app.common.security import same_origin_url
from app.errors import ApiError, flatten_messages
from app.extensions import limiter
from app.messages import N_

bp = Blueprint("pages", __name__)

LOGIN_ERRORS = {
    "INVALID_CREDENTIALS": lazy_gettext("The email or password is incorrect."),
    "EMAIL_NOT_VERIFIED": lazy_gettext("Verify your email address first: use the link we mailed you."),
    "RATE_LIMITED": lazy_gettext("Too many attempts. Wait a few minutes and try again."),
    "VALIDATION_ERROR": lazy_gettext("Enter a valid email address and your password."),
    "TWO_FACTOR_REQUIRED": lazy_gettext("Enter the code from your authenticator app."),
    "INVALID_TWO_FACTOR_CODE": lazy_gettext("That code is not valid. Try again."),
    "FORBIDDEN": lazy_gettext("That sign-in came from another site. Sign in here instead."),
    "SERVICE_UNAVAILABLE": lazy_gettext("The service is briefly unavailable. Try again in a few seconds."),
    "OAuthCallback": lazy_gettext("Signing in with that provider did not work. Try again, or sign in with your "
                                  "email and password (accounts with two-factor sign-in on must)."),
}
# A right two-factor code that was spent already (?reason=used): the step the set-up's confirmation used.
CODE_USED = lazy_gettext("That code has just been used. Wait for the next one from your app, or use an unused "
                         "backup code.")
CHECK_YOUR_EMAIL = lazy_gettext("Check your email")
# The page forms' fields, as a message names them ("email: Not a valid email address.").
FORM_FIELDS = {"email": N_("email"), "name": N_("name"), "password": N_("password"), "token": N_("token")}


def _form(schema):
    """Load a page form; returns (data, error message)."""
    try:
        return schema.load(request.form.to_dict(), unknown=EXCLUDE), None
    except ValidationError as exc:
        field, message = next(iter(flatten_messages(exc.messages).items()))
        # field names are msgids too ("email", "name"); Chinese puts a full-width colon after them
        return None, gettext("%(field)s: %(message)s", field=gettext(FORM_FIELDS.get(field, field)),
                             message=said(message))


@bp.get("/language/<code>")
def choose_language(code: str):
    """A visitor's choice of language on a public page: kept in a cookie for a year; back to the page."""
    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"  # only this site's pages: no open redirect
    response = redirect(target, 303)
    if code in i18n.LANGUAGES:
        response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax",
                            secure=request.is_secure, httponly=True)
    return response


@bp.get("/")
def home():
    if current_user.is_authenticated:  # sign-in lands on the dashboard
        return redirect("/dashboard", 302)
    return render_template("pages/home.html", user=None)


@bp.get("/login")
def login():
    code = request.args.get("error")
    callback = request.args.get("callbackUrl", "")
    query = f"?{urlencode({'callbackUrl': callback})}" if callback else ""
    providers = [{"label": oauth.PROVIDERS[name], "href": f"/api/auth/signin/{name}{query}"}
                 for name in oauth.configured_providers()]
    error = LOGIN_ERRORS.get(code, code and gettext("Sign-in failed."))
    if code == "INVALID_TWO_FACTOR_CODE" and request.args.get("reason") == "used":
        error = CODE_USED
    return render_template("pages/login.html", error=error,
                           error_code=code, callback=callback, providers=providers,
                           notice=request.args.get("notice"))


@bp.route("/register", methods=["GET", "POST"])
@limiter.shared_limit(configured("REGISTER_IP"), scope="register", key_func=get_remote_address, methods=["POST"])
def register():
    if request.method == "GET":
        return render_template("pages/register.html", form={}, error=None)
    data, error = _form(schemas.RegisterSchema())
    if data:
        try:
            user = service.register(**data)
            return render_template("pages/message.html", title=CHECK_YOUR_EMAIL,
                                   message=gettext("We sent a verification link to %(email)s.", email=user.email),
                                   resend_email=user.email)
        except ApiError as exc:
            error = said(exc.template, values=exc.values)
    return render_template("pages/register.html", form=request.form, error=error), 400


@bp.route("/verify-email", methods=["GET", "POST"])
def verify_email():
    # GET only shows a button: mail scanners that prefetch links must not spend the token.
    token = request.values.get("token", "")
    if request.method == "GET":
        return render_template("pages/verify_email.html", token=token, error=None if token else
                               gettext("This page needs the link from your verification mail."))
    try:
        service.verify_email(token)
    except ApiError as exc:
        error = said(exc.template, values=exc.values)
        return render_template("pages/verify_email.html", token="", error=error), exc.status
    return render_template("pages/message.html", title=gettext("Email verified"),
                           message=gettext("Your email address is verified. You can sign in now."), login_link=True)


@bp.route("/resend-verification", methods=["GET", "POST"])
@limiter.shared_limit(configured("MAIL_EMAIL"), scope="resend-verification", key_func=email_key, methods=["POST"])
def resend_verification():
    # The way back for a person whose verification link expired or got lost.
    if request.method == "GET":
        return render_template("pages/resend_verification.html", error=None)
    data, error = _form(schemas.EmailOnlySchema())
    if error:
        return render_template("pages/resend_verification.html", error=error), 400
    service.resend_verification(data["email"])
    return render_template("pages/message.html", title=CHECK_YOUR_EMAIL,
                           message=gettext("If an unverified account has this email, we have sent it a new "
                                           "verification link."), resend_email=data["email"])


@bp.route("/forgot-password", methods=["GET", "POST"])
@limiter.shared_limit(configured("MAIL_EMAIL"), scope="forgot-password", key_func=email_key, methods=["POST"])
def forgot_password():
    if request.method == "GET":
        return render_template("pages/forgot_password.html", error=None)
    data, error = _form(schemas.EmailOnlySchema())
    if error:
        return render_template("pages/forgot_password.html", error=error), 400
    service.forgot_password(data["email"])
    return render_template("pages/message.html", title=CHECK_YOUR_EMAIL,
                           message=gettext("If an account with this email exists, we have sent it a reset link."))


@bp.route("/reset-password", methods=["GET", "POST"])
def reset_password():
    token = request.values.get("token", "")
    if request.method == "GET":
        return render_template("pages/reset_password.html", token=token, error=None if token else
                               gettext("This page needs the link from your password reset mail."))
    data, error = _form(schemas.ResetPasswordSchema())
    if data:
        try:
            service.reset_password(data["token"], data["password"])
            return render_template("pages/message.html", title=gettext("Password changed"),
                                   message=gettext("Your password has been changed. Sign in with the new one."),
                                   login_link=True)
        except ApiError as exc:
            if exc.code != "WEAK_PASSWORD":  # a dead link: no form to fill in again
                error = said(exc.template, values=exc.values)
                return render_template("pages/reset_password.html", token="", error=error), exc.status
            error = said(exc.template, values=exc.values)
    return render_template("pages/reset_password.html", token=token, error=error), 400


@bp.get("/healthz")
@reads_no_user
def healthz():
    """The process is alive; no I/O."""
    return jsonify({"status": "ok"})


@bp.get("/readyz")
@reads_no_user
def readyz():
    """The database and (when configured) Redis answer."""
    checks = health.readiness()
    ready = all(v == health.OK for v in checks.values())
    return jsonify({"status": "ok" if ready else "unavailable", "checks": checks}), 200 if ready else 503


bp.add_app_template_global(said)


@bp.app_template_global()
def login_url_for(target: str | None = None) -> str:
    return same_origin_url(target, current_app.config["BASE_URL"])
