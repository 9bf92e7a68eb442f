"""Is my copy still the resume? (issue 32 point 7, the API's part): ``GET /api/resumes/<id>`` with
``If-None-Match`` (the ETag of the copy a client holds) answers 304 with no body while the resume is that
version, and the resume with its new ETag once it was saved elsewhere. The ETag header is always there.
The editor asks so when it gets the focus back and every EDITOR_FRESHNESS_SECONDS while it is visible
(tests/browser/test_editor_other_tab.py)."""
from __future__ import annotations

import pytest


def _get(client, resume_id: str, if_none_match: str | None = None):
    return client.get(f"/api/resumes/{resume_id}", headers={"If-None-Match": if_none_match} if if_none_match else {})


def test_the_current_etag_is_answered_304_without_a_body(client, owner, resume_id):
    etag = _get(client, resume_id).headers["ETag"]
    unchanged = _get(client, resume_id, etag)
    assert unchanged.status_code == 304
    assert unchanged.data == b""
    assert unchanged.headers["ETag"] == etag


def test_a_copy_saved_over_elsewhere_gets_the_resume_and_its_new_etag(client, owner, resume_id):
    old = _get(client, resume_id).headers["ETag"]
    saved = client.put(f"/api/resumes/{resume_id}", json={"title": "Saved on the phone"})
    changed = _get(client, resume_id, old)
    assert changed.status_code == 200
    assert changed.headers["ETag"] == saved.headers["ETag"] != old
    assert changed.get_json()["data"]["title"] == "Saved on the phone"
    assert _get(client, resume_id, changed.headers["ETag"]).status_code == 304


@pytest.mark.parametrize("header", ['"other", {etag}', "W/{etag}", "*"])
def test_a_list_a_weak_tag_and_any_compare_as_rfc_9110_says(client, owner, resume_id, header):
    etag = _get(client, resume_id).headers["ETag"]
    answer = _get(client, resume_id, header.format(etag=etag))
    assert answer.status_code == 304 and answer.headers["ETag"] == etag  # If-None-Match compares weakly


def test_another_tag_or_none_gets_the_whole_resume(client, owner, resume_id):
    etag = _get(client, resume_id).headers["ETag"]
    for answer in (_get(client, resume_id, '"not-this-one"'), _get(client, resume_id)):
        assert answer.status_code == 200 and answer.headers["ETag"] == etag
        assert answer.get_json()["data"]["id"] == resume_id


def test_the_right_etag_does_not_open_another_persons_resume(app, client, resume_id, make_user):
    etag = _get(client, resume_id).headers["ETag"]
    intruder = app.test_client()
    user = make_user()
    intruder.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    refused = _get(intruder, resume_id, etag)
    assert refused.status_code == 403 and refused.get_json()["code"] == "RESUME_NOT_OWNED"
    assert app.test_client().get(f"/api/resumes/{resume_id}", headers={"If-None-Match": etag}).status_code == 401
