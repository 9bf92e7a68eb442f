"""Every write a browser may send with our cookie says where it came from (issue 24 point 1).

A cross-site form with no fields and ``enctype="text/plain"`` sends an empty body: before, only
urlencoded and multipart bodies had their Origin checked, so a duplicate, a version restore that
replaced the content, a webhook secret's rotation, an analysis and a sign-out went through with nothing
but SameSite=Lax in the way. The tests are generated from the URL map, so a new route cannot skip the
check: each write, sent as such a form from another site (by its Origin, by Sec-Fetch-Site from a
sibling subdomain, or by its Referer), is 403 FORBIDDEN, and nothing the user saved changes.

Only what authenticates the request decides (issue 32 point 5): an API request with a Bearer token is
authenticated by it, never by the cookie, so it skips the check; any other Authorization header (a
proxy's Basic credentials, which browsers add by themselves) does not.
"""
from __future__ import annotations

import pytest

from app.resumes.models import Resume, ResumeVersion
from app.webhooks.models import Webhook
from tests.support import Receiver

BASE_URL = "http://localhost:5000"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
# Where another site's page says it comes from: its own origin, a sibling subdomain (same site, so
# SameSite=Lax lets the cookie through), or only a Referer (an old browser that sends no Origin).
ELSEWHERE = {
    "origin": {"Origin": "https://evil.test"},
    "sibling": {"Sec-Fetch-Site": "same-site"},
    "referer": {"Referer": "https://evil.test/page.html"},
    # Behind a proxy that asks for Basic auth (a staging site), the browser adds its Authorization to
    # every request, another site's form post included: it authenticates nothing here (issue 32).
    "basic-auth-proxy": {"Origin": "https://evil.test", "Authorization": "Basic c3RhZ2luZzpzdGFnaW5n"},
}


def _writes(app) -> list[tuple[str, str]]:
    """(method, path) of every write the app routes, with a placeholder for each variable part."""
    adapter = app.url_map.bind("localhost")
    found = set()
    for rule in app.url_map.iter_rules():
        values = {name: 1 if type(converter).__name__ in ("IntegerConverter", "NumberConverter") else "x1"
                  for name, converter in rule._converters.items()}
        for method in sorted(set(rule.methods or ()) & set(WRITES)):
            found.add((method, adapter.build(rule.endpoint, values, method=method)))
    return sorted(found)


def test_the_map_has_writes_to_check(app):
    writes = _writes(app)
    assert len(writes) > 40
    assert ("POST", "/api/resumes/x1/duplicate") in writes
    assert ("POST", "/api/webhooks/x1/rotate-secret") in writes


@pytest.mark.parametrize("where", sorted(ELSEWHERE))
def test_every_write_from_another_site_is_refused_whatever_its_body(app, client, owner, where):
    refused = []
    for method, path in _writes(app):
        response = client.open(path, method=method, data=b"", content_type="text/plain",
                               headers=ELSEWHERE[where])
        body = response.get_json(silent=True) or {}
        if response.status_code != 403 and not (response.status_code == 302 and "error=FORBIDDEN" in
                                                response.headers.get("Location", "")):
            refused.append((method, path, response.status_code, body.get("code")))
    assert refused == [], refused


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


def test_the_writes_of_the_probe_change_nothing(app, client, owner, create, query, receiver):
    resume_id = create(title="Mine").get_json()["data"]["id"]
    client.put(f"/api/resumes/{resume_id}", json={"title": "Mine, edited"})
    version = client.get(f"/api/resumes/{resume_id}/versions").get_json()["data"][0]["id"]
    hook = client.post("/api/webhooks", json={"url": receiver.url, "events": ["resume.created"]})
    hook_id = hook.get_json()["data"]["id"]
    secret = query(lambda s: s.get(Webhook, hook_id).secret)
    elsewhere = {"Origin": "https://evil.test"}
    for path in (f"/api/resumes/{resume_id}/duplicate", f"/api/resumes/{resume_id}/versions/{version}/restore",
                 f"/api/webhooks/{hook_id}/rotate-secret", f"/api/webhooks/{hook_id}/test",
                 f"/api/resumes/{resume_id}/analysis", "/api/auth/signout"):
        response = client.post(path, data=b"", content_type="text/plain", headers=elsewhere)
        assert response.status_code == 403 and response.get_json()["code"] == "FORBIDDEN", path
    assert query(lambda s: s.query(Resume).count()) == 1
    assert query(lambda s: s.get(Resume, resume_id).title) == "Mine, edited"
    assert query(lambda s: s.query(ResumeVersion).count()) == 1
    assert query(lambda s: s.get(Webhook, hook_id).secret) == secret
    assert client.get("/api/account").status_code == 200              # still signed in


def test_writes_from_this_site_and_from_clients_that_are_no_browser_pass(client, owner, create):
    resume_id = create(title="Mine").get_json()["data"]["id"]
    for headers in ({"Origin": BASE_URL}, {"Sec-Fetch-Site": "same-origin"}, {"Referer": f"{BASE_URL}/dashboard"},
                    {}):                                                # a script with the cookie: no header
        response = client.post(f"/api/resumes/{resume_id}/duplicate", headers=headers)
        assert response.status_code == 201, (headers, response.get_json())


def test_a_comment_posted_from_another_site_behind_a_basic_auth_proxy_is_refused(client, owner, create, query):
    from app.resumes.models import Comment
    resume_id = create(title="Shared").get_json()["data"]["id"]
    share = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True}).get_json()["data"]
    response = client.post(f"/share/{share['token']}/comments", data={"name": "Eve", "text": "Hi"},
                           headers=ELSEWHERE["basic-auth-proxy"])
    assert response.status_code in (302, 303, 403)
    assert response.status_code == 403 or "error=FORBIDDEN" in response.headers["Location"]
    assert query(lambda s: s.query(Comment).count()) == 0


def test_an_api_request_with_a_bearer_token_is_not_asked_where_it_came_from(client, make_user, create, login):
    user = make_user()
    token = client.post("/api/auth/token", data={"grant_type": "password", "email": user["email"],
                                                 "password": user["password"]}).get_json()["access_token"]
    login(user)
    resume_id = create(title="Mine").get_json()["data"]["id"]
    response = client.post(f"/api/resumes/{resume_id}/duplicate",
                           headers={"Origin": "https://tool.example", "Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.get_json()
