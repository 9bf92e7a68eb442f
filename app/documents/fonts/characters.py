"""Which face draws each character of a document: the kind of run it belongs to.

The built-in PDF fonts draw Windows-1252 only (kind None: the template's own fonts). Every other
character is given a kind, and each kind a fallback face (``family``):

- a script with a face of its own (``SCRIPT_KINDS``, by the character's Unicode script): Arabic,
  Hebrew, the Indic scripts, Thai, Khmer, Lao, Myanmar, Armenian, Georgian, Ethiopic; Chinese,
  Japanese and Korean (``CJK``, with the CJK symbols and full-width forms);
- ``EMOJI``: an emoji and the sequence it starts (a ZWJ sequence, a skin tone, a flag, a keycap, a
  tag sequence), drawn by Noto Emoji as one glyph. A character that has a text and an emoji form
  (★ ☎ ✉ ✓ ♫) is drawn as text unless VS16 (U+FE0F) asks for the emoji, and an emoji whose default
  is the emoji form (🚀 ✅, ``_EMOJI_DEFAULT``) as emoji unless VS15 (U+FE0E) asks for text;
- any other character, in the first face that has it: ``LATIN`` (other Latin, Greek and Cyrillic
  letters, punctuation, currency: Noto Sans, or Noto Serif in a serif template), ``SYMBOLS``,
  ``SYMBOLS2`` (arrows, dingbats, shapes), ``MATH``, then the emoji and CJK faces;
- ``IGNORED``: a default-ignorable character no run takes (a joiner or variation selector outside a
  run that shapes it, a tag, a stray left-to-right mark): not drawn;
- ``MISSING``: a character no face has (a private-use code, an unassigned one, a script Noto does
  not ship here): drawn as a box, and reported (``Marks.missing``).

A combining mark, a joiner or a variation selector goes with the character before it, so that its
face shapes them together; punctuation a script shares with others (the danda, the Arabic comma,
。) stays in the run of the script around it. Kinds are decided once per process for each
character and face (``_base``); the sequences (emoji, marks) in ``kinds``.
"""
from __future__ import annotations

import functools
import unicodedata

from app.documents.fonts import cuts

LATIN = "latin"
CJK = "cjk"
EMOJI = "emoji"
SYMBOLS = "symbols"
SYMBOLS2 = "symbols2"
MATH = "math"
IGNORED = "ignored"
MISSING = "missing"

# Scripts with a face of their own: ISO 15924 code -> kind -> family.
SCRIPT_KINDS = {
    "Arab": "arabic", "Hebr": "hebrew", "Deva": "devanagari", "Taml": "tamil", "Thai": "thai",
    "Beng": "bengali", "Gujr": "gujarati", "Guru": "gurmukhi", "Knda": "kannada", "Mlym": "malayalam",
    "Orya": "oriya", "Sinh": "sinhala", "Telu": "telugu", "Khmr": "khmer", "Laoo": "lao", "Mymr": "myanmar",
    "Armn": "armenian", "Geor": "georgian", "Ethi": "ethiopic",
    "Hani": CJK, "Hira": CJK, "Kana": CJK, "Hang": CJK, "Bopo": CJK,
}
FAMILIES = {
    "arabic": cuts.ARABIC, "hebrew": cuts.HEBREW, "devanagari": cuts.DEVANAGARI, "tamil": cuts.TAMIL,
    "thai": cuts.THAI, "bengali": "Noto Sans Bengali", "gujarati": "Noto Sans Gujarati",
    "gurmukhi": "Noto Sans Gurmukhi", "kannada": "Noto Sans Kannada", "malayalam": "Noto Sans Malayalam",
    "oriya": "Noto Sans Oriya", "sinhala": "Noto Sans Sinhala", "telugu": "Noto Sans Telugu",
    "khmer": "Noto Sans Khmer", "lao": "Noto Sans Lao", "myanmar": "Noto Sans Myanmar",
    "armenian": "Noto Sans Armenian", "georgian": "Noto Sans Georgian", "ethiopic": "Noto Sans Ethiopic",
    EMOJI: cuts.EMOJI, SYMBOLS: cuts.SYMBOLS, SYMBOLS2: cuts.SYMBOLS2, MATH: cuts.MATH,
    CJK: cuts.CJK["SC"],  # the regions share one character map; faces.py picks the region
}
SCRIPT_CODES = {kind: code for code, kind in SCRIPT_KINDS.items() if kind != CJK}
RIGHT_TO_LEFT = frozenset({"arabic", "hebrew"})
# Scripts whose letters join or stack (never spaced apart) and whose lines may end between two letters.
JOINED = frozenset({"arabic", "devanagari", "tamil", "thai", "bengali", "gujarati", "gurmukhi", "kannada",
                    "malayalam", "oriya", "sinhala", "telugu", "khmer", "lao", "myanmar"})
