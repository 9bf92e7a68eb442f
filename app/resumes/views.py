"""Resume and template endpoints: HTTP only."""
from __future__ import annotations

import math

from flask import Blueprint, Response, request
from flask_login import current_user, login_required
from werkzeug.routing import BaseConverter

from app.common.connections import writes_nothing
from app.common.error_responses import render
from app.common.http import json_body, ok
from app.common.idempotency import idempotent
from app.common.negotiation import accepts_upload, is_form_post
from app.common.openapi import api_doc
from app.common.ratelimit import counting_failures, share_password_limit
from app.errors import ApiError, InvalidField
from app.resumes import exports, history, imports, schemas, service, share_status, shares, trash
from app.messages import N_

bp = Blueprint("resumes", __name__, url_prefix="/api")


class ResumeIdConverter(BaseConverter):
    """``/api/resumes/<resume:resume_id>``: any segment but the collection's own addresses
    (``trash``, ``import``), so that e.g. ``PUT /api/resumes/trash`` is 405 with ``Allow: GET``
    rather than a look-up of a resume called "trash"."""

    regex = r"(?!(?:trash|import)\Z)[^/]+"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("resume", ResumeIdConverter))

# The list is the hot path: its query schema is built once (marshmallow schemas keep no per-call state).
LIST_QUERY = schemas.ListQuerySchema()


def page_meta(total: int, query: dict) -> dict:
    """The ``meta`` of a paginated list."""
    return {"total": total, "page": query["page"], "limit": query["limit"],
            "totalPages": math.ceil(total / query["limit"])}


@bp.get("/templates")
@writes_nothing
@api_doc("List the resume templates", tags=["templates"],
         responses={200: ("Templates", schemas.TemplateListItemSchema(many=True))})
def list_templates():
    return ok(schemas.TemplateListItemSchema(many=True).dump(service.list_templates()))


@bp.get("/resumes")
@writes_nothing
@login_required
@api_doc("List your resumes, newest first", tags=["resumes"], auth=True, query=schemas.ListQuerySchema,
         responses={200: ("A page of resumes with meta", schemas.ResumeListItemSchema(many=True))}, list_meta=True)
def list_resumes():
    query = LIST_QUERY.load(request.args.to_dict())
    rows, total = service.list_resumes(current_user, page=query["page"], limit=query["limit"],
                                       status=query.get("status"))
    return ok([schemas.list_item(row) for row in rows], meta=page_meta(total, query))


@bp.post("/resumes")
@login_required
@api_doc("Create a resume (DRAFT)", tags=["resumes"], auth=True, body=schemas.ResumeCreateSchema,
         responses={201: ("Created", schemas.CreatedResumeSchema)})
@idempotent
def create_resume():
    resume = service.create_resume(current_user, json_body(schemas.ResumeCreateSchema()))
    return ok(schemas.CreatedResumeSchema().dump(resume), status=201, message=N_("Resume created."))


@bp.post("/resumes/import")
@accepts_upload(max_bytes=imports.MAX_UPLOAD_BYTES)
@login_required
@api_doc("Import a resume: a JSON Resume document, or a PDF, DOCX or JSON Resume file (multipart, field file)",
         tags=["resumes"], auth=True, body=schemas.ImportBodySchema, upload_body=schemas.UPLOAD_BODY,
         responses={201: ("The new resume (DRAFT) and where what was not kept came from",
                          schemas.ImportResultSchema)})
def import_resume():
    if request.mimetype == "multipart/form-data":
        form = schemas.ImportFormSchema().load(request.form.to_dict())
        upload = request.files.get("file")
        if upload is None:
            raise InvalidField("file", "Attach the file to import (a PDF, a DOCX or a JSON Resume file).")
        resume, dropped, report = imports.import_file(
            current_user, upload.filename or "", upload.read(), title=form.get("title"),
            template_id=form.get("templateId"))
    elif is_form_post():
        raise ApiError("UNSUPPORTED_MEDIA_TYPE", "Send a JSON body, or the file as multipart/form-data.")
    else:
        body = json_body(schemas.ImportBodySchema())
        resume, dropped, report = imports.import_document(
            current_user, body["jsonResume"], title=body.get("title"), template_id=body.get("templateId"))
    return ok(schemas.ImportResultSchema().dump({"resume": resume, "dropped": dropped, "report": report}),
              status=201, message=N_("Resume imported."))


