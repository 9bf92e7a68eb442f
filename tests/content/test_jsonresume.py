"""JSON Resume 1.2.1 to and from our content model (app/content/jsonresume/), and the "json" export."""
from __future__ import annotations

import copy
import json
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest

from tests.documents.every_section import EVERY_SECTION

from app.content import normalise
from app.content import jsonresume
from app.content.sections import BODY_SECTIONS
from app.content.jsonresume.terms import ALIASES
from app.resumes.schemas import ContentSchema

DATA = Path(__file__).parent / "data"
SAMPLE = json.loads((DATA / "jsonresume_sample.json").read_text(encoding="utf-8"))
SCHEMA = json.loads((DATA / "jsonresume_schema.json").read_text(encoding="utf-8"))

# The schema's "uri" format, which jsonschema checks only with an extra package: an absolute URI.
FORMATS = jsonschema.FormatChecker()
FORMATS.checks("uri")(lambda value: bool(urlsplit(value).scheme and urlsplit(value).netloc))


def schema_errors(document: dict) -> list[str]:
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=FORMATS)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def imported(document: dict) -> tuple[dict, list[str]]:
    content, dropped = jsonresume.to_content(document)
    ContentSchema().load(copy.deepcopy(content))     # what the importer stores always validates
    return content, dropped


# --- the published sample -------------------------------------------------------------------------
def test_the_published_sample_maps_onto_the_model():
    content, dropped = imported(SAMPLE)
    # Every field of the schema is kept (issue 23 point 3), but for meta.canonical, the address of the
    # file it was published at, which our export is not.
    assert dropped == ["meta.canonical"]
    personal = content["personalInfo"]
    assert personal["name"] == "Richard Hendriks" and personal["label"] == "Programmer"
    assert personal["url"] == "http://richardhendricks.example.com"
    assert personal["address"] == "2712 Broadway St, CA 94115 San Francisco, California, US"
    assert personal["location"] == {"address": "2712 Broadway St", "postalCode": "CA 94115",
                                    "city": "San Francisco", "region": "California", "countryCode": "US"}
    assert personal["summary"].startswith("Richard hails from Tulsa.")
    assert personal["profiles"] == [
        {"network": "Twitter", "username": "neutralthoughts", "url": ""},
        {"network": "SoundCloud", "username": "dandymusicnl", "url": "https://soundcloud.example.com/dandymusicnl"}]
    assert content["workExperience"] == [{
        "company": "Pied Piper", "position": "CEO/President", "location": "Palo Alto, CA",
        "url": "http://piedpiper.example.com", "startDate": "2013-12", "endDate": "2014-12",
        "description": SAMPLE["work"][0]["summary"], "highlights": SAMPLE["work"][0]["highlights"],
        "companyDescription": "Awesome compression company"}]
    assert content["education"] == [{
        "school": "University of Oklahoma", "degree": "", "area": "Information Technology",
        "studyType": "Bachelor", "score": "4.0", "startDate": "2011-06", "endDate": "2014-01", "url": "",
        "courses": ["DB1101 - Basic SQL", "CS2011 - Java Introduction"]}]  # gpa: the older schema's score
    assert content["skillGroups"] == [{"name": "Web Development", "level": "Master",
                                       "keywords": ["HTML", "CSS", "Javascript"]},
                                      {"name": "Compression", "level": "Master", "keywords": ["Mpeg", "MP4", "GIF"]}]
    assert content["skills"] == []
    assert content["projects"] == [{   # no id: the server gives one when the resume is saved
        "name": "Miss Direction", "description": "A mapping engine that misguides you",
        "url": "https://missdirection.example.com",  # written without a scheme in the sample
        "startDate": "2016-08", "endDate": "2016-08", "technologies": ["GoogleMaps", "Chrome Extension", "Javascript"],
        "highlights": SAMPLE["projects"][0]["highlights"], "roles": ["Team lead", "Designer"], "entity": "Smoogle",
        "type": "application"}]
    assert content["volunteer"][0]["organization"] == "CoderDojo"
    assert content["volunteer"][0]["startDate"] == "2012-01"
    assert content["awards"] == [{"title": "Digital Compression Pioneer Award", "awarder": "Techcrunch",
                                  "date": "2014-11", "summary": "There is no spoon."}]
    assert content["publications"][0]["releaseDate"] == "2014-10"
    assert content["languages"] == [{"language": "English", "fluency": "Native speaker"}]
    assert content["interests"] == [{"name": "Wildlife", "keywords": ["Ferrets", "Unicorns"]}]
    assert content["references"][0]["name"] == "Erlich Bachman"
    assert content["certificates"] == [] and content["customSections"] == []
    assert content["sectionOrder"] == list(BODY_SECTIONS)


