"""A resume's language: the one it is written in, which its documents print their words in.

``contentJson.language`` holds it (a BCP 47 tag from ``LANGUAGES``), set in the editor or guessed
from the text when a file is imported. A resume that has none (every resume from before issue 22,
and API clients that send none) is printed in the language ``guess`` reads from its text, so an
Arabic or Chinese resume gets Arabic or Chinese headings without anyone setting anything.

``guess`` counts the letters of each script that is at least a tenth of the letters (a Chinese resume
is full of Latin product names) and takes the one with the most (an ideograph counting as two
letters): CJK text is Japanese when it has kana, Korean when it is Hangul, else Simplified or
Traditional Chinese by the ideographs only one of GB 2312 and Big5 has; Arabic, Devanagari,
Cyrillic, Hebrew and Thai letters name their language; Latin text is told apart by its commonest short
words (English, Spanish, French, German, Portuguese), English when nothing stands out.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

# The languages a resume can be in: their documents' headings and words are in app/documents/words.py.
LANGUAGES = ("en", "zh-Hans", "zh-Hant", "ja", "ko", "es", "fr", "de", "pt", "ru", "ar", "hi", "he", "th")
RIGHT_TO_LEFT = frozenset({"ar", "he"})
# Each language by its own name, as a language menu lists it.
NAMES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ja": "日本語", "ko": "한국어",
         "es": "Español", "fr": "Français", "de": "Deutsch", "pt": "Português", "ru": "Русский",
         "ar": "العربية", "hi": "हिन्दी", "he": "עברית", "th": "ไทย"}
DEFAULT = "en"

KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff]")
HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
_SCRIPTS = (
    ("ja", KANA),
    ("ko", HANGUL),
    ("zh", re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")),
    ("ar", re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")),
    ("hi", re.compile("[\u0900-\u097f]")),
    ("ru", re.compile("[\u0400-\u04ff]")),
    ("he", re.compile("[\u0590-\u05ff]")),
    ("th", re.compile("[\u0e01-\u0e4e]")),
)
_WORD = re.compile(r"[^\W\d_]+")
_STOPWORDS = {
    "en": {"the", "and", "of", "to", "in", "for", "with", "on", "at", "by", "as", "from", "led", "team"},
    "es": {"de", "la", "el", "en", "y", "los", "las", "del", "con", "para", "por", "una", "un", "equipo"},
    "fr": {"de", "la", "le", "et", "les", "des", "en", "du", "pour", "avec", "une", "un", "sur", "équipe"},
    "de": {"und", "der", "die", "das", "mit", "für", "von", "im", "zu", "den", "ein", "eine", "bei", "auf"},
    "pt": {"de", "e", "do", "da", "em", "para", "com", "os", "as", "dos", "das", "um", "uma", "equipe"},
}


def texts(content: Any) -> list[str]:
    """Every string of a content object, depth first (keys are not text)."""
    found: list[str] = []
    stack = [content]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            stack.extend(v for k, v in value.items() if k not in ("language", "sectionOrder", "id", "url"))
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return found


def guess(content: Any) -> str:
    """The language ``content``'s text is written in (one of ``LANGUAGES``; English when unsure)."""
    text = "\n".join(texts(content))
    letters = sum(1 for char in text if char.isalpha()) or 1
    counts = {name: len(pattern.findall(text)) for name, pattern in _SCRIPTS}
    counts["cjk"] = counts.pop("zh") + counts["ja"]  # ideographs and kana
    # A script counts from a tenth of the letters on; of several, the most, an ideograph or a kana
    # saying about as much as two letters.
    shares = {name: count * (2 if name == "cjk" else 1) for name, count in counts.items()
              if name != "ja" and count >= letters * 0.1}
    if shares:
        best = max(shares, key=shares.get)
        if best != "cjk":
            return best
        return "ja" if counts["ja"] else chinese(text)
    words = [word.lower() for word in _WORD.findall(text)]
    scores = {name: sum(word in common for word in words) for name, common in _STOPWORDS.items()}
    best = max(scores, key=lambda name: (scores[name], name == DEFAULT))
    return best if scores[best] >= 3 and scores[best] > scores[DEFAULT] else DEFAULT


def chinese(text: str) -> str:
    """Simplified ("zh-Hans") or Traditional ("zh-Hant") Chinese, by the ideographs only one of GB 2312
    and Big5 has (Simplified when they tie)."""
    simplified = traditional = 0
    for char in set(text):
        if unicodedata.category(char) != "Lo":
            continue
        gb, big5 = _encodes(char, "gb2312"), _encodes(char, "big5")
        simplified += gb and not big5
        traditional += big5 and not gb
    return "zh-Hant" if traditional > simplified else "zh-Hans"


def _encodes(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def of(content: Any) -> str:
    """The language a resume is printed in: the one it has, else the one its text is in."""
    stored = content.get("language") if isinstance(content, dict) else None
    return stored if stored in LANGUAGES else guess(content)


_TAGS = {"zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-hans": "zh-Hans", "zh-tw": "zh-Hant",
         "zh-hk": "zh-Hant", "zh-mo": "zh-Hant", "zh-hant": "zh-Hant", "iw": "he"}


def from_tag(tag: Any) -> str | None:
    """One of ``LANGUAGES`` for a BCP 47 tag as other tools write it ("zh-CN", "pt-BR", "en_US",
    "zh-Hant-TW"), or None when it names none of them."""
    if not isinstance(tag, str):
        return None
    parts = tag.strip().replace("_", "-").lower().split("-")
    for length in (3, 2, 1):
        key = "-".join(parts[:length])
        if key in _TAGS:
            return _TAGS[key]
    return next((name for name in LANGUAGES if name.lower() == parts[0]), None)
