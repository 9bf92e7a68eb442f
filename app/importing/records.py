"""A section's records from its entries: a job, a school, a project... (``read_section``, which also
hands the sections of short items to ``lists.py``)."""
from __future__ import annotations

import re

from app.importing import dates, lists, tables, words
from app.importing.entries import (
    AT_SCHOOL, Entry, Part, entries_of, filled, month_of, one_part, period_of, split_list, take, text_and_highlights,
    year_only,
)
from app.importing.layout import Block

_FACTS = re.compile(r"\s+[|｜·•/—–]\s+|\s*[|｜·•]\s*|\s*[,，;；]\s+")
_FACT_LABEL = re.compile(r"^(?:score|grade|gpa|area|field|major|study type|degree|成绩|绩点|方向|专业|学位)\s*[:：]\s*",
                         re.IGNORECASE)
_SCORE = re.compile(r"gpa|grade|\d|%|distinction|merit|honou?rs|first[- ]class|cum laude|pass|排名|优秀|成绩|绩点|"
                    r"一等|二等|荣誉", re.IGNORECASE)


UNSURE = "_unsure"   # a record's fields that were guessed: {field: reason}, moved to the notes


def read_section(content: dict, key: str, title: str, blocks: list[Block], body: tuple | None,
                 notes: list[dict] | None = None) -> None:
    """Add what ``blocks`` (a section's, headed ``title``) say to ``content[key]``; ``body`` is the
    look of the document's body text. What was guessed is added to ``notes``:
    ``{"path": "workExperience.0.position", "reason": "order", "text": ...}``."""
    if not blocks and key != "customSections":
        return
    if key == "workExperience" and any(_skill_group(entry) for entry in entries_of(blocks, body, key)):
        key = "customSections"   # "Technical Experience" holding "Programming Languages": read as its own section
    reader = READERS.get(key)
    if key == "skills":
        lists.skills(content, blocks)
    elif key == "languages":
        content.setdefault("languages", []).extend(lists.languages(blocks))
    elif key == "interests":
        content.setdefault("interests", []).extend(lists.interests(blocks))
    elif key == "customSections":
        items = []
        group: dict | None = None   # a skill group whose skills may follow as entries of their own
        for entry in entries_of(blocks, body):
            first = entry.blocks[0].text
            if group is not None and (lists.defined_skill(first) or lists.KNOWLEDGE.match(first)):
                # "first-lang: Here, we have ...", "Basic knowledge of C, forth" under "Programming Languages"
                group.setdefault("keywords", []).extend(
                    _skill_names([block.text for block in entry.blocks], listed_only=True))
                continue
            group = _skill_group(entry)
            if group:      # "Programming Languages" under "Technical Experience": a group of skills
                content.setdefault("skillGroups", []).append(group)
            else:
                items.append(_custom_item(entry))
        content.setdefault("customSections", []).append(filled({"title": title}, items=[i for i in items if i]))
    elif reader is not None:
        records = content.setdefault(key, [])
        found_tables, blocks = tables.split(blocks) if key in tables.SECTIONS else ([], blocks)
        for row in (row for table in found_tables for row in table.rows):   # columns named by a header row
            record, note = tables.record(row, key)
            if record and notes is not None:
                notes += _notes(f"{key}.{len(records)}", record, {"startDate": note} if note else {}, 0)
            records += [record] if record else []
        found = entries_of(blocks, body, key)
        second = key == "workExperience" and _titles_second(found)
        for entry in found:
            record = _work(entry, title_second=True) if second else reader(entry)
            unsure = record.pop(UNSURE, {})
            if not record:
                continue
            if notes is not None:
                notes += _notes(f"{key}.{len(records)}", record, unsure, entry.blocks[0].page if entry.blocks else 0)
            records.append(record)


# The field a guessed one is most often confused with, for the report's one-click swap.
_SWAPS = {"position": "company", "company": "position", "location": "company", "degree": "school",
          "school": "degree"}
_MERGED = re.compile(r"\s+[•●▪◦‣►▸➢➤❖]\s+")


def _notes(path: str, record: dict, unsure: dict, page: int) -> list[dict]:
    """The report's notes on one record: each guessed field (with the field it may have been swapped
    with), and each highlight that holds a second bullet's marker (two items merged into one), with
    the page of the file it was read from."""
    found = []
    for name, reason in unsure.items():
        note = {"path": path + (f".{name}" if name else ""), "reason": reason, "text": record.get(name, "")}
        if name in _SWAPS and record.get(_SWAPS[name]):
            note["swap"] = f"{path}.{_SWAPS[name]}"
        found.append(note)
    for index, item in enumerate(record.get("highlights") or []):
        parts = [part for part in _MERGED.split(item) if part.strip()]
        if len(parts) > 1:
            found.append({"path": f"{path}.highlights.{index}", "reason": "merged", "text": item, "parts": parts})
    if page:
        for note in found:
            note["page"] = page
    return found


