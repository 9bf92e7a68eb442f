"""DOCX fonts: a Latin font a Word user has, and an East Asian font for every CJK run.

Word picks a font per character from a run's ``w:rFonts``: ``w:ascii``/``w:hAnsi``
for Latin text, ``w:eastAsia`` for CJK. The styles name both (see ``docx_styles``),
and ``add_text`` goes one step further: it splits text into runs by script and
gives every run holding CJK characters its own ``w:eastAsia`` font, a
``w:hint="eastAsia"`` (so the CJK punctuation and neutral characters inside it,
quotes or the middle dot, are drawn by the CJK font too) and a ``w:lang
w:eastAsia`` (so Word and LibreOffice choose the right glyph forms and line
breaking rules). Latin runs keep the layout's Latin font, so a serif template stays
serif around Chinese words. Bold and italic are set on each run, CJK ones included:
Word emboldens a CJK face that has no bold weight, so bold Chinese stays bold.

Which East Asian font: the name must be one Word finds, since a DOCX carries no
fonts. "Microsoft YaHei" (a sans, with a real bold weight) ships with every Windows
since Vista and with Office for Mac; "SimSun" (a Song/Ming serif) with every Windows,
for serif layouts. Where neither is installed (Linux, LibreOffice) the application
substitutes by the run's language tag, zh-CN, which fontconfig answers with a
Simplified Chinese face such as Noto Sans CJK SC, the family our PDFs use. A
template whose CSS names a CJK family Word knows keeps it (``east_asian_font``).
Japanese and Korean runs get a font and language of their own.

Complex scripts (Arabic, Hebrew, Devanagari, Bengali, Tamil, Thai) are drawn by Word with a run's
``w:cs`` font, bold and italic as ``w:bCs``/``w:iCs`` and its size as ``w:szCs``: each such run
names the font Word has for its script on Windows and Office for Mac (``COMPLEX``), is tagged with
its language (``w:lang w:bidi``), and, right to left, is marked ``w:rtl``; a paragraph that starts
right to left (its first letter is Arabic or Hebrew) is marked ``w:bidi``. Neutral characters
(spaces, punctuation) between two letters of such a script stay in its run, so Word's bidirectional
ordering keeps them in place.
"""
from __future__ import annotations

import re
import unicodedata

from docx.oxml.ns import qn
from docx.shared import Pt, RGBColor

from app.documents.fonts import scripts
from app.documents.docx import parts

CJK_SANS = "Microsoft YaHei"
CJK_SERIF = "SimSun"
# A resume in Traditional Chinese: the Traditional faces Windows and Office ship, tagged zh-TW.
TRADITIONAL = {CJK_SANS: "Microsoft JhengHei", CJK_SERIF: "PMingLiU"}
JAPANESE_FONT = "Yu Gothic"
KOREAN_FONT = "Malgun Gothic"
# Families Word can be expected to have (Windows and Office for Mac), as Word spells them.
OFFICE_FAMILIES = ("Aptos", "Arial", "Arial Narrow", "Book Antiqua", "Calibri", "Cambria", "Candara",
                   "Century Gothic", "Consolas", "Constantia", "Corbel", "Courier New", "Franklin Gothic Medium",
                   "Garamond", "Georgia", "Gill Sans MT", "Palatino Linotype", "Segoe UI", "Tahoma",
                   "Times New Roman", "Trebuchet MS", "Verdana")
OFFICE_FONTS = {family.lower(): family for family in OFFICE_FAMILIES}
# CSS families Word lacks, and the Office family that looks the closest.
SUBSTITUTES = {
    "helvetica": "Arial", "helvetica neue": "Arial", "liberation sans": "Arial",
    "arimo": "Arial", "inter": "Arial", "roboto": "Arial", "open sans": "Segoe UI",
    "noto sans": "Segoe UI", "dejavu sans": "Verdana", "lucida grande": "Segoe UI",
    "lucida sans unicode": "Segoe UI", "times": "Times New Roman", "liberation serif": "Times New Roman",
    "tinos": "Times New Roman", "noto serif": "Cambria", "dejavu serif": "Cambria",
    "palatino": "Palatino Linotype", "baskerville": "Book Antiqua", "source serif pro": "Cambria",
}
GENERIC = {"serif": "Cambria", "sans-serif": "Calibri", "monospace": "Consolas",
           "system-ui": "Segoe UI", "cursive": "Calibri", "fantasy": "Calibri"}
SERIF_FAMILIES = {"georgia", "times new roman", "times", "cambria", "garamond", "book antiqua",
                  "palatino linotype", "palatino", "constantia", "liberation serif", "dejavu serif",
                  "noto serif", "baskerville", "tinos", "source serif pro", "serif"}
