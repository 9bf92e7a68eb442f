"""The pseudo-locale test: every message of the catalogue translated into a pseudo-language (⟦Šáṽéð⟧), then
every page, mail and API error rendered in it. Any words a reader would see that are not inside ⟦…⟧ did not
pass through the catalogue: a string typed straight into a template or a script, a message built with an
f-string, a table of words nobody marked.

What is not the interface's words is left out on purpose: the person's own data (their name, a resume's
title), what HTML marks ``translate="no"`` (codes, time-zone names, the languages' own names) and
``<code>``, ``<script>`` and ``<style>``.
"""
from __future__ import annotations

import pytest

from app import i18n
from tests.pseudo import problems, pseudo, unmarked, write_pseudo_catalogue
from tests.support import PASSWORD, html_part, text_part


@pytest.fixture(scope="module")
def pseudo_catalogue(tmp_path_factory):
    return write_pseudo_catalogue(tmp_path_factory.mktemp("pseudo-translations"))


@pytest.fixture
def pseudo_app(make_app, pseudo_catalogue):
    return make_app(config={"BABEL_TRANSLATION_DIRECTORIES": str(pseudo_catalogue)})


def test_the_pseudo_language_keeps_placeholders_and_marks_the_words():
    assert pseudo("Page {n} of %(total)s, see <a href=\"/x\">this</a>") == \
        "⟦Págé {n} óf %(total)s, šéé <a href=\"/x\">thíš</a>⟧"
    assert unmarked("⟦⟦Émáíl⟧: ⟦Ñót á váłíð⟧⟧ Ada", data=("Ada",)) == []
    assert unmarked("⟦Šávéð⟧ Saved") == ["Saved"]


PUBLIC_PAGES = ("/", "/login", "/register", "/forgot-password", "/resend-verification", "/reset-password?token=x",
                "/verify-email?token=x", "/verify-email", "/no-such-page")


def test_every_public_page_speaks_through_the_catalogue(pseudo_app):
    client = pseudo_app.test_client()
    found = {}
    for path in PUBLIC_PAGES:
        response = client.get(path, headers={"Accept-Language": "zh-CN"})
        assert response.status_code in (200, 404), path
        found[path] = problems(response.get_data(as_text=True))
    assert {path: words for path, words in found.items() if words} == {}


def _signed_in(app, make_user):
    user = make_user(name="Ada Lovelace")
    client = app.test_client()
    assert client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]}).status_code == 200
    assert client.put("/api/account", json={"preferences": {"language": "zh-cn"}}).status_code == 200
    return client, user


def test_every_signed_in_page_speaks_through_the_catalogue(pseudo_app, make_user):
    client, user = _signed_in(pseudo_app, make_user)
    templates = client.get("/api/templates").get_json()["data"]
    resume = client.post("/api/resumes", json={"title": "Résumé of Ada", "templateId": templates[0]["id"]})
    resume_id = resume.get_json()["data"]["id"]
    data = (user["name"], user["email"], "Résumé of Ada", *(t["name"] for t in templates))
    found = {}
    for path in ("/dashboard", "/dashboard?view=trash", f"/resumes/{resume_id}/edit", "/account", "/billing",
                 "/webhooks"):
        response = client.get(path)
        assert response.status_code == 200, path
        found[path] = problems(response.get_data(as_text=True), data)
    assert {path: words for path, words in found.items() if words} == {}


def _error_words(response, data: tuple[str, ...] = ()) -> list[str]:
    """The words of an error's ``error`` and of each message in ``details.errors`` (a VALIDATION_ERROR's
    every field) that did not pass through the catalogue."""
    body = response.get_json()
    details = body.get("details") or {}
    field = details.get("field")
    words = unmarked(body["error"], (*data, *([field] if field else [])))
    for path, message in (details.get("errors") or {}).items():
        words += unmarked(message, data)
    return words