def test_the_sample_exported_again_keeps_everything_it_imported():
    content, _ = imported(SAMPLE)
    document = jsonresume.from_content(content, "Richard")
    assert schema_errors(document) == []
    again, dropped = imported(document)
    assert again == content and dropped == []
    for section in ("work", "volunteer", "awards", "publications", "languages", "interests", "references"):
        for ours, theirs in zip(document[section], SAMPLE[section]):
            kept = {k: v for k, v in theirs.items() if f"{section}.0.{k}" not in jsonresume.to_content(SAMPLE)[1]}
            dates = {k for k in kept if k.endswith("Date") or k == "date"}
            assert {k: v for k, v in ours.items() if k not in dates} == \
                {k: v for k, v in kept.items() if k not in dates}
            assert all(ours[k] == kept[k][:7] for k in dates)


# --- round trips ----------------------------------------------------------------------------------
def test_a_resume_with_every_section_round_trips_exactly():
    document = jsonresume.from_content(EVERY_SECTION, "Data engineer, 2024")
    assert schema_errors(document) == []
    content, dropped = imported(document)
    assert content == EVERY_SECTION and dropped == []
    assert jsonresume.settings(document) == {"title": "Data engineer, 2024"}


def test_the_export_puts_each_field_where_json_resume_has_it():
    document = jsonresume.from_content(EVERY_SECTION, "Data engineer")
    assert document["$schema"] == "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.2.1/schema.json"
    assert document["basics"] == {
        "name": "Marguerite Oyelaran-Finch", "label": "Senior Data Engineer", "email": "marguerite@example.org",
        "phone": "+31 20 555 0188", "url": "https://marguerite.example.org",
        "image": "https://marguerite.example.org/portrait.jpg", "summary": "Data engineer who likes quiet pipelines.",
        "location": {"address": "Keizersgracht 212", "postalCode": "1016 DX", "city": "Amsterdam", "countryCode": "NL"},
        "profiles": [{"network": "GitHub", "username": "mfinch", "url": "https://github.example.com/mfinch"},
                     {"network": "Mastodon", "username": "mfinch@social"}]}
    assert document["work"] == [{"name": "Tidewater Analytics", "position": "Lead Pipeline Engineer",
                                 "location": "Rotterdam", "url": "https://tidewater.example.com",
                                 "startDate": "2019-04", "summary": "Ran the ingestion platform.",
                                 "highlights": ["Cut reprocessing cost by a third"],
                                 "description": "Maritime data for port operators"},
                                {"name": "Kestrel Freight Systems", "position": "Warehouse Architect",
                                 "location": "Antwerp", "url": "https://kestrel.example.com", "startDate": "2015-01",
                                 "endDate": "2019-03", "summary": "Laid the nightly batch loads.",
                                 "highlights": ["Halved the morning backlog"], "description": "Freight forwarding"}]
    assert document["education"][0]["institution"] == "Delft University of Technology"
    assert document["education"][0]["x-resume-service"] == {"degree": "MSc Computer Science"}
    assert document["skills"] == [{"name": "Databases", "level": "Expert", "keywords": ["PostgreSQL", "ClickHouse"]},
                                  {"keywords": ["Kafka Streams", "dbt"], "x-resume-service": {"skills": True}}]
    assert document["projects"][0]["keywords"] == ["TypeScript", "GraphQL"]
    assert document["projects"][0]["x-resume-service"] == {"id": "proj-tideline"}
    extension = document["meta"]["x-resume-service"]
    assert extension["sectionOrder"] == EVERY_SECTION["sectionOrder"]
    assert extension["customSections"] == EVERY_SECTION["customSections"]
    assert document["meta"]["version"] == "v1.2.1" and "lastModified" not in document["meta"]