# CJK families a template may name: Word's own are kept; the others map to a Word font.
CJK_FAMILIES = {
    "microsoft yahei": CJK_SANS, "微软雅黑": CJK_SANS, "simsun": CJK_SERIF, "宋体": CJK_SERIF,
    "simhei": "SimHei", "黑体": "SimHei", "dengxian": "DengXian", "等线": "DengXian",
    "kaiti": "KaiTi", "楷体": "KaiTi", "fangsong": "FangSong", "仿宋": "FangSong",
    "noto sans cjk sc": CJK_SANS, "noto sans sc": CJK_SANS, "source han sans sc": CJK_SANS,
    "source han sans cn": CJK_SANS, "pingfang sc": CJK_SANS, "hiragino sans gb": CJK_SANS,
    "wenquanyi micro hei": CJK_SANS, "wenquanyi zen hei": CJK_SANS, "stheiti": CJK_SANS,
    "noto serif cjk sc": CJK_SERIF, "noto serif sc": CJK_SERIF, "source han serif sc": CJK_SERIF,
    "source han serif cn": CJK_SERIF, "songti sc": CJK_SERIF, "stsong": CJK_SERIF,
}

# Han (with extensions and compatibility forms), CJK punctuation, kana, Hangul, Bopomofo,
# full-width forms: the characters Word draws with the w:eastAsia font.
_HAN = "\u2e80-\u2fdf\u3000-\u303f\u3190-\u319f\u31c0-\u31ef\u3200-\u33ff\u3400-\u4dbf\u4e00-\u9fff" \
       "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f"
_KANA = "\u3040-\u30ff\u31f0-\u31ff"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_BOPOMOFO = "\u3100-\u312f\u31a0-\u31bf"
CJK = re.compile(f"[{_HAN}{_KANA}{_HANGUL}{_BOPOMOFO}]")
_KANA_RE = re.compile(f"[{_KANA}]")
_HANGUL_RE = re.compile(f"[{_HANGUL}]")
# (script, its characters, the font Word has for it, its language tag, right to left)
COMPLEX = (
    ("arabic", "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff", "Arial", "ar-SA", True),
    ("hebrew", "\u0590-\u05ff\ufb1d-\ufb4f", "Arial", "he-IL", True),
    ("devanagari", "\u0900-\u097f\ua8e0-\ua8ff", "Nirmala UI", "hi-IN", False),
    ("bengali", "\u0980-\u09ff", "Nirmala UI", "bn-IN", False),
    ("tamil", "\u0b80-\u0bff", "Nirmala UI", "ta-IN", False),
    ("thai", "\u0e00-\u0e7f", "Leelawadee UI", "th-TH", False),
)
_COMPLEX = [(name, re.compile(f"[{chars}]"), font, lang, rtl) for name, chars, font, lang, rtl in COMPLEX]
COMPLEX_FONTS = {name: (font, lang, rtl) for name, _, font, lang, rtl in COMPLEX}
# Spaces join the run they sit in; punctuation Chinese text shares with Latin text (quotes, dashes,
# the middle dot) joins a CJK run only between CJK characters, so "工程师 — Café" keeps a Latin dash.
# Digits are Latin: Word draws them with the Latin font, which is what a reader expects in "2021年".
_SPACE = re.compile(r"\s")
_SHARED = re.compile(r"[\u00b7\u2010-\u2027]")


def families(css_value: str) -> list[str]:
    """The families of a CSS ``font-family`` value, unquoted, in order."""
    return [f.strip().strip("\"'").strip() for f in css_value.split(",") if f.strip().strip("\"'").strip()]


def latin_font(css_value: str, default: str = "Calibri") -> str:
    """The first family of the list that Word has, or the closest Office family to it."""
    for family in families(css_value):
        key = family.lower()
        if key in OFFICE_FONTS:
            return OFFICE_FONTS[key]
        if key in SUBSTITUTES:
            return SUBSTITUTES[key]
        if key in GENERIC:
            return GENERIC[key]
    return default


def is_serif(css_value: str) -> bool:
    """Whether the list's first family Word would use (or its generic fallback) is a serif."""
    for family in families(css_value):
        key = family.lower()
        if key in SERIF_FAMILIES:
            return True
        if key in OFFICE_FONTS or key in SUBSTITUTES or key in GENERIC:
            return False
    return False


def east_asian_font(css_value: str, serif: bool) -> str:
    """A CJK family the CSS names (as Word knows it), else YaHei, or SimSun for a serif design."""
    for family in families(css_value):
        if family.lower() in CJK_FAMILIES:
            return CJK_FAMILIES[family.lower()]
    return CJK_SERIF if serif else CJK_SANS


def _script(char: str) -> str:
    """"cjk", a complex script's name (``COMPLEX``), or "latin" (the run's default fonts)."""
    if CJK.match(char):
        return "cjk"
    for name, pattern, *_ in _COMPLEX:
        if pattern.match(char):
            return name
    return "latin"


