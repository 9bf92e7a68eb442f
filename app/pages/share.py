"""The public share page ``/share/<token>`` (registered on the pages blueprint).

A protected share first asks for its password; a browser that gave it keeps a
signed cookie for this share (path ``/share/<token>``) for 12 hours, which
stops working when the owner changes the password.

A comment is posted, then the visitor is sent back to the page (post/redirect/get, so a reload
does not post it twice) with a short-lived signed cookie carrying their name: the page they land
on thanks them by name, once, and does not count as another view of the resume.
"""
from __future__ import annotations

import io

from flask import current_app, make_response, redirect, render_template, request, send_file, url_for
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeTimedSerializer
from marshmallow import EXCLUDE, ValidationError

from app.common.ratelimit import address_and_token_key, configured, counting_failures, share_password_limit
from app.common.wording import said
from app.content import language
from app.documents import templating
from app.documents.fonts import web as webfonts
from app.errors import ApiError, NotFound, flatten_messages
from app.extensions import limiter
from app.messages import N_
from app.pages.views import bp
from app.resumes import exports, schemas, shares

COOKIE = "share_unlock"
THANKS_COOKIE = "share_thanks"
THANKS_MAX_AGE = 300  # seconds: the redirect after a comment follows at once
FIELDS = {"name": N_("Your name"), "text": N_("Comment")}  # the comment form's labels, for its errors


def _serializer(salt: str = "share-unlock") -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=salt)


def _thanked(token: str) -> str | None:
    """The name of the person who just commented on this share from this browser, if they did."""
    try:
        value = _serializer("share-thanks").loads(request.cookies.get(THANKS_COOKIE, ""), max_age=THANKS_MAX_AGE)
    except BadSignature:
        return None
    return value.get("name") if isinstance(value, dict) and value.get("token") == token else None


def _unlocked(share) -> bool:
    if share.password_hash is None:
        return True
    try:
        value = _serializer().loads(request.cookies.get(COOKIE, ""), max_age=shares.max_unlock_age())
    except BadSignature:
        return False
    return value == shares.access_key(share)


def _page_fonts(share) -> webfonts.WebFonts:
    """The resume's body with its runs marked, and the font cuts its text needs (``webfonts``)."""
    resume = share.resume
    body = templating.render_body(html_template=resume.template.html_template, title=resume.title,
                                  content=resume.content_json, visible=resume.sections_visibility)
    return webfonts.prepare(body, resume.template.css_styles, language.of(resume.content_json))


def _render(share, *, error: str | None = None, status: int = 200, thanked: str | None = None, form=None):
    resume = share.resume
    page = _page_fonts(share)
    font_css = page.css(lambda path: url_for("pages.share_font", token=share.token, name=path.name))
    return render_template("pages/share.html", share=share, resume=resume, body=page.html,
                           css=resume.template.css_styles + "\n" + font_css, error=error, thanked=thanked,
                           form=form or {}, resume_language=language.of(resume.content_json)), status


@bp.route("/share/<token>", methods=["GET", "POST"])
@share_password_limit(methods=["POST"])
def share_page(token: str):
    share = shares.find_share(token)  # 404 / 410 pages
    if request.method == "POST":
        try:
            with counting_failures("share_password_failed", "INVALID_SHARE_PASSWORD"):
                shares.check_share_password(share, request.form.get("password") or None)
        except ApiError as exc:
            error = said(exc.template, values=exc.values)
            return render_template("pages/share_password.html", token=token, error=error), exc.status
        response = redirect(url_for("pages.share_page", token=token), 303)
        response.set_cookie(COOKIE, _serializer().dumps(shares.access_key(share)), path=f"/share/{token}",
                            max_age=shares.max_unlock_age(), httponly=True, samesite="Lax",
                            secure=request.is_secure)
        return response
    if not _unlocked(share):
        return render_template("pages/share_password.html", token=token, error=None)
    thanked = _thanked(token)
    if thanked is None:
        return _render(shares.view_share(token, None, unlocked=True))
    # Back from their own comment: thanked once, and not another view.
    response = make_response(_render(share, thanked=thanked))
    response.delete_cookie(THANKS_COOKIE, path=f"/share/{token}")
    return response


@bp.post("/share/<token>/comments")
def share_comment(token: str):
    share = shares.find_share(token)
    if not _unlocked(share):
        return redirect(url_for("pages.share_page", token=token), 303)
    try:
        data = schemas.CommentInputSchema().load(request.form.to_dict(), unknown=EXCLUDE)
        shares.add_comment(token, None, data, unlocked=True)
    except ValidationError as exc:
        field, message = next(iter(flatten_messages(exc.messages).items()))
        return _render(share, error=f"{gettext(FIELDS.get(field, field))}: {message}", status=400,
                       form=request.form)
    except ApiError as exc:  # comments turned off (or the share closed) since the page was shown
        if exc.code != "COMMENTS_DISABLED":
            raise
        return _render(share, error=gettext("Comments are turned off for this resume."), status=exc.status)
    response = redirect(url_for("pages.share_page", token=token, _anchor="comments"), 303)
    response.set_cookie(THANKS_COOKIE, _serializer("share-thanks").dumps({"token": token, "name": data["name"]}),
                        path=f"/share/{token}", max_age=THANKS_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


@bp.get("/share/<token>/fonts/<name>")
def share_font(token: str, name: str):
    """A font cut the share page names (its name is made of its content: cached for a year). Cut again
    from the resume when this process has not cut it (web processes share no disk)."""
    share = shares.find_share(token)
    if not _unlocked(share):
        raise NotFound()
    path = _page_fonts(share).named(name)
    if path is None:
        raise NotFound()
    response = send_file(path, mimetype="font/ttf", max_age=365 * 24 * 3600)
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@bp.get("/share/<token>/download")
@limiter.limit(configured("SHARE_DOWNLOAD"), key_func=address_and_token_key, scope="share-download")
def share_download(token: str):
    """The shared resume as a PDF, when its owner allows downloads (rendered anew, not stored)."""
    share = shares.find_share(token)
    if not share.allow_download:
        raise NotFound()
    if not _unlocked(share):
        return redirect(url_for("pages.share_page", token=token), 303)
    content, filename = exports.render_shared_pdf(share)
    response = send_file(io.BytesIO(content), mimetype="application/pdf", as_attachment=True,
                         download_name=filename, max_age=0)
    response.headers["Cache-Control"] = "private, no-store"
    return response
