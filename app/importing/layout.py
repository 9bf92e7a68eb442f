"""From the lines ``extract.py`` read to blocks: what a reader takes as one line of the resume.

A PDF breaks a paragraph into lines where the page's width ends; this joins them again. A line
continues the one above when both are in the same column with the same look, it starts where the
one above started its text (or under a bullet's text, hanging), and the one above is full: its
right end plus the next line's first word would pass the column's right edge (the rightmost end
of the lines around it that start near it). A bullet glyph at the start of a line makes the
block a bullet and is dropped.

A ``Block`` keeps its cells (text parts a wide gap or a tab separated) as lists of ``Fragment``:
runs of text of one look (bold, italic, colour), with font size ignored inside a cell so that a
Chinese line whose digits come from a Latin font stays one fragment.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from app.content.characters import SYMBOL_FONT_BULLETS, starts_right_to_left
from app.importing import words
from app.importing.columns import ALIGN, right_edges

# Word's bullets from the Symbol and Wingdings fonts come out of a PDF as private-use characters (not U+F0E0,
# which is also Font Awesome's envelope before an e-mail address).
BULLETS = "•·●▪■◦‣–-—*○►▸✓✔➢➤❖◆◇□" + "".join(sorted(set(SYMBOL_FONT_BULLETS) - {"\uf0e0"}))
_BULLET = re.compile(rf"^\s*[{re.escape(BULLETS)}]\s+")
_BULLET_ONLY = re.compile(rf"^\s*[{re.escape(BULLETS)}]\s*$")
# A C1 control character is no text: a TeX font's glyph with no Unicode mapping reads as one ("\x88", a
# bullet or an icon before a phone number); it is dropped, not taken for a list's marker.
_C1 = re.compile(r"[\u0080-\u009f]")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
_LATIN = re.compile(r"[A-Za-z0-9]")
_STARTS_ITEM = re.compile(r"^(?:https?://|www\.|[\w.+-]+@[\w-]+\.)", re.IGNORECASE)
SEPARATORS = ("|", "｜", "/", "·", "•")
_URL_TAIL = re.compile(r"(https?://|www\.)\S*$", re.IGNORECASE)
WRAP_SLACK = 2.0     # points: a full line ends this close to where the next word would not fit
LIST_INDENT = (12.0, 45.0)   # points a list item without a written marker stands in from the text above
MARGIN_HEADING = 1.5  # points a heading beside its first entry is larger than the entry's text
PARAGRAPH_PITCH = 12.0  # points: the gap a DOCX paragraph is taken to have, before its own space


@dataclass
class Fragment:
    text: str
    bold: bool = False
    italic: bool = False
    colour: str = ""
    size: float = 0.0
    x1: float = 0.0         # where it ends on the page (PDF)


@dataclass
class Block:
    cells: list[list[Fragment]]
    page: int = 1
    x0: float = 0.0
    x1: float = 0.0
    top: float = 0.0
    bottom: float = 0.0
    size: float = 0.0
    bullet: bool = False
    style: str = ""           # DOCX paragraph style
    level: int | None = None  # DOCX heading level (0: Title)
    signature: tuple = ()     # the look of its first fragment, to compare headings
    index: int = 0            # position in reading order
    extra: dict = field(default_factory=dict)

    @property
    def texts(self) -> list[str]:
        return [clean(" ".join(f.text for f in cell)) for cell in self.cells]

    @property
    def text(self) -> str:
        return clean(" ".join(t for t in self.texts if t))

    @property
    def raw_texts(self) -> list[str]:
        """The cells' text as drawn: no-break spaces kept (Word's chips keep a label's words together)."""
        return ["".join(f.text for f in cell) for cell in self.cells]

    @property
    def fragments(self) -> list[Fragment]:
        return [f for cell in self.cells for f in cell]

    @property
    def bold(self) -> bool:
        chars = [(len(f.text.strip()), f.bold) for f in self.fragments]
        total = sum(n for n, _ in chars)
        return total > 0 and sum(n for n, b in chars if b) * 2 > total


# Characters a PDF's fonts map to forms no one types: Latin ligatures ("ﬁ"), Kangxi radicals and CJK
# compatibility ideographs that Chromium's fonts give for common ideographs ("⽊" for "木"), full-width
# Latin letters, digits and "＠" (not full-width punctuation, which Chinese and Japanese text is written
# with). Each becomes what its compatibility decomposition says (NFKC).
_COMPATIBILITY = re.compile(r"[\ufb00-\ufb06\u2e80-\u2fdf\uf900-\ufaff\uff10-\uff19\uff20-\uff3a\uff41-\uff5a]")


