"""The editor's preview: the pages of the very PDF an export produces, as PNG images.

``preview(user, resume_id, options)`` renders the resume's PDF as the export job does
(``jobs.render_export``: the same source, the same photo fetch, the same ``documents.render``), so
what the editor shows is what ``POST /export`` stores, page breaks included. PDFium (pypdfium2)
draws each page ``WIDTH`` pixels wide, on demand, when the browser asks for its image.

Why in the request and not on the ``exports`` queue: a person waits for the preview after every
save, and the goal is 400 ms from the save's answer to the images on screen. The queue's single
export lane would put each preview behind the exports people are waiting for (and those behind a
burst of previews), and the hop through Redis adds its own wait. A preview renders only what the
owner saved (content at most 256 KiB), once per version: entries are cached by (resume id,
``updatedAt``, template, options, photo address), so the images of one version cost one render
however often they are fetched, and nothing is stored or counted against the plan's storage.
Renders run in child processes (``documents.renderers``: ``PREVIEW_PROCESSES`` of them per web
process, xhtml2pdf imported once in each), so that one user's heavy document holds neither the web
process (its GIL) nor another user's preview:

- a render is bounded: past ``PREVIEW_TIMEOUT`` seconds its child is killed and the request answers
  422 ``PREVIEW_TOO_HEAVY``; that version is remembered as too heavy for ``TOO_HEAVY_FOR`` seconds,
  so asking again (other options, a reload) costs nothing. Unless the render had less than
  ``BUSY_SHARE`` of that time on a CPU: then the machine was too busy to tell, and the answer is 503
  ``SERVICE_UNAVAILABLE`` with Retry-After, remembering nothing;
- each user renders one preview at a time (``_turn``): a user's other requests wait for their own
  render, never take a second child, so another user always finds one free unless more users than
  children render at once. A request that waits longer than ``PREVIEW_TIMEOUT`` for its turn or a
  child answers 503 ``SERVICE_UNAVAILABLE`` with Retry-After;
- concurrent requests for the same version wait for its one render instead of repeating it.

PDFium draws the page images in this process (``documents.rasteriser``, under its ``PDFIUM_LOCK``: it may
only be used from one thread at a time): one page at a time, about 20 ms each. It reads each page's text
there too, once per version (a few ms a page): ``pages[].text``, the images' text alternative, which the
editor offers as "The preview as text" (docs/accessibility.md).

An image's address carries the options and ``v``, the version's hash, so the browser may keep it
for good; an address of a version that is no longer current is answered with the current pages
(not cached), so an old tab never shows an error for an image.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlencode

from flask import current_app
from marshmallow import fields, validate

from app import documents
from app.documents import rasteriser, renderers
from app.documents.fonts import cuts
from app.common.schemas import InputSchema, OutputSchema, Timestamp
from app.common.wording import said
from app.errors import ApiError
from app.extensions import db
from app.pictures.cache import LRU
from app.queue import JobFailed
from app.resumes import exports
from app.resumes.service import get_owned_resume
from app.resumes.schemas import UNDRAWN, UndrawnCharacterSchema
from app.users.models import User

log = logging.getLogger(__name__)

WIDTH = 800          # pixels: a page image, sharp at 400 CSS pixels on a 2x screen
CACHE_SIZE = 24      # versions (a PDF and its page images, ~200 KB for two pages)
IMAGE_CACHE_CONTROL = "private, max-age=86400, immutable"  # the address names the version

TOO_HEAVY_FOR = 600  # seconds a version that took too long is answered PREVIEW_TOO_HEAVY without a render
BUSY_SHARE = 0.2  # a render stopped with less CPU than this share of PREVIEW_TIMEOUT was starved: 503, not 422

_cache = LRU(CACHE_SIZE)
_too_heavy = LRU(256)  # version -> when its render was stopped (time.monotonic())
_turns: dict[str, list] = {}  # user id -> [its lock, requests holding or waiting for it]
_turns_lock = threading.Lock()
_renderers: renderers.Renderers | None = None
_renderers_lock = threading.Lock()


class PreviewQuerySchema(InputSchema):
    """The export options, as a query string (``POST /export`` takes the same in its body)."""

    pageSize = fields.String(validate=validate.OneOf(documents.PAGE_SIZES), load_default="A4")
    margin = fields.String(validate=validate.OneOf(documents.MARGINS), load_default="normal")
    colorScheme = fields.String(validate=validate.OneOf(documents.COLOR_SCHEMES), load_default="default")
    includePhoto = fields.Boolean(load_default=False, truthy={"true", "1"}, falsy={"false", "0"},
                                  metadata={"description": "place the account's avatar, as the export does"})


class PreviewImageQuerySchema(PreviewQuerySchema):
    v = fields.String(validate=validate.Length(max=64), load_default="",
                      metadata={"description": "the version the address was given for (cache busting)"})


class PreviewPageSchema(OutputSchema):
    number = fields.Integer(required=True)
    url = fields.String(required=True, metadata={"description": "a path: the page as a PNG"})
    width = fields.Integer(required=True, metadata={"description": "pixels"})
    height = fields.Integer(required=True, metadata={"description": "pixels"})
    text = fields.String(required=True, metadata={
        "description": "the page's text as the PDF holds it, in reading order: the image's text alternative"})


class PreviewSchema(OutputSchema):
    pageCount = fields.Integer(required=True, attribute="page_count")
    version = fields.String(required=True)
    updatedAt = Timestamp(required=True, attribute="updated_at")
    pages = fields.List(fields.Nested(PreviewPageSchema), required=True)
    undrawnCharacters = fields.List(fields.Nested(UndrawnCharacterSchema), required=True, attribute="undrawn",
                                    metadata={"description": UNDRAWN})


@dataclass
class Preview:
    resume_id: str
    version: str
    updated_at: object
    options: dict
    pdf: bytes
    sizes: list[tuple[int, int]]          # each page's image size in pixels
    texts: list[str] = field(default_factory=list)  # each page's text (PDFium's), for screen readers
    images: dict[int, bytes] = field(default_factory=dict)
    undrawn: list[dict] = field(default_factory=list)  # documents.undrawn: printed as boxes

    @property
    def page_count(self) -> int:
        return len(self.sizes)

    @property
    def pages(self) -> list[dict]:
        query = urlencode({**_query_options(self.options), "v": self.version})
        return [{"number": n, "url": f"/api/resumes/{self.resume_id}/preview/{n}.png?{query}",
                 "width": w, "height": h, "text": self.texts[n - 1] if n <= len(self.texts) else ""}
                for n, (w, h) in enumerate(self.sizes, start=1)]


def preview(user: User, resume_id: str, options: dict) -> Preview:
    """The current version of the user's resume as the export renders it with ``options``.

    Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, EXPORT_FAILED (the export would fail the same way).
    """
    resume = get_owned_resume(user, resume_id)
    avatar = user.avatar if options["includePhoto"] else None
    version = version_of(resume, options, avatar)
    cached = _cache.get(version)
    if cached is not None:
        return cached
    timeout = current_app.config["PREVIEW_TIMEOUT"]
    _refuse_if_too_heavy(version, timeout)
    updated_at = resume.updated_at
    source, photo = _source_of(resume_id, avatar)
    db.session.rollback()  # nothing held while it renders
    with _turn(user.id, timeout):
        cached = _cache.get(version)  # rendered while this request waited for its turn
        if cached is None:
            _refuse_if_too_heavy(version, timeout)
            pdf, sizes, undrawn = _render_pdf(resume_id, version, source, options, photo, timeout)
            texts = rasteriser.page_texts(pdf)
            cached = Preview(resume_id=resume_id, version=version, updated_at=updated_at, options=dict(options),
                             pdf=pdf, sizes=sizes, texts=texts, undrawn=undrawn)
            _cache.put(version, cached)
    return cached


def version_of(resume, options: dict, avatar: str | None) -> str:
    """The hash naming the preview of the resume's current version with ``options``."""
    template = resume.template
    key = "|".join([resume.id, resume.updated_at.isoformat(), template.id,
                    hashlib.sha256(f"{len(template.html_template)}:{template.html_template}{template.css_styles}"
                                   .encode()).hexdigest(),
                    *(f"{name}={options[name]}" for name in sorted(options)), avatar or ""])
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def cached_preview(version: str) -> Preview | None:
    """The preview named ``version`` when this process has it (the template picker reuses its PDF)."""
    return _cache.get(version)


