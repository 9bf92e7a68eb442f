"""The template picker's pictures: page 1 of the person's own resume in every template, and the
dashboard's first page of each resume (issue 25 point 2).

``template_previews(user, resume_id, options)`` draws the current version of the resume in every
template, as the editor's preview (``previews``) draws it in its own: the export's source with the
other template's HTML and CSS, rendered whole in the preview's child processes
(``documents.renderers``), then page 1 rasterized by PDFium to a PNG ``WIDTH`` pixels wide (drawn
twice as large, then scaled down, so that the text stays legible at picker size). Only that PNG is
kept: entries are cached by (resume id, ``updatedAt``, template id and a hash of its HTML and CSS,
options, photo address), and their hash is the image address's ``v``, so the browser may keep an
image for good and a save (a new ``updatedAt``) gives every template a new address.
Page 1 in the resume's own template is taken from the editor's preview when this process holds that
version's PDF (``previews.cached_preview``): one render fewer.

Why a batch in one request, on two lanes: eight templates at 0.15-0.3 s each (a two-page resume,
measured) are 1.6 s one after the other, over the picker's goal of 1.5 s from opening to pictures.
A batch renders them on ``LANES`` children at once, and the user's images then are cache hits.
The fairness of the preview is kept (``previews``: each user renders one preview at a time, so
another user always finds a child):

- the batch holds the user's one turn (``previews._turn``), like a preview: the user's own other
  previews wait for it (the editor asks for the batch once its own preview is on screen);
- its first lane waits for a child as a preview does; its second lane takes a child only when one is
  free at once and nobody waits for one (``Renderers.waiting``), and stops taking children as soon as
  someone does. So another user waits at most for the one template render that lane has under way
  (0.15-0.3 s, bounded by ``PREVIEW_TIMEOUT``) before a child is theirs: that is the trade-off, one
  render's wait for another user in exchange for half the picker's time;
- its two lanes are one ``owner`` for ``Renderers``: they do not demote each other, only another
  user's render beside them does (the preview's rule);
- a batch gives way to the user's own requests: once another of them waits for the turn (the preview
  of a save made meanwhile), it starts no further render, so that preview waits for one template render
  at most, not for eight;
- a batch starts no render after ``PREVIEW_TIMEOUT`` seconds; what it did not draw (there, or when it
  gave way) is drawn when its image is asked for, one at a time under the turn;
- a template render that takes longer than ``PREVIEW_TIMEOUT`` is killed, and that version of the
  resume (with those options) is remembered as too heavy in every template for ``TOO_HEAVY_FOR``
  seconds: its images answer 422 ``PREVIEW_TOO_HEAVY`` without a render. A render stopped while the
  machine was too busy to tell answers 503 ``SERVICE_UNAVAILABLE`` with Retry-After, as a preview does.

``first_page(user, resume_id, version)`` is the dashboard's picture: the same entry for the resume's
own template with the default export options, one render under the user's turn, asked for lazily by
the dashboard (one image per resume).
"""
from __future__ import annotations

import dataclasses
import hashlib
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import current_app
from marshmallow import fields, validate

from app import documents
from app.common.models import plausible_id
from app.common.schemas import InputSchema, OutputSchema, format_timestamp
from app.documents import rasteriser, renderers, templating
from app.documents.fonts import cuts
from app.errors import ApiError
from app.extensions import db
from app.pictures import previews
from app.pictures.cache import LRU
from app.resumes import service
from app.resumes.models import Resume, Template
from app.users.models import User

log = logging.getLogger(__name__)

WIDTH = 240          # pixels: a picker card of 120 CSS pixels, sharp on a 2x screen
SUPERSAMPLE = 2      # drawn at this multiple of WIDTH, then scaled down
LANES = 2            # renders a batch runs at once at most (the second only while no one waits)
CACHE_SIZE = 512     # pictures (~15 KB each): eight templates of 64 versions
DEFAULT_OPTIONS = {"pageSize": "A4", "margin": "normal", "colorScheme": "default", "includePhoto": False}

_cache = LRU(CACHE_SIZE)     # entry key -> PNG bytes
_too_heavy = LRU(256)        # "resume|updatedAt|options" -> when a render of it was stopped


class TemplatePreviewSchema(OutputSchema):
    templateId = fields.String(required=True, attribute="template_id")
    url = fields.String(required=True, metadata={"description": "a path: page 1 in this template, as a PNG"})
    width = fields.Integer(required=True, metadata={"description": "pixels"})
    height = fields.Integer(required=True, metadata={"description": "pixels"})
    drawn = fields.Boolean(required=True, metadata={
        "description": "false when it was not drawn yet (asking for its image draws it) or cannot be"})