@bp.get("/resumes/<resume_id>/import-report")
@writes_nothing
@login_required
@api_doc("Read what the import that made a resume cut, dropped or guessed", tags=["resumes"], auth=True,
         responses={200: ("The report", schemas.ImportReportSchema)})
def get_import_report(resume_id: str):
    return ok(schemas.ImportReportSchema().dump(imports.import_report(current_user, resume_id)))


@bp.delete("/resumes/<resume_id>/import-report")
@login_required
@api_doc("Dismiss the import's report (the editor stops showing it)", tags=["resumes"], auth=True,
         responses={200: ("Dismissed", None)})
def dismiss_import_report(resume_id: str):
    imports.dismiss_report(current_user, resume_id)
    return ok(message=N_("Import report dismissed."))


@bp.get("/resumes/<resume:resume_id>")
@writes_nothing
@login_required
@api_doc("Read a resume (with If-None-Match naming its ETag: 304 while it is still that version)", tags=["resumes"],
         auth=True, responses={200: ("Resume", schemas.ResumeDetailSchema),
                               304: ("Not modified: the resume is still the version the ETag names", None)})
def get_resume(resume_id: str):
    resume = service.get_owned_resume(current_user, resume_id)
    etag = service.etag_of(resume)
    if request.if_none_match.contains_weak(etag.strip('"')):  # the editor's check of its copy (weak, RFC 9110)
        return _tagged(Response(status=304), etag)
    return _tagged(ok(schemas.ResumeDetailSchema().dump(resume)), etag)


@bp.put("/resumes/<resume:resume_id>")
@login_required
@api_doc("Update a resume (fields left out stay as they are). With If-Match (the ETag of GET or of the last "
         "save), a save made from another version is 409 RESUME_CONFLICT with the current resume", tags=["resumes"],
         auth=True,
         body=schemas.ResumeUpdateSchema, responses={200: ("Updated resume", schemas.ResumeDetailSchema)})
def update_resume(resume_id: str):
    data = json_body(schemas.ResumeUpdateSchema())
    resume = service.update_resume(current_user, resume_id, data, if_match=request.headers.get("If-Match"))
    answer = ok(schemas.ResumeDetailSchema().dump(resume), message=N_("Resume updated."))
    return _tagged(answer, service.etag_of(resume))


def _tagged(response: Response, etag: str) -> Response:
    """``response`` with the resume's version as its ETag (the If-Match of the next save)."""
    response.headers["ETag"] = etag
    return response


@bp.errorhandler(service.StaleCopy)
def _stale_copy(stale: service.StaleCopy):
    """A save made from another version than the resume's (If-Match): 409 RESUME_CONFLICT with the resume."""
    current, etag = stale.resume, service.etag_of(stale.resume)
    return render(ApiError("RESUME_CONFLICT", "This resume was changed elsewhere (another tab or device) since this "
                           "copy was loaded: nothing was saved. What this save held is kept in the version history.",
                           {"resume": schemas.ResumeDetailSchema().dump(current), "etag": etag},
                           headers={"ETag": etag}))


@bp.delete("/resumes/<resume:resume_id>")
@login_required
@api_doc("Delete a resume (soft)", tags=["resumes"], auth=True, responses={200: ("Deleted", None)})
def delete_resume(resume_id: str):
    service.delete_resume(current_user, resume_id)
    return ok(message=N_("Resume deleted."))


@bp.post("/resumes/<resume_id>/duplicate")
@login_required
@api_doc("Duplicate a resume: a DRAFT copy titled \"<title> (copy)\"", tags=["resumes"], auth=True,
         responses={201: ("Created", schemas.CreatedResumeSchema)})
def duplicate_resume(resume_id: str):
    resume = service.duplicate_resume(current_user, resume_id)
    return ok(schemas.CreatedResumeSchema().dump(resume), status=201, message=N_("Resume duplicated."))


# Trash (deleted resumes, restorable for 30 days) ----------------------------------
@bp.get("/resumes/trash")
@writes_nothing
@login_required
@api_doc("List your deleted resumes that can still be restored, last deleted first", tags=["trash"], auth=True,
         query=schemas.PageQuerySchema, list_meta=True,
         responses={200: ("A page of deleted resumes with meta", trash.TrashItemSchema(many=True))})