def test_an_old_resume_round_trips_as_it_renders():
    old = {"personalInfo": {"name": "Ada", "email": "", "phone": "", "address": "", "summary": ""},
           "workExperience": [{"company": "Engines Ltd", "position": "", "startDate": "1843-01", "endDate": "",
                               "description": "Notes on the engine."}],
           "education": [], "skills": ["Mathematics"],
           "projects": [{"id": "p1", "name": "Note G", "description": "", "technologies": [], "url": "",
                         "startDate": "", "endDate": "", "highlights": []}]}
    document = jsonresume.from_content(old, "Ada")
    assert schema_errors(document) == []
    assert "education" not in document and "volunteer" not in document
    content, dropped = imported(document)
    assert content == normalise.normalise_content(old) and dropped == []


def test_empty_entries_and_an_empty_resume_round_trip():
    content = normalise.normalise_content({"workExperience": [{}], "awards": [{}], "customSections": [
        {"id": "c1", "title": "", "items": [{}]}]})
    document = jsonresume.from_content(content, "Blank")
    assert document["work"] == [{}] and document["awards"] == [{}]
    assert schema_errors(document) == []
    assert imported(document) == (content, [])
    empty = jsonresume.from_content({}, "Nothing yet")
    assert imported(empty) == (normalise.normalise_content({}), [])


def test_visibility_and_the_last_change_travel_in_meta():
    when = datetime(2026, 3, 4, 5, 6, 7, 890_000, tzinfo=timezone.utc)
    document = jsonresume.from_content(EVERY_SECTION, "Data engineer", visible={"awards": False},
                                       last_modified=when)
    assert document["meta"]["lastModified"] == "2026-03-04T05:06:07"
    assert document["awards"]      # hidden sections are still the resume's data
    settings = jsonresume.settings(document)
    assert settings["title"] == "Data engineer"
    assert settings["sectionsVisibility"]["awards"] is False and settings["sectionsVisibility"]["skills"] is True
    assert imported(document) == (EVERY_SECTION, [])
    assert jsonresume.settings(SAMPLE) == {}


# --- dates ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("date,month", [("2014", "2014-01"), ("2014-06", "2014-06"), ("2014-06-29", "2014-06")])
def test_json_resume_dates_keep_month_precision(date, month):
    content, dropped = imported({"work": [{"name": "X", "startDate": date}], "awards": [{"date": date}]})
    assert content["workExperience"][0]["startDate"] == month and content["awards"][0]["date"] == month
    assert dropped == []


@pytest.mark.parametrize("date", ["Present", "2014-13", "2014-00-01", "14-06", "2014/13", "2014-06-29T10:00:00", 2014])
def test_what_is_not_a_date_is_dropped(date):
    content, dropped = imported({"work": [{"name": "X", "startDate": date}]})
    assert content["workExperience"][0]["startDate"] == "" and dropped == ["work.0.startDate"]


def test_an_end_before_the_start_is_dropped():
    content, dropped = imported({"volunteer": [{"organization": "Y", "startDate": "2020-05", "endDate": "2019"}]})
    assert content["volunteer"][0]["startDate"] == "2020-05" and content["volunteer"][0]["endDate"] == ""
    assert dropped == ["volunteer.0.endDate"]


