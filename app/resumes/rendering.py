"""Render a resume through its template: the one source of the share page and exports.

Template text is data (rows of the templates table, seeded from
``migrations/seed/templates_v1/``), so it runs in an immutable sandboxed Jinja
environment with autoescaping, no app globals and undefined names rendering
empty. A template is an HTML fragment (the document body); ``render_document``
wraps it in a self-contained HTML5 document with the CSS in a ``<style>``.

What a template sees:
- ``content``: the normalised ``contentJson`` (every key present, strings and
  lists of strings, never None); ``visible``: a boolean per section;
  ``title``: the resume title.
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
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from jinja2 import ChainableUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import escape

SECTIONS = ("personalInfo", "workExperience", "education", "skills", "projects")
PERSONAL_FIELDS = ("name", "email", "phone", "address", "summary")
WORK_FIELDS = ("company", "position", "startDate", "endDate", "description")
EDUCATION_FIELDS = ("school", "degree", "startDate", "endDate")
PROJECT_FIELDS = ("id", "name", "description", "url", "startDate", "endDate")
PROJECT_LISTS = ("technologies", "highlights")

SEED_DIR = Path(__file__).resolve().parents[2] / "migrations" / "seed" / "templates_v1"

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_YEAR_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
_COLOUR = re.compile(
    r"^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}"
    r"|(rgb|rgba|hsl|hsla)\(\s*[0-9.%,\s]+\)|[a-zA-Z]{3,20})$"
)
_WEB_URL = re.compile(r"^https?://[^\s\"'<>`]+$", re.IGNORECASE)


class TemplateRenderError(Exception):
    """A template could not be compiled or rendered, or its inputs were invalid."""


def month(value: Any) -> str:
    """``"2021-03"`` → ``"Mar 2021"``; anything else is shown as given."""
    text = _text(value)
    match = _YEAR_MONTH.match(text)
    if not match:
        return text
    return f"{_MONTHS[int(match.group(2)) - 1]} {match.group(1)}"


def period(start: Any, end: Any) -> str:
    """A date range; an empty end means the entry is current ("Present")."""
    start, end = month(start), month(end)
    if start:
        return f"{start} – {end or 'Present'}"
    return end


def lines(value: Any) -> list[str]:
    return [line.strip() for line in _text(value).splitlines() if line.strip()]


def web_url(value: Any) -> str:
    """The URL if it is an absolute http(s) address; other schemes must not become links."""
    text = _text(value).strip()
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
    env.globals = {"range": env.globals["range"], "period": period}
    env.filters.update(month=month, lines=lines, web_url=web_url)
    return env


_ENV = _make_environment()


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _strings(value: Any) -> list[str]:
    if not isinstance(value, (list, tuple)):
        return []
    return [s for s in (_text(v).strip() for v in value if v is not None) if s]


def _entries(value: Any, fields: tuple[str, ...], lists: tuple[str, ...] = ()) -> list[dict]:
    if not isinstance(value, (list, tuple)):
        return []
    entries = []
    for item in value:
        if not isinstance(item, dict):
            continue
        entry = {field: _text(item.get(field)).strip() for field in fields}
        entry.update({field: _strings(item.get(field)) for field in lists})
        entries.append(entry)
    return entries


def normalise_content(content: dict | None) -> dict:
    """Every section present with the contract's shape, whatever was stored."""
    content = content if isinstance(content, dict) else {}
    personal = content.get("personalInfo")
    personal = personal if isinstance(personal, dict) else {}
    return {
        "personalInfo": {f: _text(personal.get(f)).strip() for f in PERSONAL_FIELDS},
        "workExperience": _entries(content.get("workExperience"), WORK_FIELDS),
        "education": _entries(content.get("education"), EDUCATION_FIELDS),
        "skills": _strings(content.get("skills")),
        "projects": _entries(content.get("projects"), PROJECT_FIELDS, PROJECT_LISTS),
    }


def normalise_visibility(visible: dict | None) -> dict:
    """A boolean per section; a missing one is shown (the contract's default)."""
    visible = visible if isinstance(visible, dict) else {}
    return {section: bool(visible.get(section, True)) for section in SECTIONS}


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


def render_body(*, html_template: str, title: str, content: dict | None,
                visible: dict | None) -> str:
    """The template's body fragment; raises TemplateRenderError."""
    try:
        template = _ENV.from_string(html_template)
        return template.render(
            title=_text(title),
            content=normalise_content(content),
            visible=normalise_visibility(visible),
        )
    except TemplateError as exc:  # syntax, undefined, and sandbox SecurityError
        raise TemplateRenderError(f"template error: {exc}") from exc
    except Exception as exc:  # a template can still trip a TypeError, ZeroDivisionError...
        raise TemplateRenderError(f"template failed: {type(exc).__name__}: {exc}") from exc


def render_document(*, html_template: str, css: str, title: str, content: dict | None,
                    visible: dict | None, accent: str | None = None) -> str:
    """A complete, self-contained HTML5 document of the resume.

    Raises TemplateRenderError for a broken template or an invalid accent.
    """
    body = render_body(html_template=html_template, title=title,
                       content=content, visible=visible)
    styles = _text(css)
    if accent:
        styles += accent_css(accent)
    # CSS is not escaped inside <style>; keep it from closing the element early.
    styles = styles.replace("</", "<\\/")
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(_text(title))}</title>\n"
        f"<style>\n{styles}\n</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
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
