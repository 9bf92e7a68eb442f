"""Two tabs, one resume (issue 24 point 6, the API's part): a save names the version it was made from
(If-Match with the ETag of GET or of the last save), and one made from an older copy is refused with
409 RESUME_CONFLICT and the current resume; what it held is kept in the version history, and the state
the next save replaces is kept too, whatever the folding. A client that sends no If-Match keeps the
last-write-wins behaviour."""
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
    assert _put(client, resume_id, {"title": "Listed"}, f'"old", W/{etag}').status_code == 200
    refused = _put(client, resume_id, {"title": "Nothing changes"}, etag)
    assert refused.status_code == 409
    assert client.get(f"/api/resumes/{resume_id}").get_json()["data"]["title"] == "Listed"
