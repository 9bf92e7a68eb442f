import re
from datetime import datetime, timedelta, timezone

import pytest

from app.resumes.models import Comment, Share

CONTENT = {"personalInfo": {"name": "Ada Lovelace", "summary": "Analytical engines."},
           "skills": ["Python", "SecretSkill"], "workExperience": [{"company": "Babbage & Co"}]}


@pytest.fixture
def shared(client, owner, create):
    """A resume with content and a share; returns (resume_id, share settings)."""
    resume_id = create(contentJson=CONTENT).get_json()["data"]["id"]
    response = client.post(f"/api/resumes/{resume_id}/share", json={})
    assert response.status_code == 201, response.get_json()
    return resume_id, response.get_json()["data"]


@pytest.fixture
def visitor(app):
    return app.test_client()


def test_creating_a_share_answers_201_with_its_settings(shared, query):
    resume_id, share = shared
    assert list(share) == ["id", "token", "shareUrl", "isEnabled", "hasPassword", "allowDownload", "allowComments",
                           "viewCount", "expiresAt", "createdAt"]
    assert share["isEnabled"] is True and share["hasPassword"] is False
    assert share["allowDownload"] is False and share["allowComments"] is False
    assert share["viewCount"] == 0 and share["expiresAt"] is None
    assert share["shareUrl"] == f"http://localhost:5000/share/{share['token']}"
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", share["token"])  # 192 random bits


def test_posting_again_changes_the_share_and_keeps_its_token(client, shared, query):
    resume_id, share = shared
    response = client.post(f"/api/resumes/{resume_id}/share", json={"password": "open sesame",
                                                                    "allowComments": True})
    assert response.status_code == 200
    again = response.get_json()["data"]
    assert again["token"] == share["token"] and again["hasPassword"] is True and again["allowComments"] is True
    stored = query(lambda s: s.query(Share).one().password_hash)
    assert stored.startswith("$2b$") and "open sesame" not in response.get_data(as_text=True)


def test_put_before_any_post_is_share_not_found(client, resume_id):
    response = client.put(f"/api/resumes/{resume_id}/share", json={"isEnabled": False})
    assert response.status_code == 404 and response.get_json()["code"] == "SHARE_NOT_FOUND"


def test_put_with_null_clears_the_password_and_the_expiry(client, shared):
    resume_id, _ = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "pw12345", "expiresAt": "2999-01-01T00:00:00Z"})
    data = client.put(f"/api/resumes/{resume_id}/share", json={"password": None, "expiresAt": None}
                      ).get_json()["data"]
    assert data["hasPassword"] is False and data["expiresAt"] is None


@pytest.mark.parametrize("body,field", [({"isEnabled": "yes"}, "isEnabled"), ({"password": ""}, "password"),
                                        ({"expiresAt": "tomorrow"}, "expiresAt"),
                                        ({"expiresAt": "2001-01-01T00:00:00Z"}, "expiresAt"),
                                        ({"viewCount": 3}, "viewCount"), ({"token": "mine"}, "token")])
def test_invalid_share_settings_name_the_field(client, shared, body, field):
    resume_id, _ = shared
    response = client.put(f"/api/resumes/{resume_id}/share", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_the_free_plan_allows_three_enabled_shares(client, owner, create):
    ids = [create(title=f"R{i}").get_json()["data"]["id"] for i in range(5)]
    for resume_id in ids[:3]:
        assert client.post(f"/api/resumes/{resume_id}/share", json={}).status_code == 201
    fourth = client.post(f"/api/resumes/{ids[3]}/share", json={})
    assert fourth.status_code == 429 and fourth.get_json()["code"] == "SHARE_LIMIT_EXCEEDED"
    assert fourth.get_json()["details"] == {"limit": 3}
    assert client.post(f"/api/resumes/{ids[3]}/share", json={"isEnabled": False}).status_code == 201  # disabled is fine
    client.put(f"/api/resumes/{ids[0]}/share", json={"isEnabled": False})
    assert client.put(f"/api/resumes/{ids[3]}/share", json={"isEnabled": True}).status_code == 200
    assert client.put(f"/api/resumes/{ids[0]}/share", json={"isEnabled": True}).status_code == 429
    client.delete(f"/api/resumes/{ids[1]}")
    assert client.put(f"/api/resumes/{ids[0]}/share", json={"isEnabled": True}).status_code == 200


def test_the_public_view_leaves_out_hidden_sections_and_counts_views(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"skills": False}})
    response = visitor.get(f"/api/share/{share['token']}")
    assert response.status_code == 200
    data = response.get_json()["data"]
    assert "skills" not in data["contentJson"] and data["contentJson"]["personalInfo"]["name"] == "Ada Lovelace"
    assert data["title"] == "Backend engineer" and set(data["template"]) == {"id", "name", "category"}
    visitor.get(f"/api/share/{share['token']}")
    [item] = client.get("/api/resumes").get_json()["data"]
    assert item["shareInfo"]["viewCount"] == 2 and item["shareInfo"]["lastViewedAt"].endswith("Z")
    assert item["shareInfo"]["isEnabled"] is True and item["shareInfo"]["hasPassword"] is False


