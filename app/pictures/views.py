"""The pictures' HTTP routes: the editor's preview (``previews``), every template drawn with the person's
resume and its first page (``template_previews``), the templates' thumbnails (``thumbnails``) and the
pages of an imported PDF (kept by ``app.resumes.imports``). Each keeps the operationId it had when it
lived with the resumes' routes (``operation``)."""
from __future__ import annotations

from flask import Blueprint, Response, request
from flask_login import current_user, login_required

from app.common.connections import writes_nothing
from app.common.http import ok
from app.common.openapi import api_doc
from app.pictures import previews, template_previews, thumbnails
from app.resumes import imports

bp = Blueprint("pictures", __name__, url_prefix="/api")


def _png(png: bytes, cache_control: str) -> Response:
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = cache_control
    return response


def _versioned(png: bytes, current: bool) -> Response:
    """A picture whose address names a version: kept for good while it is the current one's."""
    return _png(png, previews.IMAGE_CACHE_CONTROL if current else "private, no-store")


@bp.get("/templates/<template_id>/thumbnail")
@writes_nothing
@api_doc(f"A template's thumbnail: page 1 of its PDF with a sample resume, a PNG {thumbnails.WIDTH} px wide "
         "(public; ETag and If-None-Match)", tags=["templates"], envelope=False, operation="resumes.template_thumbnail",
         responses={200: ("The thumbnail (image/png)", None), 304: ("Not modified (the ETag matched)", None)})
def template_thumbnail(template_id: str):
    thumbnail = thumbnails.template_thumbnail(template_id)
    response = _png(thumbnail.png, thumbnails.CACHE_CONTROL)
    response.set_etag(thumbnail.etag)
    return response.make_conditional(request)


@bp.get("/resumes/<resume_id>/preview")
@writes_nothing
@login_required
@api_doc("Preview the resume: the pages of the PDF the export produces with these options, as image addresses",
         tags=["export"], auth=True, query=previews.PreviewQuerySchema, operation="resumes.preview_resume",
         responses={200: ("The pages", previews.PreviewSchema)})
def preview_resume(resume_id: str):
    options = previews.PreviewQuerySchema().load(request.args.to_dict())
    return ok(previews.PreviewSchema().dump(previews.preview(current_user, resume_id, options)))


@bp.get("/resumes/<resume_id>/preview/<int:page>.png")
@writes_nothing
@login_required
@api_doc(f"One page of the preview, a PNG {previews.WIDTH} px wide (cached for good when v is the current version)",
         tags=["export"], auth=True, envelope=False, query=previews.PreviewImageQuerySchema,
         operation="resumes.preview_page", responses={200: ("The page (image/png)", None)})
def preview_page(resume_id: str, page: int):
    query = previews.PreviewImageQuerySchema().load(request.args.to_dict())
    version = query.pop("v")
    return _versioned(*previews.page_image(current_user, resume_id, page, query, version))


@bp.get("/resumes/<resume_id>/template-previews")
@writes_nothing
@login_required
@api_doc(f"Page 1 of the resume in every template (the template picker), drawn now where not drawn yet: "
         f"image addresses of PNGs {template_previews.WIDTH} px wide, in GET /api/templates' order. 503 when "
         f"the preview drawers are busy, as for GET /preview", tags=["export"], auth=True,
         query=previews.PreviewQuerySchema, operation="resume_pictures.list_template_previews",
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
         operation="resume_pictures.template_preview_image", responses={200: ("The page (image/png)", None)})
def template_preview_image(resume_id: str, template_id: str):
    query = previews.PreviewImageQuerySchema().load(request.args.to_dict())
    version = query.pop("v")
    return _versioned(*template_previews.template_image(current_user, resume_id, template_id, query, version))


@bp.get("/resumes/<resume_id>/first-page.png")
@writes_nothing
@login_required
@api_doc(f"Page 1 of the resume's current version in its own template with the export's default options, "
         f"a PNG {template_previews.WIDTH} px wide (the dashboard's picture; cached for good when v is its "
         f"updatedAt)", tags=["export"], auth=True, envelope=False, query=template_previews.FirstPageQuerySchema,
         operation="resume_pictures.first_page_image", responses={200: ("The page (image/png)", None)})
def first_page_image(resume_id: str):
    query = template_previews.FirstPageQuerySchema().load(request.args.to_dict())
    return _versioned(*template_previews.first_page(current_user, resume_id, query["v"]))


@bp.get("/resumes/<resume_id>/import-report/pages/<int:number>")
@writes_nothing
@login_required
@api_doc("A page of the imported PDF as a PNG picture 640 px wide (1 is the first)", tags=["resumes"], auth=True,
         envelope=False, operation="resumes.get_import_page", responses={200: ("The page (image/png)", None)})
def get_import_page(resume_id: str, number: int):
    return _png(imports.import_page(current_user, resume_id, number), "private, max-age=3600")
