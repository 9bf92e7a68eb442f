"""A resume with every section and every field of issue 15's content model filled, each string distinct.

``EVERY_SECTION`` is a valid ``contentJson`` (in the normalised shape, so it round-trips exactly) whose
``sectionOrder`` is not the default one. ``body_strings(content, visible)`` lists what a document must
show of each shown body section, in ``sectionOrder``: every text field, list item and date (as
``templating.month`` prints it); the DOCX and TXT tests look for them in that order.
"""
from __future__ import annotations

from app.content import normalise
from app.content.sections import ENTRIES
from app.documents import templating

EVERY_SECTION = {
    "personalInfo": {
        "name": "Marguerite Oyelaran-Finch", "email": "marguerite@example.org", "phone": "+31 20 555 0188",
        "address": "Keizersgracht 212, 1016 DX Amsterdam, NL", "summary": "Data engineer who likes quiet pipelines.",
        "label": "Senior Data Engineer", "url": "https://marguerite.example.org",
        "image": "https://marguerite.example.org/portrait.jpg",
        "location": {"address": "Keizersgracht 212", "postalCode": "1016 DX", "city": "Amsterdam", "region": "",
                     "countryCode": "NL"},
        "profiles": [{"network": "GitHub", "username": "mfinch", "url": "https://github.example.com/mfinch"},
                     {"network": "Mastodon", "username": "mfinch@social", "url": ""}],
    },
    "workExperience": [{
        "company": "Tidewater Analytics", "position": "Lead Pipeline Engineer", "location": "Rotterdam",
        "url": "https://tidewater.example.com", "startDate": "2019-04", "endDate": "",
        "description": "Ran the ingestion platform.", "highlights": ["Cut reprocessing cost by a third"],
        "companyDescription": "Maritime data for port operators",
    }, {
        "company": "Kestrel Freight Systems", "position": "Warehouse Architect", "location": "Antwerp",
        "url": "https://kestrel.example.com", "startDate": "2015-01", "endDate": "2019-03",
        "description": "Laid the nightly batch loads.", "highlights": ["Halved the morning backlog"],
        "companyDescription": "Freight forwarding",
    }],
    "education": [{
        "school": "Delft University of Technology", "degree": "MSc Computer Science", "area": "Data Systems",
        "studyType": "Master", "score": "8.4/10", "startDate": "2012-09", "endDate": "2014-07",
        "courses": ["Distributed Algorithms", "Stream Processing"], "url": "https://www.tudelft.example.nl",
    }],
    "skills": ["Kafka Streams", "dbt"],
    "skillGroups": [{"name": "Databases", "level": "Expert", "keywords": ["PostgreSQL", "ClickHouse"]}],
    "projects": [{
        "id": "proj-tideline", "name": "Tideline", "description": "An open-source lineage viewer.",
        "url": "https://tideline.example.com", "startDate": "2021-02", "endDate": "2022-11",
        "technologies": ["TypeScript", "GraphQL"], "highlights": ["Adopted by four teams"],
        "roles": ["Maintainer"], "entity": "Tidewater Analytics", "type": "application",
    }],
    "languages": [{"language": "Dutch", "fluency": "Native"}, {"language": "Yoruba", "fluency": "Conversational"}],
    "certificates": [{"name": "Certified Kafka Developer", "issuer": "Confluent Academy", "date": "2020-06",
                      "url": "https://certs.example.com/kafka"}],
    "awards": [{"title": "Data Team of the Year", "awarder": "Benelux Data Awards", "date": "2022-03",
                "summary": "For the lineage rollout."}],
    "volunteer": [{"organization": "Code Club Amsterdam", "position": "Mentor", "url": "https://codeclub.example.nl",
                   "startDate": "2016-01", "endDate": "2018-12", "summary": "Taught Python on Saturdays.",
                   "highlights": ["Started a girls-only group"]}],
    "publications": [{"name": "Backfills Without Tears", "publisher": "Dataconf Proceedings",
                      "releaseDate": "2021-10", "url": "https://dataconf.example.com/backfills",
                      "summary": "Idempotent backfills in practice."}],
    "interests": [{"name": "Sailing", "keywords": ["Dinghies", "Tide tables"]}],
    "references": [{"name": "Pieter Vandersloot", "reference": "Marguerite made our data boring, in a good way."}],
    "customSections": [{"id": "talks", "title": "Talks", "items": [
        {"title": "Lineage at Scale", "subtitle": "PyData Amsterdam", "date": "2023-05",
         "url": "https://pydata.example.com/lineage", "description": "A talk on column-level lineage."}]}],
    "sectionOrder": ["customSections", "references", "skills", "workExperience", "interests", "publications",
                     "volunteer", "awards", "certificates", "languages", "projects", "education"],
    "language": "en",
    "sectionTitles": {},
}


# Fields JSON Resume has that the documents do not print: kept as the resume's data (a JSON export
# writes them back).
DATA_ONLY = {(key, field.name) for key, entries in ENTRIES.items() for field in entries.fields if not field.printed}


def _texts(*values: str) -> list[str]:
    return [v for v in values if v]


def section_strings(content: dict, section: str) -> list[str]:
    """What a document shows of one body section (entries in order; fields in no particular order)."""
    c = normalise.normalise_content(content)
    m = templating.month
    if section == "skills":
        found = []
        for group in c["skillGroups"]:
            found += _texts(group["name"], group["level"], *group["keywords"])
        return found + c["skills"]
    if section == "customSections":
        found = []
        for custom in c["customSections"]:
            found.append(custom["title"])
            for item in custom["items"]:
                found += _texts(item["title"], item["subtitle"], m(item["date"]), item["url"], item["description"])
        return found
    found = []
    for entry in c[section]:
        for key, value in entry.items():
            if key == "id" or (section, key) in DATA_ONLY:
                continue
            if isinstance(value, list):
                found += value
            elif key in ("startDate", "endDate", "date", "releaseDate"):
                found += _texts(m(value))
            else:
                found += _texts(value)
    return found


def body_strings(content: dict, visible: dict | None = None) -> list[tuple[str, list[str]]]:
    """(section, its strings) for each shown body section, in ``sectionOrder``."""
    visible = normalise.normalise_visibility(visible)
    order = normalise.normalise_content(content)["sectionOrder"]
    return [(key, section_strings(content, key)) for key in order if visible[key] and section_strings(content, key)]