# --- what cannot be kept is named, and the rest is kept ---------------------------------------------
def test_values_our_validation_refuses_are_dropped_and_named():
    document = {
        "basics": {"name": "N" * 201, "email": "ok@example.com", "url": "ftp://files.example.com",
                   "image": "https://img.example.com/me.png", "birthday": "1990",
                   "location": {"city": "Lyon", "countryCode": "FR", "planet": "Earth"},
                   "profiles": [{"network": "X", "url": "not a url"}] * 21},
        "work": [{"name": f"Company {i}", "highlights": ["ok", "", "h" * 501, 42, None, {"a": 1}]}
                 for i in range(51)],
        "skills": [{"name": "Go", "keywords": ["k" * 101, "fine"], "rating": 5}],
        "projects": [{"name": "P", "url": "javascript:alert(1)", "description": "\x00"}],
        "languages": "English",
        "x-custom": {"kept": False},
        "meta": {"version": "v1", "lastModified": "2020", "theme": "even"},
    }
    content, dropped = imported(document)
    assert content["personalInfo"]["name"] == "" and content["personalInfo"]["email"] == "ok@example.com"
    assert content["personalInfo"]["address"] == "Lyon, FR"
    assert content["personalInfo"]["image"] == "https://img.example.com/me.png"
    assert len(content["personalInfo"]["profiles"]) == 20
    assert all(p == {"network": "X", "username": "", "url": ""} for p in content["personalInfo"]["profiles"])
    assert len(content["workExperience"]) == 50
    assert content["workExperience"][0]["highlights"] == ["ok", "42"]
    assert content["skillGroups"] == [{"name": "Go", "level": "", "keywords": ["fine"]}]
    assert content["projects"][0]["url"] == "" and content["projects"][0]["description"] == ""
    assert content["languages"] == []
    assert set(dropped) == {
        "x-custom", "basics.birthday", "basics.location.planet", "languages", "meta.theme",
        "basics.name", "basics.url", "basics.profiles.20", *(f"basics.profiles.{i}.url" for i in range(21)),
        "work.50", *(f"work.{i}.highlights.{j}" for i in range(51) for j in (2, 5)),
        "skills.0.rating", "skills.0.keywords.0", "projects.0.url", "projects.0.description",
    }
    assert len(dropped) == len(set(dropped))


def test_our_own_extension_is_checked_like_the_rest():
    document = {"education": [{"institution": "U", "x-resume-service": {"degree": "BSc", "minor": "Art"}}],
                "projects": [{"name": "P", "x-resume-service": {"id": "x" * 65}}],
                "skills": [{"keywords": ["a", "b"], "x-resume-service": {"skills": True}}, {"name": "Named"}],
                "meta": {"x-resume-service": {"sectionOrder": ["skills", "nope", "skills", "awards"],
                                              "customSections": [{"title": "T", "items": [{"date": "2020-02-30"}]},
                                                                 "junk"],
                                              "colour": "red"}}}
    content, dropped = imported(document)
    assert content["education"][0]["degree"] == "BSc"
    assert "id" not in content["projects"][0]
    assert content["skills"] == ["a", "b"]
    assert content["skillGroups"] == [{"name": "Named", "level": "", "keywords": []}]
    assert content["sectionOrder"][:2] == ["skills", "awards"]
    assert content["customSections"] == [{"title": "T", "items": [
        {"title": "", "subtitle": "", "date": "2020-02", "url": "", "description": ""}]}]
    # in the order found: while reading, then what the schema refused
    assert dropped == ["education.0.x-resume-service.minor", "meta.x-resume-service.colour",
                       "meta.x-resume-service.customSections.1", "meta.x-resume-service.sectionOrder.1",
                       "meta.x-resume-service.sectionOrder.2", "projects.0.x-resume-service.id"]


def test_a_location_object_and_numbers_are_read_as_text():
    content, dropped = imported({"basics": {"location": {"address": "1 Quay St\nFlat 2", "postalCode": "D02",
                                                         "city": "Dublin"}},
                                 "work": [{"name": "W", "location": {"city": "Cork", "countryCode": "IE"}}],
                                 "education": [{"institution": "TCD", "score": 3.7}]})
    assert content["personalInfo"]["address"] == "1 Quay St\nFlat 2, D02 Dublin"
    assert content["workExperience"][0]["location"] == "Cork, IE"
    assert content["education"][0]["score"] == "3.7" and dropped == []


@pytest.mark.parametrize("document", [[], "resume", 3, None, {}, {"personalInfo": {"name": "A"}},
                                      {"basics": "A", "work": {"name": "B"}}])
def test_what_is_not_a_json_resume_document_is_refused(document):
    with pytest.raises(jsonresume.NotJsonResume) as caught:   # the import answers it as VALIDATION_ERROR
        jsonresume.to_content(document)
    assert caught.value.details["field"] == "jsonResume"


# --- the "json" export, through the API -------------------------------------------------------------
def download(client, url):
    parts = urlsplit(url)
    return client.get(f"{parts.path}?{parts.query}")


