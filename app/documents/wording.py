"""The words DOCX and TXT share for the parts of a resume that are not plain fields.

Both write from the normalised content (``normalise.normalise_content``); these
put together what a reader sees of a profile, the contact line, an education's
study, a skill group's label and the one-line sections (skill groups, languages,
interests), so the two formats say them alike.
"""
from __future__ import annotations

from app.documents import words

SCORE = "Score: "  # words.word(SCORE, language) in the resume's language


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
        comma = words.separator(", ", content["language"])
        return [(group_label(g), ": ", comma.join(g["keywords"])) for g in content["skillGroups"]]
    if section == "languages":
        return [(item["language"], " \u2014 ", item["fluency"]) for item in content["languages"]]
    return [(item["name"], ": ", words.separator(", ", content["language"]).join(item["keywords"]))
            for item in content["interests"]]


def joined(lead: str, separator: str, rest: str) -> str:
    return lead + separator + rest if lead and rest else lead or rest