def test_unknown_disabled_and_deleted_shares_are_not_found(client, visitor, shared):
    resume_id, share = shared
    assert visitor.get("/api/share/unknowntoken").get_json()["code"] == "SHARE_NOT_FOUND"
    client.put(f"/api/resumes/{resume_id}/share", json={"isEnabled": False})
    assert visitor.get(f"/api/share/{share['token']}").status_code == 404
    client.put(f"/api/resumes/{resume_id}/share", json={"isEnabled": True})
    client.delete(f"/api/resumes/{resume_id}")
    response = visitor.get(f"/api/share/{share['token']}")
    assert response.status_code == 404 and response.get_json()["code"] == "SHARE_NOT_FOUND"
    assert visitor.get(f"/share/{share['token']}").status_code == 404


def test_a_share_expires_at_its_time(app, client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"expiresAt": "2099-01-01T00:00:00Z"})
    assert visitor.get(f"/api/share/{share['token']}").status_code == 200
    clock = app.extensions["clock"]
    try:
        clock.advance(days=365 * 80)
        response = visitor.get(f"/api/share/{share['token']}")
        assert response.status_code == 410 and response.get_json()["code"] == "SHARE_EXPIRED"
        page = visitor.get(f"/share/{share['token']}")
        assert page.status_code == 410 and "text/html" in page.content_type
    finally:
        clock.offset = type(clock.offset)(0)


def test_a_protected_share_needs_its_password(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "open sesame"})
    url = f"/api/share/{share['token']}"
    missing = visitor.get(url)
    assert missing.status_code == 401 and missing.get_json()["code"] == "SHARE_PASSWORD_REQUIRED"
    wrong = visitor.get(url, headers={"X-Share-Password": "nope"})
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "INVALID_SHARE_PASSWORD"
    assert visitor.get(url, headers={"X-Share-Password": "open sesame"}).status_code == 200
    [item] = client.get("/api/resumes").get_json()["data"]
    assert item["shareInfo"]["viewCount"] == 1  # refused attempts are not views


