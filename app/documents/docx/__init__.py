"""DOCX: python-docx lays the resume out as an editable Word document in its template's design.

Each template gets a Word layout that echoes its HTML/PDF design
(``docx_profiles``: Horizon modern and stacked, Heritage classic serif and ruled,
Meridian two columns, Canvas a timeline with chips); a template without a design
of its own gets a clean single-column layout in its CSS's fonts and colours. The
content keeps Word's structure whatever the look: the name as Title, each section
title a Heading 1 (the template's titles, in the resume's ``sectionOrder``), each entry a Heading 2,
descriptions and highlights as paragraphs or List Bullet items, dates formatted as
in the templates (``templating.period``).

The styles are set from the profile: the Latin font is the first family of the
template's CSS that Word has (Arial for Horizon's Helvetica), the East Asian font
is named beside it (``w:eastAsia``; the theme attributes that would override
both are removed) and every CJK run names it again (``docx_fonts``). The accent,
the template's own or the colour scheme's, colours the name, the section titles
and the design's rules and chips. Page size and margins follow the options; the
photo, if any, is an inline picture where the design shows it.
"""
from __future__ import annotations

import io
from dataclasses import replace

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml.ns import qn
from docx.shared import Mm, Pt, RGBColor

from app.content import language, normalise
from app.documents import templating
from app.documents.docx import fonts, parts
from app.documents.docx.columns import write_columns, write_timeline
from app.documents.docx.layouts import Writer, write_single_column
from app.documents.docx.profiles import Profile, profile_for, section_titles
from app.documents.options import ACCENTS, DocumentError, Options, Photo, Source

FALLBACK_ACCENT = "#1f2937"
STYLES = ("Normal", "Title", "Heading 1", "Heading 2", "List Bullet")
WRITERS = {"stacked": write_single_column, "ruled": write_single_column,
           "timeline": write_timeline, "columns": write_columns}


def accent_rgb(source: Source, options: Options) -> RGBColor:
    """The scheme's accent, else the template's own if it is a hex colour, else a dark grey."""
    colour = ACCENTS.get(options.color_scheme) or templating.template_accent(source.css) or FALLBACK_ACCENT
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    try:
        return RGBColor.from_string(colour[:6].upper())
    except ValueError:  # rgb(), hsl() or a colour name: not worth a colour parser here
        return RGBColor.from_string(FALLBACK_ACCENT.lstrip("#").upper())


def _set_fonts(fonts, profile: Profile) -> None:
    """Name the Latin and East Asian fonts explicitly on a ``w:rFonts`` (theme fonts would win otherwise)."""
    for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
        fonts.attrib.pop(qn(attr), None)
    for attr in ("w:ascii", "w:hAnsi", "w:cs"):
        fonts.set(qn(attr), profile.latin_font)
    fonts.set(qn("w:eastAsia"), profile.east_asian_font)


def _font(style, size: float, colour: RGBColor | None, *, bold: bool | None = None) -> None:
    style.font.size = Pt(size)
    style.font.bold = bold
    if colour is not None:
        style.font.color.rgb = colour


def _styles(document, profile: Profile, accent: RGBColor) -> None:
    """Normal, Title and the headings in the profile's type; a "Sidebar Heading" for columns."""
    styles = document.styles
    defaults = styles.element.find(qn("w:docDefaults"))
    _set_fonts(defaults.find(qn("w:rPrDefault")).find(qn("w:rPr")).find(qn("w:rFonts")), profile)
    text = RGBColor.from_string(profile.text)
    normal = styles["Normal"]
    _font(normal, profile.body_size, text)
    normal.paragraph_format.space_after = Pt(2)
    normal.paragraph_format.line_spacing = 1.1

    title = styles["Title"]
    parts.clear_paragraph_borders(title)
    _font(title, profile.name_size, accent, bold=profile.name_bold)
    title.font.small_caps = profile.name_small_caps or None
    parts.letter_spacing(title, profile.name_spacing)
    title.paragraph_format.space_after = Pt(4)
    title.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER if profile.centred else None

    heading = styles["Heading 1"]
    _font(heading, profile.heading_size, accent, bold=True)
    heading.font.all_caps = profile.heading_caps or None
    heading.font.small_caps = profile.heading_small_caps or None
    parts.letter_spacing(heading, profile.heading_spacing)
    heading.paragraph_format.space_before = Pt(12)
    heading.paragraph_format.space_after = Pt(5)
    if profile.heading_rule:
        colour = str(accent) if profile.heading_rule == "accent" else profile.heading_rule
        parts.paragraph_border(heading, "bottom", colour, 0.75, space=2)
    if profile.heading_marker:
        parts.paragraph_border(heading, "left", str(accent), 7, space=6)

    entry = styles["Heading 2"]
    _font(entry, profile.body_size + 0.5, text, bold=True)
    entry.paragraph_format.space_before = Pt(7 if profile.layout != "timeline" else 0)
    entry.paragraph_format.space_after = Pt(1)
    if profile.layout == "columns":
        parts.paragraph_border(entry, "left", str(accent), 2.25, space=6)
    styles["List Bullet"].paragraph_format.space_after = Pt(1)
    for name in STYLES:
        _set_fonts(styles[name].element.get_or_add_rPr().get_or_add_rFonts(), profile)
    if profile.layout == "columns":
        side = styles.add_style("Sidebar Heading", 1)   # WD_STYLE_TYPE.PARAGRAPH
        side.base_style = heading
        _font(side, 9, accent, bold=True)
        side.font.all_caps = True
        parts.letter_spacing(side, 1.5)
        parts.paragraph_border(side, "bottom", str(accent), 1.5, space=3)
        side.paragraph_format.space_before = Pt(10)
        side.paragraph_format.space_after = Pt(4)


def _page(document, options: Options):
    """Page size and margins from the options; returns the width between the margins."""
    section = document.sections[0]
    width, height = templating.PAGE_SIZES_MM[options.page_size]
    section.page_width, section.page_height = Mm(width), Mm(height)
    margin = Mm(templating.MARGINS_MM[options.margin])
    section.left_margin = section.right_margin = section.top_margin = section.bottom_margin = margin
    return section.page_width - 2 * margin


def render_docx(source: Source, options: Options, photo: Photo | None) -> bytes:
    """The DOCX of the resume; raises DocumentError."""
    content = normalise.normalise_content(source.content)
    content["language"] = language.of(content)  # what it is printed in, read from its text once
    visible = normalise.normalise_visibility(source.visible)
    title = normalise.text_value(source.title)
    try:
        html_template = normalise.text_value(source.html_template)
        profile = profile_for(html_template, normalise.text_value(source.css))
        if content["language"] == "zh-Hant":  # its ideographs in their Traditional faces, tagged zh-TW
            profile = replace(profile, east_asian_font=fonts.TRADITIONAL.get(profile.east_asian_font,
                                                                                  profile.east_asian_font))
        titles = section_titles(html_template, profile.titles, content)
        # The summary first (it belongs to the header), then the body in the resume's order.
        sections = [("summary", titles["summary"])] + [(key, titles[key]) for key in content["sectionOrder"]]
        accent = accent_rgb(source, options)
        document = Document()
        width = _page(document, options)
        _styles(document, profile, accent)
        document.core_properties.title = title
        writer = Writer(document, profile, accent, width)
        WRITERS[profile.layout](writer, content, visible, sections, title, photo)
        out = io.BytesIO()
        document.save(out)
    except Exception as exc:  # python-docx, lxml or Pillow (the picture) failing on this input
        raise DocumentError(f"DOCX failed: {type(exc).__name__}: {exc}") from exc
    return out.getvalue()
