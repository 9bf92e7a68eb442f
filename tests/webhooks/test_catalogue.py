"""The event catalogue: GET /api/webhooks/event-types, and every event the API records (the outbox
rows) and every payload delivered to a real receiver validates against its type's schema."""
import json
from pathlib import Path

from jsonschema import Draft202012Validator, FormatChecker
from sqlalchemy import select

from tests.ai.test_generation import CONTENT, JOB
from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_webhooks import create_resume

from app.events.models import Event
from app.events.outbox import EVENT_TYPES
from app.webhooks.catalogue import CATALOGUE
from app.webhooks.service import SUBSCRIBABLE, TEST_EVENT

receiver = shared.receiver  # the fixture


def problems(event_type: str, data: dict) -> list[str]:
    validator = Draft202012Validator(CATALOGUE[event_type][1], format_checker=FormatChecker())
    return [f"{event_type} {list(error.path)}: {error.message}" for error in validator.iter_errors(data)]


def test_every_event_type_has_a_valid_catalogue_entry(client):
    assert set(EVENT_TYPES) | set(SUBSCRIBABLE) | {TEST_EVENT} == set(CATALOGUE)
    response = client.get("/api/webhooks/event-types")  # public: no session
    assert response.status_code == 200
    entries = response.get_json()["data"]
    assert [entry["type"] for entry in entries] == [*SUBSCRIBABLE, TEST_EVENT]
    for entry in entries:
        assert list(entry) == ["type", "description", "schema"] and entry["description"]
        assert entry["schema"]["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(entry["schema"])
        assert entry["schema"] == CATALOGUE[entry["type"]][1]


def test_the_schemas_refuse_data_of_another_shape():
    assert problems("resume.deleted", {"resume": {"id": "r1", "user_id": "u1"}})  # deleted_at missing
    assert problems("ai.analysis_completed", {"analysis": {
        "resume_id": "r1", "overall_score": 101, "keyword_match_score": 1, "format_score": 1, "content_score": 1,
        "suggestions_count": 0}})
    assert problems("resume.created", {"resume": {}, "extra": 1})


def test_every_event_the_api_records_and_delivers_matches_its_schema(client, owner, receiver, query):
    hook = client.post("/api/webhooks", json={"url": receiver.url, "events": list(SUBSCRIBABLE)}).get_json()["data"]
    # A purchase through the fake payment provider: user.subscription_changed, and the plan AI needs.
    response = client.post("/api/account/subscription", json={"planId": "premium", "paymentMethodId": "pm_card_visa"})
    assert response.status_code in (200, 201), response.get_json()
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    response = client.post("/api/resumes", json={"title": "Catalogue", "templateId": template,
                                                 "contentJson": CONTENT, "targetJobDescription": JOB})
    assert response.status_code == 201, response.get_json()
    resume_id = response.get_json()["data"]["id"]
    calls = [
        client.put(f"/api/resumes/{resume_id}", json={"title": "Catalogue 2", "status": "PUBLISHED"}),
        client.post(f"/api/resumes/{resume_id}/share", json={"password": "a share password"}),
        client.post(f"/api/resumes/{resume_id}/export", json={"format": "txt"}),
        client.post(f"/api/resumes/{resume_id}/analysis", json={}),
        client.post(f"/api/resumes/{resume_id}/generate", json={"kind": "summary"}),
        client.post(f"/api/resumes/{resume_id}/duplicate"),
        client.put("/api/account", json={"name": "Renamed", "preferences": {"language": "zh-cn"}}),
        client.delete(f"/api/resumes/{resume_id}"),
        client.post(f"/api/webhooks/{hook['id']}/test"),
    ]
    assert [r.status_code for r in calls if r.status_code >= 300] == [], [r.get_json() for r in calls]
    create_resume(client, "Last")

    rows = select(Event).where(Event.user_id == owner["id"]).order_by(Event.created_at)
    recorded = query(lambda s: [(e.type, e.data) for e in s.scalars(rows)])
    assert {event_type for event_type, _ in recorded} == set(CATALOGUE)  # every type happened
    assert [problem for event_type, data in recorded for problem in problems(event_type, data)] == []

    # What the receiver got: all but user.registered (before the webhook) and webhook.test's own entry.
    deliveries = receiver.wait_for(len(recorded) - 1)
    bodies = [json.loads(request["body"]) for request in deliveries]
    assert {body["type"] for body in bodies} == set(CATALOGUE) - {"user.registered"}
    assert [problem for body in bodies for problem in problems(body["type"], body["data"])] == []


def test_the_catalogue_is_not_a_webhook_id(client, owner):
    for method in ("put", "delete"):
        response = getattr(client, method)("/api/webhooks/event-types", json={"active": False})
        assert response.status_code == 405 and "GET" in response.headers["Allow"]


def test_the_examples_in_the_docs_match_the_schemas():
    text = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    block = text.split("### Examples of `data`", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    examples = [json.loads(chunk) for chunk in block.strip().split("\n\n")]
    assert sorted(example["type"] for example in examples) == sorted(CATALOGUE)
    assert [problem for example in examples for problem in problems(example["type"], example["data"])] == []
