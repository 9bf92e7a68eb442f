"""A layout checker for exported PDFs: reads the text layer back with pdfium and judges it as a reader would.

A PDF tells where every glyph is drawn and what text it stands for, which is all a reader (or an ATS)
gets. ``read`` turns a PDF into pages of characters with their boxes, in pdfium's extraction order;
the checks below return what they found wrong, with page numbers, characters and boxes, so that an
assertion message says what is wrong and where without opening the file:

- ``missing_strings``: strings absent from the text layer. Compared case-folded with all whitespace
  removed, since a line may break anywhere and templates upper-case some text.
- ``glyphs_outside``: glyphs drawn outside the page's content box (the page less its margin), or
  outside every one of several column boxes. A background may bleed to the page edge; a glyph may not.
- ``orphaned_headings``: a heading with nothing below it in its column on its page.
- ``reading_order`` / ``order_problems``: where strings come in the extracted text, and whether
  groups of strings (sections) come in the expected order without interleaving.
- ``bad_line_breaks``: CJK closing punctuation starting a line (or opening ending one).
- ``broken_words``: a Latin word split across two lines.
- ``small_glyphs``: text drawn too small to read (xhtml2pdf shrinks a table it cannot split onto a page).
- ``lines_per_page``: how full each page is (a blank or near-empty trailing page).

Coordinates are PDF points with the origin at the page's bottom left; a box is
``(left, bottom, right, top)``.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import pypdfium2

from app.documents import templating

Box = tuple[float, float, float, float]
POINTS_PER_MM = 72 / 25.4
MIN_GLYPH_SIZE = 6.0  # points of em box: the smallest template text (7 pt bullets) measures 8
TOLERANCE = 1.0  # points a glyph may stick out of its box (anti-aliasing, rounding of pdfium's boxes)
LINE_BREAKS = "\r\n"
# Kinsoku shori: characters a line must not start with, and ones it must not end with.
NO_LINE_START = "。，、．：；！？）】》」』〕〉”’・…%"
NO_LINE_END = "（【《「『〔〈“‘"


@dataclass(frozen=True, slots=True)  # slots: a run of the matrix keeps ~150 documents' characters
class Char:
    page: int      # 1-based
    text: str
    box: Box       # the glyph's ink (pdfium's tight box)
    line: Box      # the glyph's em box (pdfium's loose box): same bottom for a whole line of one font

    @property
    def height(self) -> float:
        return self.line[3] - self.line[1]

    def __repr__(self) -> str:
        left, bottom, right, top = self.box
        return f"{self.text!r}@p{self.page}({left:.1f},{bottom:.1f},{right:.1f},{top:.1f})"


@dataclass
class Page:
    number: int
    width: float
    height: float
    chars: list[Char]  # in extraction order, whitespace and pdfium's generated line breaks included


@dataclass
class Segment:
    """A run of text on one line, as far as the next line break or wide gap (a column or cell edge)."""
    page: int
    chars: list[Char] = field(default_factory=list)  # without whitespace

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chars)

    @property
    def box(self) -> Box:
        return (min(c.box[0] for c in self.chars), min(c.box[1] for c in self.chars),
                max(c.box[2] for c in self.chars), max(c.box[3] for c in self.chars))

    def __repr__(self) -> str:
        left, bottom, right, top = self.box
        return f"{self.text!r}@p{self.page}({left:.1f},{bottom:.1f},{right:.1f},{top:.1f})"


@dataclass
class Document:
    pages: list[Page]
    key: str = ""                                        # the text, case-folded, without whitespace
    key_chars: list[Char] = field(default_factory=list)  # the character behind each position of key
    segments: list[Segment] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The extracted text, pages separated by form feeds (for messages and debugging)."""
        return "\f".join("".join(c.text for c in page.chars) for page in self.pages)


def key(text: str) -> str:
    """How strings are compared: case-folded, whitespace removed."""
    return "".join(text.casefold().split())


def read(pdf: bytes | Document) -> Document:
    """Every page's characters with their boxes; a Document is returned as it is."""
    if isinstance(pdf, Document):
        return pdf
    document = pypdfium2.PdfDocument(pdf)
    pages = []
    try:
        for number, page in enumerate(document, start=1):
            width, height = page.get_size()
            textpage = page.get_textpage()
            # pdfium reports a hyphen that ends a line as U+FFFE (its "soft hyphen" guess): it is the
            # "-" the PDF draws, e.g. where a URL broke after one.
            chars = [Char(number, textpage.get_text_range(i, 1).replace("\ufffe", "-"), textpage.get_charbox(i),
                          textpage.get_charbox(i, loose=True)) for i in range(textpage.count_chars())]
            pages.append(Page(number, width, height, chars))
            textpage.close()
            page.close()
    finally:
        document.close()
    doc = Document(pages)
    for char in (c for page in pages for c in page.chars if not c.text.isspace()):
        folded = char.text.casefold()
        doc.key += folded
        doc.key_chars += [char] * len(folded)
    doc.segments = _segments(pages)
    return doc


