"""The dashboard: where sign-in lands (``/`` sends a signed-in person here).

The page is a shell; ``static/js/dashboard/page.js`` fills it from the JSON API with the session cookie
(``GET /api/resumes`` for the list, ``GET /api/account`` for the plan's usage, ``GET /api/templates``
for the picker, ``POST``/``DELETE /api/resumes`` to create and delete), so the API's validation,
limits and events apply to everything done here. The server only adds what the scripts need to
read the person's own words: their time zone (dates are shown in it) and the translated strings.

The status filter and the page live in the address (``/dashboard?status=DRAFT&page=2``), so a
reload, the back button and a shared link show the same list. ``?view=trash`` shows the trash
instead (``GET /api/resumes/trash``, restore); "Import" (``POST /api/resumes/import``) and each
row's "Duplicate" (``POST /api/resumes/<id>/duplicate``) are dialogs and buttons of the list.
"""
from __future__ import annotations

from flask import redirect, request
from flask_login import current_user

from app.pages.shell import render_page, signed_in_page
from app.pages.views import bp



@bp.get("/dashboard")
@signed_in_page
def dashboard():
    timezone = (current_user.preferences or {}).get("timezone") or "UTC"
    view = "trash" if request.args.get("view") == "trash" else "list"
    return render_page("pages/dashboard.html", scripts="dashboard", timezone=timezone, view=view)


@bp.get("/resumes")
def resumes():
    """The list of resumes is the dashboard (the nav's "Resumes"); keep the filter and page."""
    query = request.query_string.decode("latin-1")
    return redirect("/dashboard" + (f"?{query}" if query else ""), 302)