def test_api_errors_speak_through_the_catalogue(pseudo_app, make_user):
    client, user = _signed_in(pseudo_app, make_user)
    anonymous = pseudo_app.test_client()
    zh = {"Accept-Language": "zh-CN"}
    templates = client.get("/api/templates").get_json()["data"]
    premium = next(t["id"] for t in templates if t["tier"] == "premium")
    resume = client.post("/api/resumes", json={"title": "x", "templateId": templates[0]["id"]}).get_json()["data"]
    answers = {  # what each asks, and the code it must answer
        "RESUME_NOT_FOUND": client.get("/api/resumes/0123456789abcdef01234567"),
        "VALIDATION_ERROR": client.post("/api/resumes", json={"title": 5}),
        "VALIDATION_ERROR (several fields, values in the messages)": anonymous.post(
            "/api/register", headers=zh, json={"email": 42, "name": "", "password": "x" * 5000, "extra": 1}),
        "VALIDATION_ERROR (a choice)": client.post(f"/api/resumes/{resume['id']}/generate", json={"kind": "poem"}),
        "INVALID_TEMPLATE": client.post("/api/resumes", json={"title": "x", "templateId": premium}),
        "NOT_FOUND": client.get("/api/no-such-thing"),
        "UNSUPPORTED_MEDIA_TYPE": client.post("/api/resumes", data="x", content_type="text/plain"),
        "WEAK_PASSWORD": anonymous.post("/api/register", headers=zh,
                                        json={"email": "w@example.com", "password": "short", "name": "W"}),
        "INVALID_CREDENTIALS": anonymous.post("/api/auth/signin", headers=zh,
                                              json={"email": "nobody@example.com", "password": "wrong-password-1"}),
        "UNAUTHENTICATED": anonymous.get("/api/resumes", headers=zh),
        "PLAN_UPGRADE_REQUIRED": client.post(f"/api/resumes/{resume['id']}/generate", json={"kind": "summary"}),
    }
    refused_target = client.post("/api/webhooks", json={"url": "http://user:secret@example.com/x",
                                                         "events": ["resume.updated"]})
    assert {name: response.get_json().get("code") for name, response in answers.items()
            if response.get_json().get("code") != name.split(" (")[0]} == {}
    answers["VALIDATION_ERROR (a webhook's address)"] = refused_target
    assert {name: response.get_data(as_text=True) for name, response in answers.items()
            if not (response.is_json and "error" in response.get_json())} == {}
    found = {name: _error_words(response) for name, response in answers.items()}
    assert {name: response.status_code for name, response in answers.items() if response.status_code < 400} == {}
    assert {name: words for name, words in found.items() if words} == {}


def test_mails_speak_through_the_catalogue(pseudo_app, mailbox):
    """The verification mail of someone who signed up from a Chinese (here: pseudo) browser, and the
    reset mail the same account asks for."""
    client = pseudo_app.test_client()
    zh = {"Accept-Language": "zh-CN"}
    body = {"email": "pseudo@example.com", "password": PASSWORD, "name": "Pseudo Person"}
    assert client.post("/api/register", json=body, headers=zh).status_code == 201
    client.post("/api/forgot-password", json={"email": body["email"]})
    data = (body["name"], body["email"], "http://localhost:5000")
    for mail in (mailbox.wait_for(body["email"]), mailbox.wait_for(body["email"], count=2)):
        assert unmarked(mail["Subject"]) == []
        assert [line for line in text_part(mail).splitlines() if unmarked(line, data)] == []
        assert problems(html_part(mail), data) == []


# ApiError(code, message), InvalidField(field, message), TargetRefused(message), marshmallow's
# ValidationError(message) and with_values(message, **values): the message a call names must be a msgid (a literal, or
# a name bound to one), with ``values`` (or ``with_values``) for what varies.
_MESSAGE_ARGUMENT = {"ApiError": 1, "InvalidField": 1, "TargetRefused": 0, "ValidationError": 0, "with_values": 0}


def test_no_error_message_is_built_where_the_catalogue_cannot_see_it():
    import ast

    built = []
    for path in sorted((i18n.TRANSLATIONS.parent).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in _MESSAGE_ARGUMENT:
                index = _MESSAGE_ARGUMENT[node.func.id]
                argument = node.args[index] if len(node.args) > index else None
                if argument is not None and any(isinstance(part, (ast.JoinedStr, ast.BinOp))
                                                for part in ast.walk(argument)):
                    built.append(f"{path.name}:{node.lineno}")
    assert built == []
