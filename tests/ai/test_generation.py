"""AI writing (POST /api/resumes/<id>/generate) against a fake OpenAI-compatible service on loopback."""
import json
import os

import pytest
from sqlalchemy import select

from tests.ai.fake_openai import API_KEY, BULLETS, LETTER, MODEL, SUMMARY
from tests.auth.support import bearer, password_grant

from app.billing.models import Subscription
from app.events.models import Event

JOB = "We are hiring a Backend Engineer: Python, PostgreSQL, Kubernetes, on-call for payment APIs."
CONTENT = {
    "personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "", "address": "",
                     "summary": "Engineer who likes queues.", "label": "Backend engineer"},
    "workExperience": [
        {"company": "Acme Payments", "position": "Senior Engineer", "startDate": "2020-01", "endDate": "",
         "description": "Built the payment API.", "highlights": ["Moved settlement to a queue"]},
        {"company": "Initech", "position": "Engineer", "startDate": "2016-03", "endDate": "2019-12",
         "description": "Reports in Python.", "highlights": []},
    ],
    "skills": ["Python", "PostgreSQL"],
}


@pytest.fixture(autouse=True)
def _fresh_fake(fake_openai):
    fake_openai.reset()
    yield
    fake_openai.reset()


def set_plan(query, user_id, plan="PREMIUM", **values):
    def run(session):
        subscription = session.scalar(select(Subscription).where(Subscription.user_id == user_id))
        subscription.type = plan
        for name, value in values.items():
            setattr(subscription, name, value)
        session.commit()

    query(run)


@pytest.fixture
def create(client):
    """POST a resume as the signed-in client; returns the response."""
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    return lambda **fields: client.post("/api/resumes", json={"title": "Backend engineer", "templateId": template,
                                                              **fields})


@pytest.fixture
def premium(owner, query):
    set_plan(query, owner["id"])
    return owner


@pytest.fixture
def resume_id(premium, create):
    response = create(contentJson=CONTENT, targetJobDescription=JOB)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def generate(client, resume_id, **body):
    return client.post(f"/api/resumes/{resume_id}/generate", json=body)


def used(query, user_id) -> int:
    return query(lambda s: s.scalar(select(Subscription.api_requests_used).where(Subscription.user_id == user_id)))


def events(query) -> list[dict]:
    return query(lambda s: [e.data for e in s.scalars(select(Event).where(Event.type == "ai.content_generated"))])


def failed(response, reason: str) -> str:
    body = response.get_json()
    assert response.status_code == 502, body
    assert body["code"] == "AI_PROVIDER_FAILED" and body["details"]["reason"] == reason, body
    assert API_KEY not in response.get_data(as_text=True) and "secret trouble" not in body["error"]
    return body["error"]


def test_a_summary_is_written_from_the_resume_and_its_target_job(client, premium, resume_id, fake_openai, query):
    before = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    response = generate(client, resume_id, kind="summary")
    assert response.status_code == 200, response.get_json()
    data = response.get_json()["data"]
    assert (data["kind"], data["text"], data["model"]) == ("summary", SUMMARY, MODEL)
    assert "bullets" not in data and data["generatedAt"].endswith("Z")
    [sent] = fake_openai.requests
    assert sent["authorization"] == f"Bearer {API_KEY}"
    assert sent["body"]["model"] == MODEL and "response_format" not in sent["body"]
    system, user = sent["body"]["messages"]
    assert system["role"] == "system" and "summary" in system["content"] and "English" in system["content"]
    assert "Acme Payments" in user["content"] and "Moved settlement to a queue" in user["content"]
    assert JOB in user["content"] and "ada@example.com" not in user["content"]
    # Nothing changed the resume; one API request counted; the event says what was written.
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"] == before
    assert used(query, premium["id"]) == 1
    [event] = events(query)
    assert event == {"generation": {"resume_id": resume_id, "user_id": premium["id"], "kind": "summary",
                                    "model": MODEL, "language": "en", "characters": len(SUMMARY),
                                    "generated_at": data["generatedAt"]}}


