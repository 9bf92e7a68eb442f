"""Characters that stand for others: the bullets word processors paste from symbol fonts.

Word and WPS write a bulleted list whose bullet comes from the Symbol or Wingdings font as a
private-use character: the font's byte at U+F000 + byte (Symbol's bullet 0xB7 is U+F0B7). Pasted
into a form or read from a DOCX or PDF, it is a character no font but that one draws. These are the
ones lists use, by their meaning in those fonts; the importer reads them as list bullets and every
document draws the character they show. Other private-use characters are left as they are.

Also which way a text starts (``starts_right_to_left``), for the documents that print it and the
importer that reads it back.
"""
from __future__ import annotations

import unicodedata

SYMBOL_FONT_BULLETS = {
    "\uf0b7": "\u2022",  # Symbol 0xB7: • bullet (Word's first-level bullet)
    "\uf0a7": "\u25aa",  # Wingdings 0xA7: ▪ small black square (Word's third level)
    "\uf06c": "\u25cf",  # Wingdings 0x6C: ● black circle
    "\uf06e": "\u25a0",  # Wingdings 0x6E: ■ black square
    "\uf071": "\u2751",  # Wingdings 0x71: ❑ shadowed white square
    "\uf075": "\u25c6",  # Wingdings 0x75: ◆ black diamond
    "\uf076": "\u2756",  # Wingdings 0x76: ❖ black diamond minus white X
    "\uf0a8": "\u25c6",  # Symbol 0xA8: ♦ diamond suit, drawn as a bullet
    "\uf0d8": "\u27a2",  # Wingdings 0xD8: ➢ three-D top-lighted arrowhead
    "\uf0e0": "\u2794",  # Wingdings 0xE0: ➔ heavy wide-headed arrow
    "\uf0e8": "\u2794",  # Wingdings 0xE8: ➔
    "\uf0f0": "\u21e8",  # Wingdings 0xF0: ⇨ white right arrow
    "\uf0fc": "\u2713",  # Wingdings 0xFC: ✓ check mark
    "\uf0fe": "\u2611",  # Wingdings 0xFE: ☑ ballot box with check
}
_TABLE = str.maketrans(SYMBOL_FONT_BULLETS)


def symbol_font_bullets(text: str) -> str:
    """``text`` with the symbol fonts' private-use bullets as the characters they show."""
    return text.translate(_TABLE)


def starts_right_to_left(text: str) -> bool | None:
    """Whether the first letter of ``text`` is right to left; None when it has no letter."""
    for char in text:
        direction = unicodedata.bidirectional(char)
        if direction in ("R", "AL"):
            return True
        if direction == "L":
            return False
    return None
