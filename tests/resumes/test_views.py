import threading

import pytest
from sqlalchemy import event

from app.extensions import db
from app.resumes.models import SECTIONS

FULL_CONTENT = {
    "personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "+44 20 7946 0000",
                     "address": "London", "summary": "Engineer who writes analytical engines in Python."},
    "workExperience": [{"company": "Babbage & Co", "position": "Engineer", "startDate": "2020-01",
                        "endDate": "", "description": "Built Flask APIs on PostgreSQL and Redis."}],
    "education": [{"school": "University of London", "degree": "BSc Mathematics", "startDate": "2015-09",
                   "endDate": "2019-06"}],
    "skills": ["Python", "Flask", "PostgreSQL"],
    "projects": [{"name": "Engine", "description": "A difference engine", "technologies": ["Python"],
                  "url": "https://example.com/engine", "startDate": "2021-01", "endDate": "2021-06",
                  "highlights": ["Fast"]}],
}


def test_create_answers_201_with_exactly_the_contracts_fields(owner, create, templates):
    response = create(title="  Data engineer  ")
    assert response.status_code == 201
    body = response.get_json()
    assert body["success"] is True
    data = body["data"]
    assert list(data) == ["id", "title", "status", "templateId", "template", "contentJson", "createdAt", "updatedAt"]
    assert data["title"] == "Data engineer" and data["status"] == "DRAFT"
    assert data["templateId"] == templates["basic"][0] and set(data["template"]) == {"id", "name", "category"}
    assert data["contentJson"] == {"personalInfo": {"name": "", "email": "", "phone": "", "address": "",
                                                    "summary": ""},
                                   "workExperience": [], "education": [], "skills": [], "projects": []}


def test_created_resume_has_all_sections_visible_and_no_scores(client, resume_id):
    data = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    assert data["sectionsVisibility"] == {s: True for s in SECTIONS}
    assert list(SECTIONS) == ["personalInfo", "workExperience", "education", "skills", "projects", "languages",
                              "certificates", "awards", "volunteer", "publications", "interests", "references",
                              "customSections"]
    assert data["atsScore"] is None and data["keywordMatchScore"] is None and data["targetJobDescription"] is None


def test_the_detail_has_the_contracts_fields_and_the_template_source(client, owner, create):
    resume_id = create(contentJson=FULL_CONTENT).get_json()["data"]["id"]
    data = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    assert set(data) == {"id", "title", "status", "templateId", "template", "atsScore", "keywordMatchScore",
                         "createdAt", "updatedAt", "contentJson", "sectionsVisibility", "targetJobDescription"}
    assert set(data["template"]) == {"id", "name", "category", "htmlTemplate", "cssStyles"}
    assert data["template"]["htmlTemplate"] and data["template"]["cssStyles"]
    project = data["contentJson"]["projects"][0]
    assert len(project.pop("id")) >= 12
    assert data["contentJson"]["projects"][0] == FULL_CONTENT["projects"][0]


@pytest.mark.parametrize("content,field", [
    ({"workExperience": [{"startDate": "2024-13"}]}, "contentJson.workExperience.0.startDate"),
    ({"workExperience": [{"startDate": "2024-1"}]}, "contentJson.workExperience.0.startDate"),
    ({"education": [{}, {"endDate": "March 2020"}]}, "contentJson.education.1.endDate"),
    ({"workExperience": [{"startDate": "2024-05", "endDate": "2023-01"}]}, "contentJson.workExperience.0.endDate"),
    ({"personalInfo": {"name": 5}}, "contentJson.personalInfo.name"),
    ({"personalInfo": {"name": "x" * 201}}, "contentJson.personalInfo.name"),
    ({"skills": "Python"}, "contentJson.skills"),
    ({"skills": [1]}, "contentJson.skills.0"),
    ({"projects": [{"technologies": "Python"}]}, "contentJson.projects.0.technologies"),
    ({"projects": [{"url": "javascript:alert(1)"}]}, "contentJson.projects.0.url"),
    ({"hobbies": []}, "contentJson.hobbies"),
    ({"workExperience": [{"salary": 1}]}, "contentJson.workExperience.0.salary"),
    ({"workExperience": [{}] * 51}, "contentJson.workExperience"),
])
def test_invalid_content_names_the_field_inside_the_content(owner, create, content, field):
    response = create(contentJson=content)
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR"
    assert response.get_json()["details"]["field"] == field


