"""Render a resume through its template: the one source of the share page and exports.

Template text is data (rows of the templates table, seeded and updated by the migrations from
``migrations/seed/templates_v*/``; ``SEED_DIR`` is the newest), so it
runs in an immutable sandboxed Jinja environment with autoescaping, no app
globals and undefined names rendering empty. Each distinct template text is
compiled once per process. A template is an HTML fragment (the document body); ``render_document``
wraps it in a self-contained HTML5 document with the CSS in a ``<style>``.

What a template sees:
- ``content``: the normalised ``contentJson`` (every key and field of issue
  15's model present, strings and lists of strings, never None; see
  ``app.content.normalise``); ``visible``: a boolean per section (``SECTIONS``);
  ``order``: the body sections in the order to show them (``section_order``);
  ``shown``: those of them to print: visible and with entries (``shown_sections``);
  a custom section's items are ``custom["items"]`` (``custom.items`` is the
  dict's method);
  ``title``: the resume title; ``photo``: the photo as a ``data:image/png`` or
  ``data:image/jpeg`` base64 URI, or "" for none (only such a URI is accepted,
  so a template's ``<img src="{{ photo }}">`` can never fetch anything).
- filters ``month`` ("2021-03" → "Mar 2021"), ``lines`` (non-blank lines of a
  text) and ``web_url`` (the URL if it is http(s), else "": only such URLs may
  become links); the function ``period(start, end)`` ("Mar 2021 – Present").

Accent colour: a template colours its accented elements only through the
classes ``accent-text`` (color), ``accent-bg`` (background-color) and
``accent-border`` (border-color), whose defaults its CSS sets in plain
single-class rules. ``accent="#2563eb"`` appends the same three rules with the
new colour after the template CSS, so they win by source order (and carry
``!important`` for good measure). The value is checked against a strict
pattern (hex, rgb()/hsl() or a plain colour name), since it lands in CSS.
``template_accent`` reads a template's own accent back from its CSS.

Page options: ``render_document(page_size="Letter", margin="wide")`` appends an
``@page`` rule (size keyword and one margin on every side, from ``PAGE_SIZES``
and ``MARGINS_MM``) after the template CSS and the accent rules. Browsers
cascade ``@page`` descriptors, so the later ones win. xhtml2pdf does not
cascade them: each ``@page`` rule builds a whole page template, and a later one
for the same page replaces the earlier one (it logs "template 'body' has
already been defined"), so the appended rule wins there too but also drops
whatever else the template's ``@page`` said. That is why it always carries both
descriptors (the one not given takes its default) and why templates keep their
``@page`` to size and margin. The exports' tests check the result in the PDF
media box.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChainableUndefined, TemplateError, pass_context
from jinja2.filters import do_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import escape

from app.content import language
from app.content.normalise import normalise_content, normalise_visibility, shown_sections, text_value
from app.documents import words
from app.documents.options import (  # noqa: F401  (PAGE_SIZES_MM: the renderers read it here)
    ACCENTS, MARGINS_MM, PAGE_KEYWORDS, PAGE_SIZES_MM, DocumentError, Options, Photo, Source,
)

SEED_DIR = Path(__file__).resolve().parents[2] / "migrations" / "seed" / "templates_v6"

PAGE_SIZES = PAGE_KEYWORDS   # the CSS keyword of each page size
DEFAULT_PAGE_SIZE = "A4"
DEFAULT_MARGIN = "normal"

_COLOUR = re.compile(
    r"^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}"
    r"|(rgb|rgba|hsl|hsla)\(\s*[0-9.%,\s]+\)|[a-zA-Z]{3,20})$"
)
# The only photo a template may show: inline PNG or JPEG data, nothing to fetch.
PHOTO_URI = re.compile(r"^data:image/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$")
_WEB_URL = re.compile(r"^https?://[^\s\"'<>`]+$", re.IGNORECASE)
_ACCENT_RULE = re.compile(r"\.accent-text\s*\{\s*color\s*:\s*([^;}]+?)\s*;?\s*\}")


class TemplateRenderError(Exception):
    """A template could not be compiled or rendered, or its inputs were invalid."""


def month(value: Any, language: str | None = None) -> str:
    """``"2021-03"`` → ``"Mar 2021"`` (in ``language``: ``"2021年3月"``); anything else is shown as given."""
    return words.month(text_value(value), language)


def period(start: Any, end: Any, language: str | None = None) -> str:
    """A date range; an empty end means the entry is current ("Present", in ``language``)."""
    return words.period(text_value(start), text_value(end), language)


@pass_context
def _month(context, value: Any) -> str:
    return month(value, context.get("language"))


@pass_context
def _period(context, start: Any, end: Any) -> str:
    return period(start, end, context.get("language"))


@pass_context
def _section_title(context, key: Any, default: Any, default_language: Any = "en") -> str:
    """``section_title(key, "Experience")``: the section's heading as the resume prints it
    (``words.heading``); ``default`` is in ``default_language`` ("工作经历", "zh-Hans" in Jinghua)."""
    return words.heading(text_value(key), text_value(default), context.get("language"), context.get("titles"),
                         default_language=text_value(default_language))


@pass_context
def _word(context, text: Any) -> str:
    """``tr(" at ")``, ``tr("Courses:")``: a small word in the resume's language (``words.word``)."""
    return words.word(text_value(text), context.get("language"))


