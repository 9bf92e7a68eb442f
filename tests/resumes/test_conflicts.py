"""Two tabs, one resume (issue 24 point 6, the API's part): a save names the version it was made from
(If-Match with the ETag of GET or of the last save), and one made from an older copy is refused with
409 RESUME_CONFLICT and the current resume; what it held is kept in the version history, and the state
the next save replaces is kept too, whatever the folding. A client that sends no If-Match keeps the
last-write-wins behaviour. The project-entry endpoints take If-Match too, and they and a restore answer
the new ETag (the editor's merge is tested in tests/browser/test_editor_conflicts.py)."""
from __future__ import annotations

from app.resumes.models import ResumeVersion


def _put(client, resume_id: str, body: dict, etag: str | None = None):
    return client.put(f"/api/resumes/{resume_id}", json=body, headers={"If-Match": etag} if etag else {})


def _content(client, resume_id: str) -> dict:
    return client.get(f"/api/resumes/{resume_id}").get_json()["data"]["contentJson"]


def test_a_save_from_a_stale_copy_is_refused_and_kept_as_a_version(client, owner, resume_id, query):
    loaded = client.get(f"/api/resumes/{resume_id}")
    etag = loaded.headers["ETag"]
    content = loaded.get_json()["data"]["contentJson"]
    tab_a = {**content, "personalInfo": {**content["personalInfo"], "summary": "Written in tab A."}}
    tab_b = {**content, "personalInfo": {**content["personalInfo"], "address": "Typed in tab B"}}

    saved = _put(client, resume_id, {"contentJson": tab_a}, etag)        # tab A saves first
    assert saved.status_code == 200 and saved.headers["ETag"] != etag

    stale = _put(client, resume_id, {"contentJson": tab_b}, etag)        # tab B, from the same copy
    assert stale.status_code == 409
    body = stale.get_json()
    assert body["code"] == "RESUME_CONFLICT"
    assert body["details"]["etag"] == saved.headers["ETag"] == stale.headers["ETag"]
    assert body["details"]["resume"]["contentJson"]["personalInfo"]["summary"] == "Written in tab A."
    assert body["details"]["resume"] == client.get(f"/api/resumes/{resume_id}").get_json()["data"]
    assert _content(client, resume_id)["personalInfo"]["summary"] == "Written in tab A."   # A's work stands
    refused = query(lambda s: [v.content_json["personalInfo"].get("address")
                               for v in s.query(ResumeVersion).filter_by(resume_id=resume_id, cause="conflict")])
    assert refused == ["Typed in tab B"]                                  # and B's typing is not lost

    merged = {**tab_a, "personalInfo": {**tab_a["personalInfo"], "address": "Typed in tab B"}}
    again = _put(client, resume_id, {"contentJson": merged}, body["details"]["etag"])
    assert again.status_code == 200
    personal = _content(client, resume_id)["personalInfo"]
    assert (personal["summary"], personal["address"]) == ("Written in tab A.", "Typed in tab B")
    kinds = query(lambda s: sorted(v.cause for v in s.query(ResumeVersion).filter_by(resume_id=resume_id)))
    # the state before A, B's refused save, and A's state that the merge replaced (not folded away)
    assert kinds == ["conflict", "edit", "edit"]
    causes = [v["cause"] for v in client.get(f"/api/resumes/{resume_id}/versions").get_json()["data"]]
    assert "conflict" in causes


def test_without_if_match_the_last_save_wins_as_before(client, owner, resume_id):
    assert _put(client, resume_id, {"title": "First"}).status_code == 200
    assert _put(client, resume_id, {"title": "Second"}).status_code == 200
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["title"] == "Second"


def test_if_match_any_and_a_list_of_tags(client, owner, resume_id):
    assert _put(client, resume_id, {"title": "Any"}, "*").status_code == 200
    etag = client.get(f"/api/resumes/{resume_id}").headers["ETag"]
    weak = _put(client, resume_id, {"title": "Weak"}, f"W/{etag}")      # If-Match compares strongly (RFC 9110)
    assert weak.status_code == 409 and weak.get_json()["code"] == "RESUME_CONFLICT"
    assert _put(client, resume_id, {"title": "Listed"}, f'"old", W/"x", {etag}').status_code == 200
    refused = _put(client, resume_id, {"title": "Nothing changes"}, etag)
    assert refused.status_code == 409
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["title"] == "Listed"