def _neutral(char: str) -> bool:
    return unicodedata.category(char)[0] in "PSZ"


def script_runs(text: str) -> list[tuple[str, str]]:
    """``text`` cut into (piece, script) runs, script as ``_script`` names it (see ``_SPACE`` and
    ``_SHARED`` for what joins a CJK run; a neutral character between two letters of a complex script
    joins that script's run)."""
    pieces: list[tuple[str, str]] = []
    for index, char in enumerate(text):
        script = _script(char)
        if pieces and _SHARED.match(char) and pieces[-1][1] == "cjk":
            after = text[index + 1:].lstrip()
            script = "cjk" if after and CJK.match(after[0]) else "latin"
        elif pieces and script == "latin" and pieces[-1][1] in COMPLEX_FONTS and _neutral(char):
            after = next((c for c in text[index + 1:] if not _neutral(c)), "")
            if after and _script(after) == pieces[-1][1]:
                script = pieces[-1][1]
        if pieces and (script == pieces[-1][1] or _SPACE.match(char)):
            pieces[-1] = (pieces[-1][0] + char, pieces[-1][1])
        else:
            pieces.append((char, script))
    return pieces


def starts_right_to_left(text: str) -> bool:
    """Whether the first letter of ``text`` with a direction of its own is Arabic or Hebrew."""
    return bool(scripts.starts_right_to_left(text))


def _cjk_font_and_lang(text: str, chinese_font: str) -> tuple[str, str]:
    if _HANGUL_RE.search(text):
        return KOREAN_FONT, "ko-KR"
    if _KANA_RE.search(text):
        return JAPANESE_FONT, "ja-JP"
    return chinese_font, "zh-TW" if chinese_font in TRADITIONAL.values() else "zh-CN"


def mark_east_asian(run, font: str, text: str | None = None) -> None:
    """Name ``font`` as the run's East Asian font, hinted and language-tagged (see the docstring)."""
    rpr = run._r.get_or_add_rPr()
    fonts = rpr.get_or_add_rFonts()
    name, lang = _cjk_font_and_lang(run.text if text is None else text, font)
    fonts.set(qn("w:eastAsia"), name)
    fonts.set(qn("w:hint"), "eastAsia")
    parts.put(rpr, "lang", parts.RPR, eastAsia=lang)


def mark_complex(run, script: str, *, bold: bool | None, italic: bool | None, size: float | None) -> None:
    """Name the complex script's font as the run's ``w:cs`` font, with its language, its direction, and
    the bold, italic and size Word applies to complex-script text (see the docstring)."""
    font, lang, rtl = COMPLEX_FONTS[script]
    rpr = run._r.get_or_add_rPr()
    fonts = rpr.get_or_add_rFonts()
    fonts.set(qn("w:cs"), font)
    fonts.set(qn("w:hint"), "cs")
    for tag, value in (("bCs", bold), ("iCs", italic)):
        if value is not None:
            parts.put(rpr, tag, parts.RPR, **({} if value else {"val": "0"}))
    if size is not None:
        parts.put(rpr, "szCs", parts.RPR, val=round(size * 2))
    if rtl:
        parts.put(rpr, "rtl", parts.RPR)
    parts.put(rpr, "lang", parts.RPR, bidi=lang)


def add_text(paragraph, text: str, east_asian: str, *, bold: bool | None = None,
             italic: bool | None = None, colour: RGBColor | None = None, size: float | None = None,
             caps: bool | None = None, small_caps: bool | None = None) -> list:
    """Append ``text`` as runs split by script, all formatted alike; returns the runs.

    Only the properties given are written (python-docx would add an empty ``w:rPr``
    for each None), and plain text goes straight into a ``w:t``: a long resume has
    hundreds of runs, and these shortcuts halve the time python-docx spends on them.
    """
    if not paragraph.runs and starts_right_to_left(text):
        parts.put(paragraph._p.get_or_add_pPr(), "bidi", parts.PPR)
    runs = []
    for piece, script in script_runs(text) or [("", "latin")]:
        run = paragraph.add_run()
        if "\t" in piece or "\n" in piece:
            run.text = piece                     # python-docx turns these into w:tab and w:br
        elif piece:
            run._r.add_t(piece)
        font = run.font
        for attr, value in (("bold", bold), ("italic", italic), ("all_caps", caps), ("small_caps", small_caps)):
            if value is not None:
                setattr(font, attr, value)
        if colour is not None:
            font.color.rgb = colour
        if size is not None:
            font.size = Pt(size)
        if script == "cjk":
            mark_east_asian(run, east_asian, piece)
        elif script != "latin":
            mark_complex(run, script, bold=bold, italic=italic, size=size)
        runs.append(run)
    return runs
