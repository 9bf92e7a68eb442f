import pytest

ENTRY = {"name": "Engine", "description": "A difference engine", "technologies": ["Python", "Rust"],
         "url": "https://example.com/engine", "startDate": "2021-01", "endDate": "2021-06",
         "highlights": ["Fast", "Correct"]}


def add(client, resume_id, **fields):
    return client.post(f"/api/resumes/{resume_id}/projects", json={**ENTRY, **fields})


def test_adding_a_project_returns_it_with_an_id_and_stores_it_in_the_content(client, resume_id):
    response = add(client, resume_id)
    assert response.status_code == 201
    entry = response.get_json()["data"]
    assert list(entry) == ["id", "name", "description", "technologies", "url", "startDate", "endDate", "highlights"]
    assert len(entry["id"]) >= 12 and {k: v for k, v in entry.items() if k != "id"} == ENTRY
    content = client.get(f"/api/resumes/{resume_id}").get_json()["data"]["contentJson"]
    assert content["projects"] == [entry]
    assert client.get(f"/api/resumes/{resume_id}/projects").get_json()["data"] == [entry]


def test_missing_fields_of_a_new_project_are_empty(client, resume_id):
    entry = client.post(f"/api/resumes/{resume_id}/projects", json={"name": "Only a name"}).get_json()["data"]
    assert entry["technologies"] == [] and entry["url"] == "" and entry["startDate"] == ""


def test_updating_a_project_changes_only_the_given_fields(client, resume_id):
    first = add(client, resume_id).get_json()["data"]
    second = add(client, resume_id, name="Second").get_json()["data"]
    response = client.put(f"/api/resumes/{resume_id}/projects/{first['id']}", json={"name": "Renamed"})
    assert response.status_code == 200
    assert response.get_json()["data"] == {**first, "name": "Renamed"}
    projects = client.get(f"/api/resumes/{resume_id}/projects").get_json()["data"]
    assert projects == [{**first, "name": "Renamed"}, second]


def test_deleting_a_project_removes_only_it(client, resume_id):
    first = add(client, resume_id).get_json()["data"]
    second = add(client, resume_id, name="Second").get_json()["data"]
    response = client.delete(f"/api/resumes/{resume_id}/projects/{first['id']}")
    assert response.status_code == 200 and response.get_json()["success"] is True
    assert client.get(f"/api/resumes/{resume_id}/projects").get_json()["data"] == [second]


@pytest.mark.parametrize("method", ["put", "delete"])
def test_an_unknown_project_is_404(client, resume_id, method):
    response = getattr(client, method)(f"/api/resumes/{resume_id}/projects/nope", json={"name": "x"})
    assert response.status_code == 404
    assert response.get_json()["code"] == "NOT_FOUND" and response.get_json()["details"] == {"projectId": "nope"}


@pytest.mark.parametrize("body,field", [({"id": "mine"}, "id"), ({"startDate": "2021-13"}, "startDate"),
                                        ({"technologies": "Python"}, "technologies"), ({"url": "ftp://x"}, "url"),
                                        ({"endDate": "2020-01"}, "endDate"), ({"stars": 5}, "stars")])
def test_invalid_project_bodies_name_the_field(client, resume_id, body, field):
    response = add(client, resume_id, **body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_an_update_may_not_put_the_end_before_the_start(client, resume_id):
    entry = add(client, resume_id).get_json()["data"]
    response = client.put(f"/api/resumes/{resume_id}/projects/{entry['id']}", json={"endDate": "2020-01"})
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "endDate"


def test_a_project_change_recomputes_the_scores(client, resume_id):
    client.put(f"/api/resumes/{resume_id}", json={"targetJobDescription": "Kubernetes Terraform"})
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["keywordMatchScore"] == 0
    add(client, resume_id, technologies=["Kubernetes"])
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["keywordMatchScore"] == 50


def test_projects_of_a_deleted_resume_are_not_found(client, resume_id):
    client.delete(f"/api/resumes/{resume_id}")
    for response in (client.get(f"/api/resumes/{resume_id}/projects"), add(client, resume_id)):
        assert response.status_code == 404 and response.get_json()["code"] == "RESUME_NOT_FOUND"


@pytest.mark.parametrize("method,suffix,body", [("get", "", None), ("post", "", ENTRY),
                                                ("put", "/x", {"name": "n"}), ("delete", "/x", None)])
def test_another_users_projects_are_refused_with_403(app, resume_id, make_user, method, suffix, body):
    intruder = app.test_client()
    user = make_user()
    intruder.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = getattr(intruder, method)(f"/api/resumes/{resume_id}/projects{suffix}", json=body)
    assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"
    anonymous = app.test_client()
    assert getattr(anonymous, method)(f"/api/resumes/{resume_id}/projects{suffix}", json=body).status_code == 401
