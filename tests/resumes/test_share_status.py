"""GET /api/resumes/<id>/share (the owner's read of the link) and the share page thanking a commenter."""
from __future__ import annotations

import pytest

CONTENT = {"personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com"}}


@pytest.fixture
def resume_id(owner, create):
    return create(contentJson=CONTENT).get_json()["data"]["id"]


@pytest.fixture
def visitor(app):
    return app.test_client()


def test_a_resume_never_shared_has_no_share(client, resume_id):
    response = client.get(f"/api/resumes/{resume_id}/share")
    assert response.status_code == 404 and response.get_json()["code"] == "SHARE_NOT_FOUND"


def test_the_owner_reads_the_settings_views_last_view_and_comment_count(client, visitor, resume_id):
    created = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True}).get_json()["data"]
    status = client.get(f"/api/resumes/{resume_id}/share").get_json()["data"]
    assert {k: v for k, v in status.items() if k not in ("lastViewedAt", "commentCount")} == created
    assert status["lastViewedAt"] is None and status["commentCount"] == 0 and status["viewCount"] == 0
    visitor.get(f"/api/share/{created['token']}")
    visitor.post(f"/api/share/{created['token']}/comments", json={"name": "Grace", "text": "Hire her"})
    status = client.get(f"/api/resumes/{resume_id}/share").get_json()["data"]
    assert status["viewCount"] == 1 and status["lastViewedAt"].endswith("Z") and status["commentCount"] == 1


def test_only_the_owner_reads_it(app, client, resume_id, make_user):
    client.post(f"/api/resumes/{resume_id}/share", json={})
    assert app.test_client().get(f"/api/resumes/{resume_id}/share").status_code == 401
    stranger = make_user()
    other = app.test_client()
    other.post("/api/auth/signin", json={"email": stranger["email"], "password": stranger["password"]})
    assert other.get(f"/api/resumes/{resume_id}/share").get_json()["code"] == "RESUME_NOT_OWNED"


def test_the_share_page_thanks_the_commenter_by_name_once(client, visitor, resume_id):
    token = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True}).get_json()["data"]["token"]
    url = f"/share/{token}"
    visitor.get(url)
    posted = visitor.post(f"{url}/comments", data={"name": "<b>Grace</b>", "text": "Hire her"})
    assert posted.status_code == 303 and posted.headers["Location"].endswith(f"{url}#comments")
    page = visitor.get(url).get_data(as_text=True)
    assert "Thank you, &lt;b&gt;Grace&lt;/b&gt;! Your comment was sent to the owner of this resume." in page
    assert "<b>Grace</b>" not in page
    assert "Thank you" not in visitor.get(url).get_data(as_text=True)  # once
    # coming back from one's own comment is not another view: two page views in all
    assert client.get(f"/api/resumes/{resume_id}/share").get_json()["data"]["viewCount"] == 2


def test_the_thanks_is_for_this_share_only_and_in_the_visitors_language(client, visitor, owner, create, resume_id):
    first = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True}).get_json()["data"]["token"]
    other_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    second = client.post(f"/api/resumes/{other_id}/share", json={"allowComments": True}).get_json()["data"]["token"]
    zh = {"Accept-Language": "zh-CN,zh;q=0.9"}
    visitor.post(f"/share/{first}/comments", data={"name": "王芳", "text": "很好"}, headers=zh)
    assert "谢谢" not in visitor.get(f"/share/{second}", headers=zh).get_data(as_text=True)
    page = visitor.get(f"/share/{first}", headers=zh).get_data(as_text=True)
    assert "谢谢您，王芳！您的评论已发送给这份简历的主人。" in page and "再写一条评论" in page


def test_comments_turned_off_meanwhile_are_explained_on_the_page(client, visitor, resume_id):
    token = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True}).get_json()["data"]["token"]
    client.put(f"/api/resumes/{resume_id}/share", json={"allowComments": False})
    response = visitor.post(f"/share/{token}/comments", data={"name": "Grace", "text": "Hire her"})
    assert response.status_code == 403 and "Comments are turned off for this resume." in response.get_data(as_text=True)