def clean(text: str) -> str:
    """Whitespace collapsed; spaces next to CJK characters kept as given (a reader keeps them)."""
    text = _C1.sub("", text.replace("\u00a0", " ").replace("\u200b", ""))
    text = unicodedata.normalize("NFC", _COMPATIBILITY.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text))
    return " ".join(text.split())


# Scripts written without spaces between words (Thai, Lao, Myanmar, Khmer): a line that breaks between two
# of their letters broke inside a sentence, where nothing was typed.
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]")


def is_cjk(char: str) -> bool:
    return bool(_CJK.match(char))


def _italics(runs: list[dict]) -> list[bool]:
    """Each run's slant, a Chinese run taking its neighbour's: a CJK fallback font has no italic, so
    the Chinese words of an italic line are drawn upright."""
    slants = [bool(run.get("italic")) for run in runs]
    latin = [bool(_LATIN.search(run["t"])) for run in runs]
    for index, run in enumerate(runs):
        if latin[index] or not any(map(is_cjk, run["t"])):
            continue
        for other in list(range(index - 1, -1, -1)) + list(range(index + 1, len(runs))):
            same = (runs[other].get("bold"), runs[other].get("colour")) == (run.get("bold"), run.get("colour"))
            if latin[other] and same:
                slants[index] = slants[other]
                break
    return slants


def _fragments(runs: list[dict]) -> list[Fragment]:
    fragments: list[Fragment] = []
    for run, italic in zip(runs, _italics(runs)):
        text = run["t"]
        look = (bool(run.get("bold")), italic, run.get("colour") or "")
        if fragments and (fragments[-1].bold, fragments[-1].italic, fragments[-1].colour) == look:
            fragments[-1].text += text
            fragments[-1].size = max(fragments[-1].size, float(run.get("size") or 0))
        elif fragments and not text.strip():
            fragments[-1].text += text
        else:
            fragments.append(Fragment(text, *look, float(run.get("size") or 0)))
        fragments[-1].x1 = max(fragments[-1].x1, float(run.get("x1") or 0))
    return [f for f in fragments if f.text.strip()]


def _block(line: dict) -> Block | None:
    made = [_fragments(cell) for cell in line["cells"]]
    cells = [cell for cell in made if cell]
    if not cells:
        return None
    block = Block(cells, page=line.get("page", 1), x0=line.get("x0", 0.0), x1=line.get("x1", 0.0),
                  top=line.get("top", 0.0), bottom=line.get("bottom", 0.0), size=_main_size(line),
                  bullet=bool(line.get("bullet")), style=line.get("style") or "", level=line.get("level"))
    block.extra["w1"] = line.get("w1") or 0.0
    block.extra["base"] = block.extra["last_base"] = line.get("base") or 0.0
    block.extra["para"] = bool(line.get("para"))
    block.extra["space"] = float(line.get("space") or 0.0)
    places = line.get("cell_at") or ([] if line.get("para") else [_cell_x0(cell) for cell in line["cells"]])
    if places:   # where each cell stands, for a table's columns (``tables.py``)
        block.extra["cell_at"] = [at for at, cell in zip(places, made) if cell]
    if "row" in line:
        block.extra["row"] = line["row"]
    _strip_bullet(block, line)
    if not block.cells:
        return None
    first = block.cells[0][0]
    first_size = next((float(r.get("size") or 0) for cell in line["cells"] for r in cell if r["t"].strip()), 0.0)
    block.signature = (block.style if block.style.lower().startswith(("heading", "title", "sidebar")) else "",
                       round(first_size * 2) / 2, first.bold, first.italic, first.colour)
    return block


def _cell_x0(cell: list[dict]) -> float:
    return min((float(run.get("x0") or 0) for run in cell if run["t"].strip()), default=0.0)


def _main_size(line: dict) -> float:
    """The size most of the line's characters have (a bullet glyph or a Latin digit among Chinese
    text drawn in another font does not count)."""
    counts: dict[float, int] = {}
    for cell in line["cells"]:
        for run in cell:
            text = run["t"].strip()
            if text and not _BULLET_ONLY.match(text):
                size = float(run.get("size") or 0)
                counts[size] = counts.get(size, 0) + len(text) * (2 if any(map(is_cjk, text)) else 1)
    return max(counts, key=counts.get) if counts else 0.0


def _strip_bullet(block: Block, line: dict) -> None:
    """A leading bullet glyph (its own fragment or the text's start) makes a bullet block."""
    first_cell = block.cells[0]
    first = first_cell[0]
    if _BULLET_ONLY.match(first.text) and (len(first_cell) > 1 or len(block.cells) > 1):
        first_cell.pop(0)
        if not first_cell:
            block.cells.pop(0)
            if block.extra.get("cell_at"):
                block.extra["cell_at"].pop(0)
        block.bullet = True
        block.extra["text_x0"], block.extra["text_x1"] = _text_x0(line), _text_x1(line)
    elif _BULLET.match(first.text):
        first.text = _BULLET.sub("", first.text, count=1)
        block.bullet = True
        block.extra["text_x0"], block.extra["text_x1"] = _text_x0(line), _text_x1(line)


