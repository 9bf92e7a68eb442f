"""Which fallback face draws each kind of run a document holds, shared by the PDF (``pdf/``) and the
web pages' fonts (``web.py``), without xhtml2pdf.

- ``families``: the family of each kind of run (``scripts.Marks``): Latin words in Noto Sans, or Noto
  Serif when the template's body text is serif (``serif_template``); CJK in the regional cut the
  document's language names, else its text (``cjk_region``); each other script in its own face.
- ``missing_glyphs``: the characters no face has a glyph for, checked where the face is picked.
"""
from __future__ import annotations

import re

from app.content import language
from app.documents.fonts import characters, composites, cuts, scripts

# The CJK region of each language that names one; Hong Kong and Macao Chinese by their tags.
_REGIONS = {"zh-Hans": "SC", "zh-Hant": "TC", "ja": "JP", "ko": "KR"}


def cjk_region(chars: set[str] | str, tag: str | None = None) -> str:
    """The regional cut of Noto Sans CJK for a document: its language decides, then its text (kana:
    Japanese; Hangul: Korean; else Simplified or Traditional Chinese, ``language.chinese``)."""
    if (tag or "").strip().lower().replace("_", "-").startswith(("zh-hk", "zh-mo")):
        return "HK"
    named = _REGIONS.get(language.from_tag(tag))
    if named:
        return named
    text = "".join(chars)
    if language.KANA.search(text):
        return "JP"
    if language.HANGUL.search(text):
        return "KR"
    return _REGIONS[language.chinese(text)]


_LANGUAGE = re.compile(r"<html\b[^>]*?\blang=[\"']([^\"']+)", re.IGNORECASE)


def drawn(kind: str, chars: set[str]) -> set[str]:
    """The characters a kind of run is cut to: its own (every script is shaped from its characters by
    HarfBuzz, which reaches the glyphs of their joined and stacked forms through the font's rules) in
    each case, and the no-break space: the engine applies a style's ``text-transform`` and
    ``white-space: nowrap`` (its spaces no-break ones) after the runs are marked, so "февр." in an
    uppercase date is drawn "ФЕВР." and "настоящее время" in a date column with a no-break space."""
    cases = "".join(char.upper() + char.lower() + char.title() for char in chars)  # "ß".upper() is "SS"
    return {*chars, *cases, "\u00a0"}


def families(marks: scripts.Marks, serif: bool, tag: str | None = None) -> dict[str, str]:
    """The fallback family of each kind of run the document holds (``tag``: the document's language);
    the boxes of the characters no face draws are the Latin face's."""
    named = {kind: characters.family(kind, serif) for kind in marks.kinds if kind != scripts.CJK}
    if scripts.CJK in marks.chars:
        named[scripts.CJK] = cuts.CJK[cjk_region(marks.chars[scripts.CJK], tag)]
    if marks.missing:
        named[scripts.MISSING] = characters.family(scripts.MISSING, serif)
    return named


def words_by_family(marks: scripts.Marks, named: dict[str, str]) -> dict[str, frozenset[str]]:
    """The words each shaped family draws, for its cut (``cuts.cut``): a right-to-left family's
    right-to-left stretches, another's words."""
    found: dict[str, frozenset[str]] = {}
    for kind, runs in marks.runs.items():
        if kind not in named:
            continue
        family = named[kind]
        face = cuts.face(family, False)
        if face.right_to_left:
            found[family] = found.get(family, frozenset()) | composites.words_of(runs)
        elif face.shaped:
            found[family] = found.get(family, frozenset()) | {word for run in runs for word in run.split()}
    return found


def codes_by_family(marks: scripts.Marks, named: dict[str, str]) -> dict[str, frozenset[int]]:
    """The characters each family is cut to: those of every kind of run it draws (the Latin face draws
    Latin words and the boxes; it is given a space so that a cut of boxes alone has a character map)."""
    codes: dict[str, set[int]] = {}
    for kind, family in named.items():
        found = codes.setdefault(family, set())
        found.update(map(ord, drawn(kind, marks.chars.get(kind, set()))))
        if kind == scripts.MISSING:
            found.add(ord(" "))
    return {family: frozenset(found) for family, found in codes.items()}


_BODY_FONT = re.compile(r"(?:^|[\s,}])(?:body|html|\*)\s*\{[^}]*?font-family\s*:\s*([^;}]+)", re.IGNORECASE)
_SERIF = re.compile(r"\b(times|georgia|garamond|palatino|cambria|baskerville|book antiqua|serif)\b", re.IGNORECASE)


def serif_template(html: str) -> bool:
    """Whether the document's body text is in a serif family (the last body rule of its styles says)."""
    families = _BODY_FONT.findall(html.partition("</head>")[0])
    if not families:
        return False
    family = families[-1].lower().replace("sans-serif", "")
    return bool(_SERIF.search(family)) and "sans" not in family


def language_of(html: str) -> str | None:
    """The language a document's ``<html lang>`` names, if any."""
    found = _LANGUAGE.search(html.partition("</head>")[0] if "</head>" in html else html[:2000])
    return found.group(1) if found else None


def missing_glyphs(html: str) -> dict[str, str]:
    """The characters of a document that its fallback faces have no glyph for, by family (empty when
    every character is drawn): the check made where the renderer picks each run's font. Text in the
    built-in fonts is Windows-1252, which they draw, by construction (``scripts.drawable``)."""
    from fontTools.ttLib import TTFont

    head = html.partition("</head>")[0]
    _html, marks = scripts.mark_runs(html, serif_template(head))
    missing = {}
    for kind, family in families(marks, serif_template(head), language_of(html)).items():
        if kind == scripts.MISSING:
            continue
        chars = marks.chars[kind]
        cmap = TTFont(str(cuts.cut(cuts.face(family, False), frozenset(map(ord, drawn(kind, chars)))))).getBestCmap()
        lacking = "".join(sorted(char for char in chars if ord(char) not in cmap and not char.isspace()
                                 and char not in "\u200c\u200d"))
        if lacking:
            missing[family] = lacking
    return missing
