"""DOCX layouts: the resume's content written in the shape of its template's design.

Every layout writes the same content in the template's section order and titles
(``profiles.template_sections``), with Word's own structure so the document
stays editable and readable by an applicant tracking system: the name as Title,
section titles as Heading 1, entry titles as Heading 2, lists as List Bullet.
They differ where the designs do:

- "stacked" (Horizon): entry title, then its dates on a muted line below.
- "ruled" (Heritage, and any template without a design of its own): the entry's
  lead (organisation or role) left and its dates right on one line (a right tab),
  the other one below in italics; skills on one line.
- "timeline" (Canvas, ``docx_columns``): dates hanging in a left column, each
  entry beside them behind a thin rule.
- "columns" (Meridian, ``docx_columns``): a shaded sidebar (contact, skills,
  education) beside the main column (experience, projects and the rest).

The body sections follow the resume's ``sectionOrder`` (a column keeps its
sections, in that order). Every section of the content model is written
(``Writer.body_section``): entries (experience, education, projects, volunteering,
certificates, awards, publications, references, each custom section's items) as
title, place, dates, a muted line of facts (location, study, score), link,
text and bullets; skill groups as "name (level): keywords" (chips in the chip
designs) before the plain skills; languages and interests one line each. Each
custom section is headed by its own title (an untitled one has no heading).

Every line is a paragraph of the document's body (no tables or text boxes, which
many readers skip), and all text goes through ``fonts.add_text`` (CJK runs get
the East Asian font). An entry's paragraphs are kept together on a page, and a
heading with its first entry (Word's "keep with next").
"""
from __future__ import annotations

import io
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Mm, Pt, RGBColor

from app.content.normalise import has_entries
from app.documents import templating
from app.documents.docx import fonts, parts
from app.documents.docx.entries import ONE_LINERS, ORG_FIRST, Entry, entries
from app.documents.docx.profiles import Profile
from app.documents.words import contact_items, one_liners

HIGHLIGHTS_GAP = 4  # points before a job's highlights when its description is bullets too
PHOTO_WIDTH = Mm(30)
NBSP = "\u00a0"


def tint(colour: RGBColor, amount: float = 0.9) -> str:
    """``colour`` mixed with ``amount`` of white, as hex: the pale band behind a banner's name."""
    return "".join(f"{round(c + (255 - c) * amount):02X}" for c in colour)