def _text_x0(line: dict) -> float:
    """Where the text after a bullet glyph starts (PDF), for hanging continuation lines."""
    runs = [run for cell in line["cells"] for run in cell if run["t"].strip()]
    for run in runs[1:]:
        if "x0" in run:
            return float(run["x0"])
    return float(line.get("x0") or 0.0)


def _text_x1(line: dict) -> float:
    """Where the text after a bullet glyph ends on the right: a right-to-left line's bullet stands
    right of its text."""
    runs = [run for cell in line["cells"] for run in cell if run["t"].strip()]
    for run in runs[1:]:
        if "x1" in run:
            return float(run["x1"])
    return float(line.get("x1") or 0.0)


def _margin_headings(lines: list[dict]) -> list[dict]:
    """A section's heading set in a margin column, level with its first entry ("Work  Senior Developer",
    moderncv's "教育背景  计算机科学博士, ..."): PDFium gives both as one line. The heading, larger than
    the text after it (a label such as "Languages: Python" in a skills table is not) and naming a
    section, becomes a line of its own."""
    out: list[dict] = []
    for line in lines:
        cells = line.get("cells") or []
        runs = cells[0] if cells else []
        first = runs[0] if runs else None
        if len(runs) == 1 and len(cells) > 1:  # the heading a cell of its own, a wide gap from the entry
            runs = [first, *cells[1]]
            cells = [runs, *cells[2:]]
        rest = [run for run in runs[1:] if run["t"].strip()]
        if (first is None or not rest or line.get("para") or words.section_of(first["t"]) is None
                or float(first.get("size") or 0) < float(rest[0].get("size") or 0) + MARGIN_HEADING
                or words.section_of("".join(run["t"] for run in runs)) is not None):  # "工作经历 EXPERIENCE"
            out.append(line)
            continue
        heading = {**line, "cells": [[first]], "x1": float(first.get("x1") or line.get("x1") or 0.0), "w1": None}
        body = {**line, "cells": [runs[1:], *cells[1:]], "w1": None,
                "x0": float(rest[0].get("x0") or line.get("x0") or 0.0)}
        out += [heading, body]
    return out


def blocks(lines: list[dict]) -> list[Block]:
    """The lines as blocks, wrapped PDF lines joined, in reading order."""
    made: list[Block] = []
    raw = [b for b in (_block(line) for line in _margin_headings(lines)) if b is not None]
    edges = right_edges(raw)
    for index, block in enumerate(raw):
        previous = made[-1] if made else None
        if previous is not None and _continues(previous, block, edges[index - 1] if index else None, edges[index]):
            _join(previous, block)
            continue
        made.append(block)
    _markerless_bullets(made)
    for index, block in enumerate(made):
        block.index = index
        previous = made[index - 1] if index else None
        if previous is not None and previous.page == block.page and not block.extra["para"]:
            # From the baseline above to this one: more than a line's pitch where one list ends.
            block.extra["gap"] = block.extra["base"] - previous.extra["last_base"]
        elif previous is not None and block.extra["para"]:
            # A DOCX paragraph has no place, but the space set before it says the same: a list that
            # starts after another (a description written as bullets, then the highlights).
            block.extra["gap"] = PARAGRAPH_PITCH + block.extra["space"]
    return made


def _markerless_bullets(made: list[Block]) -> None:
    """List items whose marker is drawn rather than written (Chromium prints a bullet as a shape): a
    PDF line indented by a list's indent (``LIST_INDENT``) from the line above, in the same look
    as it, not bold, and no larger than the body text (a theme's headings may be indented under a
    larger one, "ABOUT" under "BACKGROUND")."""
    sizes: dict[float, int] = {}
    for block in made:
        sizes[block.size] = sizes.get(block.size, 0) + len(block.text)
    body = max(sizes, key=sizes.get) if sizes else 0.0
    for above, block in zip(made, made[1:]):
        if block.bullet or block.extra["para"] or block.page != above.page or len(block.cells) > 1 or block.bold \
                or block.size > body + 1.0:
            continue
        base = above.extra.get("list_x0", above.x0)
        indent = block.x0 - base
        if LIST_INDENT[0] <= indent <= LIST_INDENT[1] and abs(block.size - above.size) <= 0.5 and not above.bold:
            block.bullet = True
            block.extra["list_x0"] = base
        elif above.extra.get("list_x0") is not None and abs(block.x0 - above.x0) <= ALIGN \
                and abs(block.size - above.size) <= 0.5:
            block.bullet = True
            block.extra["list_x0"] = base


