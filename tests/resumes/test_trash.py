"""The trash: deleted resumes listed and restored for 30 days, then purged with their files."""
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import drain_jobs
from tests.support import wait_until

from app.common.models import utcnow
from app.events.models import Event
from app.resumes.models import Comment, Export, Resume, ResumeVersion, Share
from app.users.models import User


def parse(timestamp: str) -> datetime:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


def trash(client, **params):
    response = client.get("/api/resumes/trash", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def events(query, kind):
    return query(lambda s: [e.data["resume"] for e in s.query(Event).filter_by(type=kind).order_by(Event.created_at)])


def deleted_days_ago(query, resume_id, days):
    def move(session):
        session.query(Resume).filter_by(id=resume_id).update({"deleted_at": utcnow() - timedelta(days=days)})
        session.commit()

    query(move)


@pytest.fixture
def deleted(client, resume_id):
    assert client.delete(f"/api/resumes/{resume_id}").status_code == 200
    return resume_id


# The list -----------------------------------------------------------------------------------
def test_a_deleted_resume_is_listed_in_the_trash_until_its_purge_time(client, deleted, templates):
    body = trash(client)
    [item] = body["data"]
    assert list(item) == ["id", "title", "template", "deletedAt", "purgeAt"]
    assert item["id"] == deleted and item["title"] == "Backend engineer"
    assert item["template"]["id"] == templates["basic"][0] and set(item["template"]) == {"id", "name", "category"}
    assert parse(item["purgeAt"]) - parse(item["deletedAt"]) == timedelta(days=30)
    assert body["meta"] == {"total": 1, "page": 1, "limit": 10, "totalPages": 1}
    # Everywhere else it is gone, as before.
    assert client.get(f"/api/resumes/{deleted}").get_json()["code"] == "RESUME_NOT_FOUND"
    assert client.get("/api/resumes").get_json()["data"] == []


def test_the_trash_is_last_deleted_first_paginated_and_the_users_own(app, client, owner, create, make_user):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(3)]
    for resume_id in ids:
        client.delete(f"/api/resumes/{resume_id}")
    first, second = trash(client, limit=2), trash(client, limit=2, page=2)
    assert [r["id"] for r in first["data"] + second["data"]] == ids[::-1]
    assert first["meta"] == {"total": 3, "page": 1, "limit": 2, "totalPages": 2}

    other = app.test_client()
    user = make_user()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert trash(other)["data"] == []


def test_a_resume_past_its_30_days_is_not_in_the_trash_nor_restorable(client, deleted, query):
    deleted_days_ago(query, deleted, 30)
    assert trash(client)["data"] == []
    response = client.post(f"/api/resumes/{deleted}/restore")
    assert response.status_code == 404 and response.get_json()["code"] == "RESUME_NOT_FOUND"


def test_bad_paging_is_a_validation_error(client, owner):
    response = client.get("/api/resumes/trash", query_string={"limit": "0"})
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "limit"


# Restoring ----------------------------------------------------------------------------------
def test_a_restore_brings_the_resume_back_to_the_top_of_the_list(client, owner, create, query):
    resume = create(title="Kept", contentJson={"skills": ["Python"]}).get_json()["data"]
    create(title="Newer")
    client.delete(f"/api/resumes/{resume['id']}")

    response = client.post(f"/api/resumes/{resume['id']}/restore")

    assert response.status_code == 200 and response.get_json()["message"] == "Resume restored."
    data = response.get_json()["data"]
    assert data["id"] == resume["id"] and data["title"] == "Kept" and data["contentJson"]["skills"] == ["Python"]
    assert data["createdAt"] == resume["createdAt"] and data["updatedAt"] > resume["updatedAt"]
    assert client.get(f"/api/resumes/{resume['id']}").get_json()["data"] == data
    assert [r["title"] for r in client.get("/api/resumes").get_json()["data"]] == ["Kept", "Newer"]
    assert trash(client)["data"] == []
    assert client.get("/api/account").get_json()["data"]["resumesCreated"] == 2
    # A webhook receiver hears of it as it heard of the deletion: the resume is there again.
    assert [e["id"] for e in events(query, "resume.deleted")] == [resume["id"]]
    assert events(query, "resume.created")[-1] == {
        "id": resume["id"], "title": "Kept", "status": "DRAFT", "user_id": owner["id"],
        "template_id": resume["templateId"], "created_at": resume["createdAt"]}


def test_a_restored_resumes_share_link_works_again(app, client, deleted, query):
    client.post(f"/api/resumes/{deleted}/restore")
    token = client.post(f"/api/resumes/{deleted}/share", json={}).get_json()["data"]["token"]
    visitor = app.test_client()
    client.delete(f"/api/resumes/{deleted}")
    assert visitor.get(f"/api/share/{token}").get_json()["code"] == "SHARE_NOT_FOUND"

    assert client.post(f"/api/resumes/{deleted}/restore").status_code == 200

    response = visitor.get(f"/api/share/{token}")
    assert response.status_code == 200 and response.get_json()["data"]["title"] == "Backend engineer"
    assert visitor.get(f"/share/{token}").status_code == 200