class Writer:
    """Writes the body's paragraphs in a profile's look; ``decorate`` shapes a region (column, frame)."""

    def __init__(self, document, profile: Profile, accent: RGBColor, width) -> None:
        self.document = document
        self.profile = profile
        self.accent = accent
        self.accent_hex = str(accent)
        self.width = width               # between the margins: where right tabs go
        self.tint = tint(accent)         # a pale accent, for bands
        self.decorate = None             # f(paragraph, style) the current layout region applies
        self.after_entry = None          # f() a layout runs after each entry (the timeline's spacing)
        self.made: list = []             # every paragraph written, in order
        self._style_ids: dict[str, str] = {}

    # --- basics ------------------------------------------------------------------------------------

    @property
    def muted(self) -> RGBColor:
        return RGBColor.from_string(self.profile.muted)

    def paragraph(self, style: str | None = None):
        paragraph = self.document.add_paragraph()
        if style:   # by id: python-docx looks a style name up with an XPath query on every call
            if style not in self._style_ids:
                self._style_ids[style] = self.document.styles[style].style_id
            paragraph._p.get_or_add_pPr().get_or_add_pStyle().val = self._style_ids[style]
        if self.decorate is not None:
            self.decorate(paragraph, style)
        self.made.append(paragraph)
        return paragraph

    def text(self, paragraph, text: str, **fmt) -> list:
        return fonts.add_text(paragraph, text, self.profile.east_asian_font, **fmt)

    def line(self, text: str, style: str | None = None, **fmt):
        paragraph = self.paragraph(style)
        self.text(paragraph, text, **fmt)
        return paragraph

    def heading(self, title: str, style: str = "Heading 1"):
        return self.line(title, style, colour=self.accent)

    def bullets(self, items: list[str]) -> list:
        return [self.line(item, "List Bullet") for item in items]

    def chips(self, items: list[str], kind: str, size: float) -> None:
        """Skills or tags as chips (CSS ``white-space: nowrap`` spans): "filled" with the accent,
        "grey" (filled light grey) or "outline" (boxed in the accent, accent text)."""
        paragraph = self.paragraph()
        paragraph.paragraph_format.line_spacing = 1.45
        for index, item in enumerate(items):
            if index:
                paragraph.add_run(" ")      # unboxed: Word would join adjacent boxes into one
            label = NBSP + item.replace(" ", NBSP) + NBSP
            if kind == "filled":
                runs = self.text(paragraph, label, bold=True, colour=RGBColor(0xFF, 0xFF, 0xFF), size=size)
            elif kind == "grey":
                runs = self.text(paragraph, label, colour=RGBColor.from_string("374151"), size=size)
            else:
                runs = self.text(paragraph, label, colour=self.accent, size=size)
            for run in runs:
                if kind == "outline":
                    parts.run_border(run, self.accent_hex)
                else:
                    parts.run_shading(run, self.accent_hex if kind == "filled" else "F3F4F6")

    def listing(self, items: list[tuple[str, str, str]]) -> None:
        """One line per (lead, separator, rest): the lead in bold (Meridian's list: after an accent bullet)."""
        for lead, separator, rest in items:
            paragraph = self.paragraph()
            if self.profile.skills == "list":
                self.text(paragraph, "\u2022 ", colour=self.accent)
            if lead:
                self.text(paragraph, lead, bold=True)
            if rest:
                self.text(paragraph, (separator if lead else "") + rest)

    def skill_groups(self, content: dict) -> None:
        """Skill groups: "name (level): keywords", or (chip designs) the label over its keywords as chips."""
        kind = self.profile.skills
        if kind in ("line", "list"):
            self.listing(one_liners("skills", content))
            return
        for group, (label, _, _) in zip(content["skillGroups"], one_liners("skills", content)):
            if label:
                self.line(label, bold=True, size=self.profile.body_size - 0.5)
            if group["keywords"]:
                self.chips(group["keywords"], kind, 9.5)

    def body_section(self, key: str, title: str, content: dict, head=None) -> None:
        """A body section with its heading (each custom section under its own title); entries
        through ``entry`` (``head`` as there)."""
        if key == "customSections":
            for custom in content["customSections"]:
                if custom["items"]:
                    if custom["title"]:     # as the templates: an untitled section has no heading
                        self.heading(custom["title"])
                    for entry in entries(key, custom["items"], content["language"]):
                        self.entry(key, entry, head)
            return
        self.heading(title)
        if key in ONE_LINERS:
            self.one_liners(key, content)
        else:
            for entry in entries(key, content[key], content["language"]):
                self.entry(key, entry, head)

    def one_liners(self, key: str, content: dict) -> None:
        """The sections of short lines (``ONE_LINERS``): skills (groups, then the plain list), languages,
        interests."""
        if key == "skills":
            self.skill_groups(content)
            if content["skills"]:
                self.skills(content["skills"])
        else:
            self.listing(one_liners(key, content))

    def skills(self, items: list[str]) -> None:
        kind = self.profile.skills
        if kind == "line":
            self.line(" \u00b7 ".join(items))
        elif kind == "list":
            for item in items:
                paragraph = self.paragraph()
                self.text(paragraph, "\u2022 ", colour=self.accent)
                self.text(paragraph, item)
        else:
            self.chips(items, kind, 9.5)

    def photo(self, data: bytes, align=WD_ALIGN_PARAGRAPH.LEFT, width=PHOTO_WIDTH) -> None:
        paragraph = self.paragraph()
        paragraph.alignment = align
        paragraph.add_run().add_picture(io.BytesIO(data), width=width)

    # --- the header --------------------------------------------------------------------------------

    def header(self, personal: dict, title: str, photo, *, contact: bool = True) -> None:
        """Name, label and contact line (with the website and profiles), with the design's
        decoration (rule, double rule, stripe, banner)."""
        p = self.profile
        if photo:
            self.photo(photo.data, WD_ALIGN_PARAGRAPH.CENTER if p.centred else WD_ALIGN_PARAGRAPH.RIGHT)
        name = self.heading(personal["name"] or title, "Title")
        lines = [name]
        if personal["label"]:
            label = self.line(personal["label"], colour=self.muted, size=p.body_size + 1.5)
            label.alignment = WD_ALIGN_PARAGRAPH.CENTER if p.centred else None
            lines.append(label)
        contacts = contact_items(personal, centred=p.centred) if contact else []
        if contacts:
            contact = self.line(p.contact_sep.join(contacts), colour=self.muted, italic=p.contact_italic or None)
            contact.alignment = WD_ALIGN_PARAGRAPH.CENTER if p.centred else None
            lines.append(contact)
        if p.header == "stripe":
            for line in lines:
                parts.paragraph_border(line, "left", self.accent_hex, 6, space=10)
        last = lines[-1]
        if p.header == "banner":        # a pale accent band, padded by borders of its colour, ruled below
            for band in lines:          # Word draws one box round them all
                parts.paragraph_shading(band, self.tint)
                for side in ("top", "left", "right"):
                    parts.paragraph_border(band, side, self.tint, 0.5, space=6 if side == "top" else 10)
                parts.paragraph_border(band, "bottom", self.accent_hex, 4.5, space=4)
        if p.header == "double":
            parts.paragraph_border(last, "bottom", self.accent_hex, 2.25, style="double", space=8)
        elif p.header == "rule":
            rule = self.paragraph()
            rule.paragraph_format.space_after = Pt(4)
            parts.paragraph_border(rule, "top", self.accent_hex, 2.25, space=0)
            rule.paragraph_format.right_indent = self.width - Mm(20)    # a short rule, as in the template
            rule.paragraph_format.line_spacing = Pt(4)

    def summary(self, title: str | None, lines: list[str]) -> None:
        p = self.profile
        if title:
            self.heading(title)
        for text in lines:
            paragraph = self.line(text)
            if p.justify:
                paragraph.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
            if p.summary_box:
                parts.paragraph_shading(paragraph, p.summary_box)
                parts.paragraph_border(paragraph, "left", self.accent_hex, 3, space=8)
                paragraph.paragraph_format.space_after = Pt(0)
                paragraph.paragraph_format.left_indent = Pt(10)

    # --- entries -----------------------------------------------------------------------------------

    def entry(self, section: str, entry: Entry, head=None) -> None:
        """An entry (``head`` writes its first lines, by default the layout's), kept on one page."""
        start = len(self.made)
        if head is not None:
            head(self, section, entry)
        elif self.profile.layout == "stacked":
            self._stacked_head(section, entry)
        else:
            self._ruled_head(section, entry)
        self.body(section, entry)
        self.keep_together(self.made[start:])
        if self.after_entry is not None:
            self.after_entry()

    @staticmethod
    def keep_together(paragraphs: list) -> None:
        """Keep an entry on one page when it fits (Word moves it whole rather than split it)."""
        for paragraph in paragraphs[:-1]:
            paragraph.paragraph_format.keep_with_next = True
        for paragraph in paragraphs:
            paragraph.paragraph_format.keep_together = True

    def _stacked_head(self, section: str, entry: Entry) -> None:
        head = self.paragraph("Heading 2")
        if entry.title:
            self.text(head, entry.title)
        if entry.place:
            if entry.title:
                self.text(head, " \u2014 ")
            self.text(head, entry.place, colour=self.accent if section == "workExperience" else None)
        if not (entry.title or entry.place):
            self.text(head, entry.period)
        elif entry.period:
            self.line(entry.period, colour=self.muted, italic=True)

    def _ruled_head(self, section: str, entry: Entry) -> None:
        """Lead left and dates right on one line (a right tab at the column's edge), the rest below."""
        p = self.profile
        lead, second = ((entry.place, entry.title) if p.org_first and section in ORG_FIRST
                        else (entry.title, entry.place))
        if not lead:
            lead, second = second, ""
        head = self.paragraph("Heading 2")
        parts.right_tab(head, self.width)
        self.text(head, lead)
        if entry.url:
            self.text(head, " \u2014 " + entry.url, bold=False, colour=self.muted, size=p.body_size - 1)
        if entry.period:
            self.text(head, "\t" + entry.period, bold=False, italic=p.serif or None, colour=self.muted,
                      size=p.body_size - 0.5)
        if second:
            self.line(second, italic=True)

    def body(self, section: str, entry: Entry) -> None:
        """What an entry says: description, link, highlights and technologies, as the design shows them."""
        p = self.profile
        if entry.facts:
            self.line(" \u00b7 ".join(entry.facts), colour=self.muted, size=p.body_size - 1)
        if p.layout == "stacked" and entry.url:
            self.line(entry.url, colour=self.accent, size=p.body_size - 1)
        as_bullets = {"always": True, "multi": len(entry.lines) > 1}.get(p.descriptions, False)
        if section == "workExperience" and as_bullets:
            self.bullets(entry.lines)
        else:
            for text in entry.lines:
                self.line(text)
        if p.layout == "timeline":
            for item in entry.highlights:
                paragraph = self.paragraph()
                self.text(paragraph, "\u2014 ", colour=self.accent)
                self.text(paragraph, item)
        else:
            written = self.bullets(entry.highlights)
            if written and section == "workExperience" and as_bullets and entry.lines:
                # Set apart from the description's bullets above it, as the PDF sets them: a reader (and
                # an import) sees two lists.
                written[0].paragraph_format.space_before = Pt(HIGHLIGHTS_GAP)
        if entry.technologies:
            self.technologies(entry.technologies)

    def technologies(self, names: list[str]) -> None:
        """A project's technologies: chips, the "Stack" line (Meridian), or "Technologies: a, b"."""
        p = self.profile
        if p.tags in ("grey", "outline"):
            self.chips(names, p.tags, 8.5)
        elif p.tags == "stack":
            paragraph = self.paragraph()
            self.text(paragraph, "STACK  ", bold=True, size=7.5, colour=self.muted)
            self.text(paragraph, " / ".join(names), size=9, colour=self.muted)
        else:
            paragraph = self.paragraph()
            self.text(paragraph, "Technologies: ", italic=True, colour=self.muted, size=p.body_size - 1)
            self.text(paragraph, ", ".join(names), colour=self.muted, size=p.body_size - 1)


def write_single_column(writer: Writer, content: dict, visible: dict, sections, title: str, photo) -> None:
    """The "stacked" and "ruled" layouts: the header, then each section in the template's order."""
    personal = content["personalInfo"]
    if visible["personalInfo"]:
        writer.header(personal, title, photo)
    for key, heading in sections:
        if key == "summary":
            if visible["personalInfo"] and templating.lines(personal["summary"]):
                writer.summary(heading, templating.lines(personal["summary"]))
        elif visible[key] and has_entries(content, key):
            writer.body_section(key, heading, content)