def test_wrong_share_passwords_are_limited_per_address_and_share(client, visitor, shared, app):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "open sesame"})
    url = f"/api/share/{share['token']}"
    for _ in range(10):
        assert visitor.get(url, headers={"X-Share-Password": "nope"}).status_code == 403
    blocked = visitor.get(url, headers={"X-Share-Password": "open sesame"})
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "RATE_LIMITED"
    elsewhere = app.test_client().get(url, headers={"X-Share-Password": "open sesame"},
                                      environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert elsewhere.status_code == 200


def test_comments_need_allow_comments(client, visitor, shared):
    resume_id, share = shared
    url = f"/api/share/{share['token']}/comments"
    refused = visitor.post(url, json={"name": "Grace", "text": "Impressive"})
    assert refused.status_code == 403 and refused.get_json()["code"] == "COMMENTS_DISABLED"
    client.put(f"/api/resumes/{resume_id}/share", json={"allowComments": True})
    first = visitor.post(url, json={"name": "Grace", "text": "Impressive"})
    assert first.status_code == 201
    assert list(first.get_json()["data"]) == ["id", "name", "text", "createdAt"]
    visitor.post(url, json={"name": "Alan", "text": "Agreed"})
    comments = client.get(f"/api/resumes/{resume_id}/comments").get_json()["data"]
    assert [c["name"] for c in comments] == ["Alan", "Grace"]


def test_comments_come_fifty_to_a_page_newest_first(client, shared, query):
    resume_id, _ = shared

    def leave(session):
        start = datetime(2026, 1, 1, tzinfo=timezone.utc)
        session.add_all([Comment(resume_id=resume_id, name=f"Visitor {i}", text="Hello",
                                 created_at=start + timedelta(minutes=i)) for i in range(55)])
        session.commit()
    query(leave)

    first = client.get(f"/api/resumes/{resume_id}/comments").get_json()
    assert [c["name"] for c in first["data"]] == [f"Visitor {i}" for i in range(54, 4, -1)]
    assert first["meta"] == {"total": 55, "page": 1, "limit": 50, "totalPages": 2}
    second = client.get(f"/api/resumes/{resume_id}/comments?page=2").get_json()
    assert [c["name"] for c in second["data"]] == [f"Visitor {i}" for i in range(4, -1, -1)]
    small = client.get(f"/api/resumes/{resume_id}/comments?page=3&limit=20").get_json()
    assert [c["name"] for c in small["data"]] == [f"Visitor {i}" for i in range(14, -1, -1)]
    assert small["meta"] == {"total": 55, "page": 3, "limit": 20, "totalPages": 3}
    past = client.get(f"/api/resumes/{resume_id}/comments?page=4&limit=20").get_json()
    assert past["data"] == [] and past["meta"]["total"] == 55


@pytest.mark.parametrize("query_string,field", [("limit=0", "limit"), ("limit=101", "limit"), ("page=0", "page"),
                                                ("page=x", "page")])
def test_a_bad_page_of_comments_names_the_field(client, shared, query_string, field):
    resume_id, _ = shared
    response = client.get(f"/api/resumes/{resume_id}/comments?{query_string}")
    assert response.status_code == 400
    assert response.get_json()["code"] == "VALIDATION_ERROR" and response.get_json()["details"]["field"] == field


@pytest.mark.parametrize("body,field", [({"name": "", "text": "x"}, "name"), ({"name": "n" * 101, "text": "x"}, "name"),
                                        ({"name": "A", "text": ""}, "text"),
                                        ({"name": "A", "text": "t" * 2001}, "text"),
                                        ({"name": "A"}, "text")])
def test_invalid_comments_name_the_field(client, visitor, shared, body, field):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"allowComments": True})
    response = visitor.post(f"/api/share/{share['token']}/comments", json=body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_comments_of_a_protected_share_need_the_password(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"allowComments": True, "password": "open sesame"})
    url = f"/api/share/{share['token']}/comments"
    assert visitor.post(url, json={"name": "A", "text": "B"}).get_json()["code"] == "SHARE_PASSWORD_REQUIRED"
    assert visitor.post(url, json={"name": "A", "text": "B"}, headers={"X-Share-Password": "open sesame"}
                        ).status_code == 201


# The page -------------------------------------------------------------------
def test_the_share_page_shows_the_resume_in_its_template_without_hidden_sections(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}", json={"sectionsVisibility": {"skills": False}})
    page = visitor.get(f"/share/{share['token']}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "text/html" in page.content_type
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "Ada Lovelace" in html and "Babbage &amp; Co" in html and "SecretSkill" not in html
    assert "Leave a comment" not in html
    assert client.get("/api/resumes").get_json()["data"][0]["shareInfo"]["viewCount"] == 1


def test_unknown_share_page_is_a_404_page(visitor):
    page = visitor.get("/share/doesnotexist")
    assert page.status_code == 404 and "text/html" in page.content_type


def test_the_share_page_password_flow(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "open sesame"})
    url = f"/share/{share['token']}"
    form = visitor.get(url)
    assert form.status_code == 200 and 'type="password"' in form.get_data(as_text=True)
    assert "Ada Lovelace" not in form.get_data(as_text=True)
    wrong = visitor.post(url, data={"password": "nope"})
    assert wrong.status_code == 403 and "incorrect" in wrong.get_data(as_text=True)
    right = visitor.post(url, data={"password": "open sesame"})
    assert right.status_code == 303 and right.headers["Location"].endswith(url)
    assert "Ada Lovelace" in visitor.get(url).get_data(as_text=True)
    assert client.get("/api/resumes").get_json()["data"][0]["shareInfo"]["viewCount"] == 1
    # a new password locks the page again
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "another secret"})
    assert "Ada Lovelace" not in visitor.get(url).get_data(as_text=True)