@pytest.mark.parametrize("body,field", [
    ({"title": ""}, "title"), ({"title": "   "}, "title"), ({"title": "t" * 201}, "title"),
    ({"title": None}, "title"), ({"templateId": 5}, "templateId"), ({"contentJson": []}, "contentJson"),
    ({"sectionsVisibility": {"skills": "no"}}, "sectionsVisibility.skills"),
    ({"sectionsVisibility": {"hobbies": True}}, "sectionsVisibility.hobbies"),
    ({"status": "PUBLISHED"}, "status"), ({"id": "abc"}, "id"), ({"createdAt": "2026-01-01T00:00:00Z"}, "createdAt"),
    ({"targetJobDescription": "j" * 20_001}, "targetJobDescription"),
])
def test_invalid_create_bodies_name_the_field(owner, create, body, field):
    response = create(**body)
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == field


@pytest.mark.parametrize("missing", ["title", "templateId"])
def test_title_and_template_are_required(client, owner, templates, missing):
    body = {"title": "T", "templateId": templates["basic"][0]}
    del body[missing]
    response = client.post("/api/resumes", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == missing


def test_content_over_256_kib_is_refused_with_413(owner, create):
    content = {"workExperience": [{"description": "x" * 5000} for _ in range(50)]}  # ~250 KB of text
    content["projects"] = [{"description": "y" * 5000} for _ in range(10)]
    response = create(contentJson=content)
    assert response.status_code == 413
    assert response.get_json()["code"] == "CONTENT_TOO_LARGE"


def test_an_unknown_template_is_invalid(owner, create):
    response = create(templateId="doesnotexist0000")
    assert create(templateId="bad\x00id").get_json()["code"] == "VALIDATION_ERROR"  # NUL refused by the schema
    assert response.status_code == 400
    assert response.get_json()["code"] == "INVALID_TEMPLATE"
    assert response.get_json()["details"] == {"templateId": "doesnotexist0000"}


def test_a_premium_template_is_invalid_on_the_free_plan(owner, create, templates):
    response = create(templateId=templates["premium"][0])
    assert response.status_code == 400
    assert response.get_json()["code"] == "INVALID_TEMPLATE"
    assert response.get_json()["details"] == {"templateId": templates["premium"][0]}


def test_a_premium_template_is_allowed_on_premium(app, client, make_user, login, create, templates, query):
    from app.billing.models import Subscription

    user = make_user()

    def upgrade(session):
        session.query(Subscription).filter_by(user_id=user["id"]).update({"type": "PREMIUM"})
        session.commit()

    query(upgrade)
    login(user)
    assert create(templateId=templates["premium"][0]).status_code == 201


def test_the_free_plan_allows_five_live_resumes(client, owner, create):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(5)]
    sixth = create(title="R6")
    assert sixth.status_code == 429
    assert sixth.get_json()["code"] == "SUBSCRIPTION_LIMIT_EXCEEDED"
    assert sixth.get_json()["details"]["limit"] == 5
    client.delete(f"/api/resumes/{ids[0]}")
    assert create(title="R6").status_code == 201


