"""POST /api/resumes/<id>/analysis: the answer's shape, the plan, the event, validation, ownership."""
import pytest
from sqlalchemy import select

from tests.ai.test_generation import set_plan

from app.events.models import Event

JOB = ("We are hiring a backend engineer: Python, Flask, PostgreSQL and Kubernetes. You will build REST APIs, "
       "write unit tests and mentor other engineers.")
CONTENT = {
    "personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "+44 20 7946 0000",
                     "summary": "Backend engineer who builds reliable payment APIs in Python."},
    "workExperience": [{"company": "Initech", "position": "Intern", "startDate": "2018-01", "endDate": "2019-12",
                        "description": "Wrote reports"},
                       {"company": "Acme", "position": "Engineer", "startDate": "2020-01", "endDate": "",
                        "description": "Built REST APIs in Flask serving 2 million requests a day\n"
                                       "payments on Postgres"}],
    "education": [{"school": "University of London", "degree": "BSc", "startDate": "2014-09",
                   "endDate": "2017-06"}],
    "skills": ["Python", "Flask"],
}


@pytest.fixture
def create(client):
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    return lambda **fields: client.post("/api/resumes", json={"title": "Engineer", "templateId": template,
                                                              **fields})


@pytest.fixture
def resume_id(owner, query, create):
    set_plan(query, owner["id"])
    response = create(contentJson=CONTENT)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def analyse(client, resume_id, **body):
    return client.post(f"/api/resumes/{resume_id}/analysis", json=body)


def analysis_events(query) -> list[dict]:
    return query(lambda s: [e.data for e in s.scalars(select(Event).where(Event.type == "ai.analysis_completed"))])


def test_an_analysis_answers_scores_keywords_and_suggestions(client, owner, resume_id, query):
    response = analyse(client, resume_id, jobDescription=JOB)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()["data"]
    assert list(data) == ["overallScore", "keywordMatchScore", "formatScore", "contentScore", "matchedKeywords",
                          "missingKeywords", "suggestions"]
    for score in ("overallScore", "keywordMatchScore", "formatScore", "contentScore"):
        assert isinstance(data[score], int) and 0 <= data[score] <= 100
    # Postgres ~ PostgreSQL, built ~ build: matched through synonyms and word forms
    assert {"Python", "Flask", "PostgreSQL", "build", "REST APIs"} <= set(data["matchedKeywords"])
    # most important first: a known term (2 points) before a named tool (1.5) before a plain word (1)
    assert data["missingKeywords"] == ["unit tests", "Kubernetes", "mentor"]
    assert all(set(s) == {"section", "message", "severity"} for s in data["suggestions"])
    assert {"section": "workExperience", "message": "List your jobs newest first, as employers expect.",
            "severity": "info"} in data["suggestions"]
    assert any(s["section"] == "skills" and "Kubernetes" in s["message"] for s in data["suggestions"])
    assert analysis_events(query) == [{"analysis": {
        "resume_id": resume_id, "overall_score": data["overallScore"],
        "keyword_match_score": data["keywordMatchScore"], "format_score": data["formatScore"],
        "content_score": data["contentScore"], "suggestions_count": len(data["suggestions"])}}]


def test_the_default_job_is_the_resumes_target_and_agrees_with_its_stored_scores(client, resume_id):
    saved = client.put(f"/api/resumes/{resume_id}", json={"targetJobDescription": JOB}).get_json()["data"]
    for response in (analyse(client, resume_id), client.post(f"/api/resumes/{resume_id}/analysis")):
        assert response.status_code == 200, response.get_json()
        data = response.get_json()["data"]
        assert (data["overallScore"], data["keywordMatchScore"]) == (saved["atsScore"], saved["keywordMatchScore"])
    listed = client.get("/api/resumes").get_json()["data"][0]
    assert (listed["atsScore"], listed["keywordMatchScore"]) == (saved["atsScore"], saved["keywordMatchScore"])


def test_naming_a_missing_keyword_raises_the_keyword_match(client, resume_id):
    before = analyse(client, resume_id, jobDescription=JOB).get_json()["data"]
    client.put(f"/api/resumes/{resume_id}", json={"contentJson": {**CONTENT, "skills": ["Python", "Flask", "k8s"]}})
    after = analyse(client, resume_id, jobDescription=JOB).get_json()["data"]
    assert after["keywordMatchScore"] > before["keywordMatchScore"]
    assert "Kubernetes" in after["matchedKeywords"]


def test_chinese_job_descriptions_are_analysed(client, resume_id):
    content = {**CONTENT, "skills": ["微服务", "分布式系统", "Python"]}
    client.put(f"/api/resumes/{resume_id}", json={"contentJson": content})
    data = analyse(client, resume_id, jobDescription="招聘后端开发工程师：熟悉微服务与分布式系统，掌握 Python 和 Kubernetes，"
                                                     "具备高并发经验。").get_json()["data"]
    assert {"微服务", "分布式系统", "Python"} <= set(data["matchedKeywords"])
    assert {"Kubernetes", "高并发"} <= set(data["missingKeywords"])


def test_the_free_plan_is_told_how_to_upgrade(client, owner, create, query):
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    response = analyse(client, resume_id, jobDescription=JOB)
    assert response.status_code == 403
    body = response.get_json()
    assert body["code"] == "PLAN_UPGRADE_REQUIRED" and "/billing" in body["error"]
    assert body["details"] == {"feature": "aiFeatures", "plans": ["PREMIUM", "ENTERPRISE"], "upgradeUrl": "/billing"}
    assert analysis_events(query) == []


@pytest.mark.parametrize("body", [{}, {"jobDescription": ""}, {"jobDescription": "   "}])
def test_without_any_job_description_the_field_is_named(client, resume_id, body, query):
    response = analyse(client, resume_id, **body)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"] == {"field": "jobDescription"}
    assert analysis_events(query) == []


@pytest.mark.parametrize("body, field", [({"jobDescription": "x" * 20_001}, "jobDescription"),
                                         ({"jobDescription": 5}, "jobDescription"), ({"job": "x"}, "job")])
def test_invalid_bodies_name_the_field(client, resume_id, body, field):
    response = analyse(client, resume_id, **body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_another_users_resume_is_refused(client, resume_id, make_user, login, query):
    stranger = make_user()
    login(stranger)
    set_plan(query, stranger["id"])
    response = analyse(client, resume_id, jobDescription=JOB)
    assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"
    missing = analyse(client, "nonexistent0000000000000", jobDescription=JOB)
    assert missing.status_code == 404 and missing.get_json()["code"] == "RESUME_NOT_FOUND"
    assert analysis_events(query) == []


def test_signed_out_requests_are_refused(client):
    response = client.post("/api/resumes/abc/analysis", json={"jobDescription": JOB})
    assert response.status_code == 401


def test_analyses_are_rate_limited_per_user(client, resume_id, make_user, login, query, create):
    for _ in range(30):  # 30 per minute (RATELIMIT_AI_ANALYSIS); refused ones count too
        assert analyse(client, resume_id).status_code == 400
    response = analyse(client, resume_id, jobDescription=JOB)
    assert response.status_code == 429 and "Retry-After" in response.headers
    assert analysis_events(query) == []
    other = make_user()
    login(other)
    set_plan(query, other["id"])
    own = create(contentJson=CONTENT).get_json()["data"]["id"]
    assert analyse(client, own, jobDescription=JOB).status_code == 200
