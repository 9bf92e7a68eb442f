"""Resume and template endpoints: HTTP only."""
from __future__ import annotations

import math

from flask import Blueprint, request
from flask_login import current_user, login_required

from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.common.ratelimit import counting_failures, share_password_limit
from app.resumes import exports, schemas, service, shares

bp = Blueprint("resumes", __name__, url_prefix="/api")

# The list is the hot path: its query schema is built once (marshmallow schemas keep no per-call state).
LIST_QUERY = schemas.ListQuerySchema()


@bp.get("/templates")
@api_doc("List the resume templates", tags=["templates"],
         responses={200: ("Templates", schemas.TemplateListItemSchema(many=True))})
def list_templates():
    return ok(schemas.TemplateListItemSchema(many=True).dump(service.list_templates()))


@bp.get("/resumes")
@login_required
@api_doc("List your resumes, newest first", tags=["resumes"], auth=True, query=schemas.ListQuerySchema,
         responses={200: ("A page of resumes with meta", schemas.ResumeListItemSchema(many=True))}, list_meta=True)
def list_resumes():
    query = LIST_QUERY.load(request.args.to_dict())
    rows, total = service.list_resumes(current_user, page=query["page"], limit=query["limit"],
                                       status=query.get("status"))
    meta = {"total": total, "page": query["page"], "limit": query["limit"],
            "totalPages": math.ceil(total / query["limit"])}
    return ok([schemas.list_item(row) for row in rows], meta=meta)


@bp.post("/resumes")
@login_required
@api_doc("Create a resume (DRAFT)", tags=["resumes"], auth=True, body=schemas.ResumeCreateSchema,
         responses={201: ("Created", schemas.CreatedResumeSchema)})
def create_resume():
    resume = service.create_resume(current_user, json_body(schemas.ResumeCreateSchema()))
    return ok(schemas.CreatedResumeSchema().dump(resume), status=201, message="Resume created.")


@bp.get("/resumes/<resume_id>")
@login_required
@api_doc("Read a resume", tags=["resumes"], auth=True, responses={200: ("Resume", schemas.ResumeDetailSchema)})
def get_resume(resume_id: str):
    return ok(schemas.ResumeDetailSchema().dump(service.get_owned_resume(current_user, resume_id)))


@bp.put("/resumes/<resume_id>")
@login_required
@api_doc("Update a resume (fields left out stay as they are)", tags=["resumes"], auth=True,
         body=schemas.ResumeUpdateSchema, responses={200: ("Updated resume", schemas.ResumeDetailSchema)})
def update_resume(resume_id: str):
    data = json_body(schemas.ResumeUpdateSchema())
    resume = service.update_resume(current_user, resume_id, data)
    return ok(schemas.ResumeDetailSchema().dump(resume), message="Resume updated.")


@bp.delete("/resumes/<resume_id>")
@login_required
@api_doc("Delete a resume (soft)", tags=["resumes"], auth=True, responses={200: ("Deleted", None)})
def delete_resume(resume_id: str):
    service.delete_resume(current_user, resume_id)
    return ok(message="Resume deleted.")


@bp.get("/resumes/<resume_id>/projects")
@login_required
@api_doc("List a resume's project entries", tags=["projects"], auth=True,
         responses={200: ("Project entries", schemas.ProjectOutputSchema(many=True))})
def list_projects(resume_id: str):
    return ok(schemas.ProjectOutputSchema(many=True).dump(service.list_projects(current_user, resume_id)))


@bp.post("/resumes/<resume_id>/projects")
@login_required
@api_doc("Add a project entry", tags=["projects"], auth=True, body=schemas.ProjectInputSchema,
         responses={201: ("Created entry", schemas.ProjectOutputSchema)})
def add_project(resume_id: str):
    entry = service.add_project(current_user, resume_id, json_body(schemas.ProjectInputSchema()))
    return ok(schemas.ProjectOutputSchema().dump(entry), status=201, message="Project added.")


@bp.put("/resumes/<resume_id>/projects/<project_id>")
@login_required
@api_doc("Change a project entry (fields left out stay)", tags=["projects"], auth=True,
         body=schemas.ProjectInputSchema, responses={200: ("Updated entry", schemas.ProjectOutputSchema)})
def update_project(resume_id: str, project_id: str):
    changes = json_body(schemas.ProjectInputSchema(partial=True))
    entry = service.update_project(current_user, resume_id, project_id, changes)
    return ok(schemas.ProjectOutputSchema().dump(entry), message="Project updated.")


@bp.delete("/resumes/<resume_id>/projects/<project_id>")
@login_required
@api_doc("Remove a project entry", tags=["projects"], auth=True, responses={200: ("Removed", None)})
def delete_project(resume_id: str, project_id: str):
    service.delete_project(current_user, resume_id, project_id)
    return ok(message="Project removed.")


# Export ---------------------------------------------------------------------
@bp.post("/resumes/<resume_id>/export")
@login_required
@api_doc("Export the resume as PDF, DOCX, HTML or TXT (waits for the render, up to 30 s)", tags=["export"],
         auth=True, body=schemas.ExportInputSchema, responses={201: ("The stored file", schemas.ExportResultSchema)})
def export_resume(resume_id: str):
    export = exports.export_resume(current_user, resume_id, json_body(schemas.ExportInputSchema()))
    return ok(schemas.ExportResultSchema().dump(export), status=201, message="Export ready.")


# Sharing --------------------------------------------------------------------
@bp.post("/resumes/<resume_id>/share")
@login_required
@api_doc("Create the share link, or change the existing one", tags=["sharing"], auth=True,
         body=schemas.ShareInputSchema, responses={201: ("Created", schemas.ShareSettingsSchema),
                                                   200: ("Existing share changed", schemas.ShareSettingsSchema)})
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
@login_required
@api_doc("Comments left on the shared resume, newest first", tags=["sharing"], auth=True,
         responses={200: ("Comments", schemas.CommentSchema(many=True))})
def list_comments(resume_id: str):
    return ok(schemas.CommentSchema(many=True).dump(shares.list_comments(current_user, resume_id)))


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
    return ok(schemas.CommentSchema().dump(comment), status=201, message="Comment added.")
