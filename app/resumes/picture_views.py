"""The pictures of a person's own resume: every template drawn with it (the editor's template picker)
and its first page (the dashboard), ``app.resumes.template_previews``. HTTP only."""
from __future__ import annotations

from flask import Blueprint, Response, request
from flask_login import current_user, login_required

from app.common.connections import writes_nothing
from app.common.http import ok
from app.common.openapi import api_doc
from app.resumes import previews, template_previews

bp = Blueprint("resume_pictures", __name__, url_prefix="/api")


def _png(png: bytes, current: bool) -> Response:
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = previews.IMAGE_CACHE_CONTROL if current else "private, no-store"
    return response


@bp.get("/resumes/<resume_id>/template-previews")
@writes_nothing
@login_required
@api_doc(f"Page 1 of the resume in every template (the template picker), drawn now where not drawn yet: "
         f"image addresses of PNGs {template_previews.WIDTH} px wide, in GET /api/templates' order. 503 when "
         f"the preview drawers are busy, as for GET /preview", tags=["export"], auth=True,
         query=previews.PreviewQuerySchema,
         responses={200: ("One per template", template_previews.TemplatePreviewSchema(many=True))})
def list_template_previews(resume_id: str):
    options = previews.PreviewQuerySchema().load(request.args.to_dict())
    drawn = template_previews.template_previews(current_user, resume_id, options)
    return ok(template_previews.TemplatePreviewSchema(many=True).dump(drawn))


@bp.get("/resumes/<resume_id>/template-previews/<template_id>.png")
@writes_nothing
@login_required
@api_doc(f"Page 1 of the resume in one template, a PNG {template_previews.WIDTH} px wide (cached for good "
         f"when v is the current version; drawn now when it was not); 422 PREVIEW_TOO_HEAVY as for the preview",
         tags=["export"], auth=True, envelope=False, query=previews.PreviewImageQuerySchema,
         responses={200: ("The page (image/png)", None)})
def template_preview_image(resume_id: str, template_id: str):
    query = previews.PreviewImageQuerySchema().load(request.args.to_dict())
    version = query.pop("v")
    return _png(*template_previews.template_image(current_user, resume_id, template_id, query, version))


@bp.get("/resumes/<resume_id>/first-page.png")
@writes_nothing
@login_required
@api_doc(f"Page 1 of the resume's current version in its own template with the export's default options, "
         f"a PNG {template_previews.WIDTH} px wide (the dashboard's picture; cached for good when v is its "
         f"updatedAt)", tags=["export"], auth=True, envelope=False, query=template_previews.FirstPageQuerySchema,
         responses={200: ("The page (image/png)", None)})
def first_page_image(resume_id: str):
    query = template_previews.FirstPageQuerySchema().load(request.args.to_dict())
    return _png(*template_previews.first_page(current_user, resume_id, query["v"]))