@pass_context
def _join(context, value: Any, separator: str = "", attribute: Any = None):
    """Jinja's ``join``, its separator written as the resume's language writes it (``words.separator``:
    ``join(", ")`` is ``"، "`` in an Arabic resume)."""
    return do_join(context.eval_ctx, value, words.separator(separator, context.get("language")), attribute)


def lines(value: Any) -> list[str]:
    return [line.strip() for line in text_value(value).splitlines() if line.strip()]


def web_url(value: Any) -> str:
    """The URL if it is an absolute http(s) address; other schemes must not become links."""
    text = text_value(value).strip()
    return text if _WEB_URL.match(text) else ""


def _make_environment() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(
        autoescape=True,
        undefined=ChainableUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # Only what templates need: no cycler/joiner/lipsum (their __init__ globals
    # are the classic sandbox-escape probe) and nothing from the app.
    env.globals = {"range": env.globals["range"], "period": _period, "section_title": _section_title, "tr": _word}
    env.filters.update(month=_month, lines=lines, web_url=web_url, join=_join)
    return env


_ENV = _make_environment()


@lru_cache(maxsize=64)
def _compile(html_template: str):
    """A template compiled once per process: compiling takes several times longer than rendering."""
    return _ENV.from_string(html_template)


def accent_css(accent: str) -> str:
    """The rules that recolour a template's accented elements."""
    accent = accent.strip()
    if not _COLOUR.match(accent):
        raise TemplateRenderError(f"invalid accent colour: {accent!r}")
    return (
        "\n/* accent override */\n"
        f".accent-text {{ color: {accent} !important; }}\n"
        f".accent-bg {{ background-color: {accent} !important; }}\n"
        f".accent-border {{ border-color: {accent} !important; }}\n"
    )


def template_accent(css: str) -> str | None:
    """The colour of the template's own ``.accent-text`` rule, if it is a plain colour."""
    match = _ACCENT_RULE.search(text_value(css))
    if match and _COLOUR.match(match.group(1)):
        return match.group(1)
    return None


def page_css(page_size: str | None = None, margin: str | None = None) -> str:
    """The ``@page`` rule of the page options (see the module docstring for why both descriptors)."""
    page_size = page_size or DEFAULT_PAGE_SIZE
    margin = margin or DEFAULT_MARGIN
    if page_size not in PAGE_SIZES or margin not in MARGINS_MM:
        raise TemplateRenderError(f"invalid page options: {page_size!r}, {margin!r}")
    return (
        "\n/* page options */\n"
        f"@page {{ size: {PAGE_SIZES[page_size]}; margin: {MARGINS_MM[margin]}mm; }}\n"
    )


def _photo(photo: str | None) -> str:
    if not photo:
        return ""
    if not isinstance(photo, str) or not PHOTO_URI.match(photo):
        raise TemplateRenderError("the photo must be a base64 data:image/png or data:image/jpeg URI")
    return photo


def _printed(content: dict | None) -> dict:
    """The normalised content with the language it is printed in filled in (``language.of``: its
    own, else the one its text is in), so that the text is read for it once per document."""
    content = normalise_content(content)
    content["language"] = language.of(content)
    return content


def render_body(*, html_template: str, title: str, content: dict | None,
                visible: dict | None, photo: str | None = None) -> str:
    """The template's body fragment; raises TemplateRenderError (also for an invalid photo URI)."""
    photo = _photo(photo)
    content, visible = _printed(content), normalise_visibility(visible)
    try:
        return _compile(html_template).render(
            title=text_value(title),
            language=content["language"],
            direction="rtl" if content["language"] in language.RIGHT_TO_LEFT else "ltr",
            titles=content["sectionTitles"],
            content=content,
            visible=visible,
            order=content["sectionOrder"],
            shown=shown_sections(content, visible),
            photo=photo,
        )
    except TemplateError as exc:  # syntax, undefined, and sandbox SecurityError
        raise TemplateRenderError(f"template error: {exc}") from exc
    except Exception as exc:  # a template can still trip a TypeError, ZeroDivisionError...
        raise TemplateRenderError(f"template failed: {type(exc).__name__}: {exc}") from exc


def render_document(*, html_template: str, css: str, title: str, content: dict | None,
                    visible: dict | None, accent: str | None = None, photo: str | None = None,
                    page_size: str | None = None, margin: str | None = None) -> str:
    """A complete, self-contained HTML5 document of the resume.

    ``page_size`` / ``margin`` (keys of PAGE_SIZES / MARGINS_MM): when either is
    given, an ``@page`` rule with both follows the template CSS.
    Raises TemplateRenderError for a broken template, an invalid accent, photo
    or page option.
    """
    content = _printed(content)
    body = render_body(html_template=html_template, title=title,
                       content=content, visible=visible, photo=photo)
    styles = text_value(css)
    if accent:
        styles += accent_css(accent)
    if page_size or margin:
        styles += page_css(page_size, margin)
    # CSS is not escaped inside <style>; keep it from closing the element early.
    styles = styles.replace("</", "<\\/")
    tag = content["language"]
    direction = ' dir="rtl"' if tag in language.RIGHT_TO_LEFT else ""
    return (
        "<!doctype html>\n"
        f'<html lang="{tag}"{direction}>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(text_value(title))}</title>\n"
        f"<style>\n{styles}\n</style>\n"
        f"</head>\n<body{direction}>\n{body}\n</body>\n</html>\n"
    )


def load_seed_templates(seed_dir: Path = SEED_DIR) -> list[dict]:
    """The shipped templates from the manifest: id, name, category, tier,
    html_template and css_styles (the files' text)."""
    manifest = json.loads((seed_dir / "manifest.json").read_text(encoding="utf-8"))
    return [
        {
            "id": item["id"],
            "name": item["name"],
            "category": item["category"],
            "tier": item["tier"],
            "html_template": (seed_dir / item["html"]).read_text(encoding="utf-8"),
            "css_styles": (seed_dir / item["css"]).read_text(encoding="utf-8"),
        }
        for item in manifest
    ]


def html_document(source: Source, options: Options, photo: Photo | None) -> str:
    """The resume as the self-contained HTML document every other drawing of it starts from."""
    try:
        return render_document(
            html_template=source.html_template, css=source.css, title=source.title,
            content=source.content, visible=source.visible, accent=ACCENTS.get(options.color_scheme),
            photo=photo.data_uri() if photo else None,
            page_size=options.page_size, margin=options.margin,
        )
    except TemplateRenderError as exc:
        raise DocumentError(str(exc), reason="template") from exc
