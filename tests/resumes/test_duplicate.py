"""POST /api/resumes/<id>/duplicate: a DRAFT copy, counted against the plan."""
from app.billing.models import Subscription
from app.events.models import Event
from app.resumes.models import Resume, Share
from app.users.models import User

CONTENT = {"personalInfo": {"name": "Ada Lovelace", "summary": "Analytical engines."},
           "skills": ["Python"], "projects": [{"name": "Engine", "technologies": ["Python"]}]}


def created_events(query):
    return query(lambda s: [e.data["resume"] for e in s.query(Event).filter_by(type="resume.created")
                            .order_by(Event.created_at)])


def test_a_duplicate_is_a_draft_copy_without_share_or_history(client, owner, create, templates, query):
    source = create(title="Backend engineer", contentJson=CONTENT, sectionsVisibility={"skills": False},
                    targetJobDescription="Python engineer").get_json()["data"]
    client.put(f"/api/resumes/{source['id']}", json={"status": "PUBLISHED", "title": "Backend engineer"})
    client.put(f"/api/resumes/{source['id']}", json={"contentJson": {**CONTENT, "skills": ["Python", "Go"]}})
    client.post(f"/api/resumes/{source['id']}/share", json={})
    original = client.get(f"/api/resumes/{source['id']}").get_json()["data"]

    response = client.post(f"/api/resumes/{source['id']}/duplicate")

    assert response.status_code == 201 and response.get_json()["message"] == "Resume duplicated."
    data = response.get_json()["data"]
    assert list(data) == ["id", "title", "status", "templateId", "template", "contentJson", "createdAt", "updatedAt"]
    assert data["id"] != source["id"] and data["title"] == "Backend engineer (copy)" and data["status"] == "DRAFT"
    assert data["templateId"] == original["templateId"] and data["contentJson"] == original["contentJson"]
    copy = client.get(f"/api/resumes/{data['id']}").get_json()["data"]
    assert copy["sectionsVisibility"] == original["sectionsVisibility"]
    assert copy["targetJobDescription"] == "Python engineer"
    assert (copy["atsScore"], copy["keywordMatchScore"]) == (original["atsScore"], original["keywordMatchScore"])
    assert client.get(f"/api/resumes/{data['id']}/versions").get_json()["data"] == []
    assert query(lambda s: s.query(Share).filter_by(resume_id=data["id"]).count()) == 0
    listed = client.get("/api/resumes").get_json()["data"]
    assert [(r["id"], r["shareInfo"]) for r in listed][0] == (data["id"], None)
    assert created_events(query)[-1] == {"id": data["id"], "title": "Backend engineer (copy)", "status": "DRAFT",
                                         "user_id": owner["id"], "template_id": original["templateId"],
                                         "created_at": data["createdAt"]}
    assert query(lambda s: s.get(User, owner["id"]).live_resumes) == 2


def test_a_long_title_is_shortened_to_keep_the_suffix(client, owner, create):
    source = create(title="x" * 195 + " word").get_json()["data"]
    title = client.post(f"/api/resumes/{source['id']}/duplicate").get_json()["data"]["title"]
    assert len(title) <= 200 and title == "x" * 193 + " (copy)"


def test_a_duplicate_counts_against_the_free_plan(client, owner, create, query):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(5)]
    response = client.post(f"/api/resumes/{ids[0]}/duplicate")
    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert response.get_json()["details"] == {"limit": 5, "resource": "resumes"}
    assert query(lambda s: s.query(Resume).count()) == 5 and len(created_events(query)) == 5


def test_a_premium_template_the_plan_no_longer_offers_is_refused(client, owner, create, templates, query):
    def set_plan(plan):
        query(lambda s: (s.query(Subscription).filter_by(user_id=owner["id"]).update({"type": plan}), s.commit()))

    set_plan("PREMIUM")
    source = create(templateId=templates["premium"][0]).get_json()["data"]
    set_plan("FREE")
    response = client.post(f"/api/resumes/{source['id']}/duplicate")
    assert response.status_code == 400 and response.get_json()["code"] == "INVALID_TEMPLATE"
    assert query(lambda s: (s.query(Resume).count(), s.get(User, owner["id"]).live_resumes)) == (1, 1)


def test_someone_elses_or_a_deleted_resume_cannot_be_duplicated(app, client, resume_id, create, make_user):
    intruder = app.test_client()
    user = make_user()
    intruder.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = intruder.post(f"/api/resumes/{resume_id}/duplicate")
    assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"
    client.delete(f"/api/resumes/{resume_id}")
    response = client.post(f"/api/resumes/{resume_id}/duplicate")
    assert response.status_code == 404 and response.get_json()["code"] == "RESUME_NOT_FOUND"
