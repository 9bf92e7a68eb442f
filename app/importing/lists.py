"""Sections of short items rather than entries: skills (groups, chips, lists between commas),
languages with their fluency, interests."""
from __future__ import annotations

import re

from app.importing.entries import LIST_SPLIT, PIECES, chips, filled, split_list
from app.importing.layout import Block, Fragment, clean

_GROUP = re.compile(r"^(?P<name>[^:：()（）]{1,80}?)\s*(?:[(（](?P<level>[^)）]{1,60})[)）])?\s*[:：]\s*(?P<rest>.+)$")
_GROUP_DOT = re.compile(r"^(?P<name>[^:：()（）•·]{1,80}?)\s*(?:[(（](?P<level>[^)）]{1,60})[)）])?\s+[•·]\s+(?P<rest>.+)$")
_ITEM_SPLIT = re.compile(r"\s+[|｜·•/]\s+|\s*[|｜;；؛•]\s*")
_SEPARATOR_ONLY = re.compile(r"^\s*[|｜·•/;；]\s*$")
_LANGUAGE = re.compile(r"^(?P<language>.+?)\s*(?:[(（](?P<paren>[^)）]+)[)）]|\s+[–—-]\s+(?P<dash>.+)"
                       r"|[:：]\s*(?P<colon>.+))$")


def _inline_group(block: Block) -> dict | None:
    """A skill group on one line: "Name (Level): a, b", "Name LEVEL: a, b" (the level in a look of
    its own), or "Name (Level) • a, b" with the name in bold."""
    text = block.text
    match = _GROUP.match(text)
    fragments = block.fragments
    if match is None and fragments[0].bold and not all(f.bold for f in fragments):
        match = _GROUP_DOT.match(text)
    if match is None:
        return None
    name, level = match.group("name").strip(), (match.group("level") or "").strip()
    first = clean(fragments[0].text)
    if not level and len(fragments) > 1 and name.startswith(first) and len(name) > len(first):
        name, level = first, name[len(first):].strip()
    return filled({}, name=name, level=level, keywords=split_list(match.group("rest")))


# "Basic knowledge of C, x86 assembly": the list after the words.
KNOWLEDGE = re.compile(r"^(?:basic |good |working |some |strong )?(?:knowledge of|familiar(?:ity)? with|experience "
                       r"(?:with|in)|proficient (?:in|with))\s+", re.IGNORECASE)
# "Go: five years of services in production." A skill named, then described in a sentence.
DEFINED = re.compile(r"^(?P<name>[^:：]{1,40})[:：]\s+(?P<about>\S.*)$")


def defined_skill(text: str) -> str | None:
    """The skill a line names before describing it in a sentence ("first-lang: Here, we have ..."), or None
    (a group's keywords, "Languages: Python, Go", are no sentence)."""
    match = DEFINED.match(text)
    if match is None:
        return None
    about = match.group("about").strip()
    return match.group("name").strip() if about.endswith((".", "。", "!", "…")) and len(about.split()) >= 4 else None


def skills(content: dict, blocks: list[Block]) -> None:
    """Groups ("Name (Level): a, b", or the name in bold with its keywords and level on the lines
    below it) and the plain list (chips, bullets, or items between commas; a skill described in a
    sentence after its name)."""
    group: dict | None = None       # the group whose keywords or level may follow
    for block in blocks:
        labels = chips(block) if not block.bullet else None
        text = KNOWLEDGE.sub("", block.text)
        defined = defined_skill(text) if labels is None else None
        if defined:
            content.setdefault("skills", []).append(defined)
            group = None
            continue
        inline = _inline_group(block) if labels is None else None
        if inline:
            group = inline
            content.setdefault("skillGroups", []).append(group)
        elif block.bold and not block.bullet and labels is None and len(text) <= 80 and not LIST_SPLIT.search(text):
            named = re.match(r"^(?P<name>.+?)\s*(?:[(（](?P<level>[^)）]+)[)）])?\s*[:：]?$", text)
            group = filled({}, name=named.group("name"), level=named.group("level") or "")
            content.setdefault("skillGroups", []).append(group)
        elif group is not None and "keywords" not in group and not block.bullet:
            group["keywords"] = labels if labels is not None else split_list(text)
        elif group is not None and "level" not in group and labels is None and not block.bullet \
                and len(split_list(text)) == 1 and len(text) <= 60:
            group["level"] = text
        else:
            group = None
            content.setdefault("skills", []).extend(labels if labels is not None else split_list(text))


def _items(block: Block) -> list[list[Fragment]]:
    """A line's fragments cut into items at separators ("•", "|", "/", "·", ";")."""
    items: list[list[Fragment]] = [[]]
    for cell in block.cells:
        for fragment in cell:
            pieces = _ITEM_SPLIT.split(fragment.text)
            for index, piece in enumerate(pieces):
                if index:
                    items.append([])
                if piece.strip() and not _SEPARATOR_ONLY.match(piece):
                    items[-1].append(Fragment(piece, fragment.bold, fragment.italic, fragment.colour, fragment.size))
                elif _SEPARATOR_ONLY.match(piece) and items[-1]:
                    items.append([])
    return [item for item in items if item]


def languages(blocks: list[Block]) -> list[dict]:
    """"English – Native | French (B2)" on a line, the language and its fluency in two looks
    ("English Native • French B2"), cells side by side, or each language in bold with its fluency
    on the line below."""
    found: list[dict] = []
    waiting = False          # the last language's fluency may follow on the next line
    for block in blocks:
        texts = [t for t in block.texts if t]
        if len(texts) == 2 and not PIECES.search(texts[0]):
            found.append(filled({}, language=texts[0], fluency=texts[1]))
            waiting = False
            continue
        items = _items(block)
        if len(items) == 1 and len(items[0]) == 1 and not _LANGUAGE.match(clean(items[0][0].text)):
            text = clean(items[0][0].text)
            if waiting and not block.bold:
                found[-1]["fluency"] = text
                waiting = False
            else:
                found.append({"language": text})
                waiting = block.bold
            continue
        waiting = False
        for item in items:
            text = clean(" ".join(f.text for f in item))
            match = _LANGUAGE.match(text)
            if match:
                fluency = match.group("paren") or match.group("dash") or match.group("colon") or ""
                found.append(filled({}, language=match.group("language").strip(), fluency=fluency.strip()))
            elif len(item) > 1:
                found.append(filled({}, language=clean(item[0].text),
                                    fluency=clean(" ".join(f.text for f in item[1:]))))
            else:
                found.append({"language": text})
    return found


def interests(blocks: list[Block]) -> list[dict]:
    """"Name: a, b" on a line, or the name in bold with its keywords on the line below."""
    found: list[dict] = []
    waiting = False
    for block in blocks:
        labels = chips(block) if not block.bullet else None
        match = re.match(r"^(?P<name>[^:：]{1,100}?)\s*[:：]\s*(?P<rest>.+)$", block.text)
        if match is None and block.fragments[0].bold and not all(f.bold for f in block.fragments):
            match = re.match(r"^(?P<name>[^•·]{1,100}?)\s+[•·]\s+(?P<rest>.+)$", block.text)
        if match and labels is None:
            found.append(filled({}, name=match.group("name"), keywords=split_list(match.group("rest"))))
            waiting = False
        elif found and waiting and not block.bold:
            found[-1]["keywords"] = labels if labels is not None else split_list(block.text)
            waiting = False
        else:
            found.append({"name": block.text})
            waiting = block.bold
    return found