def test_creates_racing_for_the_last_place_of_the_plan_get_it_once(app, owner, create, templates):
    from concurrent.futures import ThreadPoolExecutor

    for i in range(3):
        create(title=f"R{i}")
    clients = []
    for _ in range(6):
        racer = app.test_client()
        racer.post("/api/auth/signin", json={"email": owner["email"], "password": owner["password"]})
        clients.append(racer)
    body = {"title": "Racer", "templateId": templates["basic"][0]}
    with ThreadPoolExecutor(len(clients)) as pool:
        statuses = sorted(pool.map(lambda racer: racer.post("/api/resumes", json=body).status_code, clients))
    assert statuses == [201, 201, 429, 429, 429, 429]
    total = clients[0].get("/api/resumes").get_json()["meta"]["total"]
    assert total == 5


def test_templates_are_listed_with_tier_and_category(client):
    response = client.get("/api/templates")
    assert response.status_code == 200
    items = response.get_json()["data"]
    assert len(items) >= 4
    assert all(set(t) == {"id", "name", "category", "tier", "thumbnailUrl"} for t in items)
    assert sum(t["tier"] == "basic" for t in items) >= 2 and sum(t["tier"] == "premium" for t in items) >= 2
    assert {t["category"] for t in items} <= {"MODERN", "CLASSIC", "CREATIVE", "PROFESSIONAL", "MINIMAL"}
    assert "MODERN" in {t["category"] for t in items}


# List ---------------------------------------------------------------------
def test_the_list_pages_newest_first_with_meta(client, owner, create):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(5)]
    client.put(f"/api/resumes/{ids[1]}", json={"title": "Touched"})

    first = client.get("/api/resumes?page=1&limit=2").get_json()
    assert [r["id"] for r in first["data"]] == [ids[1], ids[4]]
    assert first["meta"] == {"total": 5, "page": 1, "limit": 2, "totalPages": 3}
    last = client.get("/api/resumes?page=3&limit=2").get_json()
    assert [r["id"] for r in last["data"]] == [ids[0]]
    past = client.get("/api/resumes?page=4&limit=2")
    assert past.status_code == 200 and past.get_json()["data"] == []


def test_list_items_have_exactly_the_contracts_fields(client, resume_id):
    [item] = client.get("/api/resumes").get_json()["data"]
    assert list(item) == ["id", "title", "status", "templateId", "template", "atsScore", "keywordMatchScore",
                          "createdAt", "updatedAt", "shareInfo"]
    assert item["shareInfo"] is None and set(item["template"]) == {"id", "name", "category"}


def test_list_items_are_what_the_documented_schema_dumps(app, client, owner, create, query):
    """The list builds its items without marshmallow (hot path); they must equal the schema's dump."""
    import json

    from app.resumes.models import Resume
    from app.resumes.schemas import ResumeListItemSchema

    plain = create(title="Plain").get_json()["data"]["id"]
    scored = create(title="Scored", targetJobDescription="Python Flask PostgreSQL engineer",
                    contentJson=FULL_CONTENT).get_json()["data"]["id"]
    token = client.post(f"/api/resumes/{scored}/share", json={}).get_json()["data"]["token"]
    client.put(f"/api/resumes/{scored}/share", json={"password": "open sesame"})
    app.test_client().get(f"/api/share/{token}", headers={"X-Share-Password": "open sesame"})

    listed = client.get("/api/resumes").get_data(as_text=True)
    dumped = query(lambda session: ResumeListItemSchema(many=True).dump(
        [session.get(Resume, scored), session.get(Resume, plain)]))
    assert json.loads(listed)["data"] == dumped
    for item in json.loads(listed)["data"]:  # booleans stay booleans (SQLite answers 0/1)
        assert item["shareInfo"] is None or item["shareInfo"]["hasPassword"] is True


def test_the_list_filters_by_status_and_leaves_out_deleted(client, owner, create):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(3)]
    client.put(f"/api/resumes/{ids[0]}", json={"status": "PUBLISHED"})
    client.delete(f"/api/resumes/{ids[1]}")
    assert [r["id"] for r in client.get("/api/resumes?status=PUBLISHED").get_json()["data"]] == [ids[0]]
    assert client.get("/api/resumes?status=DRAFT").get_json()["meta"]["total"] == 1
    assert client.get("/api/resumes").get_json()["meta"]["total"] == 2