class FirstPageQuerySchema(InputSchema):
    v = fields.String(validate=validate.Length(max=64), load_default="", metadata={
        "description": "the resume's updatedAt the address was given for (cache busting)"})


@dataclass(frozen=True)
class _Job:
    key: str
    template_id: str
    source: documents.Source


def template_previews(user: User, resume_id: str, options: dict) -> list[dict]:
    """Page 1 of the resume's current version in every template (``service.list_templates``' order),
    drawn now where it is not cached. Raises as ``previews.preview``."""
    resume = service.get_owned_resume(user, resume_id)
    templates = service.list_templates()
    heavy = _heavy_key(resume, options)
    keys = {template.id: _key(resume, template, options, user) for template in templates}  # in order
    _reuse_the_preview(user, resume, options, keys.get(resume.template_id))
    missing = [(keys[template.id], template) for template in templates if _cache.get(keys[template.id]) is None]
    if missing and not _refused(heavy):
        _draw(user, resume_id, heavy, options, missing, alone=False)
    height, query = _height(options), previews._query_options(options)
    return [{"template_id": template_id, "width": WIDTH, "height": height,
             "url": _url(resume_id, template_id, {**query, "v": key}), "drawn": _cache.get(key) is not None}
            for template_id, key in keys.items()]


def template_image(user: User, resume_id: str, template_id: str, options: dict, version: str) -> tuple[bytes, bool]:
    """The PNG of page 1 in ``template_id``, and whether it is of ``version``.

    Raises as ``previews.preview`` and NOT_FOUND (``details.templateId``) for an unknown template."""
    resume = service.get_owned_resume(user, resume_id)
    template = db.session.get(Template, template_id) if plausible_id(template_id) else None
    if template is None:
        raise ApiError("NOT_FOUND", "This template does not exist.", {"templateId": template_id})
    return _one(user, resume, template, options, version)


def first_page(user: User, resume_id: str, version: str) -> tuple[bytes, bool]:
    """Page 1 of the resume's current version in its own template with the default options, and
    whether ``version`` is its ``updatedAt``. Raises as ``previews.preview``."""
    resume = service.get_owned_resume(user, resume_id)
    png, _ = _one(user, resume, resume.template, DEFAULT_OPTIONS, "")
    return png, version == format_timestamp(resume.updated_at)


def clear_cache() -> None:
    _cache.clear()
    _too_heavy.clear()


def _one(user: User, resume: Resume, template: Template, options: dict, version: str) -> tuple[bytes, bool]:
    key = _key(resume, template, options, user)
    if template.id == resume.template_id:
        _reuse_the_preview(user, resume, options, key)
    png = _cache.get(key)
    if png is None:
        heavy = _heavy_key(resume, options)
        if _refused(heavy):
            raise previews._too_heavy_error(current_app.config["PREVIEW_TIMEOUT"])
        _draw(user, resume.id, heavy, options, [(key, template)], alone=True)
        png = _cache.get(key)
        if png is None:  # the render failed; _draw said why in the log
            raise ApiError("EXPORT_FAILED", "The preview could not be drawn, and an export would fail too. "
                                            "Try again in a moment.")
    return png, key == version


def _reuse_the_preview(user: User, resume: Resume, options: dict, key: str | None) -> None:
    """Page 1 in the resume's own template from the editor's preview when it has this version: one
    render fewer."""
    if key is None or _cache.get(key) is not None:
        return
    shown = previews.cached_preview(previews.version_of(resume, options,
                                                        user.avatar if options["includePhoto"] else None))
    if shown is not None:
        _cache.put(key, rasteriser.pages_as_png(shown.pdf, WIDTH, height=_height(options),
                                                supersample=SUPERSAMPLE)[0])


def _key(resume: Resume, template: Template, options: dict, user: User) -> str:
    avatar = user.avatar if options["includePhoto"] else ""
    parts = [resume.id, resume.updated_at.isoformat(), template.id,
             hashlib.sha256(f"{len(template.html_template)}:{template.html_template}{template.css_styles}"
                            .encode()).hexdigest(),
             *(f"{name}={options[name]}" for name in sorted(options)), avatar or ""]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def _heavy_key(resume: Resume, options: dict) -> str:
    return "|".join([resume.id, resume.updated_at.isoformat(), *(f"{n}={options[n]}" for n in sorted(options))])


