"""Editing a resume the way an agent does (the MCP server's tools, the editor's assistant): read it with its
version and every entry's id, change it with a JSON Patch made from that version (``app.content.patch``).

A resume's ``version`` is its ETag without the quotes. A patch names the version it was made from; from
any other it is refused with RESUME_CONFLICT and the current version (``details.currentVersion``). What it
leaves is checked by the schema of ``PUT /api/resumes/<id>``, and saved by ``service.update_resume`` with
the patch's author, so the state it replaced is kept as an ``agent`` version named after it.
"""
from __future__ import annotations

from app.content import patch
from app.errors import ApiError
from app.resumes import schemas, service
from app.resumes.models import Resume
from app.users.models import User

EDITABLE = ("title", "contentJson", "sectionsVisibility", "targetJobDescription")


def version_of(resume: Resume) -> str:
    return service.etag_of(resume).strip('"')


def document_of(resume: Resume) -> dict:
    """The resume as an agent reads it: its version, and the API's detail with the template without its
    HTML and every entry with an id."""
    detail = schemas.ResumeDetailSchema().dump(resume)
    detail["template"] = {key: detail["template"][key] for key in ("id", "name", "category")}
    detail["contentJson"] = patch.entry_ids(detail["contentJson"])
    return {"version": version_of(resume), "resume": detail}


def stale(resume: Resume) -> ApiError:
    return ApiError("RESUME_CONFLICT", "This resume was changed since the version you read: read it again, then "
                    "patch from the current version.", {"currentVersion": version_of(resume)})


def current(user: User, resume_id: str, base_version: str) -> Resume:
    """The user's resume, if it is still ``base_version``. Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED,
    RESUME_CONFLICT."""
    resume = service.get_owned_resume(user, resume_id)
    if base_version != version_of(resume):
        raise stale(resume)
    return resume


def apply(user: User, resume_id: str, base_version: str, operations, *, author: str, dry_run: bool = False) -> dict:
    """Patch the resume from ``base_version``: {version, changedPaths, saved} (and, with ``dry_run``, nothing
    saved: ``resume``, the editable fields as they would be). Commits unless ``dry_run``.

    Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, RESUME_CONFLICT, VALIDATION_ERROR (a patch that cannot apply:
    ``details.operation``; or what it leaves, as PUT would refuse it), INVALID_TEMPLATE, CONTENT_TOO_LARGE."""
    resume = current(user, resume_id, base_version)
    document = {field: value for field, value in schemas.ResumeDetailSchema().dump(resume).items()
                if field in EDITABLE}
    try:
        patched, changed = patch.apply(document, operations, EDITABLE)
    except patch.PatchRefused as refused:
        raise ApiError("VALIDATION_ERROR", str(refused), {"field": "operations", "operation": refused.index}) \
            from None
    data = schemas.ResumeUpdateSchema(partial=True).load(
        {field: patched[field] for field in EDITABLE if patched.get(field) != document.get(field)})
    if dry_run:
        return {"version": base_version, "changedPaths": changed, "saved": False,
                "resume": patch.entry_ids({**document, **patched})}
    try:
        saved = service.update_resume(user, resume_id, data, if_match=f'"{base_version}"', author=author)
    except service.StaleCopy as copy:
        raise stale(copy.resume) from None
    return {"version": version_of(saved), "changedPaths": changed, "saved": True}