def _goes_on(char: Char, previous: Char) -> bool:
    """Whether ``char`` is the next glyph of ``previous``'s line: on its baseline, right after it."""
    size = max(char.height, previous.height, 1.0)
    return (abs(char.line[1] - previous.line[1]) <= TOLERANCE
            and -TOLERANCE <= char.box[0] - previous.box[2] <= size / 2)


def _mark(text: str) -> bool:
    return bool(text) and all(unicodedata.category(c) in ("Mn", "Me") for c in text)


def _segments(pages: list[Page]) -> list[Segment]:
    """Split each page's text where pdfium breaks a line, where the baseline changes, where the text
    steps back left, or at a gap wider than one and a half em (a table cell or column edge).

    A line break pdfium generates between two glyphs of one line (the next on the same baseline, right
    after the last) is not one: pdfium puts such breaks where a line of Chinese switches between two
    subsets of its embedded font (a long resume uses more than one subset's 256 glyphs), though the
    line is one line on the page and to poppler's pdftotext."""
    segments = []
    for page in pages:
        current, previous, broken = Segment(page.number), None, False
        for char in page.chars:
            if char.text in LINE_BREAKS:
                broken = True
            if char.text.isspace():
                continue
            if current.chars and _mark(char.text):
                current.chars.append(char)  # a vowel or tone mark belongs to its letter, wherever it sits
                continue
            if previous is not None and broken and not _goes_on(char, previous):
                previous = None
            broken = False
            if previous is not None:
                size = max(char.height, previous.height, 1.0)
                if (abs(char.line[1] - previous.line[1]) > size / 2 or char.box[0] < previous.box[0]
                        or char.box[0] - previous.box[2] > 1.5 * size):
                    previous = None
            if previous is None and current.chars:
                segments.append(current)
                current = Segment(page.number)
            current.chars.append(char)
            previous = char
        if current.chars:
            segments.append(current)
    return segments


def page_count(pdf: bytes | Document) -> int:
    return len(read(pdf).pages)


def missing_strings(pdf: bytes | Document, strings: Iterable[str]) -> list[str]:
    """The strings whose text is not in the text layer."""
    doc = read(pdf)
    return [s for s in strings if key(s) and key(s) not in doc.key]


def content_box(page_size: str, margin: str) -> Box:
    """The page less its margin on every side, for the export options (rendering's tables), in points."""
    width, height = (mm * POINTS_PER_MM for mm in templating.PAGE_SIZES_MM[page_size])
    inset = templating.MARGINS_MM[margin] * POINTS_PER_MM
    return (inset, inset, width - inset, height - inset)


def _inside(inner: Box, outer: Box, tolerance: float) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)


def glyphs_outside(pdf: bytes | Document, boxes: Box | Sequence[Box],
                   tolerance: float = TOLERANCE) -> list[Char]:
    """Glyphs (not whitespace) whose ink is not inside any of ``boxes`` (the content box, or the boxes
    of a design's columns) on every page."""
    boxes = [boxes] if isinstance(boxes[0], (int, float)) else list(boxes)
    return [c for page in read(pdf).pages for c in page.chars
            if not c.text.isspace() and c.box[2] > c.box[0]
            and not any(_inside(c.box, box, tolerance) for box in boxes)]


def heading_segments(pdf: bytes | Document, headings: Iterable[str]) -> list[Segment]:
    """The segments that are exactly one of ``headings`` (a heading is a line of its own)."""
    wanted = {key(h) for h in headings if key(h)}
    return [s for s in read(pdf).segments if key(s.text) in wanted]


def pages_left_empty_before_a_heading(pdf: bytes | Document, headings: Iterable[str], box: Box,
                                      most: float) -> list[tuple[int, float]]:
    """(page, share of its content box left empty at its foot) of each page whose next page starts with
    one of ``headings`` and that leaves more than ``most`` of its height empty: a section moved whole
    to the next page, leaving a hole behind."""
    doc = read(pdf)
    wanted = {key(h) for h in headings if key(h)}
    height = box[3] - box[1]
    found = []
    for page, following in zip(doc.pages, doc.pages[1:]):
        first = next((s for s in doc.segments if s.page == following.number), None)
        ink = [c for c in page.chars if not c.text.isspace()]
        if first is None or key(first.text) not in wanted or not ink:
            continue
        empty = (min(c.box[1] for c in ink) - box[1]) / height
        if empty > most:
            found.append((page.number, round(empty, 2)))
    return found