@pytest.mark.parametrize("query,field", [("page=0", "page"), ("page=2.5", "page"), ("page=x", "page"),
                                         ("limit=0", "limit"), ("limit=101", "limit"), ("limit=", "limit"),
                                         ("status=GONE", "status"), ("sort=title", "sort")])
def test_bad_list_queries_are_validation_errors(client, owner, query, field):
    response = client.get(f"/api/resumes?{query}")
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_the_list_shows_only_your_resumes(app, client, resume_id, make_user):
    other = app.test_client()
    user = make_user()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert other.get("/api/resumes").get_json()["meta"]["total"] == 0


@pytest.mark.parametrize("size", [10, 100])
def test_the_list_runs_the_same_number_of_statements_whatever_the_page_size(app, client, owner, query, size,
                                                                            templates):
    from app.resumes.models import Resume
    from app.resumes.service import recount_live_resumes

    def seed(session):
        session.add_all(Resume(user_id=owner["id"], title=f"R{i}", template_id=templates["basic"][i % 2],
                               content_json={}, sections_visibility={}) for i in range(size + 5))
        recount_live_resumes()
        session.commit()

    query(seed)
    with app.app_context():
        engine = db.engine

    def get_counting_selects(path):
        # Only this thread's statements: the test client answers in it, while the embedded worker's
        # periodic jobs (the mail and webhook sweeps) may query the same engine meanwhile.
        statements, here = [], threading.get_ident()

        def listener(*args):
            if threading.get_ident() == here:
                statements.append(args[2])
        event.listen(engine, "before_cursor_execute", listener)
        try:
            response = client.get(path)
        finally:
            event.remove(engine, "before_cursor_execute", listener)
        return response.get_json(), len([s for s in statements if s.lstrip().upper().startswith("SELECT")])

    body, selects = get_counting_selects(f"/api/resumes?limit={size}")
    assert len(body["data"]) == size and body["meta"]["total"] == size + 5
    # the session lookup (with the user's count of resumes) and the page (templates and shares joined)
    assert selects == 2
    body, selects = get_counting_selects(f"/api/resumes?limit={size}&status=DRAFT")
    assert len(body["data"]) == size and body["meta"]["total"] == size + 5
    assert selects == 3  # and the count of that status


# Read, update, delete -----------------------------------------------------
def test_update_changes_only_the_given_fields(client, owner, create):
    resume_id = create(contentJson=FULL_CONTENT).get_json()["data"]["id"]
    before = client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    response = client.put(f"/api/resumes/{resume_id}", json={"title": "New title", "status": "ARCHIVED"})
    assert response.status_code == 200
    after = response.get_json()["data"]
    assert after["title"] == "New title" and after["status"] == "ARCHIVED"
    assert after["contentJson"] == before["contentJson"] and after["templateId"] == before["templateId"]
    assert after["updatedAt"] > before["updatedAt"] and after["createdAt"] == before["createdAt"]


def test_a_given_content_replaces_the_whole_content(client, owner, create):
    resume_id = create(contentJson=FULL_CONTENT).get_json()["data"]["id"]
    data = client.put(f"/api/resumes/{resume_id}", json={"contentJson": {"skills": ["Go"]}}).get_json()["data"]
    assert data["contentJson"]["skills"] == ["Go"] and data["contentJson"]["workExperience"] == []


def test_visibility_updates_merge_key_by_key(client, resume_id):
    client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"skills": False}})
    data = client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"projects": False}}
                      ).get_json()["data"]
    assert data["sectionsVisibility"] == {s: s not in ("skills", "projects") for s in SECTIONS}


@pytest.mark.parametrize("sequence", [["PUBLISHED", "DRAFT"], ["ARCHIVED", "PUBLISHED"], ["DRAFT", "ARCHIVED"]])
def test_any_status_may_follow_any_status(client, resume_id, sequence):
    for status in sequence:
        response = client.put(f"/api/resumes/{resume_id}", json={"status": status})
        assert response.get_json()["data"]["status"] == status