def test_the_project_entry_endpoints_answer_an_etag_and_honour_if_match(client, owner, resume_id, query):
    """The editor saves a project entry alone through these: each names the version it was made from too,
    and answers the new one, so the editor's next save is not taken for a stale one."""
    projects = f"/api/resumes/{resume_id}/projects"
    etag = client.get(f"/api/resumes/{resume_id}").headers["ETag"]
    added = client.post(projects, json={"name": "Engine"}, headers={"If-Match": etag})
    assert added.status_code == 201 and added.headers["ETag"] not in (None, etag)
    entry = added.get_json()["data"]
    assert client.get(f"/api/resumes/{resume_id}").headers["ETag"] == added.headers["ETag"]
    changed = client.put(f"{projects}/{entry['id']}", json={"name": "Loom"},
                         headers={"If-Match": added.headers["ETag"]})
    assert changed.status_code == 200 and changed.get_json()["data"]["name"] == "Loom"

    stale = client.put(f"{projects}/{entry['id']}", json={"name": "Stale"}, headers={"If-Match": etag})
    assert stale.status_code == 409 and stale.get_json()["code"] == "RESUME_CONFLICT"
    assert stale.get_json()["details"]["etag"] == changed.headers["ETag"]
    assert stale.get_json()["details"]["resume"]["contentJson"]["projects"][0]["name"] == "Loom"
    assert client.delete(f"{projects}/{entry['id']}", headers={"If-Match": etag}).status_code == 409
    assert client.post(projects, json={"name": "Late"}, headers={"If-Match": etag}).status_code == 409
    assert [p["name"] for p in client.get(projects).get_json()["data"]] == ["Loom"]        # nothing changed
    refused = query(lambda s: [[p["name"] for p in v.content_json["projects"]] for v in s.query(ResumeVersion)
                               .filter_by(resume_id=resume_id, cause="conflict").order_by(ResumeVersion.created_at)])
    assert refused == [["Stale"], [], ["Loom", "Late"]]       # each refused save, as it would have been

    removed = client.delete(f"{projects}/{entry['id']}", headers={"If-Match": changed.headers["ETag"]})
    assert removed.status_code == 200 and removed.headers["ETag"] != changed.headers["ETag"]
    assert client.delete(f"{projects}/x", headers={"If-Match": removed.headers["ETag"]}).status_code == 404


def test_a_restore_answers_the_restored_versions_etag(client, owner, resume_id):
    assert _put(client, resume_id, {"title": "Changed"}).status_code == 200
    [version] = client.get(f"/api/resumes/{resume_id}/versions").get_json()["data"]
    restored = client.post(f"/api/resumes/{resume_id}/versions/{version['id']}/restore")
    assert restored.status_code == 200
    assert restored.headers["ETag"] == client.get(f"/api/resumes/{resume_id}").headers["ETag"]
    assert _put(client, resume_id, {"title": "Next"}, restored.headers["ETag"]).status_code == 200


def test_the_same_refused_save_sent_again_is_kept_once(client, owner, resume_id, query):
    etag = client.get(f"/api/resumes/{resume_id}").headers["ETag"]
    assert _put(client, resume_id, {"title": "Tab A"}, etag).status_code == 200
    for _ in range(2):
        assert _put(client, resume_id, {"title": "Tab B"}, etag).status_code == 409
    assert _put(client, resume_id, {"title": "Tab B, more"}, etag).status_code == 409
    refused = query(lambda s: [v.title for v in s.query(ResumeVersion).filter_by(resume_id=resume_id, cause="conflict")
                               .order_by(ResumeVersion.created_at)])
    assert refused == ["Tab B", "Tab B, more"]