def orphaned_headings(pdf: bytes | Document, headings: Iterable[str]) -> list[Segment]:
    """Headings with no text below them on their page within their own width: the last text of the
    page, or of their column in a multi-column design."""
    doc = read(pdf)
    orphans = []
    for heading in heading_segments(doc, headings):
        left, bottom, right, _ = heading.box
        below = [c for c in doc.pages[heading.page - 1].chars
                 if not c.text.isspace() and c.box[2] > c.box[0]
                 and c.box[3] < bottom - TOLERANCE and c.box[0] < right and c.box[2] > left]
        if not below:
            orphans.append(heading)
    return orphans


@dataclass(frozen=True)
class Found:
    string: str
    position: int  # of its first occurrence in Document.key
    page: int
    count: int     # how often it occurs: a position is unambiguous only if this is 1


def reading_order(pdf: bytes | Document, strings: Iterable[str]) -> list[Found]:
    """The strings found in the text layer, in the order they are first read; missing ones left out."""
    doc = read(pdf)
    found = []
    for string in strings:
        folded = key(string)
        position = doc.key.find(folded) if folded else -1
        if position >= 0:
            found.append(Found(string, position, doc.key_chars[position].page, doc.key.count(folded)))
    return sorted(found, key=lambda f: f.position)


def split_entries(pdf: bytes | Document, entries: Iterable[Sequence[str]]) -> tuple[list[str], int]:
    """Entries (each a few strings: its title, first and last lines) whose strings lie on more than one
    page, and how many entries could be checked (at least two of their strings found exactly once)."""
    doc = read(pdf)
    split, checked = [], 0
    for strings in entries:
        found = [f for f in reading_order(doc, strings) if f.count == 1]
        checked += len(found) >= 2
        if len({f.page for f in found}) > 1:
            split.append(f"{strings[0]}: pages {sorted(f.page for f in found)}")
    return split, checked


def order_problems(pdf: bytes | Document, groups: dict[str, list[str]], expected: Sequence[str]) -> list[str]:
    """What is wrong with the reading order of groups of strings (a resume's sections): a string of one
    group read among another group's (interleaved columns), or groups read out of ``expected`` order.
    Only strings found exactly once take part, so a word shared by two sections proves nothing."""
    doc = read(pdf)
    located = {name: [f for f in reading_order(doc, strings) if f.count == 1] for name, strings in groups.items()}
    spans = {name: (found[0], found[-1]) for name, found in located.items() if found}
    problems = []
    for name, found in located.items():
        for item in found:
            for other, (first, last) in spans.items():
                if other != name and first.position < item.position < last.position:
                    problems.append(f"{name} {item.string!r} (page {item.page}) is read inside {other}, between "
                                    f"{first.string!r} (page {first.page}) and {last.string!r} (page {last.page})")
                    break
    actual = sorted(spans, key=lambda name: spans[name][0].position)
    wanted = [name for name in expected if name in spans]
    if actual != wanted:
        problems.append(f"sections read in the order {actual}, expected {wanted}")
    return problems


def bad_line_breaks(pdf: bytes | Document) -> list[Segment]:
    """Lines starting with CJK closing punctuation or ending with opening punctuation (kinsoku)."""
    return [s for s in read(pdf).segments if s.text[0] in NO_LINE_START or s.text[-1] in NO_LINE_END]


def _alnum_run(text: str, from_end: bool) -> str:
    chars = reversed(text) if from_end else iter(text)
    run = []
    for char in chars:
        if not (char.isascii() and char.isalnum()):
            break
        run.append(char)
    return "".join(reversed(run) if from_end else run)


def broken_words(pdf: bytes | Document, words: Iterable[str]) -> list[str]:
    """Words of ``words`` (case-folded) split between the end of one line and the start of the next."""
    words = {w.casefold() for w in words}
    segments = read(pdf).segments
    broken = []
    for before, after in zip(segments, segments[1:]):
        head, tail = _alnum_run(before.text, True), _alnum_run(after.text, False)
        if head and tail and (head + tail).casefold() in words:
            broken.append(f"{head}|{tail}: {before!r} / {after!r}")
    return broken


def small_glyphs(pdf: bytes | Document, min_size: float = MIN_GLYPH_SIZE) -> list[Char]:
    """Glyphs whose em box is under ``min_size`` points high. The em box is measured on the page, so
    it shows text shrunk by a transformation, which the font size in the text state would not."""
    return [c for page in read(pdf).pages for c in page.chars
            if not c.text.isspace() and c.box[2] > c.box[0] and c.height < min_size]


def lines_per_page(pdf: bytes | Document) -> list[int]:
    """The number of text lines (distinct baselines, to half a point) on each page."""
    doc = read(pdf)
    baselines: list[set[int]] = [set() for _ in doc.pages]
    for segment in doc.segments:
        baselines[segment.page - 1].add(round(segment.chars[0].line[1] * 2))
    return [len(lines) for lines in baselines]
