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
"""
from __future__ import annotations

import re

from docx.oxml.ns import qn
from docx.shared import Pt, RGBColor

from app.documents import docx_parts

CJK_SANS = "Microsoft YaHei"
CJK_SERIF = "SimSun"
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


def script_runs(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_cjk) runs (see ``_SPACE`` and ``_SHARED`` for what joins which)."""
    pieces: list[tuple[str, bool]] = []
    for index, char in enumerate(text):
        cjk = bool(CJK.match(char))
        if pieces and _SHARED.match(char) and pieces[-1][1]:
            after = text[index + 1:].lstrip()
            cjk = bool(after) and bool(CJK.match(after[0]))
        if pieces and (cjk == pieces[-1][1] or _SPACE.match(char)):
            pieces[-1] = (pieces[-1][0] + char, pieces[-1][1])
        else:
            pieces.append((char, cjk))
    return pieces


def _cjk_font_and_lang(text: str, chinese_font: str) -> tuple[str, str]:
    if _HANGUL_RE.search(text):
        return KOREAN_FONT, "ko-KR"
    if _KANA_RE.search(text):
        return JAPANESE_FONT, "ja-JP"
    return chinese_font, "zh-CN"


def mark_east_asian(run, font: str, text: str | None = None) -> None:
    """Name ``font`` as the run's East Asian font, hinted and language-tagged (see the docstring)."""
    rpr = run._r.get_or_add_rPr()
    fonts = rpr.get_or_add_rFonts()
    name, lang = _cjk_font_and_lang(run.text if text is None else text, font)
    fonts.set(qn("w:eastAsia"), name)
    fonts.set(qn("w:hint"), "eastAsia")
    docx_parts.put(rpr, "lang", docx_parts.RPR, eastAsia=lang)


def add_text(paragraph, text: str, east_asian: str, *, bold: bool | None = None,
             italic: bool | None = None, colour: RGBColor | None = None, size: float | None = None,
             caps: bool | None = None, small_caps: bool | None = None) -> list:
    """Append ``text`` as runs split by script, all formatted alike; returns the runs.

    Only the properties given are written (python-docx would add an empty ``w:rPr``
    for each None), and plain text goes straight into a ``w:t``: a long resume has
    hundreds of runs, and these shortcuts halve the time python-docx spends on them.
    """
    runs = []
    for piece, cjk in script_runs(text) or [("", False)]:
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
        if cjk:
            mark_east_asian(run, east_asian, piece)
        runs.append(run)
    return runs
