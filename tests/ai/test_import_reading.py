"""AI-assisted import: a DOCX imported through the API while a fake OpenAI-compatible service on loopback
reads it too. What the person sees: the model's values where the rules found none (or guessed by order),
each named in the import report with reason "ai"; nothing the document does not say; the rules' reading
whenever the model fails, is not configured, or the plan has no AI features."""
import json
import logging

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from tests.ai.test_generation import set_plan
from tests.resumes.test_import import docx_of, pdf_of, upload

from app.ai import import_merge
from app.ai.import_merge import grounded, merge, normal
from app.ai.import_reading import prompt, schema_description
from app.billing.models import Subscription
from app.content import cleaning
from app.content.schema import ContentSchema
from app.importing import reading

PARAGRAPHS = (("Title", "Ada Lovelace"), ("Normal", "ada@example.com | +44 20 7946 0000"),
              ("Heading 1", "Experience"), ("Heading 2", "Bluebird | Harbor Lights"),  # no words tell which is which
              ("Normal", "Since the spring of 2019 in London."), ("Normal", "Wrote the first published program."),
              ("Heading 1", "Skills"), ("Normal", "Python, Analytical engines, Notes"),
              ("Heading 1", "Spoken"), ("Normal", "French (fluent), Italian (basic)"))
LINES = [text for _style, text in PARAGRAPHS]
READING = {
    "personalInfo": {"name": "Harbor Lights", "email": "ada@example.com"},   # the rules were sure of the name
    "workExperience": [
        {"company": "Bluebird", "position": "Harbor Lights", "startDate": "2019-04", "endDate": "",
         "location": "London"},
        {"company": "Analytical Engine Company", "position": "Lead Programmer", "startDate": "1843-01"},  # invented
    ],
    "languages": [{"language": "French", "fluency": "fluent"}, {"language": "Italian", "fluency": "basic"}],
    "skills": ["Python", "Go"],   # Go: not in the text as a word of its own
}


@pytest.fixture(autouse=True)
def _fresh_fake(fake_openai):
    fake_openai.reset()
    yield
    fake_openai.reset()


@pytest.fixture
def premium(owner, query):
    set_plan(query, owner["id"])
    return owner


def imported(client, name: str = "ada.docx") -> dict:
    response = upload(client, docx_of(*PARAGRAPHS), name)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def notes(report: dict, reason: str) -> dict[str, str]:
    return {item["path"]: item["text"] for item in report["unsure"] if item["reason"] == reason}


def rules_reading(data: dict) -> None:
    """What the rules alone read of the document: a title and employer by order, no dates, no languages."""
    content = data["resume"]["contentJson"]
    job = content["workExperience"][0]
    assert (job["position"], job["company"], job["startDate"]) == ("Bluebird", "Harbor Lights", "")
    assert not content.get("languages") and content["personalInfo"]["name"] == "Ada Lovelace"
    assert not notes(data["report"], "ai")
    assert ("workExperience.0.position", "order") in {(i["path"], i["reason"]) for i in data["report"]["unsure"]}


