"""DOCX layouts in columns: Canvas's timeline and Meridian's sidebar beside a main column.

Both keep every line a paragraph of the document's body, as the single-column
layouts do: an applicant tracking system, a screen reader or python-docx reads the
body's paragraphs in order, and most skip what sits in tables or text boxes.

- Timeline (Canvas): each entry's first line hangs its dates in the left column
  (a hanging indent and a tab stop), the rest of the entry is indented to the
  right column behind a thin grey rule (a left paragraph border; paragraphs with
  the same border join into one line).
- Sidebar (Meridian): the sidebar's paragraphs form one frame (``w:framePr``,
  Word's positioned paragraphs: paragraphs with the same frame properties share a
  frame) at the left margin, shaded; the main column's paragraphs follow it,
  indented past the sidebar, so on later pages they stay in the main column.
  Word's section columns would flow a long main column into the sidebar's place on
  page 2, and a table would hide the text from readers of the body.

Reading order: sidebar (contact, then its sections: skills and education by default),
then the main column (every other section), never interleaved; each column's
sections in the resume's ``sectionOrder``.
"""
from __future__ import annotations

from docx.shared import Mm, Pt

from app.content.normalise import has_entries
from app.documents import templating
from app.documents.docx import parts
from app.documents.docx.entries import ONE_LINERS, entries
from app.documents.docx.layouts import Writer
from app.documents.docx.profiles import SECTION_KEYS
from app.documents.words import contact_items

TIMELINE_WHEN = Mm(40)    # the dates' column (Canvas: td.when 132px at 8.5pt bold capitals)
TIMELINE_RULE = "E4E0E8"
SIDEBAR = 0.31            # the sidebar's share of the width (Meridian: td.side { width: 31% })
GAP = Pt(16)
BULLET_INDENT = Pt(14)


def _indented(indent, rule: str | None = None):
    """A decorator for ``Writer.decorate``: paragraphs start at ``indent``, list items a bit further,
    with a left rule in the ``rule`` colour when given."""
    def decorate(paragraph, style):
        fmt = paragraph.paragraph_format
        if style == "List Bullet":
            fmt.left_indent, fmt.first_line_indent = indent + BULLET_INDENT, -BULLET_INDENT
        else:
            fmt.left_indent = indent
        if rule:
            parts.paragraph_border(paragraph, "left", rule, 0.75, space=8)
    return decorate


def _timeline_head(writer: Writer, section: str, entry) -> None:
    """Dates in the left column (in the accent, capitals), the title beside them; the place below."""
    head = writer.paragraph("Heading 2")
    fmt = head.paragraph_format
    fmt.left_indent, fmt.first_line_indent = TIMELINE_WHEN + Pt(10), -(TIMELINE_WHEN + Pt(10))
    fmt.tab_stops.add_tab_stop(TIMELINE_WHEN + Pt(10))
    writer.text(head, entry.period, caps=True, size=8.5, colour=writer.accent)
    writer.text(head, "\t" + (entry.title or entry.place))
    writer.decorate = _indented(TIMELINE_WHEN + Pt(10), TIMELINE_RULE)
    if entry.title and entry.place:
        writer.line(entry.place, italic=True, colour=writer.muted)
    if entry.url:
        writer.line(entry.url, size=9, colour=writer.accent)


def write_timeline(writer: Writer, content: dict, visible: dict, sections, title: str, photo) -> None:
    """Canvas: the striped masthead and boxed summary, then a timeline per section, skills as chips."""
    personal = content["personalInfo"]
    if visible["personalInfo"]:
        writer.header(personal, title, photo)

    def entry_done():
        writer.made[-1].paragraph_format.space_after = Pt(8)
        writer.decorate = None

    writer.after_entry = entry_done
    for key, heading in sections:
        if key == "summary":
            if visible["personalInfo"] and templating.lines(personal["summary"]):
                writer.summary(heading, templating.lines(personal["summary"]))
        elif visible[key] and has_entries(content, key):
            writer.body_section(key, heading, content, head=_timeline_head)
    writer.after_entry = None


def _framed(width, fill: str, accent: str):
    """A decorator putting paragraphs in one frame at the left margin, ``width`` wide, shaded."""
    def decorate(paragraph, style):
        ppr = paragraph._p.get_or_add_pPr()
        parts.frame(ppr, width, GAP)
        parts.paragraph_shading(paragraph, fill)
        for side in ("left", "right"):      # borders in the fill colour: padding inside the shading
            parts.paragraph_border(paragraph, side, fill, 0.5, space=6)
        if style == "Sidebar Heading":      # the style's rule, restated: some readers take a
            parts.paragraph_border(paragraph, "bottom", accent, 1.5, space=3)   # pBdr whole
    return decorate