def _refused(heavy: str) -> bool:
    stopped = _too_heavy.get(heavy)
    return stopped is not None and time.monotonic() - stopped < previews.TOO_HEAVY_FOR


def _url(resume_id: str, template_id: str, query: dict) -> str:
    return f"/api/resumes/{resume_id}/template-previews/{template_id}.png?{urlencode(query)}"


def _height(options: dict) -> int:
    width, height = templating.PAGE_SIZES_MM[options["pageSize"]]
    return round(WIDTH * height / width)


def _draw(user: User, resume_id: str, heavy: str, options: dict, wanted: list[tuple[str, Template]],
          alone: bool) -> None:
    """Render ``wanted`` (key, template) under the user's turn, on up to ``LANES`` children (one when
    ``alone``: an image asked for by itself); keep each page 1 in the cache. Raises SERVICE_UNAVAILABLE
    when nothing could be drawn for a busy machine, and PREVIEW_TOO_HEAVY when ``alone``."""
    timeout = current_app.config["PREVIEW_TIMEOUT"]
    avatar = user.avatar if options["includePhoto"] else None
    jobs = [(key, template.id, template.html_template, template.css_styles) for key, template in wanted]
    source, photo = previews._source_of(resume_id, avatar)
    db.session.rollback()  # nothing held while it renders
    pool = previews._renderers_of_this_process()
    page = documents.Options(page_size=options["pageSize"], margin=options["margin"],
                             color_scheme=options["colorScheme"])
    with previews._turn(user.id, timeout):
        queue = deque(_Job(key, template_id, dataclasses.replace(source, html_template=html, css=css))
                      for key, template_id, html, css in jobs if _cache.get(key) is None)
        batch = _Batch(queue, pool, page, photo, timeout, str(cuts.font_dir()), owner=user.id,
                       height=_height(options))
        batch.run(single=alone)
    if batch.heavy:
        _too_heavy.put(heavy, time.monotonic())
        if alone:
            raise previews._too_heavy_error(timeout)
    if batch.busy is not None and all(_cache.get(key) is None for key, _ in wanted):
        raise previews._busy(batch.busy)


class _Batch:
    """The renders of one request: ``run`` drains ``queue`` on one lane that waits for a child and, unless
    ``single``, a second that only takes a free child nobody waits for."""

    def __init__(self, queue: deque, pool: renderers.Renderers, page: documents.Options,
                 photo: documents.Photo | None, timeout: float, font_dir: str, owner: str, height: int) -> None:
        self.queue, self.pool, self.page, self.photo, self.owner = queue, pool, page, photo, owner
        self.height = height  # of each picture, in pixels
        self.timeout, self.font_dir = timeout, font_dir
        self.deadline = time.monotonic() + timeout
        self.lock = threading.Lock()
        self.heavy = False
        self.busy: str | None = None  # why the batch stopped early, when the machine was busy

    def run(self, single: bool) -> None:
        second = None
        if not single and LANES > 1 and len(self.queue) > 1:
            second = threading.Thread(target=self.lane, args=(False,), name="template-previews", daemon=True)
            second.start()
        try:
            self.lane(True)
        finally:
            if second is not None:
                second.join()

    def lane(self, first: bool) -> None:
        while True:
            with self.lock:
                if (not self.queue or self.heavy or self.busy or time.monotonic() > self.deadline
                        or (not first and self.pool.waiting) or previews.others_waiting(self.owner)):
                    return
                job = self.queue.popleft()
            try:
                rendered = self.pool.render(job.source, self.page, self.photo, font_dir=self.font_dir,
                                            timeout=self.timeout, wait=self.timeout if first else 0,
                                            owner=self.owner)
            except renderers.Busy:
                with self.lock:
                    if first:
                        self.busy = "Every preview drawer is busy right now; try again in a moment."
                    else:  # the first lane draws it
                        self.queue.appendleft(job)
                return
            except renderers.TooSlow as exc:
                with self.lock:
                    if exc.cpu is not None and exc.cpu < previews.BUSY_SHARE * self.timeout:
                        self.busy = "The server is busy; the preview will be drawn again in a moment."
                    else:
                        log.warning("template preview (template %s) stopped after %s s", job.template_id,
                                    self.timeout)
                        self.heavy = True
                return
            except documents.DocumentError as exc:  # this template cannot draw it: its image says so
                log.error("template preview (template %s) failed: %s", job.template_id, exc)
                continue
            png = rasteriser.pages_as_png(rendered.data, WIDTH, height=self.height, supersample=SUPERSAMPLE)[0]
            _cache.put(job.key, png)