def list_trash():
    query = schemas.PageQuerySchema().load(request.args.to_dict())
    resumes, total = trash.list_trash(current_user, page=query["page"], limit=query["limit"])
    return ok(trash.TrashItemSchema(many=True).dump(resumes), meta=page_meta(total, query))


@bp.post("/resumes/<resume_id>/restore")
@login_required
@api_doc("Restore a deleted resume (share link included)", tags=["trash"], auth=True,
         responses={200: ("The restored resume", schemas.ResumeDetailSchema)})
def restore_resume(resume_id: str):
    resume = trash.restore(current_user, resume_id)
    return ok(schemas.ResumeDetailSchema().dump(resume), message=N_("Resume restored."))


# Versions ---------------------------------------------------------------------------
@bp.get("/resumes/<resume_id>/versions")
@writes_nothing
@login_required
@api_doc("List a resume's earlier versions, newest first", tags=["versions"], auth=True,
         query=schemas.PageQuerySchema, list_meta=True,
         responses={200: ("A page of versions with meta", schemas.VersionListItemSchema(many=True))})
def list_versions(resume_id: str):
    query = schemas.PageQuerySchema().load(request.args.to_dict())
    rows, total = history.list_versions(current_user, resume_id, page=query["page"], limit=query["limit"])
    return ok(schemas.VersionListItemSchema(many=True).dump(rows), meta=page_meta(total, query))


@bp.get("/resumes/<resume_id>/versions/<version_id>")
@writes_nothing
@login_required
@api_doc("Read one version of a resume", tags=["versions"], auth=True,
         responses={200: ("The version", schemas.VersionSchema)})
def get_version(resume_id: str, version_id: str):
    return ok(schemas.VersionSchema().dump(history.get_version(current_user, resume_id, version_id)))


@bp.post("/resumes/<resume_id>/versions/<version_id>/restore")
@login_required
@api_doc("Restore a version (the state it replaces is kept as a version)", tags=["versions"], auth=True,
         responses={200: ("The restored resume", schemas.ResumeDetailSchema)})
def restore_version(resume_id: str, version_id: str):
    resume = history.restore(current_user, resume_id, version_id)
    answer = ok(schemas.ResumeDetailSchema().dump(resume), message=N_("Version restored."))
    return _tagged(answer, service.etag_of(resume))


@bp.get("/resumes/<resume_id>/projects")
@writes_nothing
@login_required
@api_doc("List a resume's project entries", tags=["projects"], auth=True,
         responses={200: ("Project entries", schemas.ProjectOutputSchema(many=True))})
def list_projects(resume_id: str):
    return ok(schemas.ProjectOutputSchema(many=True).dump(service.list_projects(current_user, resume_id)))


@bp.post("/resumes/<resume_id>/projects")
@login_required
@api_doc("Add a project entry (If-Match and ETag as for PUT /api/resumes/<id>)", tags=["projects"], auth=True,
         body=schemas.ProjectInputSchema, responses={201: ("Created entry", schemas.ProjectOutputSchema)})
def add_project(resume_id: str):
    entry, etag = service.add_project(current_user, resume_id, json_body(schemas.ProjectInputSchema()),
                                      if_match=request.headers.get("If-Match"))
    return _tagged(ok(schemas.ProjectOutputSchema().dump(entry), status=201, message=N_("Project added.")), etag)


@bp.put("/resumes/<resume_id>/projects/<project_id>")
@login_required
@api_doc("Change a project entry (fields left out stay; If-Match and ETag as for PUT /api/resumes/<id>)",
         tags=["projects"], auth=True, body=schemas.ProjectInputSchema,
         responses={200: ("Updated entry", schemas.ProjectOutputSchema)})
def update_project(resume_id: str, project_id: str):
    changes = json_body(schemas.ProjectInputSchema(partial=True))
    entry, etag = service.update_project(current_user, resume_id, project_id, changes,
                                         if_match=request.headers.get("If-Match"))
    return _tagged(ok(schemas.ProjectOutputSchema().dump(entry), message=N_("Project updated.")), etag)