def test_a_restore_counts_against_the_free_plan(client, owner, create, query):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(5)]
    client.delete(f"/api/resumes/{ids[0]}")
    create(title="R5")

    response = client.post(f"/api/resumes/{ids[0]}/restore")

    assert response.status_code == 429 and response.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert response.get_json()["details"] == {"limit": 5, "resource": "resumes"}
    assert [r["id"] for r in trash(client)["data"]] == [ids[0]]
    assert query(lambda s: s.get(User, owner["id"]).live_resumes) == 5
    assert len(events(query, "resume.created")) == 6  # the creates, not the refused restore


def test_a_restore_whose_share_would_pass_the_share_limit_is_refused(client, owner, create, query):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(4)]
    for resume_id in ids[:3]:
        client.post(f"/api/resumes/{resume_id}/share", json={})
    client.delete(f"/api/resumes/{ids[0]}")
    client.post(f"/api/resumes/{ids[3]}/share", json={})  # the third enabled share of the live ones

    response = client.post(f"/api/resumes/{ids[0]}/restore")

    assert response.status_code == 429 and response.get_json()["code"] == "SHARE_LIMIT_EXCEEDED"
    assert [r["id"] for r in trash(client)["data"]] == [ids[0]]
    assert query(lambda s: s.get(User, owner["id"]).live_resumes) == 3
    client.put(f"/api/resumes/{ids[3]}/share", json={"isEnabled": False})
    assert client.post(f"/api/resumes/{ids[0]}/restore").status_code == 200


def test_restoring_a_live_resume_answers_it_as_it_is(client, resume_id, query):
    before = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    response = client.post(f"/api/resumes/{resume_id}/restore")
    assert response.status_code == 200 and response.get_json()["data"] == before
    assert len(events(query, "resume.created")) == 1


def test_restoring_someone_elses_or_an_unknown_resume_is_refused(app, client, deleted, create, make_user):
    live = create(title="Live").get_json()["data"]["id"]
    intruder = app.test_client()
    user = make_user()
    intruder.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = intruder.post(f"/api/resumes/{deleted}/restore")
    assert response.status_code == 404 and response.get_json()["code"] == "RESUME_NOT_FOUND"
    response = intruder.post(f"/api/resumes/{live}/restore")
    assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"
    response = client.post(f"/api/resumes/{'0' * 24}/restore")
    assert response.status_code == 404 and response.get_json()["details"] == {"resumeId": "0" * 24}
    assert [r["id"] for r in trash(client)["data"]] == [deleted]


# The purge ----------------------------------------------------------------------------------
def stored_files(app) -> list[Path]:
    return [p for p in Path(app.config["STORAGE_DIR"]).rglob("*") if p.is_file()]


def test_the_periodic_purge_deletes_old_deleted_resumes_with_their_rows_and_files(app, client, owner, create,
                                                                                  query):
    old = create(title="Old").get_json()["data"]["id"]
    recent = create(title="Recent").get_json()["data"]["id"]
    live = create(title="Live").get_json()["data"]["id"]
    for resume_id in (old, recent, live):
        client.put(f"/api/resumes/{resume_id}", json={"title": "Edited"})  # a version each
        assert client.post(f"/api/resumes/{resume_id}/export", json={"format": "txt"}).status_code == 201
    token = client.post(f"/api/resumes/{old}/share", json={"allowComments": True}).get_json()["data"]["token"]
    app.test_client().post(f"/api/share/{token}/comments", json={"name": "Bob", "text": "Nice"})
    client.delete(f"/api/resumes/{old}")
    client.delete(f"/api/resumes/{recent}")
    deleted_days_ago(query, old, 31)
    deleted_days_ago(query, recent, 29)
    used = query(lambda s: s.get(User, owner["id"]).storage_used)
    old_export = query(lambda s: s.query(Export).filter_by(resume_id=old).one().file_size)
    assert len(stored_files(app)) == 3

    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:purge-deleted-resumes")
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()
    wait_until(lambda: query(lambda s: s.get(Resume, old)) is None)
    drain_jobs(app)

    assert query(lambda s: sorted(r.title for r in s.query(Resume))) == ["Edited", "Edited"]
    assert query(lambda s: s.get(Resume, recent).deleted_at) is not None
    for model in (Export, ResumeVersion):
        assert query(lambda s: sorted({row.resume_id for row in s.query(model)})) == sorted([recent, live])
    assert query(lambda s: s.query(Share).count() + s.query(Comment).count()) == 0
    assert len(stored_files(app)) == 2
    assert query(lambda s: s.get(User, owner["id"]).storage_used) == used - old_export
    assert [r["id"] for r in trash(client)["data"]] == [recent]


def test_the_purge_job_is_enqueued_on_the_general_lane_by_its_interval(app):
    from app.queue import DEFAULT, PERIODIC

    assert PERIODIC["purge-deleted-resumes"] == (DEFAULT, "app.resumes.jobs.purge_deleted_resumes",
                                                 "TRASH_PURGE_INTERVAL")
    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:purge-deleted-resumes")
    with app.app_context():
        jobs.enqueue_due_periodic_jobs()
    assert 0 < jobs.connection.ttl("periodic:purge-deleted-resumes") <= app.config["TRASH_PURGE_INTERVAL"] == 3600
    drain_jobs(app)