def _side_entry(writer: Writer, entry) -> None:
    """An entry in the sidebar's narrow column: a short line per field, small type."""
    muted = dict(size=8.5, colour=writer.muted)
    lines = [(entry.title, dict(bold=True, size=9.5)), (entry.place, dict(size=9.5)), (entry.period, muted),
             (" \u00b7 ".join(entry.facts), muted), (entry.url, dict(size=8.5, colour=writer.accent)),
             *[(text, dict(size=9)) for text in entry.lines],
             *[("\u2022 " + text, dict(size=9)) for text in entry.highlights]]
    if entry.technologies:
        lines.append((" / ".join(entry.technologies), muted))
    written = [writer.line(text, **fmt) for text, fmt in lines if text]
    if written:
        written[-1].paragraph_format.space_after = Pt(6)


def _sidebar(writer: Writer, personal: dict, content: dict, blocks: list[str], titles: dict, photo) -> None:
    for block in blocks:
        if block == "photo":
            writer.photo(photo.data, width=Pt(82))
            continue
        writer.line(titles.get(block) or block.title(), "Sidebar Heading", colour=writer.accent)
        if block == "contact":
            details = [("Email", personal["email"]), ("Phone", personal["phone"]), ("Location", personal["address"]),
                       ("Website", personal["url"])]
            details += [(p["network"] or "Profile", p["username"] or p["url"]) for p in personal["profiles"]]
            details += [("", p["url"]) for p in personal["profiles"] if p["username"] and p["url"]]
            for label, value in details:
                if value:
                    if label:
                        writer.line(label, caps=True, size=8, colour=writer.muted).paragraph_format.space_before = \
                            Pt(3)
                    writer.line(value, size=9.5)
        elif block in ONE_LINERS:
            writer.one_liners(block, content)
        else:
            for entry in entries(block, content[block], content["language"]):
                _side_entry(writer, entry)
    writer.made[-1].paragraph_format.space_after = Pt(8)


def _main_head(writer: Writer, section: str, entry) -> None:
    """Role left and dates right, the organisation in the accent below."""
    head = writer.paragraph("Heading 2")
    parts.right_tab(head, writer.width)
    writer.text(head, entry.title or entry.place)
    if entry.period:
        writer.text(head, "\t" + entry.period, bold=False, size=9, colour=writer.muted)
    if entry.title and entry.place:
        writer.line(entry.place, bold=True, colour=writer.accent)
    if entry.url:
        writer.line(entry.url, size=9, colour=writer.accent)


def write_columns(writer: Writer, content: dict, visible: dict, sections, title: str, photo) -> None:
    """Meridian: the banner and profile across the page, then the sidebar beside the main column."""
    personal = content["personalInfo"]
    titles = {key: heading for key, heading in sections}
    titles.setdefault("contact", "Contact")
    blocks = writer.profile.sidebar
    if visible["personalInfo"]:     # the photo goes in the sidebar, and the contact if it has a place there
        writer.header(personal, title, None, contact="contact" not in blocks)
        summary = templating.lines(personal["summary"])
        if summary:
            writer.summary(titles.get("summary") or "Profile", summary)
    side = ["photo"] if visible["personalInfo"] and photo else []
    if "contact" in blocks and visible["personalInfo"] and contact_items(personal):
        side.append("contact")
    shown = [key for key, _ in sections if key in SECTION_KEYS and visible[key] and has_entries(content, key)]
    side += [key for key in shown if key in blocks and key != "customSections"]
    main = [key for key in shown if key not in side]
    side_width = int(writer.width * SIDEBAR)
    if side:
        fill = writer.profile.sidebar_fill
        writer.decorate = _framed(side_width, writer.tint if fill == "tint" else fill, writer.accent_hex)
        _sidebar(writer, personal, content, side, titles, photo)
        writer.decorate = _indented(side_width + GAP)
    for key in main:
        start = len(writer.made)
        writer.body_section(key, titles[key], content, head=_main_head)
        writer.made[start].paragraph_format.space_before = Pt(0 if key == main[0] else 12)
    if side and not main:
        writer.paragraph()          # the frame's anchor
    writer.decorate = None