WRAPPED = frozenset({CJK, "thai", "khmer", "lao", "myanmar"})

# CJK symbols, punctuation and full-width forms: drawn by the CJK face, whose they are.
_CJK_BLOCKS = ((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
               (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF))
# Emoji whose default presentation is the emoji one in the Basic Multilingual Plane (Unicode's
# Emoji_Presentation property there); every pictograph from U+1F000 on is drawn as emoji too.
_EMOJI_DEFAULT = frozenset(
    [0x231A, 0x231B, 0x23E9, 0x23EA, 0x23EB, 0x23EC, 0x23F0, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615,
     *range(0x2648, 0x2654), 0x267F, 0x2693, 0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE,
     0x26D4, 0x26EA, 0x26F2, 0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A, 0x270B, 0x2728, 0x274C, 0x274E,
     0x2753, 0x2754, 0x2755, 0x2757, 0x2795, 0x2796, 0x2797, 0x27B0, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B55])
TEXT_STYLE, EMOJI_STYLE = "\ufe0e", "\ufe0f"
ZWJ, ZWNJ = "\u200d", "\u200c"
KEYCAP = "\u20e3"
_MODIFIERS = range(0x1F3FB, 0x1F400)  # skin tones
_REGIONAL = range(0x1F1E6, 0x1F200)  # flag letters
_TAGS = range(0xE0020, 0xE0080)
# Characters that steer xhtml2pdf's bidirectional algorithm, which takes them out of the line it draws:
# they stay in the text (their kind is None). A left-to-right mark steers nothing it would draw and is
# not taken out when nothing else asks for the algorithm: it is ignored.
BIDI_CONTROLS = frozenset("\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Characters that stay with the one before them: joiners, variation selectors, the grapheme joiner.
_JOINING = frozenset(ZWJ + ZWNJ + "\u034f" + "".join(map(chr, range(0xFE00, 0xFE10)))
                     + "".join(map(chr, range(0xE0100, 0xE01F0))) + "".join(map(chr, range(0x180B, 0x1810))))


# Format characters that are drawn (prepended concatenation marks, interlinear annotation marks).
_VISIBLE_FORMAT = frozenset([*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0xFFF9, 0xFFFA, 0xFFFB,
                             0x110BD, 0x110CD])


def drawable(text: str) -> bool:
    """Whether the built-in PDF fonts (Windows-1252) draw every character of ``text``."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def family(kind: str, serif: bool = False) -> str:
    """The face a kind of run is checked against (the CJK regions share one)."""
    if kind in (LATIN, MISSING):
        return cuts.SERIF if serif else cuts.SANS
    return FAMILIES[kind]


def _covers(kind: str, char: str, serif: bool) -> bool:
    return ord(char) in cuts.coverage(family(kind, serif))


def _scripts():
    """fontTools' Unicode script data, loaded on first use (the share page's start-up never needs it)."""
    from fontTools import unicodedata as scripts_of
    return scripts_of


def _ignorable(char: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point (Cf format characters and the ranges it adds)."""
    code = ord(char)
    return (unicodedata.category(char) == "Cf" and code not in _VISIBLE_FORMAT) \
        or code in (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0) \
        or 0x180B <= code <= 0x180F or 0xFE00 <= code <= 0xFE0F or 0xE0000 <= code <= 0xE0FFF \
        or 0x1BCA0 <= code <= 0x1BCA3 or 0xFFF0 <= code <= 0xFFF8


def _emoji_default(char: str) -> bool:
    code = ord(char)
    return code in _EMOJI_DEFAULT or 0x1F000 <= code <= 0x1FAFF


@functools.lru_cache(maxsize=65536)
def _base(char: str, serif: bool) -> str | None:
    """The kind of ``char`` on its own (``kinds`` then looks at its neighbours)."""
    if drawable(char):
        return None
    if char in BIDI_CONTROLS:
        return None
    if _ignorable(char):
        return IGNORED
    if unicodedata.category(char) in ("Co", "Cn", "Cs"):
        return MISSING  # a private-use glyph some font has means nothing; nor does an unassigned code
    code = ord(char)
    script = _scripts().script(char)
    kind = SCRIPT_KINDS.get(script)
    if kind is None and any(start <= code <= end for start, end in _CJK_BLOCKS):
        kind = CJK
    if kind is not None and _covers(kind, char, serif):
        return kind
    # Punctuation a script shares (the Arabic comma, the danda) after text of another script: its face.
    for code_ in sorted(_scripts().script_extension(char)):
        shared = SCRIPT_KINDS.get(code_)
        if shared is not None and shared != CJK and _covers(shared, char, serif) and not _covers(LATIN, char, serif):
            return shared
    order = (EMOJI, LATIN, SYMBOLS, SYMBOLS2, MATH, CJK) if _emoji_default(char) else \
        (LATIN, SYMBOLS, SYMBOLS2, MATH, EMOJI, CJK)
    return next((kind for kind in order if _covers(kind, char, serif)), MISSING)


def _extends(kind: str | None, char: str, serif: bool) -> bool:
    """Whether ``char`` (a mark, a joiner, punctuation the script shares) stays in a run of ``kind``."""
    if kind in (None, IGNORED, MISSING):
        return False
    if char in _JOINING or unicodedata.category(char) in ("Mn", "Me", "Mc"):
        return _covers(kind, char, serif) or char in _JOINING
    code = SCRIPT_CODES.get(kind)
    return code is not None and code in _scripts().script_extension(char) and _covers(kind, char, serif)


def _emoji_sequence(text: str, start: int, serif: bool) -> int:
    """The end of the emoji sequence that starts at ``start``, or ``start`` when none does."""
    char = text[start]
    following = text[start + 1] if start + 1 < len(text) else ""
    code = ord(char)
    if char in "0123456789#*":  # a keycap: 1️⃣
        end = start + 1 + (following == EMOJI_STYLE)
        return end + 1 if end < len(text) and text[end] == KEYCAP else start
    if code in _REGIONAL:  # a flag is two regional indicators; one alone is a letter in a box
        return start + (2 if following and ord(following) in _REGIONAL else 1)
    if following == TEXT_STYLE or not (_emoji_default(char) or following == EMOJI_STYLE):
        return start
    if not _covers(EMOJI, char, serif):
        return start
    end = start + 1
    while end < len(text):
        nxt = text[end]
        if nxt == EMOJI_STYLE or ord(nxt) in _MODIFIERS or ord(nxt) in _TAGS:
            end += 1
        elif nxt == ZWJ and end + 1 < len(text) and _covers(EMOJI, text[end + 1], serif):
            end += 2
        else:
            break
    return end


def kinds(text: str, serif: bool = False) -> list[str | None]:
    """The kind of each character of ``text`` (see the module's docstring)."""
    out: list[str | None] = []
    index = 0
    while index < len(text):
        end = _emoji_sequence(text, index, serif)
        if end > index:
            out.extend([EMOJI] * (end - index))
            index = end
            continue
        char = text[index]
        previous = out[-1] if out else None
        kind = _base(char, serif)
        if kind != previous and _extends(previous, char, serif):
            kind = previous
        elif kind in (IGNORED, MISSING) and char in _JOINING and previous not in (None, IGNORED, MISSING):
            kind = previous
        out.append(kind)
        index += 1
    return out


def undrawn(text: str, serif: bool = False) -> str:
    """The characters of ``text`` no face draws (drawn as boxes), each once, in their order."""
    seen = dict.fromkeys(char for char, kind in zip(text, kinds(text, serif)) if kind == MISSING)
    return "".join(seen)
