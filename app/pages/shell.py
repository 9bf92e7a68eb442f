"""The signed-in app's shell: the pages a person uses after signing in, and what they share.

Every such page is a Jinja template extending ``pages/app.html`` (navigation, theme, language, the
translated strings its scripts show) with small plain-JavaScript modules under ``static/js/`` that
talk to the JSON API with the session cookie: the API is the pages' only back end, so its
validation, limits and events apply to everything a person does here.

``signed_in_page`` sends a visitor who is not signed in to ``/login`` and back afterwards;
``render_page`` renders a page with the messages its scripts show (``i18n.page_strings``).
"""
from __future__ import annotations

from functools import wraps
from urllib.parse import urlencode

from flask import redirect, render_template, request
from flask_login import current_user

from app import i18n

THEMES = ("light", "dark", "auto")


def signed_in_page(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if not current_user.is_authenticated:
            return redirect("/login?" + urlencode({"callbackUrl": request.full_path.rstrip("?")}), 302)
        return view(*args, **kwargs)
    return wrapper


def theme() -> str:
    chosen = (current_user.preferences or {}).get("theme") if current_user.is_authenticated else None
    return chosen if chosen in THEMES else "auto"


def render_page(template: str, *, scripts: str, **context) -> str:
    """``scripts``: the page's folder of ``static/js``, whose messages (and ``shared``'s) the page carries."""
    return render_template(template, user=current_user, theme=theme(), strings=i18n.page_strings(scripts), **context)