def test_bullets_are_written_for_the_chosen_entry_as_json(client, resume_id, fake_openai):
    response = generate(client, resume_id, kind="bullets", entryIndex=1, jobDescription="Data engineer, Spark")
    assert response.status_code == 200, response.get_json()
    data = response.get_json()["data"]
    assert data["bullets"] == BULLETS and data["text"] == "\n".join(BULLETS)
    [sent] = fake_openai.requests
    assert sent["body"]["response_format"] == {"type": "json_object"}
    user = sent["body"]["messages"][1]["content"]
    entry = user.split("THE ENTRY TO WRITE BULLETS FOR")[1]
    assert "Initech" in entry and "Acme" not in entry.split("TARGET JOB")[0]
    assert "Data engineer, Spark" in user and JOB not in user


def test_a_cover_letter_follows_the_requested_language(client, resume_id, fake_openai, query):
    response = generate(client, resume_id, kind="cover_letter", language="zh-cn")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["data"]["text"] == LETTER
    system = fake_openai.requests[0]["body"]["messages"][0]["content"]
    assert "cover letter" in system and "Simplified Chinese" in system
    assert events(query)[0]["generation"]["language"] == "zh-cn"


def test_the_language_defaults_to_the_accounts_preference(client, resume_id, fake_openai):
    assert client.put("/api/account", json={"preferences": {"language": "zh-cn"}}).status_code == 200
    assert generate(client, resume_id, kind="summary").status_code == 200
    assert "Simplified Chinese" in fake_openai.requests[0]["body"]["messages"][0]["content"]


@pytest.mark.parametrize("body, message", [
    ({"kind": "bullets"}, "Required"),
    ({"kind": "bullets", "entryIndex": 2}, "has 2"),
    ({"kind": "bullets", "entryIndex": -1}, "has 2"),
])
def test_bullets_need_an_existing_entry(client, resume_id, fake_openai, query, premium, body, message):
    response = generate(client, resume_id, **body)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["details"]["field"] == "entryIndex" and message in response.get_json()["error"]
    assert fake_openai.requests == [] and used(query, premium["id"]) == 0


@pytest.mark.parametrize("body, field", [({}, "kind"), ({"kind": "poem"}, "kind"),
                                         ({"kind": "summary", "language": "klingon"}, "language"),
                                         ({"kind": "bullets", "entryIndex": "1"}, "entryIndex")])
def test_bad_bodies_name_the_field(client, resume_id, body, field):
    response = generate(client, resume_id, **body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_a_free_plan_is_told_how_to_upgrade(client, owner, create, fake_openai, query):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    response = generate(client, resume_id, kind="summary")
    assert response.status_code == 403
    body = response.get_json()
    assert body["code"] == "PLAN_UPGRADE_REQUIRED" and "/billing" in body["error"]
    assert fake_openai.requests == [] and used(query, owner["id"]) == 0


def premium_client_of(app, make_user, query):
    """A PREMIUM user signed in on a client of ``app``, and a resume of theirs."""
    client, user = app.test_client(), make_user()
    set_plan(query, user["id"])
    assert client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]}) \
        .status_code == 200
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    return client, client.post("/api/resumes", json={"title": "CV", "templateId": template}).get_json()["data"]["id"]


def test_without_a_provider_the_endpoint_says_ai_is_not_configured(make_app, make_user, query, fake_openai):
    client, resume_id = premium_client_of(make_app(AI_BASE_URL=None), make_user, query)
    response = generate(client, resume_id, kind="summary")
    assert response.status_code == 503
    assert response.get_json()["code"] == "AI_NOT_CONFIGURED" and "AI_BASE_URL" in response.get_json()["error"]
    assert fake_openai.requests == []


@pytest.mark.parametrize("configured", [True, False], ids=["model set up", "no model"])
def test_the_pages_offer_ai_writing_only_when_a_model_is_set_up(make_app, make_user, query, configured):
    app = make_app() if configured else make_app(AI_BASE_URL=None)
    client, resume_id = premium_client_of(app, make_user, query)
    editor = client.get(f"/resumes/{resume_id}/edit").get_data(as_text=True)
    billing = client.get("/billing").get_data(as_text=True)
    for button in ('data-ai="summary"', 'data-ai="bullets"', 'id="ai-letter"'):
        assert (button in editor) is configured, button
    assert 'id="ai-analyse"' in editor  # the analysis against a job needs no model
    assert ("AI writing is not available on this server" in billing) is not configured