def _continues(above: Block, below: Block, edge: float | None, _below_edge: float | None) -> bool:
    if above.extra.get("para") or below.extra.get("para") or below.bullet:
        return False
    if above.page != below.page or len(above.cells) > 1 or len(below.cells) > 1:
        return False
    tail, head = above.text[-1:], below.text[:1]
    if _STARTS_ITEM.match(below.text):
        return False    # an address or e-mail starts a line of its own
    if words.section_of(above.text):
        return False    # a heading in a script without capitals, in the look of the lines under it
    if _one_word(above.text) and _one_word(below.text) and not _URL_TAIL.search(above.text):
        return False    # a column of one-word lines is a list ("Python", "Flask"), not a paragraph
    # A line of items ("a | b | c") wraps only inside a Chinese word that an unbreakable item after
    # it pushed over ("知" / "乎: https://..."), however far from the edge it ended.
    items = any(_BULLET_ONLY.match(f.text) or f.text.strip() in SEPARATORS for f in above.fragments[1:])
    if items and not (tail and head and tail.isalpha() and head.isalpha() and is_cjk(tail) and is_cjk(head)):
        return False
    height = above.extra.get("last_height") or max(above.bottom - above.top, 1.0)
    if not (-1.0 <= below.top - above.bottom <= 0.6 * height):
        return False
    a, b = above.fragments[-1], below.fragments[0]
    if (a.bold, a.italic, a.colour) != (b.bold, b.italic, b.colour) or abs(above.size - below.size) > 0.5:
        return False
    kinds = {unicodedata.bidirectional(char) for char in below.text}
    if starts_right_to_left(above.text) and (kinds & {"R", "AL"} or "L" not in kinds):
        return _continues_leftwards(above, below)
    starts = [above.extra.get("joined_x0", above.extra.get("text_x0", above.x0))]
    if above.bullet:
        starts.append(above.x0)
    if not any(abs(below.x0 - start) <= max(ALIGN, above.size * 0.6) for start in starts):
        return False
    if items:   # the first item of the line below did not fit after the last one above
        first_item = next((f.x1 for f, after in zip(below.fragments, below.fragments[1:] + [None])
                           if after is None or _BULLET_ONLY.match(after.text) or after.text.strip() in SEPARATORS),
                          below.x1)
        return edge is not None and above.extra.get("last_x1", above.x1) + (first_item - below.x0) >= edge - WRAP_SLACK
    if edge is None:
        return False
    right = above.extra.get("last_x1", above.x1)
    first_word = below.extra.get("w1") or 0.0
    return right + first_word + above.size * 0.3 >= edge - WRAP_SLACK


def _continues_leftwards(above: Block, below: Block) -> bool:
    """Right-to-left text wraps on the left: the line below starts (on the right) where the text above
    starts, and the line above reached so far left that the first word below would not have fitted
    (the column's left edge is the further left of the two)."""
    ends = [above.extra.get("joined_x1", above.extra.get("text_x1", above.x1))]
    if above.bullet:
        ends.append(above.x1)
    if not any(abs(below.x1 - end) <= max(ALIGN, above.size * 0.6) for end in ends):
        return False
    left = above.extra.get("last_x0", above.x0)
    edge = min(left, below.x0)
    first_word = below.extra.get("w1") or 0.0
    return left - first_word - above.size * 0.3 <= edge + WRAP_SLACK


def _one_word(text: str) -> bool:
    """A line of one word of a script that puts spaces between words."""
    return " " not in text.strip() and not any(is_cjk(char) or _UNSPACED.match(char) for char in text)


def _join(above: Block, below: Block) -> None:
    tail, head = above.text, below.text
    glue = " "
    if (tail and is_cjk(tail[-1])) or (head and is_cjk(head[0])) or (
            tail and head and _UNSPACED.match(tail[-1]) and _UNSPACED.match(head[0])):
        glue = ""
    elif _URL_TAIL.search(tail) and " " not in head:
        glue = ""   # a long address broken across lines
    cell = above.cells[-1]
    first = below.cells[0]
    last_look = (cell[-1].bold, cell[-1].italic, cell[-1].colour)
    if first and last_look == (first[0].bold, first[0].italic, first[0].colour):
        cell[-1].text = cell[-1].text.rstrip() + glue + first[0].text.lstrip()
        cell.extend(first[1:])
    else:
        if glue:
            cell[-1].text = cell[-1].text.rstrip() + glue
        cell.extend(first)
    above.extra.setdefault("joined_x0", below.x0)
    above.extra.setdefault("joined_x1", below.x1)
    above.extra["last_x0"] = below.x0
    above.extra["last_x1"], above.extra["last_height"] = below.x1, max(below.bottom - below.top, 1.0)
    above.extra["last_base"] = below.extra["base"]
    above.x1 = max(above.x1, below.x1)
    above.bottom = below.bottom