def test_a_json_export_is_the_resume_as_json_resume(client, owner, create):
    created = create(title="Data engineer (2024)", contentJson=EVERY_SECTION,
                     sectionsVisibility={"references": False})
    assert created.status_code == 201, created.get_json()
    resume = created.get_json()["data"]
    response = client.post(f"/api/resumes/{resume['id']}/export", json={"format": "json"})
    assert response.status_code == 201, response.get_json()
    result = response.get_json()["data"]
    assert result["format"] == "json" and result["filename"] == "Data_engineer_2024.json"
    file = download(client, result["downloadUrl"])
    assert file.status_code == 200 and file.mimetype == "application/json"
    assert "Data_engineer_2024.json" in file.headers["Content-Disposition"]
    assert result["fileSize"] == len(file.data)
    document = json.loads(file.data.decode("utf-8"))
    assert schema_errors(document) == []
    stored = client.get(f"/api/resumes/{resume['id']}").get_json()["data"]
    assert document == jsonresume.from_content(
        stored["contentJson"], "Data engineer (2024)", visible=stored["sectionsVisibility"],
        last_modified=datetime.fromisoformat(stored["updatedAt"].replace("Z", "+00:00")))
    assert jsonresume.to_content(document) == (EVERY_SECTION, [])
    assert jsonresume.settings(document)["sectionsVisibility"]["references"] is False


def test_the_export_options_are_accepted_and_ignored_by_json(client, owner, create):
    resume = create(contentJson=EVERY_SECTION).get_json()["data"]["id"]
    response = client.post(f"/api/resumes/{resume}/export",
                           json={"format": "json", "options": {"pageSize": "Letter", "colorScheme": "green"}})
    assert response.status_code == 201, response.get_json()
    plain = client.post(f"/api/resumes/{resume}/export", json={"format": "json"})
    first = download(client, response.get_json()["data"]["downloadUrl"]).data
    assert first == download(client, plain.get_json()["data"]["downloadUrl"]).data


def test_the_documents_interface_renders_json_too():
    from app.documents import Source, render

    data = render("json", Source(html_template="", css="", title="T", content=EVERY_SECTION,
                                 visible={"awards": False}))
    assert data.endswith(b"\n")
    assert json.loads(data) == jsonresume.from_content(EVERY_SECTION, "T", visible={"awards": False})


def test_the_language_travels_in_meta_and_a_guessed_one_stays_unset():
    """Issue 22: ``meta.language`` carries the resume's language, the renamed headings travel in our
    extension; a resume with none set exports the one its text is in, and imports back with none."""
    german = {**EVERY_SECTION, "language": "de", "sectionTitles": {"projects": "Selected Work", "summary": "About Me"}}
    document = jsonresume.from_content(german, "Lebenslauf")
    assert document["meta"]["language"] == "de"
    titles = document["meta"][jsonresume.EXTENSION]["sectionTitles"]
    assert titles == {"projects": "Selected Work", "summary": "About Me"}
    assert jsonresume.to_content(document) == (german, [])

    unset = {**EVERY_SECTION, "language": ""}
    document = jsonresume.from_content(unset, "Resume")
    assert document["meta"]["language"] == "en" and document["meta"][jsonresume.EXTENSION]["languageSet"] is False
    assert jsonresume.to_content(document) == (unset, [])


