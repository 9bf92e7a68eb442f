"""The words a resume's documents print of their own, in the resume's language.

The words themselves are ``app.content.vocabulary``'s (the importer reads them back). A template
writes its headings and small words in English ("Experience", " at ", "Courses:",
"Mar 2019 – Present"). A resume in another language (``app.content.language``) prints them in its
own: ``heading`` gives a section's heading (the user's own name for it first, then the template's
words in English, or this table's in another language), ``word`` a small word, ``month`` and
``period`` the dates. The templates call them (``templating.py``); DOCX and TXT use the same.

Each language's headings are the ones its job sites and resume guides use (a Simplified Chinese
resume has 工作经历 and 教育背景, a German one Berufserfahrung and Ausbildung). In English a template
keeps its own words ("Selected Projects", "Honours and Awards").
"""
from __future__ import annotations

import re

from app.content.language import DEFAULT
from app.content.vocabulary import HEADINGS, MONTHS, NUMERIC_MONTHS, WORDS

_YEAR_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def _language(language: str | None) -> str:
    return language if language in HEADINGS else DEFAULT


def heading(key: str, default: str, language: str | None, titles: dict | None = None,
            default_language: str = DEFAULT) -> str:
    """A section's heading: the user's name for it, else ``default`` (the template's own words, in
    ``default_language``) when the resume is in that language, else the language's usual heading
    (``default`` for a key this table lacks)."""
    own = (titles or {}).get(key)
    if own:
        return own
    language = _language(language)
    if language == default_language:
        return default
    return HEADINGS[language].get(key, default)


def word(text: str, language: str | None) -> str:
    """One of the small words a template prints (``vocabulary.SMALL_WORDS``), in ``language``; the spaces around it and
    a colon after it are kept ("Courses:" -> "主修课程："); a separator as the language writes it
    (``separator``). Other text is returned as it is."""
    if text in (", ", "; ", ",", ";"):
        return separator(text, language)
    language = _language(language)
    core = text.strip()
    colon = core.endswith(":")
    core = core.rstrip(":").strip()
    if core not in WORDS[DEFAULT] or language == DEFAULT:
        return text
    translated = WORDS[language][core]
    if core == "at":
        return translated
    lead = text[: len(text) - len(text.lstrip())]
    tail = text[len(text.rstrip()):]
    return lead + translated + (("：" if language in NUMERIC_MONTHS else ":") if colon else "") + tail


# The separators a template puts between items, as a language writes them: Arabic has a comma and a
# semicolon of its own (، ؛), which also face the right way in its right-to-left lines.
_SEPARATORS = {"ar": {", ": "، ", ",": "،", "; ": "؛ ", ";": "؛"}}


def separator(text: str, language: str | None) -> str:
    """``", "`` or ``"; "`` between listed items, as ``language`` writes it (``"، "`` in Arabic)."""
    return _SEPARATORS.get(_language(language), {}).get(text, text)


def month(text: str, language: str | None) -> str:
    """``"2021-03"`` as "Mar 2021" in ``language`` ("2021年3月", "mars 2021"); other text as given."""
    match = _YEAR_MONTH.match(text)
    if not match:
        return text
    language = _language(language)
    year, number = match.group(1), int(match.group(2))
    if language in NUMERIC_MONTHS:
        return NUMERIC_MONTHS[language].format(y=year, m=number)
    return f"{MONTHS.get(language, MONTHS[DEFAULT]).split()[number - 1]} {year}"


def period(start: str, end: str, language: str | None) -> str:
    """A date range, an empty end being the present: "Mar 2021 – Present", "2021年3月 – 至今"."""
    start, end = month(start, language), month(end, language)
    if start:
        return f"{start} – {end or WORDS[_language(language)]['Present']}"
    return end


# How DOCX and TXT phrase the parts of a resume that are no plain field: a profile, the contact line, an
# education's study, a skill group's label and the one-line sections (skill groups, languages, interests),
# so that the two formats say them alike (both write from the normalised content).
SCORE = "Score: "  # word(SCORE, language) in the resume's language


def profile_text(profile: dict) -> str:
    """A profile as "Network: username (url)", with what it has of those."""
    lead = ": ".join(part for part in (profile["network"], profile["username"] or profile["url"]) if part)
    return lead + (f" ({profile['url']})" if profile["username"] and profile["url"] else "")


def contact_items(personal: dict, *, centred: bool = False) -> list[str]:
    """The contact line's items: e-mail, phone and address (reversed in centred designs), the
    website, then the profiles."""
    order = ("address", "phone", "email") if centred else ("email", "phone", "address")
    return ([personal[f] for f in (*order, "url") if personal[f]]
            + [text for text in map(profile_text, personal["profiles"]) if text])


def study(item: dict) -> str:
    """An education's kind of study and field: "Master, Data Systems"."""
    return ", ".join(part for part in (item["studyType"], item["area"]) if part)


def group_label(group: dict) -> str:
    """A skill group's "name (level)" (or what it has of them)."""
    return group["name"] + (f" ({group['level']})" if group["level"] and group["name"] else group["level"])


def one_liners(section: str, content: dict) -> list[tuple[str, str, str]]:
    """(lead, separator, rest) per line of the one-line sections: skill groups ("name (level):
    keywords"), languages ("language — fluency") and interests ("name: keywords")."""
    if section == "skills":
        comma = separator(", ", content["language"])
        return [(group_label(g), ": ", comma.join(g["keywords"])) for g in content["skillGroups"]]
    if section == "languages":
        return [(item["language"], " \u2014 ", item["fluency"]) for item in content["languages"]]
    return [(item["name"], ": ", separator(", ", content["language"]).join(item["keywords"]))
            for item in content["interests"]]


def joined(lead: str, separator: str, rest: str) -> str:
    return lead + separator + rest if lead and rest else lead or rest