def test_a_visitor_comments_from_the_page(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"allowComments": True})
    url = f"/share/{share['token']}"
    assert "Leave a comment" in visitor.get(url).get_data(as_text=True)
    response = visitor.post(f"{url}/comments", data={"name": "<b>Grace</b>", "text": "Hire her"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"{url}#comments")
    [comment] = client.get(f"/api/resumes/{resume_id}/comments").get_json()["data"]
    assert comment["name"] == "<b>Grace</b>" and comment["text"] == "Hire her"


def test_user_html_is_escaped_on_the_share_page(client, visitor, owner, create):
    resume_id = create(contentJson={"personalInfo": {"name": "<script>alert(1)</script>"}}).get_json()["data"]["id"]
    token = client.post(f"/api/resumes/{resume_id}/share", json={}).get_json()["data"]["token"]
    html = visitor.get(f"/share/{token}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


# Permissions ----------------------------------------------------------------
@pytest.mark.parametrize("method,suffix", [("post", "/share"), ("put", "/share"), ("get", "/comments")])
def test_share_settings_are_the_owners(app, shared, make_user, method, suffix):
    resume_id, _ = shared
    body = {} if method != "get" else None
    assert getattr(app.test_client(), method)(f"/api/resumes/{resume_id}{suffix}", json=body).status_code == 401
    intruder = app.test_client()
    user = make_user()
    intruder.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    response = getattr(intruder, method)(f"/api/resumes/{resume_id}{suffix}", json=body)
    assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED"


# Hostile share passwords and the one guess counter --------------------------
LONG = "é" * 37  # 74 bytes of UTF-8: over bcrypt's 72
LONGEST = "é" * 36  # 72 bytes: the longest share password


@pytest.mark.parametrize("method", ["post", "put"])
def test_a_share_password_over_72_bytes_is_refused_naming_the_field(client, shared, method):
    resume_id, _ = shared
    response = getattr(client, method)(f"/api/resumes/{resume_id}/share", json={"password": LONG})
    body = response.get_json()
    assert response.status_code == 400 and body["code"] == "VALIDATION_ERROR", body
    assert body["details"]["field"] == "password" and "72 bytes" in body["error"] and LONG not in body["error"]
    assert client.get("/api/resumes").get_json()["data"][0]["shareInfo"]["hasPassword"] is False


def test_a_tried_share_password_over_72_bytes_is_wrong_everywhere(client, visitor, shared):
    """bcrypt reads 72 bytes: a longer attempt that starts with the password must not open the share."""
    resume_id, share = shared
    assert client.put(f"/api/resumes/{resume_id}/share", json={"password": LONGEST, "allowComments": True}
                      ).status_code == 200
    api = visitor.get(f"/api/share/{share['token']}", headers={"X-Share-Password": LONG})
    assert api.status_code == 403 and api.get_json()["code"] == "INVALID_SHARE_PASSWORD"
    comment = visitor.post(f"/api/share/{share['token']}/comments", json={"name": "A", "text": "B"},
                           headers={"X-Share-Password": LONG})
    assert comment.status_code == 403 and comment.get_json()["code"] == "INVALID_SHARE_PASSWORD"
    page = visitor.post(f"/share/{share['token']}", data={"password": LONG})
    assert page.status_code == 403 and "incorrect" in page.get_data(as_text=True)
    assert visitor.post(f"/share/{share['token']}", data={"password": LONGEST}).status_code == 303
    assert visitor.get(f"/api/share/{share['token']}", headers={"X-Share-Password": LONGEST}).status_code == 200


def test_share_password_guesses_count_once_across_the_api_the_page_and_comments(client, visitor, shared):
    resume_id, share = shared
    client.put(f"/api/resumes/{resume_id}/share", json={"password": "open sesame", "allowComments": True})
    token = share["token"]
    attempts = [lambda pw: visitor.get(f"/api/share/{token}", headers={"X-Share-Password": pw}),
                lambda pw: visitor.post(f"/share/{token}", data={"password": pw}),
                lambda pw: visitor.post(f"/api/share/{token}/comments", json={"name": "A", "text": "B"},
                                        headers={"X-Share-Password": pw})]
    for i in range(10):  # the limit: 10 wrong guesses per 10 minutes, wherever they are made
        assert attempts[i % 3]("nope").status_code == 403
    for attempt in attempts:
        assert attempt("open sesame").status_code == 429


def test_a_visitor_chooses_the_pages_language_on_a_shared_resume(shared, visitor):
    _, share = shared
    path = f"/share/{share['token']}"
    page = visitor.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f'href="/language/fr?next={path}"' in page  # the public pages' switcher, back to the same resume
    assert visitor.get(f"/language/fr?next={path}").headers["Location"] == path
    assert 'lang="fr"' in visitor.get(path).get_data(as_text=True)[:200]