@pytest.mark.parametrize("body,field", [({"status": "DELETED"}, "status"), ({"id": "x"}, "id"),
                                        ({"viewCount": 1}, "viewCount"), ({"title": ""}, "title")])
def test_invalid_updates_are_refused_and_change_nothing(client, resume_id, body, field):
    response = client.put(f"/api/resumes/{resume_id}", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["title"] == "Backend engineer"


def test_update_to_a_premium_template_is_refused_on_free(client, resume_id, templates):
    response = client.put(f"/api/resumes/{resume_id}", json={"templateId": templates["premium"][0]})
    assert response.status_code == 400 and response.get_json()["code"] == "INVALID_TEMPLATE"


def test_delete_is_soft_and_the_resume_is_then_not_found(client, resume_id, query):
    from app.resumes.models import Resume

    response = client.delete(f"/api/resumes/{resume_id}")
    assert response.status_code == 200 and response.get_json() == {"success": True, "message": "Resume deleted."}
    assert query(lambda s: s.get(Resume, resume_id).deleted_at) is not None
    for method in ("get", "put", "delete"):
        kwargs = {"json": {"title": "x"}} if method == "put" else {}
        response = getattr(client, method)(f"/api/resumes/{resume_id}", **kwargs)
        assert response.status_code == 404
        assert response.get_json()["code"] == "RESUME_NOT_FOUND"
        assert response.get_json()["details"] == {"resumeId": resume_id}


@pytest.mark.parametrize("resume_path", ["nonexistent0000000000000", "x" * 300, "%00", "..%2F..", "1", "%F0%9F%99%82"])
def test_ids_that_cannot_exist_are_404_not_500(client, owner, resume_path):
    response = client.get(f"/api/resumes/{resume_path}")
    assert response.status_code == 404


def test_scores_are_computed_from_the_job_description(client, owner, create):
    data = create(contentJson=FULL_CONTENT, targetJobDescription="Python Flask PostgreSQL Kubernetes"
                  ).get_json()["data"]
    detail = client.get(f"/api/resumes/{data['id']}").get_json()["data"]
    assert detail["keywordMatchScore"] == 75  # 3 of 4 keywords
    assert 0 <= detail["atsScore"] <= 100
    cleared = client.put(f"/api/resumes/{data['id']}", json={"targetJobDescription": None}).get_json()["data"]
    assert cleared["atsScore"] is None and cleared["keywordMatchScore"] is None


# Permission matrix ---------------------------------------------------------
ENDPOINTS = [("get", "/api/resumes/{id}", None), ("put", "/api/resumes/{id}", {"title": "Mine now"}),
             ("delete", "/api/resumes/{id}", None)]


@pytest.mark.parametrize("method,path,body", ENDPOINTS + [("get", "/api/resumes", None),
                                                          ("post", "/api/resumes", {"title": "x"})])
def test_anonymous_requests_are_401(app, resume_id, method, path, body):
    anonymous = app.test_client()
    response = getattr(anonymous, method)(path.format(id=resume_id), json=body)
    assert response.status_code == 401 and response.get_json()["code"] == "UNAUTHENTICATED"


@pytest.mark.parametrize("method,path,body", ENDPOINTS)
def test_another_users_resume_is_refused_with_403(app, client, resume_id, make_user, method, path, body):
    intruder = app.test_client()
    user = make_user()
    intruder.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = getattr(intruder, method)(path.format(id=resume_id), json=body)
    assert response.status_code == 403
    assert response.get_json()["code"] == "RESUME_NOT_OWNED"
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["title"] == "Backend engineer"


@pytest.mark.parametrize("method,path,body", ENDPOINTS)
def test_the_owner_may(client, resume_id, method, path, body):
    assert getattr(client, method)(path.format(id=resume_id), json=body).status_code == 200
