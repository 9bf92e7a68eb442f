"""DOCX formatting python-docx has no API for: borders, shading, letter spacing, frames.

WordprocessingML is strict about the order of a properties element's children
(Word calls a file with ``w:shd`` before ``w:pBdr`` corrupt), so every element is
put in its place by ``put``, from the schema's sequences below.
"""
from __future__ import annotations

from docx.enum.text import WD_TAB_ALIGNMENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Emu

# CT_RPr and CT_PPrBase child sequences (ECMA-376 part 1, 17.3).
RPR = ("rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike", "outline",
       "shadow", "emboss", "imprint", "noProof", "snapToGrid", "vanish", "webHidden", "color", "spacing",
       "w", "kern", "position", "sz", "szCs", "highlight", "u", "effect", "bdr", "shd", "fitText",
       "vertAlign", "rtl", "cs", "em", "lang", "eastAsianLayout", "specVanish", "oMath")
PPR = ("pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr",
       "suppressLineNumbers", "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap",
       "overflowPunct", "topLinePunct", "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd",
       "snapToGrid", "spacing", "ind", "contextualSpacing", "mirrorIndents", "suppressOverlap", "jc",
       "textDirection", "textAlignment", "textboxTightWrap", "outlineLvl", "divId", "cnfStyle", "rPr",
       "sectPr", "pPrChange")
SIDES = ("top", "left", "bottom", "right")


def put(parent, tag: str, order: tuple[str, ...], **attrs: str):
    """Replace ``parent``'s ``w:tag`` child by a new one with ``attrs``, at its place in ``order``."""
    old = parent.find(qn(f"w:{tag}"))
    if old is not None:
        parent.remove(old)
    element = OxmlElement(f"w:{tag}")
    for name, value in attrs.items():
        element.set(qn(f"w:{name}"), str(value))
    later = {qn(f"w:{t}") for t in order[order.index(tag) + 1:]}
    following = next((child for child in parent if child.tag in later), None)
    if following is None:
        parent.append(element)
    else:
        following.addprevious(element)
    return element


def _border(parent, side: str, colour: str, size_pt: float, style: str = "single", space: float = 1) -> None:
    """A border edge: ``w:sz`` counts eighths of a point, ``w:space`` points."""
    element = parent.find(qn(f"w:{side}"))
    if element is None:
        element = OxmlElement(f"w:{side}")
        later = {qn(f"w:{s}") for s in SIDES[SIDES.index(side) + 1:]} if side in SIDES else set()
        following = next((child for child in parent if child.tag in later), None)
        parent.append(element) if following is None else following.addprevious(element)
    for name, value in (("val", style), ("sz", round(size_pt * 8)), ("space", round(space)), ("color", colour)):
        element.set(qn(f"w:{name}"), str(value))


def paragraph_border(target, side: str, colour: str, size_pt: float, *, style: str = "single",
                     space: float = 1) -> None:
    """A border on one side of a paragraph (``target``: a paragraph or a paragraph style)."""
    ppr = target._element.get_or_add_pPr()
    borders = ppr.find(qn("w:pBdr"))
    if borders is None:
        borders = put(ppr, "pBdr", PPR)
    _border(borders, side, colour, size_pt, style, space)


def clear_paragraph_borders(style) -> None:
    ppr = style._element.get_or_add_pPr()
    borders = ppr.find(qn("w:pBdr"))
    if borders is not None:
        ppr.remove(borders)


def paragraph_shading(paragraph, fill: str) -> None:
    put(paragraph._p.get_or_add_pPr(), "shd", PPR, val="clear", color="auto", fill=fill)


def run_shading(run, fill: str) -> None:
    put(run._r.get_or_add_rPr(), "shd", RPR, val="clear", color="auto", fill=fill)


def run_border(run, colour: str, size_pt: float = 0.75) -> None:
    """A box around the run; Word joins the boxes of adjacent runs, so chips are spaced by plain runs."""
    put(run._r.get_or_add_rPr(), "bdr", RPR, val="single", sz=round(size_pt * 8), space=0, color=colour)


def letter_spacing(target, points: float) -> None:
    """Character spacing (CSS ``letter-spacing``) on a run or a style, in twentieths of a point."""
    element = target._element
    put(element.get_or_add_rPr(), "spacing", RPR, val=round(points * 20))


def right_tab(paragraph, position: Emu) -> None:
    """A right-aligned tab stop: the entry's dates flush with the right margin, as in the templates."""
    paragraph.paragraph_format.tab_stops.add_tab_stop(position, WD_TAB_ALIGNMENT.RIGHT)


def frame(ppr, width: Emu, gap: Emu) -> None:
    """Put the paragraph in a frame at the left margin, level with the paragraph after the frame,
    ``width`` wide, text wrapping beside it at ``gap``; paragraphs with equal frames share one."""
    put(ppr, "framePr", PPR, w=int(width) // 635, hSpace=int(gap) // 635, wrap="around",
        vAnchor="text", hAnchor="margin", x=0, y=1)