def page_image(user: User, resume_id: str, number: int, options: dict, version: str) -> tuple[bytes, bool]:
    """Page ``number`` of the current preview as a PNG, and whether it is of ``version``.

    Raises as ``preview`` and NOT_FOUND (``details.page``) past the last page.
    """
    current = preview(user, resume_id, options)
    if not 1 <= number <= current.page_count:
        raise ApiError("NOT_FOUND", "This page does not exist.", {"page": number})
    png = current.images.get(number)
    if png is None:
        width, height = current.sizes[number - 1]
        with rasteriser.PDFIUM_LOCK:  # drawn by a request that held it while this one waited: not again
            png = current.images.get(number) or rasteriser.pages_as_png(current.pdf, width, first=number - 1,
                                                                        height=height)[0]
        current.images[number] = png
    return png, current.version == version


def clear_cache() -> None:
    _cache.clear()
    _too_heavy.clear()


def _source_of(resume_id: str, avatar: str | None) -> tuple[documents.Source, documents.Photo | None]:
    """What the export job would render (``jobs.render_export``), read in this request."""
    try:
        source, _ = exports.export_source(resume_id)
    except LookupError:  # deleted since it was read
        raise ApiError("RESUME_NOT_FOUND", "This resume does not exist or was deleted.",
                       {"resumeId": resume_id}) from None
    return source, exports.fetch_photo(avatar) if avatar else None


