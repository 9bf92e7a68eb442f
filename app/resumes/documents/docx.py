"""DOCX: python-docx lays the resume out as an editable Word document.

The layout is the content's, not the template's: the name as Title, each
section a Heading 1, each entry a Heading 2 with its dates below (formatted as
in the templates, by ``rendering.period``), descriptions and highlights as
List Bullet paragraphs, skills on one line. The template contributes its accent
colour (or the colour scheme's), given to the name and the headings' runs.

Every style used names Calibri for Latin text and Microsoft YaHei for East
Asian text (``w:eastAsia``; the theme attributes that would override it are
removed), so Word picks a Chinese font for Chinese text. Page size and margins
follow the options; the photo, if any, is an inline picture above the name.
"""
from __future__ import annotations

import io

from docx import Document
from docx.oxml.ns import qn
from docx.shared import Mm, Pt, RGBColor

from app.resumes import rendering
from app.resumes.documents import ACCENTS, DocumentError, Options, Photo, Source

LATIN_FONT = "Calibri"
EAST_ASIAN_FONT = "Microsoft YaHei"
FALLBACK_ACCENT = "#1f2937"
MUTED = RGBColor(0x4B, 0x55, 0x63)
PHOTO_WIDTH = Mm(30)
STYLES = ("Normal", "Title", "Heading 1", "Heading 2", "List Bullet")
SECTION_TITLES = {"workExperience": "Experience", "projects": "Projects",
                  "education": "Education", "skills": "Skills"}


def accent_rgb(source: Source, options: Options) -> RGBColor:
    """The scheme's accent, else the template's own if it is a hex colour, else a dark grey."""
    colour = ACCENTS.get(options.color_scheme) or rendering.template_accent(source.css) or FALLBACK_ACCENT
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    try:
        return RGBColor.from_string(colour[:6].upper())
    except ValueError:  # rgb(), hsl() or a colour name: not worth a colour parser here
        return RGBColor.from_string(FALLBACK_ACCENT.lstrip("#").upper())


def _set_fonts(style) -> None:
    """Name the Latin and East Asian fonts explicitly on a style (theme fonts would win otherwise)."""
    style.font.name = LATIN_FONT
    fonts = style.element.get_or_add_rPr().get_or_add_rFonts()
    for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
        fonts.attrib.pop(qn(attr), None)
    fonts.set(qn("w:eastAsia"), EAST_ASIAN_FONT)


def _setup(document, options: Options) -> None:
    section = document.sections[0]
    width, height = rendering.PAGE_SIZES_MM[options.page_size]
    section.page_width, section.page_height = Mm(width), Mm(height)
    margin = Mm(rendering.MARGINS_MM[options.margin])
    section.left_margin = section.right_margin = section.top_margin = section.bottom_margin = margin
    for name in STYLES:
        _set_fonts(document.styles[name])
    document.styles["Normal"].font.size = Pt(10.5)


class _Writer:
    """Adds the resume's parts to a document, in the accent colour where they are headings."""

    def __init__(self, document, accent: RGBColor) -> None:
        self.document = document
        self.accent = accent

    def heading(self, text: str, style: str) -> None:
        paragraph = self.document.add_paragraph(style=style)
        paragraph.add_run(text).font.color.rgb = self.accent

    def paragraph(self, text: str, *, muted: bool = False, italic: bool = False) -> None:
        run = self.document.add_paragraph().add_run(text)
        run.italic = italic or None
        if muted:
            run.font.color.rgb = MUTED

    def bullets(self, items: list[str]) -> None:
        for item in items:
            self.document.add_paragraph(item, style="List Bullet")

    def entry(self, title: str, period: str, *, place: str = "") -> None:
        """An entry's heading: what, where, then when."""
        self.heading(" — ".join(p for p in (title, place) if p) or period, "Heading 2")
        if period and (title or place):
            self.paragraph(period, muted=True, italic=True)


def _personal(writer: _Writer, personal: dict, title: str, photo: Photo | None) -> None:
    if photo:
        writer.document.add_picture(io.BytesIO(photo.data), width=PHOTO_WIDTH)
    writer.heading(personal["name"] or title, "Title")
    contacts = [personal[f] for f in ("email", "phone", "address") if personal[f]]
    if contacts:
        writer.paragraph(" | ".join(contacts), muted=True)
    summary = rendering.lines(personal["summary"])
    if summary:
        writer.heading("Profile", "Heading 1")
        for line in summary:
            writer.paragraph(line)


def _section(writer: _Writer, section: str, items: list) -> None:
    writer.heading(SECTION_TITLES[section], "Heading 1")
    if section == "skills":
        writer.paragraph(" · ".join(items))
        return
    for item in items:
        when = rendering.period(item["startDate"], item["endDate"])
        if section == "workExperience":
            writer.entry(item["position"], when, place=item["company"])
            writer.bullets(rendering.lines(item["description"]))
        elif section == "education":
            writer.entry(item["degree"], when, place=item["school"])
        else:
            writer.entry(item["name"], when)
            if item["url"]:
                writer.paragraph(item["url"], muted=True)
            for line in rendering.lines(item["description"]):
                writer.paragraph(line)
            writer.bullets(item["highlights"])
            if item["technologies"]:
                writer.paragraph("Technologies: " + ", ".join(item["technologies"]), muted=True)


def render_docx(source: Source, options: Options, photo: Photo | None) -> bytes:
    """The DOCX of the resume; raises DocumentError."""
    content = rendering.normalise_content(source.content)
    visible = rendering.normalise_visibility(source.visible)
    title = rendering.text_value(source.title)
    try:
        document = Document()
        _setup(document, options)
        document.core_properties.title = title
        writer = _Writer(document, accent_rgb(source, options))
        if visible["personalInfo"]:
            _personal(writer, content["personalInfo"], title, photo)
        for section in ("workExperience", "projects", "education", "skills"):
            if visible[section] and content[section]:
                _section(writer, section, content[section])
        out = io.BytesIO()
        document.save(out)
    except Exception as exc:  # python-docx, lxml or Pillow (the picture) failing on this input
        raise DocumentError(f"DOCX failed: {type(exc).__name__}: {exc}") from exc
    return out.getvalue()