@pytest.mark.parametrize(("tag", "language"), [("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("pt-BR", "pt"),
                                               ("en_US", "en"), ("ar", "ar"), ("ja-JP", "ja")])
def test_meta_language_as_other_tools_write_it(tag, language):
    content, dropped = jsonresume.to_content({"basics": {"name": "A"}, "meta": {"language": tag}})
    assert content["language"] == language and dropped == []


def test_a_language_we_do_not_print_in_is_dropped_and_reported():
    extension = {"sectionTitles": {"nowhere": "X", "skills": "Können"}}
    content, dropped = jsonresume.to_content({"basics": {"name": "A"},
                                              "meta": {"language": "sw", jsonresume.EXTENSION: extension}})
    assert content["language"] == "" and content["sectionTitles"] == {"skills": "Können"}
    assert "meta.language" in dropped and f"meta.{jsonresume.EXTENSION}.sectionTitles.nowhere" in dropped


# --- what other tools write (issue 23 point 3) -----------------------------------------------------
@pytest.mark.parametrize(("written", "month"), [
    ("2021/07", "2021-07"), ("07/2021", "2021-07"), ("7/2021", "2021-07"), ("Jul 2021", "2021-07"),
    ("July 2021", "2021-07"), ("Sept. 2021", "2021-09"), ("2021年7月", "2021-07"), ("2021.07", "2021-07"),
    ("2021.7.15", "2021-07"), ("2021-07-15", "2021-07"), ("2021", "2021-01"),
])
def test_dates_in_the_common_written_forms_are_read(written, month):
    content, dropped = imported({"work": [{"name": "X", "startDate": written, "endDate": "Present"}]})
    assert content["workExperience"][0]["startDate"] == month and dropped == []
    assert content["workExperience"][0]["endDate"] == ""  # still going, as the schema would leave it out


def test_the_older_schemas_names_are_read_as_todays():
    content, dropped = imported({
        "basics": {"name": "Ada", "website": "ada.example.org", "picture": "https://ada.example.org/me.png"},
        "work": [{"company": "Analytical Engines", "website": "https://engines.example.com", "position": "Analyst"}],
        "education": [{"institution": "U", "gpa": "3.9"}],
        "volunteer": [{"organization": "Club", "website": "https://club.example.com"}],
        "awards": [{"title": "Prize", "website": "https://prize.example.com"}],
    })
    assert dropped == ["awards.0.website"]  # awards have no URL in any schema, old or new
    personal = content["personalInfo"]
    assert personal["url"] == "https://ada.example.org" and personal["image"] == "https://ada.example.org/me.png"
    assert content["workExperience"][0]["company"] == "Analytical Engines"
    assert content["workExperience"][0]["url"] == "https://engines.example.com"
    assert content["education"][0]["score"] == "3.9" and content["volunteer"][0]["url"] == "https://club.example.com"


def test_a_url_without_a_scheme_is_kept_with_https_and_a_bad_one_is_still_dropped():
    content, dropped = imported({"basics": {"name": "A", "url": "missdirection.example.com/about",
                                            "profiles": [{"network": "GitHub", "url": "github.com/ada"}]},
                                 "projects": [{"name": "P", "url": "not a url"}]})
    assert content["personalInfo"]["url"] == "https://missdirection.example.com/about"
    assert content["personalInfo"]["profiles"][0]["url"] == "https://github.com/ada"
    assert dropped == ["projects.0.url"]


def test_location_parts_are_kept_and_written_back_while_the_address_line_is_theirs():
    location = {"address": "2712 Broadway St", "postalCode": "CA 94115", "city": "San Francisco",
                "region": "California", "countryCode": "US"}
    content, dropped = imported({"basics": {"name": "R", "location": location}})
    assert dropped == [] and content["personalInfo"]["location"] == location
    assert content["personalInfo"]["address"] == "2712 Broadway St, CA 94115 San Francisco, California, US"
    assert jsonresume.from_content(content, "R")["basics"]["location"] == location
    content["personalInfo"]["address"] = "1 Hacker Way, Menlo Park"  # edited in the editor since
    assert jsonresume.from_content(content, "R")["basics"]["location"] == {"address": "1 Hacker Way, Menlo Park"}


def test_import_then_export_returns_every_field_the_schema_defines():
    """The published sample, read and written again: every field it has is there, with the same
    value (dates at the model's month precision; a URL given without a scheme with https://), but
    meta.canonical, the address the file was published at, and the older schema's names written as
    today's."""
    exported = jsonresume.from_content(imported(SAMPLE)[0], "R")

    def leaves(value, path=()):
        if isinstance(value, dict):
            for key, item in value.items():
                yield from leaves(item, path + (key,))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from leaves(item, path + (index,))
        elif value not in ("", None):  # an empty value carries nothing (and is not written)
            yield path, value

    def at(document, path):
        for key in path:
            document = document[key]
        return document

    for path, value in leaves({k: v for k, v in SAMPLE.items() if k != "meta"}):
        renamed = ALIASES.get(path[0], {}).get(path[-1])  # the older schema's name ("gpa") is written as today's
        got = at(exported, path[:-1] + (renamed,) if renamed else path)
        if path[-1] in ("startDate", "endDate", "date", "releaseDate"):
            assert got == value[:7], path
        elif path[-1] == "url" and "://" not in value:
            assert got == f"https://{value}", path
        else:
            assert got == value, path
    assert exported["meta"]["language"] == "en"
