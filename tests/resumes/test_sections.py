"""Issue 15's sections through the API: saved and read back exactly, old resumes untouched, validation
naming the field, the order of the sections and their visibility in exports and on the share page."""
import copy
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from app.resumes.models import SECTIONS, Resume
from tests.documents import samples

EVERY = {**copy.deepcopy(samples.SAMPLES[("en", "long")]),
         "sectionOrder": ["customSections", "languages", "workExperience", "skills"]}
assert {"skillGroups", "languages", "certificates", "awards", "volunteer", "publications", "interests",
        "references", "customSections"} <= set(EVERY)

# A resume saved before issue 15: only the five original keys, and not even all their fields.
OLD = {"personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com"},
       "workExperience": [{"company": "Babbage & Co", "position": "Engineer"}],
       "education": [], "skills": ["Python"], "projects": []}
OLD_VISIBILITY = {"personalInfo": True, "workExperience": True, "education": True, "skills": False,
                  "projects": True}

SMALL = {"personalInfo": {"name": "Ada Quill"},
         "workExperience": [{"company": "Gearbox Ltd", "position": "Staff Engineer"}],
         "skills": ["Erlang"],
         "languages": [{"language": "Welsh", "fluency": "Conversational"}],
         "customSections": [{"title": "Patents", "items": [{"title": "Self-balancing ledger"}]}]}


def download(client, url):
    parts = urlsplit(url)
    return client.get(f"{parts.path}?{parts.query}")


def html_export(client, resume_id) -> str:
    response = client.post(f"/api/resumes/{resume_id}/export", json={"format": "html"})
    assert response.status_code == 201, response.get_json()
    return download(client, response.get_json()["data"]["downloadUrl"]).data.decode("utf-8")


class _Headings(HTMLParser):
    def __init__(self, document: str):
        super().__init__(convert_charrefs=True)
        self.headings, self._in = [], False
        self.feed(document)

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self._in = True
            self.headings.append("")

    def handle_endtag(self, tag):
        self._in = self._in and tag != "h2"

    def handle_data(self, data):
        if self._in:
            self.headings[-1] += data


def headings(document: str) -> list[str]:
    return [" ".join(h.split()) for h in _Headings(document).headings]


# --- saved and read back -------------------------------------------------------------------------

def test_a_resume_with_every_section_saves_and_reads_back_exactly(client, owner, create):
    created = create(contentJson=EVERY)
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["data"]["contentJson"] == EVERY
    resume_id = created.get_json()["data"]["id"]
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["contentJson"] == EVERY

    changed = {**EVERY, "languages": [{"language": "Welsh"}], "sectionOrder": ["references"]}
    response = client.put(f"/api/resumes/{resume_id}", json={"contentJson": changed})
    assert response.status_code == 200, response.get_json()
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["contentJson"] == changed


def test_a_custom_section_without_an_id_gets_one_and_keeps_it(client, owner, create):
    content = {"customSections": [{"title": "Patents", "items": [{"title": "Self-balancing ledger"}]},
                                  {"id": "mine", "title": "Talks", "items": []}]}
    data = create(contentJson=content).get_json()["data"]
    first, second = copy.deepcopy(data["contentJson"]["customSections"])
    assert re.fullmatch(r"[0-9a-f]{16}", first.pop("id")) and first == content["customSections"][0]
    assert second == content["customSections"][1]
    again = client.put(f"/api/resumes/{data['id']}", json={"contentJson": data["contentJson"]}).get_json()["data"]
    assert again["contentJson"]["customSections"] == data["contentJson"]["customSections"]


def test_new_keys_and_fields_left_out_stay_out(client, owner, create):
    data = create(contentJson={"workExperience": [{"company": "Babbage & Co"}],
                               "education": [{"school": "Riverside"}]}).get_json()["data"]
    assert set(data["contentJson"]) == {"personalInfo", "workExperience", "education", "skills", "projects"}
    assert set(data["contentJson"]["personalInfo"]) == {"name", "email", "phone", "address", "summary"}
    assert set(data["contentJson"]["workExperience"][0]) == {"company", "position", "startDate", "endDate",
                                                             "description"}
    assert set(data["contentJson"]["education"][0]) == {"school", "degree", "startDate", "endDate"}


def test_an_old_resume_reads_exactly_as_stored(client, owner, create, query):
    resume_id = create().get_json()["data"]["id"]

    def store_the_old_shape(session):
        resume = session.get(Resume, resume_id)
        resume.content_json, resume.sections_visibility = OLD, OLD_VISIBILITY
        session.commit()
    query(store_the_old_shape)

    data = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    assert data["contentJson"] == OLD and data["sectionsVisibility"] == OLD_VISIBILITY
    # Saving a section's visibility keeps the old keys and adds only the one given.
    data = client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"languages": False}}).get_json()
    assert data["data"]["sectionsVisibility"] == {**OLD_VISIBILITY, "languages": False}
    assert data["data"]["contentJson"] == OLD
    assert "Babbage &amp; Co" in html_export(client, resume_id)


def test_a_new_resume_has_every_section_visible(client, resume_id):
    data = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    assert data["sectionsVisibility"] == {section: True for section in SECTIONS}


