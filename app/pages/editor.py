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

# Messages the editor's scripts show (static/js/editor/), translated on the server.
STRINGS = (
    "Could not save: correct the marked field.",
    "Move up", "Move down", "Remove",
    "Entry moved to position {n}.", "Entry added.",
    "Premium", "Not scored yet",
    "Section moved to position {n}.",
    # editor/import.js: the import's report
    "Degree and school were told apart by their order alone: check which is which.",
    "Job title and employer were told apart by their order alone: check which is which.",
    "No dates were found for this entry.",
    "Only years were printed: each month was set to January. Set the real ones.",
    "“{title}” is not a section we know: it was kept as a section of its own.",
    "“{title}” is not a section we know: it was read as this section from its dated entries. Check it.",
    "This line of the header fitted no field:", "No email address was found.", "No name was found.",
    "Copy", "Copied.", "The text is selected: press Ctrl+C (or ⌘C) to copy it.", "Go to the field",
    "Too long for its field ({field}): it was cut at a sentence. The rest is here:", "The rest of the text",
    "A line of the header", "Not kept:",
    "{file} was read into the form. Check these before your first export:",
    "{file} was read into the form, and nothing in it was left out or guessed. Compare it with the form "
    "before your first export.",
    "Page {n} of {file}", "the document", "opens in a new tab",
    # ... its notes grouped by entry, as chips (editor/import-words.js), with their fixes and the PDF's page
    "Cut to fit", "Which is which?", "No dates", "Years only", "New section", "Section guessed", "Fitted no field",
    "Not found",
    "Two in one?", "From the AI", "Mixed up?", "To check", "Not kept",
    "This bullet may be several run together:",
    "Employer and location were split at a comma: check which is which.",
    "Headline and address were told apart by their words alone: check which is which.",
    "Filled in by the AI model, not read as printed: check it against your file.",
    "{field} and {other} may be the wrong way round: check which is which.", "Check this field.",
    "Swap", "Swap {a} and {b}", "Swap back", "Swap back {a} and {b}", "Swapped.", "Swapped {a} and {b}.",
    "Swapped back.", "Split in two", "Join again", "Split.", "Split into two bullets.", "Joined again.",
    "Page {n}", "Show page {n} beside the notes", "Previous page", "Next page", "{n} / {total}",
    "{n} more", "Show fewer", "{entry}: {what}",
    # editor/conflict.js and editor/merge.js: a save refused as made from an older copy, and the merge
    "Not saved: changed elsewhere", "Changed in the other version", "Changed in this tab",
    "Changed in both: choose one", "Keep yours", "Take the other version",
    "Choose a version for each field changed in both.", "Merged. What you did not keep is in the version history.",
    "Items", "Order of the sections", "(empty)", "Shown on the resume", "Hidden from the resume",
    # editor/freshness.js: the resume saved elsewhere since this tab loaded it
    "Changed in another tab or device", "The latest version is shown.",
    # editor/undo.js: undo and redo
    "Undo", "Undone.", "Redone.", "Removed {entry}.",
    # editor/errors.js: a refused value in the form's words
    "{field} of {entry}: {what}.", "{field}: {what}.", "use the form YYYY-MM, like 2024-03",
    "it cannot be before the start", "enter a whole web address, starting with https://",
    "each item may have at most {max} characters", "at most {max} items", "it cannot be empty",
    "use at most {max} characters (now {n})",
)


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
    return render_page("pages/editor.html", strings=STRINGS, resume_id=resume.id, title=resume.title,
                       sections=[(key, HEADINGS[key]) for key in BODY_SECTIONS], forms=ENTRIES,
                       statuses=STATUSES,
                       resume_languages=[(code, language.NAMES[code]) for code in language.LANGUAGES],
                       ai_enabled=provider.configured(current_app.config))