def test_the_model_fills_what_the_rules_missed_and_the_report_names_it(client, premium, fake_openai):
    fake_openai.reading = READING
    data = imported(client)
    content = data["resume"]["contentJson"]

    [job] = content["workExperience"]   # the invented employer is not kept: one job, the document's
    assert (job["position"], job["company"]) == ("Harbor Lights", "Bluebird")   # the order guess replaced
    assert (job["startDate"], job["location"]) == ("2019-04", "London")          # what the rules left empty
    assert job["description"] == "Since the spring of 2019 in London.\nWrote the first published program."
    assert content["languages"] == [{"language": "French", "fluency": "fluent"},
                                    {"language": "Italian", "fluency": "basic"}]   # a section the rules missed
    assert content["personalInfo"]["name"] == "Ada Lovelace"   # the rules' sure value stays
    assert content["skills"] == ["Python", "Analytical engines", "Notes"]
    text = json.dumps(data)
    assert "Analytical Engine Company" not in text and "Lead Programmer" not in text and "1843" not in text

    from_model = notes(data["report"], "ai")
    assert from_model == {"workExperience.0.position": "Harbor Lights", "workExperience.0.company": "Bluebird",
                          "workExperience.0.startDate": "2019-04", "workExperience.0.location": "London",
                          "languages.0": "French", "languages.1": "Italian"}
    left = {(item["path"], item["reason"]) for item in data["report"]["unsure"] if item["reason"] != "ai"}
    assert left == {("customSections.0", "custom_section")}   # the order and no_dates notes were answered
    report = client.get(f"/api/resumes/{data['resume']['id']}/import-report").get_json()["data"]
    assert report["unsure"] == data["report"]["unsure"]

    [sent] = fake_openai.requests   # one request: the document's lines, the schema, JSON asked for
    body = sent["body"]
    assert body["response_format"] == {"type": "json_object"}
    system, user = body["messages"]
    assert user["content"].split("\n") == LINES
    assert "YYYY-MM" in system["content"] and '"workExperience":[{' in system["content"]


def test_a_provider_error_still_imports_with_the_rules_reading(client, premium, fake_openai, caplog):
    fake_openai.reading, fake_openai.status = READING, 500
    with caplog.at_level(logging.WARNING, logger="app.ai.import_reading"):
        data = imported(client)
    rules_reading(data)
    assert len(fake_openai.requests) == 1
    assert any("status 500" in r.getMessage() and "rules' reading is kept" in r.getMessage() for r in caplog.records)


def test_an_answer_that_is_not_a_json_object_still_imports_with_the_rules_reading(client, premium,
                                                                                  fake_openai, caplog):
    for garbage in ("Sure! Here is the resume: {name: Ada", '["Ada Lovelace"]', ""):
        fake_openai.content = garbage
        with caplog.at_level(logging.WARNING, logger="app.ai.import_reading"):
            rules_reading(imported(client))
        assert any("not a JSON object" in r.getMessage() for r in caplog.records)
        caplog.clear()
    fake_openai.content, fake_openai.raw = None, b"<html>Bad gateway</html>"   # not even a chat completion
    rules_reading(imported(client))


def test_a_provider_that_does_not_answer_in_time_still_imports_with_the_rules_reading(client, premium,
                                                                                      fake_openai):
    fake_openai.reading, fake_openai.hang = READING, True   # AI_TIMEOUT_SECONDS is 3 in the tests
    try:
        rules_reading(imported(client))
    finally:
        fake_openai.release()


def test_without_a_provider_nothing_is_sent(make_app, make_user, query, fake_openai):
    other = make_app(AI_BASE_URL=None)
    user = make_user()
    set_plan(query, user["id"])
    client = other.test_client()
    signed_in = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert signed_in.status_code == 200, signed_in.get_json()
    fake_openai.reading = READING
    rules_reading(imported(client))
    assert fake_openai.requests == []


def test_a_free_plan_sends_nothing(client, owner, fake_openai, query):
    assert query(lambda s: s.scalar(select(Subscription.type).where(Subscription.user_id == owner["id"]))) == "FREE"
    fake_openai.reading = READING
    rules_reading(imported(client))
    assert fake_openai.requests == []


def test_the_text_of_a_pdf_or_docx_comes_out_of_the_sandbox_in_reading_order():
    assert reading.read_all("docx", docx_of(*PARAGRAPHS)).text.split("\n") == LINES
    lines = ["Grace Hopper", "grace@example.com", "Experience", "Computer Scientist, US Navy", "Jan 1967 - Aug 1986"]
    assert reading.read_all("pdf", pdf_of(*lines)).text.split("\n") == lines


