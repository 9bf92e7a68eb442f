"""A resume's versions: kept by edits and restores, folded in bursts, capped, restorable."""
from datetime import timedelta

import pytest

from app.billing.models import Subscription
from app.common.models import utcnow
from app.events.models import Event
from app.matching import engine
from app.resumes.models import ResumeVersion

CONTENT = {
    "personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "", "address": "London",
                     "summary": "Engineer who writes analytical engines in Python."},
    "workExperience": [{"company": "Babbage & Co", "position": "Engineer", "startDate": "2020-01",
                        "endDate": "", "description": "Built Flask APIs on PostgreSQL."}],
    "education": [], "skills": ["Python", "Flask"], "projects": [],
}
LATER = {**CONTENT, "skills": ["Rust"], "workExperience": []}


@pytest.fixture
def later(app):
    """Move the app's clock forward: ``later(seconds=301)``; put back after the test."""
    clock, moved = app.extensions["clock"], []

    def advance(**delta):
        clock.advance(**delta)
        moved.append(timedelta(**delta))

    yield advance
    clock.offset -= sum(moved, timedelta(0))


@pytest.fixture
def resume(owner, create):
    response = create(title="Backend engineer", contentJson=CONTENT)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def versions(client, resume_id, **params):
    response = client.get(f"/api/resumes/{resume_id}/versions", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def updated_events(query, resume_id):
    return query(lambda s: [e.data["resume"] for e in s.query(Event).filter_by(type="resume.updated")
                            .order_by(Event.created_at) if e.data["resume"]["id"] == resume_id])


# Keeping versions -------------------------------------------------------------------------
def test_an_edit_keeps_the_state_it_replaced(client, resume, templates):
    before = client.get(f"/api/resumes/{resume['id']}").get_json()["data"]
    response = client.put(f"/api/resumes/{resume['id']}", json={"title": "Data engineer", "contentJson": LATER,
                                                                "sectionsVisibility": {"skills": False}})
    assert response.status_code == 200

    body = versions(client, resume["id"])
    [item] = body["data"]
    assert list(item) == ["id", "createdAt", "title", "cause", "author"]
    assert item["author"] is None  # a person's edit; an agent's names the agent and the tool
    assert item["title"] == "Backend engineer" and item["cause"] == "edit" and item["createdAt"].endswith("Z")
    assert body["meta"] == {"total": 1, "page": 1, "limit": 10, "totalPages": 1}

    response = client.get(f"/api/resumes/{resume['id']}/versions/{item['id']}")
    assert response.status_code == 200
    version = response.get_json()["data"]
    assert set(version) == {"id", "createdAt", "cause", "author", "title", "templateId", "contentJson",
                            "sectionsVisibility"}
    assert version["contentJson"] == before["contentJson"] and version["templateId"] == templates["basic"][0]
    assert version["sectionsVisibility"] == before["sectionsVisibility"]
    assert version["title"] == "Backend engineer" and version["cause"] == "edit"


def test_a_template_change_alone_keeps_a_version(client, resume, templates):
    client.put(f"/api/resumes/{resume['id']}", json={"templateId": templates["basic"][1]})
    [item] = versions(client, resume["id"])["data"]
    version = client.get(f"/api/resumes/{resume['id']}/versions/{item['id']}").get_json()["data"]
    assert version["templateId"] == templates["basic"][0]


@pytest.mark.parametrize("body", [
    {"status": "PUBLISHED"},
    {"targetJobDescription": "Python engineer"},
    {"title": "Backend engineer", "contentJson": CONTENT},  # the same values again (an autosave)
])
def test_an_update_that_changes_nothing_a_version_keeps_adds_none(client, resume, body, query):
    assert client.put(f"/api/resumes/{resume['id']}", json=body).status_code == 200
    assert versions(client, resume["id"])["data"] == []
    assert query(lambda s: s.query(ResumeVersion).count()) == 0


def test_project_entry_changes_keep_versions(client, resume, later):
    added = client.post(f"/api/resumes/{resume['id']}/projects", json={"name": "Engine"})
    assert added.status_code == 201
    [first] = versions(client, resume["id"])["data"]
    assert client.get(f"/api/resumes/{resume['id']}/versions/{first['id']}").get_json()["data"][
        "contentJson"]["projects"] == []

    later(seconds=301)
    project_id = added.get_json()["data"]["id"]
    client.put(f"/api/resumes/{resume['id']}/projects/{project_id}", json={"name": "Difference engine"})
    items = versions(client, resume["id"])["data"]
    assert len(items) == 2 and items[1]["id"] == first["id"]
    kept = client.get(f"/api/resumes/{resume['id']}/versions/{items[0]['id']}").get_json()["data"]
    assert [p["name"] for p in kept["contentJson"]["projects"]] == ["Engine"]


# Folding ----------------------------------------------------------------------------------
def test_edits_in_quick_succession_fold_into_the_state_before_the_burst(client, resume, later):
    for title in ("Draft 1", "Draft 2", "Draft 3"):
        later(seconds=60)
        client.put(f"/api/resumes/{resume['id']}", json={"title": title})
    assert [v["title"] for v in versions(client, resume["id"])["data"]] == ["Backend engineer"]

    later(seconds=300)  # the newest version (kept by the first edit) is now more than 5 minutes old
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Final"})
    assert [v["title"] for v in versions(client, resume["id"])["data"]] == ["Draft 3", "Backend engineer"]


def test_the_fold_window_is_configurable(make_app, make_user, query):
    app = make_app(VERSION_FOLD_SECONDS="0")
    client = app.test_client()
    user = make_user()
    client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    template = client.get("/api/templates").get_json()["data"][0]["id"]
    resume_id = client.post("/api/resumes", json={"title": "T0", "templateId": template}).get_json()["data"]["id"]
    for title in ("T1", "T2", "T3"):
        assert client.put(f"/api/resumes/{resume_id}", json={"title": title}).status_code == 200
    assert [v["title"] for v in versions(client, resume_id)["data"]] == ["T2", "T1", "T0"]


def test_an_edit_after_a_restore_keeps_the_restored_state(client, resume):
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Second"})
    [first] = versions(client, resume["id"])["data"]
    client.post(f"/api/resumes/{resume['id']}/versions/{first['id']}/restore")
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Third"})  # within the fold window
    items = versions(client, resume["id"])["data"]
    assert [(v["title"], v["cause"]) for v in items] == [
        ("Backend engineer", "edit"), ("Second", "restore"), ("Backend engineer", "edit")]


# The cap ----------------------------------------------------------------------------------
def test_a_resume_keeps_its_newest_100_versions(client, resume, query):
    def hundred_old_versions(session):
        now = utcnow()
        for i in range(100):
            session.add(ResumeVersion(resume_id=resume["id"], created_at=now - timedelta(hours=100 - i),
                                      title=f"Old {i}", template_id=resume["templateId"], content_json=CONTENT,
                                      sections_visibility={}, cause="edit"))
        session.commit()

    query(hundred_old_versions)
    client.put(f"/api/resumes/{resume['id']}", json={"title": "New"})

    titles = query(lambda s: [v.title for v in s.query(ResumeVersion).filter_by(resume_id=resume["id"])
                              .order_by(ResumeVersion.created_at.desc())])
    assert len(titles) == 100
    assert titles[0] == "Backend engineer" and titles[1] == "Old 99" and titles[-1] == "Old 1"  # "Old 0" went
    body = versions(client, resume["id"], page=10, limit=10)
    assert body["meta"] == {"total": 100, "page": 10, "limit": 10, "totalPages": 10}
    assert [v["title"] for v in body["data"]][-1] == "Old 1"


# Restoring --------------------------------------------------------------------------------
def test_a_restore_brings_the_version_back_and_keeps_the_state_it_replaced(client, resume, templates, query):
    original = client.get(f"/api/resumes/{resume['id']}").get_json()["data"]
    client.put(f"/api/resumes/{resume['id']}", json={
        "title": "Data engineer", "templateId": templates["basic"][1], "contentJson": LATER,
        "sectionsVisibility": {"skills": False}, "targetJobDescription": "Rust engineer"})
    edited = client.get(f"/api/resumes/{resume['id']}").get_json()["data"]
    [version] = versions(client, resume["id"])["data"]

    response = client.post(f"/api/resumes/{resume['id']}/versions/{version['id']}/restore")

    assert response.status_code == 200 and response.get_json()["message"] == "Version restored."
    data = response.get_json()["data"]
    assert set(data) == set(original)
    for field in ("title", "templateId", "contentJson", "sectionsVisibility"):
        assert data[field] == original[field], field
    assert data["targetJobDescription"] == "Rust engineer"  # not part of a version
    assert data["updatedAt"] > edited["updatedAt"]
    assert client.get(f"/api/resumes/{resume['id']}").get_json()["data"] == data
    assert (data["atsScore"], data["keywordMatchScore"]) == engine.scores(original["contentJson"], "Rust engineer")

    newest = versions(client, resume["id"])["data"][0]
    assert newest["cause"] == "restore" and newest["title"] == "Data engineer"
    kept = client.get(f"/api/resumes/{resume['id']}/versions/{newest['id']}").get_json()["data"]
    assert kept["contentJson"] == edited["contentJson"] and kept["templateId"] == templates["basic"][1]

    restored_event = updated_events(query, resume["id"])[-1]
    assert restored_event["changed_fields"] == ["title", "templateId", "contentJson", "sectionsVisibility"]
    assert restored_event["template_id"] == templates["basic"][0] and restored_event["title"] == "Backend engineer"


def test_restoring_a_version_equal_to_the_resume_changes_nothing(client, resume, query):
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Second"})
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Backend engineer"})  # folded: back as it was
    [version] = versions(client, resume["id"])["data"]
    before = client.get(f"/api/resumes/{resume['id']}").get_json()["data"]
    events = len(updated_events(query, resume["id"]))

    response = client.post(f"/api/resumes/{resume['id']}/versions/{version['id']}/restore")

    assert response.status_code == 200 and response.get_json()["data"] == before
    assert len(versions(client, resume["id"])["data"]) == 1 and len(updated_events(query, resume["id"])) == events


def test_restoring_a_premium_template_on_the_free_plan_is_refused(client, owner, create, templates, query):
    def set_plan(plan):
        query(lambda s: (s.query(Subscription).filter_by(user_id=owner["id"]).update({"type": plan}), s.commit()))

    set_plan("PREMIUM")
    resume_id = create(templateId=templates["premium"][0]).get_json()["data"]["id"]
    client.put(f"/api/resumes/{resume_id}", json={"templateId": templates["basic"][0]})
    [version] = versions(client, resume_id)["data"]
    set_plan("FREE")

    response = client.post(f"/api/resumes/{resume_id}/versions/{version['id']}/restore")

    assert response.status_code == 400 and response.get_json()["code"] == "INVALID_TEMPLATE"
    assert response.get_json()["details"] == {"templateId": templates["premium"][0]}
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["templateId"] == templates["basic"][0]
    assert len(versions(client, resume_id)["data"]) == 1


# Errors -----------------------------------------------------------------------------------
def test_an_unknown_version_is_not_found(client, resume, create):
    other_resume = create(title="Other").get_json()["data"]["id"]
    client.put(f"/api/resumes/{other_resume}", json={"title": "Other 2"})
    [of_other] = versions(client, other_resume)["data"]
    for version_id in ("0" * 24, "x" * 70, of_other["id"]):
        for response in (client.get(f"/api/resumes/{resume['id']}/versions/{version_id}"),
                         client.post(f"/api/resumes/{resume['id']}/versions/{version_id}/restore")):
            assert response.status_code == 404, version_id
            assert response.get_json()["code"] == "NOT_FOUND"
            assert response.get_json()["details"] == {"versionId": version_id}


def test_another_users_resume_versions_are_not_owned(app, client, resume, make_user):
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Second"})
    [version] = versions(client, resume["id"])["data"]
    intruder = app.test_client()
    other = make_user()
    intruder.post("/api/auth/signin", json={"email": other["email"], "password": other["password"]})
    for response in (intruder.get(f"/api/resumes/{resume['id']}/versions"),
                     intruder.get(f"/api/resumes/{resume['id']}/versions/{version['id']}"),
                     intruder.post(f"/api/resumes/{resume['id']}/versions/{version['id']}/restore")):
        assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"
    assert client.get(f"/api/resumes/{resume['id']}").get_json()["data"]["title"] == "Second"


def test_a_deleted_resumes_versions_are_not_found(client, resume):
    client.put(f"/api/resumes/{resume['id']}", json={"title": "Second"})
    [version] = versions(client, resume["id"])["data"]
    client.delete(f"/api/resumes/{resume['id']}")
    for response in (client.get(f"/api/resumes/{resume['id']}/versions"),
                     client.get(f"/api/resumes/{resume['id']}/versions/{version['id']}"),
                     client.post(f"/api/resumes/{resume['id']}/versions/{version['id']}/restore")):
        assert response.status_code == 404 and response.get_json()["code"] == "RESUME_NOT_FOUND"


@pytest.mark.parametrize("params,field", [({"page": "0"}, "page"), ({"limit": "101"}, "limit"),
                                          ({"status": "DRAFT"}, "status")])
def test_bad_paging_is_a_validation_error(client, resume, params, field):
    response = client.get(f"/api/resumes/{resume['id']}/versions", query_string=params)
    assert response.status_code == 400 and response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == field


def test_versions_are_paginated_newest_first(client, resume, later):
    for title in ("Two", "Three", "Four"):
        client.put(f"/api/resumes/{resume['id']}", json={"title": title})
        later(seconds=301)
    first, second = versions(client, resume["id"], limit=2), versions(client, resume["id"], limit=2, page=2)
    assert [v["title"] for v in first["data"] + second["data"]] == ["Three", "Two", "Backend engineer"]
    assert first["meta"] == {"total": 3, "page": 1, "limit": 2, "totalPages": 2}
    assert versions(client, resume["id"], page=3, limit=2)["data"] == []
