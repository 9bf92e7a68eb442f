"""The resume editor: GET /resumes/<id>/edit.

The page is a form the scripts fill from ``GET /api/resumes/<id>`` and save through
``PUT /api/resumes/<id>`` and the project-entry endpoints (``static/js/editor/``): the JSON API
is its only back end. Its sections and entry forms are drawn from the section registry
(``content/sections.ENTRIES``: one description of every kind of entry); the side column adds the
preview, export, sharing and version history.
The view itself only checks that the resume is the person's, so a link to someone else's resume
(or a deleted one) answers the pages' 404, not an empty editor; another person's resume is a 404
too, so the page does not tell which ids exist.
"""
from __future__ import annotations

from flask import current_app
from flask_login import current_user

from app.ai import provider
from app.content import language
from app.content.sections import BODY_SECTIONS, ENTRIES, HEADINGS
from app.errors import ApiError
from app.pages.shell import render_page, signed_in_page
from app.pages.views import bp
from app.resumes import service
from app.resumes.models import STATUSES



@bp.get("/resumes/<resume_id>/edit")
@signed_in_page
def edit_resume(resume_id: str):
    try:
        resume = service.get_owned_resume(current_user, resume_id)
    except ApiError as exc:
        if exc.code != "RESUME_NOT_OWNED":
            raise
        raise ApiError("RESUME_NOT_FOUND", "This resume does not exist or was deleted.",
                       {"resumeId": resume_id}) from None
    return render_page("pages/editor.html", scripts="editor", resume_id=resume.id, title=resume.title,
                       sections=[(key, HEADINGS[key]) for key in BODY_SECTIONS], forms=ENTRIES,
                       statuses=STATUSES,
                       resume_languages=[(code, language.NAMES[code]) for code in language.LANGUAGES],
                       ai_enabled=provider.configured(current_app.config))