# The pure parts ----------------------------------------------------------------------------------------------
def test_the_prompt_describes_every_section_and_field_of_the_content_schema():
    described = json.loads(schema_description())
    schema = ContentSchema()
    assert set(described) == set(import_merge.SECTIONS)
    for key, value in described.items():
        inner = schema.fields[key]
        record = value[0] if isinstance(value, list) else value
        if isinstance(record, dict):
            nested = (inner.inner if hasattr(inner, "inner") else inner).schema
            assert set(record) == set(nested.fields) - {"id"}, key
    assert described["workExperience"][0]["startDate"] == "YYYY-MM"
    assert prompt("x" * 40_000)[1]["content"] == "x" * 30_000


def test_entries_are_matched_by_their_texts_and_dates_not_their_place():
    rules = {"workExperience": [{"company": "Initech", "position": "Engineer", "startDate": "2016-03"},
                                {"company": "Acme Payments", "position": "Lead", "startDate": "2020-01"}]}
    answer = {"workExperience": [{"company": "Acme Payments", "position": "Lead", "location": "Berlin"},
                                 {"company": "Initech", "position": "Engineer", "location": "Austin"}]}
    merged, standing, added = merge(rules, [], answer)
    assert [(job["company"], job["location"]) for job in merged["workExperience"]] == [("Initech", "Austin"),
                                                                                      ("Acme Payments", "Berlin")]
    assert {note["path"] for note in added} == {"workExperience.0.location", "workExperience.1.location"}
    # The model's end before the rules' start is left out, with its note.
    merged, _, added = merge(rules, [], {"workExperience": [{"company": "Initech", "endDate": "2015-01"}]})
    assert "endDate" not in merged["workExperience"][0] and added == []


TEXT = ("Grace Hopper\ngrace@navy.mil\nExperience\nComputer Scientist\tUS Navy\nJan 1967 – Aug 1986\n"
        "Led the standardisation of COBOL.\nSkills\nCOBOL, FLOW-MATIC, Compilers\n编译器 研究\nΣίσυφος")
WORDS = TEXT.replace("\n", " ").replace("\t", " ").split(" ")
KEYS = st.sampled_from([*import_merge.SECTIONS, "name", "company", "position", "startDate", "endDate", "date",
                        "highlights", "keywords", "language", "skills", "id", "location", "url", "x"])
STRINGS = st.one_of(st.text(max_size=20), st.sampled_from(WORDS), st.sampled_from(["2019-04", "1967-13", "1986-08",
                                                                                 "1967", "Cobol", " us  NAVY "]),
                    st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join))
ANSWERS = st.recursive(st.one_of(STRINGS, st.integers(), st.booleans(), st.none()),
                       lambda inner: st.one_of(st.lists(inner, max_size=4),
                                               st.dictionaries(KEYS, inner, max_size=5)), max_leaves=30)


def _leaves(value, key=""):
    if isinstance(value, dict):
        for name, inner in value.items():
            yield from _leaves(inner, name)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, key)
    else:
        yield key, value


def _in_text(key: str, value) -> bool:
    if not isinstance(value, str):
        return False
    if key in import_merge.DATES and len(value) == 7 and value[4] == "-" and value[:4].isdigit():
        return value[:4] in TEXT
    return normal(value) in normal(TEXT)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=st.one_of(ANSWERS, st.dictionaries(KEYS, ANSWERS, max_size=6)))
def test_nothing_the_model_answers_is_kept_unless_it_is_in_the_text(answer):
    kept = grounded(answer, TEXT)
    assert all(_in_text(key, value) for key, value in _leaves(kept))
    # Merged into nothing, every value of the result comes from the text too, and the result validates.
    valid, _ = cleaning.keep_valid(kept)
    merged, _, added = merge({}, [], valid)
    assert all(_in_text(key, value) for key, value in _leaves(merged))
    ContentSchema().load(merged)
    assert all(note["reason"] == "ai" for note in added)