@bp.delete("/resumes/<resume_id>/projects/<project_id>")
@login_required
@api_doc("Remove a project entry (If-Match and ETag as for PUT /api/resumes/<id>)", tags=["projects"], auth=True,
         responses={200: ("Removed", None)})
def delete_project(resume_id: str, project_id: str):
    etag = service.delete_project(current_user, resume_id, project_id, if_match=request.headers.get("If-Match"))
    return _tagged(ok(message=N_("Project removed.")), etag)


# Export ---------------------------------------------------------------------
@bp.post("/resumes/<resume_id>/export")
@login_required
@api_doc("Export the resume as PDF, DOCX, HTML or TXT (waits for the render, up to 30 s)", tags=["export"],
         auth=True, body=schemas.ExportInputSchema, responses={201: ("The stored file", schemas.ExportResultSchema)})
@idempotent
def export_resume(resume_id: str):
    export = exports.export_resume(current_user, resume_id, json_body(schemas.ExportInputSchema()))
    return ok(schemas.ExportResultSchema().dump(export), status=201, message=N_("Export ready."))


# Sharing --------------------------------------------------------------------
@bp.get("/resumes/<resume_id>/share")
@writes_nothing
@login_required
@api_doc("Read the share link's settings, views and last view", tags=["sharing"], auth=True,
         responses={200: ("The share", share_status.ShareStatusSchema)})
def get_share(resume_id: str):
    return ok(share_status.ShareStatusSchema().dump(share_status.share_status(current_user, resume_id)))


@bp.post("/resumes/<resume_id>/share")
@login_required
@api_doc("Create the share link, or change the existing one", tags=["sharing"], auth=True,
         body=schemas.ShareInputSchema, responses={201: ("Created", schemas.ShareSettingsSchema),
                                                   200: ("Existing share changed", schemas.ShareSettingsSchema)})
@idempotent
def create_share(resume_id: str):
    share, created = shares.configure_share(current_user, resume_id, json_body(schemas.ShareInputSchema()),
                                            create=True)
    return ok(schemas.ShareSettingsSchema().dump(share), status=201 if created else 200)


@bp.put("/resumes/<resume_id>/share")
@login_required
@api_doc("Change the share link (password and expiresAt may be null)", tags=["sharing"], auth=True,
         body=schemas.ShareInputSchema, responses={200: ("Updated", schemas.ShareSettingsSchema)})
def update_share(resume_id: str):
    share, _ = shares.configure_share(current_user, resume_id, json_body(schemas.ShareInputSchema()),
                                      create=False)
    return ok(schemas.ShareSettingsSchema().dump(share))


@bp.get("/resumes/<resume_id>/comments")
@writes_nothing
@login_required
@api_doc("Comments left on the shared resume, newest first (fifty to a page unless limit says)", tags=["sharing"],
         auth=True, query=schemas.CommentsQuerySchema, list_meta=True,
         responses={200: ("A page of comments with meta", schemas.CommentSchema(many=True))})
def list_comments(resume_id: str):
    query = schemas.CommentsQuerySchema().load(request.args.to_dict())
    comments, total = shares.list_comments(current_user, resume_id, page=query["page"], limit=query["limit"])
    return ok(schemas.CommentSchema(many=True).dump(comments), meta=page_meta(total, query))


@bp.get("/share/<token>")
@share_password_limit()
@api_doc("A shared resume (public; X-Share-Password for a protected one)", tags=["sharing"],
         responses={200: ("The resume, hidden sections left out", schemas.SharedResumeSchema)})
def view_share(token: str):
    with counting_failures("share_password_failed", "INVALID_SHARE_PASSWORD"):
        share = shares.view_share(token, request.headers.get("X-Share-Password"))
    return ok(schemas.SharedResumeSchema().dump(share))


@bp.post("/share/<token>/comments")
@share_password_limit()
@api_doc("Leave a comment on a shared resume (public)", tags=["sharing"], body=schemas.CommentInputSchema,
         responses={201: ("Comment", schemas.CommentSchema)})
def add_comment(token: str):
    data = json_body(schemas.CommentInputSchema())
    with counting_failures("share_password_failed", "INVALID_SHARE_PASSWORD"):
        comment = shares.add_comment(token, request.headers.get("X-Share-Password"), data)
    return ok(schemas.CommentSchema().dump(comment), status=201, message=N_("Comment added."))
