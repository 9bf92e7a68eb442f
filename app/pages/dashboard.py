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

# Every message dashboard/page.js shows (i18n.page_strings translates them into the page).
STRINGS = (
    "Draft", "Published", "Archived", "Loading…",
    "Not shared", "Shared", "Shared with a password", "Sharing off", "{n} views", "1 view",
    "Last viewed {date}", "No score yet", "Edit", "Delete", "Edit {title}", "Delete {title}",
    "Page {page} of {pages}", "{total} resumes", "1 resume",
    "No resumes yet", "Create your first resume from a template: pick a look, then fill it in.",
    "No resumes with this status", "Show all resumes", "The resumes could not be loaded.", "Try again",
    "“{title}” goes to the trash: you can restore it there for 30 days, then it is deleted for good.",
    "Resume moved to the trash.", "This resume no longer exists. The list has been refreshed.",
    # duplicate, the trash
    "Duplicate", "Duplicate {title}", "Copy made: “{title}”.", "Open in the editor",
    "Your plan allows {limit} resumes, so this one cannot be copied. Delete one, or upgrade for more.",
    "The trash is empty", "Deleted resumes stay here for 30 days.", "Restore", "Restore {title}",
    "“{title}” is back in your resumes.", "This resume is no longer in the trash. The list has been refreshed.",
    "Your plan allows {limit} resumes, so this one cannot be restored. Delete one, or upgrade for more.",
    # import
    "This file is too large to import (at most {size} MB).", "Choose a .json, .pdf or .docx file.",
    "Choose a file, or paste JSON Resume text.", "The file is empty.",
    "This text is not valid JSON: check that it is complete, from its first { to its last }.",
    "This text is not a JSON Resume document (https://jsonresume.org).",
    "This file could not be read: it may be damaged.", "This PDF has too many pages to import.",
    "This document holds too much text to import.",
    "This document needs more memory to read than an import may use.", "This document took too long to read.",
    "This document has no text to read (a scanned page?): import a PDF with its text, or a DOCX.",
    "This DOCX unpacks to too much data to import.", "This document has too many lines of text to import.",
    "This DOCX has too many parts to import.",
    "This JSON Resume document is far larger than a resume.",
    "This JSON file is not a JSON Resume document (https://jsonresume.org).",
    "Importing…", "“{title}” was imported as a new draft.",
    "Not imported ({n}): these parts of the document had no place in a resume here, or were not valid.",
    "Everything was imported.",
    "To check ({n}): the editor lists them beside the preview, with any text cut to fit a field.",
    "Your plan allows {limit} resumes, so nothing more can be imported. Delete one, or upgrade for more.",
    # plan usage
    "Free plan", "Premium plan", "Enterprise plan", "{n} of {total}", "{n} (no limit)",
    "{used} of {total} MB", "{used} MB (no limit)",
    "You have used every resume of your plan. Delete one, or upgrade for more.",
    # the template picker
    "Modern", "Classic", "Professional", "Creative", "Basic", "Premium", "Upgrade", "Upgrade to use {name}",
    "Use this template", "Use {name}", "Preview of the {name} template", "Untitled resume", "Creating…",
    "The templates could not be loaded.", "This template needs a Premium plan.",
    "Your plan allows {limit} resumes. Delete one, or upgrade for more.",
)


@bp.get("/dashboard")
@signed_in_page
def dashboard():
    timezone = (current_user.preferences or {}).get("timezone") or "UTC"
    view = "trash" if request.args.get("view") == "trash" else "list"
    return render_page("pages/dashboard.html", strings=STRINGS, timezone=timezone, view=view)


@bp.get("/resumes")
def resumes():
    """The list of resumes is the dashboard (the nav's "Resumes"); keep the filter and page."""
    query = request.query_string.decode("latin-1")
    return redirect("/dashboard" + (f"?{query}" if query else ""), 302)