def _guessed(parts: list, score) -> bool:
    """Whether the part ``take(parts, score)`` picks was picked by its place only: no part scores above
    the rest."""
    scores = sorted((score(part.text) for part in parts), reverse=True)
    return len(scores) > 1 and scores[0] == scores[1]


def _date_note(entry: Entry, start: str) -> str:
    """What to ask about an entry's dates: none found, or printed without months."""
    return "no_dates" if not start else "year_only" if year_only(entry) else ""


def _unsure(record: dict, **reasons) -> dict:
    """``record`` with the fields it holds that were guessed (a reason each) marked for the notes."""
    marked = {name: reason for name, reason in reasons.items() if reason}
    if marked and record:
        record[UNSURE] = marked
    return record


def _titles_second(entries: list[Entry]) -> bool:
    """Whether the section's entries print the employer first and the title second: so do most of
    those whose two first parts the words tell apart ("clockwork GbR, Dresden" / "Programmierer")."""
    votes = []
    for entry in entries:
        parts = one_part(list(entry.parts))
        if len(parts) >= 2:
            first, second = (words.position_score(part.text) for part in parts[:2])
            if first != second:
                votes.append(second > first)
    return len(votes) >= 2 and sum(votes) * 3 >= len(votes) * 2


def _work(entry: Entry, title_second: bool = False) -> dict:
    """A job: its title is the part with the most role words; on a tie, the first (or the second, where
    the section's other entries print the employer first)."""
    parts, located = _located(list(entry.parts))
    parts = one_part(parts)
    by_order = _guessed(parts, words.position_score)
    if by_order and title_second and len(parts) >= 2:
        parts[0], parts[1] = parts[1], parts[0]
    position = take(parts, words.position_score) if len(parts) > 1 or (
        parts and words.position_score(parts[0].text) > 0) else ""
    company = take(parts)
    location = located or take(parts)
    placed = False
    if not location and position:
        company, location = _place(company)
        placed = bool(location)
    start, end = period_of(entry)
    description, highlights = text_and_highlights(entry)
    record = filled({}, position=position, company=company, location=location, url=entry.url, startDate=start,
                    endDate=end, description=description, highlights=highlights)
    return _unsure(record, position="order" if by_order and position and company else "",
                   location="place" if placed else "", startDate=_date_note(entry, start))


