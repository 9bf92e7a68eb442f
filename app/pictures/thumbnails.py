"""Template thumbnails: page 1 of a template's own PDF, filled with a sample resume, as a small PNG.

A template picker shows what a template prints, so the picture is drawn by the
export pipeline itself: ``documents.render("pdf", ...)`` with ``SAMPLE`` (a
realistic one-page English resume, every section filled, no photo) on A4 with
normal margins and the template's own accent, then page 1 rasterized by PDFium
(pypdfium2) at twice ``WIDTH`` and scaled down (text stays legible at picker
size) to a PNG ``WIDTH`` pixels wide.

Why in the request and not on the ``exports`` queue like exports: a thumbnail
depends only on the template's text, never on user input, so each template
costs one render (0.3 s measured; the process's first also imports xhtml2pdf,
about 1 s) per process and per version of its HTML and CSS; every other
request is a cache hit (3-5 ms, like a 304). An export renders user content
on every request, which is what the queue's worker isolates and throttles.
Renders here are serialised by one lock: PDFium may only be called from one
thread at a time, and a burst of requests for a cold template (a picker
opening right after a deploy) renders it once while the others wait for that
render instead of repeating it. Anonymous callers cannot make it render more:
unknown ids cost one indexed read, and known ones are cached.

Cache: an in-process LRU of ``CACHE_SIZE`` entries keyed by (template id, a
SHA-256 of its HTML and CSS), so an edited template is drawn afresh without any
invalidation. The ETag is a hash of the PNG bytes rather than of the template:
the picture also changes when the renderer does (fonts, line breaking), and a
hash of the template alone would then keep answering 304 with a stale picture.
Renders are deterministic (the same PNG bytes in every process), so all
workers of a deployment agree on the ETag.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from sqlalchemy import select

from app import documents
from app.documents import rasteriser
from app.documents.rasteriser import PDFIUM_LOCK
from app.common.models import plausible_id
from app.errors import ApiError
from app.extensions import db
from app.pictures.cache import LRU
from app.resumes.models import Template

log = logging.getLogger(__name__)

WIDTH = 300          # pixels: a picker's card; the height follows the page (A4: 424)
SUPERSAMPLE = 2      # rasterize at this multiple of WIDTH, then scale down
CACHE_SIZE = 32      # entries (a PNG is ~20 KB): every template with room for edited versions
CACHE_CONTROL = "public, max-age=86400"  # a day; then revalidated with the ETag

SAMPLE_TITLE = "Senior Backend Engineer"
SAMPLE = {
    "personalInfo": {
        "name": "Jordan Ellis",
        "email": "jordan.ellis@example.com",
        "phone": "+1 415 555 0142",
        "address": "San Francisco, CA",
        "summary": "Backend engineer with eight years of experience building payment and data platforms. "
                   "Enjoys turning slow, fragile systems into fast, observable ones, and mentoring engineers "
                   "along the way.",
    },
    "workExperience": [
        {"company": "Northwind Payments", "position": "Senior Backend Engineer", "startDate": "2021-04",
         "endDate": "",
         "description": "Led the rewrite of the settlement service, cutting nightly batch time from 3 hours "
                        "to 20 minutes.\nDesigned an idempotent payouts API handling 2 million requests a day."
                        "\nMentored four engineers through their first on-call rotations."},
        {"company": "Brightline Analytics", "position": "Software Engineer", "startDate": "2018-02",
         "endDate": "2021-03",
         "description": "Built the event ingestion pipeline on Kafka and PostgreSQL for 40 customer "
                        "dashboards.\nIntroduced contract tests that halved production incidents."},
        {"company": "Cobalt Labs", "position": "Junior Developer", "startDate": "2016-07", "endDate": "2018-01",
         "description": "Maintained the customer portal and automated its release process."},
    ],
    "education": [
        {"school": "University of Washington", "degree": "B.S. Computer Science", "startDate": "2012-09",
         "endDate": "2016-06"},
    ],
    "skills": ["Python", "Go", "PostgreSQL", "Kafka", "Kubernetes", "Terraform", "AWS"],
    "projects": [
        {"id": "sample", "name": "ledgerlite", "description": "An open-source double-entry ledger library.",
         "technologies": ["Python", "SQLite"], "url": "https://github.com/example/ledgerlite",
         "startDate": "2020-01", "endDate": "2021-06", "highlights": ["1,200 stars on GitHub"]},
    ],
}


@dataclass(frozen=True)
class Thumbnail:
    png: bytes
    etag: str  # unquoted; a hash of ``png``


_cache = LRU(CACHE_SIZE)


def template_thumbnail(template_id: str) -> Thumbnail:
    """The template's thumbnail, from the cache or rendered now.

    Raises NOT_FOUND (``details.templateId``) for an unknown template, INTERNAL_ERROR when the
    template cannot be rendered (the reason goes to the log).
    """
    row = None
    if plausible_id(template_id):
        row = db.session.execute(select(Template.html_template, Template.css_styles)
                                 .where(Template.id == template_id)).one_or_none()
    if row is None:
        raise ApiError("NOT_FOUND", "This template does not exist.", {"templateId": template_id})
    html, css = row
    key = (template_id, hashlib.sha256(f"{len(html)}:{html}{css}".encode()).hexdigest())
    thumbnail = _cache.get(key)
    if thumbnail is not None:
        return thumbnail
    db.session.rollback()  # nothing held while it renders
    with PDFIUM_LOCK:
        thumbnail = _cache.get(key)  # another request may have rendered it while this one waited
        if thumbnail is None:
            thumbnail = _render(template_id, html, css)
            _cache.put(key, thumbnail)
    return thumbnail


def clear_cache() -> None:
    _cache.clear()


def _render(template_id: str, html: str, css: str) -> Thumbnail:
    source = documents.Source(html_template=html, css=css, title=SAMPLE_TITLE, content=SAMPLE, visible={})
    try:
        pdf = documents.render("pdf", source, documents.Options())
    except documents.DocumentError as exc:
        log.error("thumbnail of template %s could not be rendered: %s", template_id, exc)
        raise ApiError("INTERNAL_ERROR", "This template's thumbnail could not be drawn.") from None
    png = rasteriser.pages_as_png(pdf, WIDTH, supersample=SUPERSAMPLE, exact=True)[0]
    return Thumbnail(png=png, etag=hashlib.sha256(png).hexdigest()[:32])