@pytest.mark.parametrize("status", [500, 429, 401])
def test_a_provider_error_is_a_502_that_leaks_nothing(client, resume_id, fake_openai, query, status):
    fake_openai.status = status
    message = failed(generate(client, resume_id, kind="summary"), f"status {status}")
    assert str(status) in message
    assert events(query) == []


def test_a_provider_that_does_not_answer_in_time_is_a_502(app, client, resume_id, fake_openai, query):
    fake_openai.hang = True
    try:
        message = failed(generate(client, resume_id, kind="summary"), "timeout")
    finally:
        fake_openai.release()
    assert f"did not answer within {app.config['AI_TIMEOUT_SECONDS']:g} seconds" in message and events(query) == []


@pytest.mark.skipif(bool(os.environ.get("TEST_REDIS_URL")), reason="the worker process has the session's settings")
def test_a_provider_that_refuses_connections_is_a_502(make_app, make_user, query):
    from tests.support import free_port

    client, resume_id = premium_client_of(make_app(AI_BASE_URL=f"http://127.0.0.1:{free_port()}/v1"), make_user, query)
    assert "could not be reached" in failed(generate(client, resume_id, kind="summary"), "unreachable")


@pytest.mark.parametrize("kind, content, raw, reason", [
    ("summary", "", None, "unusable"),
    ("summary", "   \n ", None, "unusable"),
    ("summary", "x" * 2000, None, "unusable"),
    ("cover_letter", "Dear team, hire me.", None, "unusable"),
    ("bullets", "Here are your bullets: - did things", None, "unusable"),
    ("bullets", json.dumps({"bullets": "Led the team"}), None, "unusable"),
    ("bullets", json.dumps({"bullets": [1, 2, 3]}), None, "unusable"),
    ("bullets", json.dumps({"bullets": []}), None, "unusable"),
    ("bullets", json.dumps({"bullets": [f"Did thing {i}" for i in range(12)]}), None, "unusable"),
    ("bullets", json.dumps({"bullets": ["x" * 500]}), None, "unusable"),
    ("summary", None, b"<html>gateway</html>", "not a completion"),
    ("summary", None, json.dumps({"choices": []}).encode(), "not a completion"),
    ("summary", None, json.dumps({"choices": [{"message": {"content": None}}]}).encode(), "not a completion"),
])
def test_a_reply_that_is_not_what_was_asked_for_is_a_502(client, resume_id, fake_openai, query, kind, content, raw,
                                                         reason):
    fake_openai.content, fake_openai.raw = content, raw
    body = {"kind": kind, "entryIndex": 0} if kind == "bullets" else {"kind": kind}
    failed(generate(client, resume_id, **body), reason)
    assert events(query) == []


def test_json_in_a_markdown_fence_and_list_marks_are_accepted(client, resume_id, fake_openai):
    fake_openai.content = '```json\n{"bullets": ["- Led the team", "2. Shipped the API"]}\n```'
    response = generate(client, resume_id, kind="bullets", entryIndex=0)
    assert response.get_json()["data"]["bullets"] == ["Led the team", "Shipped the API"]


def test_generations_stop_at_the_plans_api_request_limit(client, premium, resume_id, fake_openai, query):
    set_plan(query, premium["id"], api_requests_used=1000)  # PREMIUM: 1000 a period
    response = generate(client, resume_id, kind="summary")
    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert response.get_json()["details"] == {"limit": 1000, "resource": "apiRequests"}
    assert fake_openai.requests == []


def test_a_bearer_generation_counts_once(app, client, premium, resume_id, query):
    token = password_grant(client, premium).get_json()["access_token"]
    response = app.test_client().post(f"/api/resumes/{resume_id}/generate", json={"kind": "summary"},
                                      headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    assert used(query, premium["id"]) == 1


def test_generations_are_rate_limited_per_user(client, resume_id, fake_openai):
    for _ in range(10):  # 10 per minute (RATELIMIT_AI_GENERATE); refused ones count too
        assert generate(client, resume_id, kind="bullets").status_code == 400
    response = generate(client, resume_id, kind="summary")
    assert response.status_code == 429 and fake_openai.requests == []


def test_another_users_resume_is_refused(client, resume_id, make_user, login, query, fake_openai):
    other = make_user()
    set_plan(query, other["id"])
    login(other)
    assert generate(client, resume_id, kind="summary").status_code == 403
    assert fake_openai.requests == []