_STATES = frozenset("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM "
                    "NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split())
# "… CMG Technology Atlanta, GA": a US city and state at the end of a head's part (a two-word city when
# its first word is one that begins many: "New York", "San Jose", "Salt Lake City" as "Lake City").
_US_PLACE = re.compile(r"^(?P<rest>.*?)[\s,]+(?P<place>(?:(?:New|San|Santa|Los|Las|Salt|St\.?|Saint|Fort|Palo|El|"
                       r"Mountain|Grand|Long|Kansas|Oklahoma|Jersey|Carson|Baton|Little|Ann|Cedar|Des)\s+)?"
                       r"[A-Z][\w.'-]+,\s*(?P<state>[A-Z]{2}))$")


def _located(parts: list[Part]) -> tuple[list[Part], str]:
    """The head's parts without a US city and state one of them ends with, and that place."""
    for index, part in enumerate(parts):
        found = _US_PLACE.match(f" {part.text}")
        if found and found.group("state") in _STATES and len(parts) + bool(found.group("rest").strip(" ,")) > 1:
            rest = [Part(found.group("rest").strip(" ,"), part.bold)] if found.group("rest").strip(" ,") else []
            return parts[:index] + rest + parts[index + 1:], found.group("place")
    return parts, ""


def _place(company: str) -> tuple[str, str]:
    """"Northwind Payments, London": an employer and its place joined by a comma."""
    match = re.match(r"^(?P<company>.+?)\s*[,，]\s*(?P<place>[^,，]{1,40})$", company)
    if match and len(match.group("place").split()) <= 4:
        return match.group("company"), match.group("place")
    return company, ""


def _volunteer(entry: Entry) -> dict:
    parts = one_part(list(entry.parts))
    position = take(parts, words.position_score) if len(parts) > 1 else ""
    organization = take(parts)
    start, end = period_of(entry)
    summary, highlights = text_and_highlights(entry)
    return filled({}, position=position, organization=organization, url=entry.url, startDate=start, endDate=end,
                  summary=summary, highlights=highlights)


def _education(entry: Entry) -> dict:
    """Degree and school are the first two parts of the head (a head of one part "MSc Physics,
    University of Oslo" at its comma); the rest of the head and the body's lines are the facts
    (study type, area, score) and, once those are known, the courses."""
    named = list(entry.parts)
    if len(named) == 1:
        match = re.match(r"^(?P<first>.+?)\s*[,，—]\s*(?P<second>[^,，—]+)$", named[0].text)
        if match and (words.degree_score(match.group("first")) != 0 or words.degree_score(match.group("second")) != 0):
            named = [Part(match.group("first"), named[0].bold), Part(match.group("second"), named[0].bold)]
        else:   # "Master an der Bern Universität", "BSc Physics at the University of Oslo"
            match = AT_SCHOOL.match(named[0].text.rstrip(" ."))
            if match and words.schooling(match.group("second")) > 0 and words.degree_score(match.group("first")) >= 0:
                named = [Part(match.group("first"), named[0].bold), Part(match.group("second"), named[0].bold)]
    parts, rest = named[:2], named[2:]
    by_order = _guessed(parts, words.degree_score)
    degree = take(parts, words.degree_score) if len(parts) > 1 or (
        parts and words.degree_score(parts[0].text) > 0) else ""
    school = take(parts)
    record = filled({}, school=school, degree=degree)
    courses = list(entry.lists.get("courses", []))
    for line in [p.text for p in rest] + entry.lines:
        period = dates.find_period(line) if entry.period is None else None
        if period is not None:      # "Bachelor of Science, Computer Science, Aug 2006 – May 2010"
            entry.period = period
            line = dates.remove(line, period)
        pieces = [_FACT_LABEL.sub("", piece).strip() for piece in _FACTS.split(line) if piece.strip()]
        pieces = [piece for piece in pieces if re.search(r"\w", piece)]   # not the "( )" a date was taken from
        known = {"studyType", "area", "score"} & record.keys()
        if len(known) == 3 or (len(known) >= 2 and len(pieces) > 1):
            courses += pieces
        else:
            _about(record, pieces)
    start, end = period_of(entry)
    filled(record, startDate=start, endDate=end, courses=courses + entry.bullets)
    return _unsure(record, degree="order" if by_order and degree and school else "",
                   startDate=_date_note(entry, start))


def _about(record: dict, about: list[str]) -> None:
    """studyType, area and score: in this order when all three are there, else by their words."""
    if len(about) == 3 and not {"studyType", "area", "score"} & record.keys():
        filled(record, studyType=about[0], area=about[1], score=about[2])
        return
    for text in about:
        if "score" not in record and _SCORE.search(text):
            record["score"] = text
        elif "studyType" not in record and words.degree_score(text) > 0:
            record["studyType"] = text
        elif "area" not in record:
            record["area"] = text


def _project(entry: Entry) -> dict:
    parts = list(entry.parts)
    name = take(parts)
    start, end = period_of(entry)
    technologies = entry.lists.get("technologies", []) + entry.lists.get("tags", [])
    description, highlights = text_and_highlights(entry, alone="highlights")
    return filled({}, name=name, url=entry.url, startDate=start, endDate=end, description=description,
                  highlights=highlights, technologies=technologies)


def _certificate(entry: Entry) -> dict:
    parts = list(entry.parts)
    return filled({}, name=take(parts), issuer=take(parts), date=month_of(entry), url=entry.url)


def _award(entry: Entry) -> dict:
    parts = list(entry.parts)
    return filled({}, title=take(parts), awarder=take(parts), date=month_of(entry),
                  summary="\n".join(entry.lines + entry.bullets))


def _publication(entry: Entry) -> dict:
    parts = list(entry.parts)
    return filled({}, name=take(parts), publisher=take(parts), releaseDate=month_of(entry), url=entry.url,
                  summary="\n".join(entry.lines + entry.bullets))


def _reference(entry: Entry) -> dict:
    name = entry.blocks[0].text if entry.parts else ""
    lines = [line.strip("“”\"'") for line in entry.lines + entry.bullets]
    return filled({}, name=name, reference="\n".join(line for line in lines if line))


def _skill_group(entry: Entry) -> dict | None:
    """A custom section's entry titled as skills are ("Programming Languages", "Tools") as a skill group:
    its keywords are the names its lines define ("Go: five years of services") or list."""
    parts = list(entry.parts)
    if len(parts) != 1 or not words.skill_group_name(parts[0].text) or entry.period is not None:
        return None
    return filled({"name": parts[0].text}, keywords=_skill_names(entry.lines + entry.bullets))


def _skill_names(lines: list[str], listed_only: bool = False) -> list[str]:
    """The skills lines name: before a colon and a sentence, or listed (with ``listed_only``, only after
    words such as "Basic knowledge of": "Basic knowledge of C, forth")."""
    names: list[str] = []
    for line in lines:
        defined = lists.defined_skill(line)
        if defined:
            names.append(defined)
        elif not listed_only or lists.KNOWLEDGE.match(line):
            names += [item for item in split_list(lists.KNOWLEDGE.sub("", line)) if len(item) <= 40]
    return names[:50]


def _custom_item(entry: Entry) -> dict:
    parts = list(entry.parts)
    return filled({}, title=take(parts), subtitle=take(parts), date=month_of(entry), url=entry.url,
                  description="\n".join(entry.lines + entry.bullets))


READERS = {"workExperience": _work, "education": _education, "projects": _project, "volunteer": _volunteer,
           "certificates": _certificate, "awards": _award, "publications": _publication,
           "references": _reference}