# --- validation -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("content", "field"), [
    ({"languages": [{"language": 5}]}, "contentJson.languages.0.language"),
    ({"languages": [{"language": "Welsh", "level": "B2"}]}, "contentJson.languages.0.level"),
    ({"languages": "Welsh"}, "contentJson.languages"),
    ({"languages": [{}] * 51}, "contentJson.languages"),
    ({"certificates": [{"date": "2023"}]}, "contentJson.certificates.0.date"),
    ({"certificates": [{"url": "javascript:alert(1)"}]}, "contentJson.certificates.0.url"),
    ({"awards": [{"title": "x" * 201}]}, "contentJson.awards.0.title"),
    ({"awards": [{"summary": "x" * 5001}]}, "contentJson.awards.0.summary"),
    ({"volunteer": [{"startDate": "2020-05", "endDate": "2019-01"}]}, "contentJson.volunteer.0.endDate"),
    ({"volunteer": [{"highlights": ["x" * 501]}]}, "contentJson.volunteer.0.highlights.0"),
    ({"publications": [{"releaseDate": "May 2022"}]}, "contentJson.publications.0.releaseDate"),
    ({"interests": [{"keywords": [""]}]}, "contentJson.interests.0.keywords.0"),
    ({"interests": [{"keywords": ["k"] * 51}]}, "contentJson.interests.0.keywords"),
    ({"references": [{"reference": None}]}, "contentJson.references.0.reference"),
    ({"skillGroups": [{"keywords": ["x" * 101]}]}, "contentJson.skillGroups.0.keywords.0"),
    ({"customSections": [{}] * 21}, "contentJson.customSections"),
    ({"customSections": [{"items": [{}] * 51}]}, "contentJson.customSections.0.items"),
    ({"customSections": [{"items": [{"date": "2021-13"}]}]}, "contentJson.customSections.0.items.0.date"),
    ({"customSections": [{"id": ""}]}, "contentJson.customSections.0.id"),
    ({"personalInfo": {"url": "ftp://example.org"}}, "contentJson.personalInfo.url"),
    ({"personalInfo": {"profiles": [{}] * 21}}, "contentJson.personalInfo.profiles"),
    ({"personalInfo": {"profiles": [{"network": 1}]}}, "contentJson.personalInfo.profiles.0.network"),
    ({"workExperience": [{"location": "x" * 201}]}, "contentJson.workExperience.0.location"),
    ({"workExperience": [{"highlights": "Fast"}]}, "contentJson.workExperience.0.highlights"),
    ({"education": [{"courses": ["x" * 201]}]}, "contentJson.education.0.courses.0"),
    ({"education": [{"score": 3.9}]}, "contentJson.education.0.score"),
    ({"sectionOrder": ["hobbies"]}, "contentJson.sectionOrder.0"),
    ({"sectionOrder": ["personalInfo"]}, "contentJson.sectionOrder.0"),
    ({"sectionOrder": ["skills", "education", "skills"]}, "contentJson.sectionOrder"),
    ({"sectionOrder": "skills"}, "contentJson.sectionOrder"),
])
def test_invalid_sections_are_refused_naming_the_field(owner, create, content, field):
    response = create(contentJson=content)
    assert response.status_code == 400
    body = response.get_json()
    assert body["code"] == "VALIDATION_ERROR" and body["details"]["field"] == field, body


@pytest.mark.parametrize("section", ["languages", "customSections", "references"])
def test_visibility_takes_every_section_and_refuses_a_non_boolean(client, resume_id, section):
    response = client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {section: "no"}})
    assert response.status_code == 400 and response.get_json()["details"]["field"] == f"sectionsVisibility.{section}"
    response = client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {section: False}})
    assert response.status_code == 200 and response.get_json()["data"]["sectionsVisibility"][section] is False


# --- order and visibility in what others see ---------------------------------------------------------

def test_section_order_changes_the_order_of_the_headings_in_the_html_export(client, owner, create):
    resume_id = create(contentJson={**SMALL, "sectionOrder": ["languages", "customSections", "skills"]}
                       ).get_json()["data"]["id"]
    first = headings(html_export(client, resume_id))
    client.put(f"/api/resumes/{resume_id}", json={"contentJson": {**SMALL, "sectionOrder": [
        "skills", "workExperience", "customSections", "languages"]}})
    second = headings(html_export(client, resume_id))
    # Heritage (the first basic template) names its sections like this; the rest follow in the default order.
    assert first == ["Languages", "Patents", "Skills", "Professional Experience"]
    assert second == ["Skills", "Professional Experience", "Patents", "Languages"]


def test_a_hidden_section_is_not_in_the_export(client, owner, create):
    resume_id = create(contentJson=SMALL).get_json()["data"]["id"]
    assert "Welsh" in html_export(client, resume_id)
    client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"languages": False,
                                                                         "customSections": False}})
    document = html_export(client, resume_id)
    assert "Welsh" not in document and "Self-balancing ledger" not in document and "Patents" not in document
    assert "Gearbox Ltd" in document and "Erlang" in document


def test_the_share_page_leaves_out_hidden_sections_and_skill_groups_with_skills(client, owner, create):
    content = {**SMALL, "skillGroups": [{"name": "Databases", "keywords": ["Cassandra"]}]}
    resume_id = create(contentJson=content).get_json()["data"]["id"]
    token = client.post(f"/api/resumes/{resume_id}/share", json={}).get_json()["data"]["token"]
    client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"skills": False, "languages": False}})
    data = client.get(f"/api/share/{token}").get_json()["data"]["contentJson"]
    assert set(data) == {"personalInfo", "workExperience", "education", "projects", "customSections"}
    page = client.get(f"/share/{token}").data.decode("utf-8")
    assert "Gearbox Ltd" in page and "Self-balancing ledger" in page
    assert "Cassandra" not in page and "Welsh" not in page and "Erlang" not in page