@contextmanager
def _turn(user_id: str, wait: float):
    """Hold the user's one render at a time, waiting at most ``wait`` seconds for it."""
    with _turns_lock:
        turn = _turns.setdefault(user_id, [threading.Lock(), 0])
        turn[1] += 1
    try:
        if not turn[0].acquire(timeout=wait):
            raise _busy("Your other previews are still being drawn; this one will be drawn when they are done.")
        try:
            yield
        finally:
            turn[0].release()
    finally:
        with _turns_lock:
            turn[1] -= 1
            if not turn[1]:
                del _turns[user_id]


def others_waiting(user_id: str) -> bool:
    """Whether another request of the user waits for the turn its caller holds (a batch gives way)."""
    with _turns_lock:
        turn = _turns.get(user_id)
        return turn is not None and turn[1] > 1


def _renderers_of_this_process() -> renderers.Renderers:
    global _renderers
    with _renderers_lock:
        if _renderers is None:
            _renderers = renderers.Renderers(current_app.config["PREVIEW_PROCESSES"])
        return _renderers


def _render_pdf(resume_id: str, version: str, source: documents.Source, options: dict,
                photo: documents.Photo | None, timeout: float) -> tuple[bytes, list[tuple[int, int]], list[dict]]:
    """The PDF, each page's image size and the characters it prints as boxes; raises PREVIEW_TOO_HEAVY,
    SERVICE_UNAVAILABLE, EXPORT_FAILED."""
    page = documents.Options(page_size=options["pageSize"], margin=options["margin"],
                             color_scheme=options["colorScheme"])
    try:
        rendered = _renderers_of_this_process().render(source, page, photo, font_dir=str(cuts.font_dir()),
                                                       timeout=timeout, wait=timeout)
    except renderers.TooSlow as exc:
        if exc.cpu is not None and exc.cpu < BUSY_SHARE * timeout:  # the machine was busy, not the document
            log.warning("preview of resume %s stopped after %s s with %.1f s of CPU: busy", resume_id, timeout,
                        exc.cpu)
            raise _busy("The server is busy; the preview will be drawn again in a moment.") from None
        log.warning("preview of resume %s stopped after %s s", resume_id, timeout)
        _too_heavy.put(version, time.monotonic())
        raise _too_heavy_error(timeout) from None
    except renderers.Busy:
        raise _busy("Every preview drawer is busy right now; try again in a moment.") from None
    except documents.DocumentError as exc:  # the export job would fail the same way: say so, log why
        log.error("preview of resume %s failed (%s): %s", resume_id, exc.reason, exc)
        failure = JobFailed(str(exc), "failed", f"{exports.REASON}{exc.reason}: {exc}")
        raise ApiError("EXPORT_FAILED", "The preview could not be drawn, and an export would fail too: %(reason)s",
                       values={"reason": said(*exports.failure_message(failure, "pdf", timeout))}) from None
    return (rendered.data, [(WIDTH, round(height * WIDTH / width)) for width, height in rendered.pages],
            rendered.undrawn)


def _refuse_if_too_heavy(version: str, timeout: float) -> None:
    stopped = _too_heavy.get(version)
    if stopped is not None and time.monotonic() - stopped < TOO_HEAVY_FOR:
        raise _too_heavy_error(timeout)


def _too_heavy_error(timeout: float) -> ApiError:
    return ApiError("PREVIEW_TOO_HEAVY", "This resume takes longer than %(seconds)s seconds to draw, so it "
                                         "cannot be previewed. Very long words or entries are the usual cause: "
                                         "shorten them and it will be drawn again.", {"seconds": timeout},
                    values={"seconds": f"{timeout:g}"})


def _busy(message: str) -> ApiError:
    return ApiError("SERVICE_UNAVAILABLE", message, headers={"Retry-After": "5"})


def _query_options(options: dict) -> dict:
    return {**options, "includePhoto": "true" if options["includePhoto"] else "false"}
