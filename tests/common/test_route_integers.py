"""Integers out of range in a path or a query string are a 404 or a 400, never a 500 (issue 32 point 6).

Every rule of the URL map that takes an argument is walked, each argument in turn given each value
below while the others name the signed-in owner's real resume, project, version, webhook, delivery and
share, so that the request goes as deep into the view as a real one would. Then every integer
parameter of an ``/api`` query string (found in the views' documented query schemas) is given the
same values. The database's columns end at 2**31 - 1 (PostgreSQL ``integer``) and 2**63 - 1 (SQLite);
a value past them that reached a query used to be a 500.
"""
from __future__ import annotations

import re

import pytest
from marshmallow import fields
from werkzeug.exceptions import NotFound
from werkzeug.routing import Map, Rule

from app.common.routing import BoundedIntegerConverter
from app.errors import STATUS
from app.resumes.models import ResumeImport

VALUES = {
    "2**31": str(2**31),
    "2**63": str(2**63),
    "minus-one": "-1",
    "1e9": "1e9",
    "full-width-zero": "\uff10",
    "forty-digits": "9" * 40,
}
# A valid body for each write whose view reads one, so that the path is looked up after the body is read.
BODIES = {
    "account.rename_passkey": {"name": "Laptop"},
    "resumes.update_resume": {"title": "Walked"},
    "ai.analyse_resume": {"jobDescription": "Backend engineer"},
    "ai.export_cover_letter": {"text": "Dear team,", "format": "pdf"},
    "resumes.export_resume": {"format": "pdf"},
    "ai.generate_content": {"kind": "summary"},
    "resumes.add_project": {"name": "Engine"},
    "resumes.update_project": {"name": "Engine"},
    "resumes.create_share": {"allowComments": True},
    "resumes.update_share": {"allowComments": True},
    "resumes.add_comment": {"name": "Grace", "text": "Nice work."},
    "webhooks.update_webhook": {"url": "http://127.0.0.1:9/hook", "events": ["resume.created"]},
    "webhooks.recover_deliveries": {"since": "2026-01-01T00:00:00Z"},
    "webhooks.rotate_secret": {},
}
JSON_RESUME = {"basics": {"name": "Ada Lovelace", "email": "ada@example.com", "summary": "Analyst."},
               "work": [{"name": "Difference Engine Society", "position": "Analyst", "startDate": "1842-01-01"}]}


@pytest.fixture
def real_values(app, client, owner, query):
    """A live value for every path argument: the owner's imported resume (which keeps an import report),
    its project and a version of it, a webhook and an entry of its log, a share that takes comments."""
    imported = client.post("/api/resumes/import", json={"jsonResume": JSON_RESUME})
    assert imported.status_code == 201, imported.get_json()
    resume_id = imported.get_json()["data"]["resume"]["id"]
    assert query(lambda session: session.get(ResumeImport, resume_id)) is not None  # its pages are looked up
    template_id = client.get("/api/templates").get_json()["data"][0]["id"]
    project = client.post(f"/api/resumes/{resume_id}/projects", json={"name": "Engine"})
    webhook = client.post("/api/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["resume.created"]})
    share = client.post(f"/api/resumes/{resume_id}/share", json={"allowComments": True})
    for response in (project, webhook, share):
        assert response.status_code == 201, response.get_json()
    assert client.put(f"/api/resumes/{resume_id}", json={"title": "Deeper"}).status_code == 200  # keeps a version
    version_id = client.get(f"/api/resumes/{resume_id}/versions").get_json()["data"][0]["id"]
    webhook_id = webhook.get_json()["data"]["id"]
    log = client.post(f"/api/webhooks/{webhook_id}/test")  # nobody listens on port 9
    assert log.status_code == 200, log.get_json()
    return {"resume_id": resume_id, "project_id": project.get_json()["data"]["id"], "version_id": version_id,
            "webhook_id": webhook_id, "log_id": log.get_json()["data"]["id"],
            "token": share.get_json()["data"]["token"], "template_id": template_id,
            "number": "1", "page": "1", "passkey_id": "0" * 24, "token_id": "0" * 24, "agent_id": "0" * 24,
            "provider": "github",
            "name": "font.ttf", "key": "exports/none.pdf", "filename": "app.css", "code": "fr"}


def path_of(rule, values: dict[str, str]) -> str:
    """The rule's path with ``values`` put in as they are (``rule.build`` would refuse what its converter
    would not match, which is what is under test)."""
    return re.sub(r"<(?:[^<>]*:)?(\w+)>", lambda match: values[match.group(1)], rule.rule)


def refusal_of(response) -> str | None:
    """What is wrong with ``response`` to an ``/api`` request given a bad value: None when it is a 4xx
    with the error envelope."""
    if not 400 <= response.status_code < 500:
        return f"{response.status_code} {response.get_data(as_text=True)[:200]}"
    body = response.get_json(silent=True)
    if response.mimetype != "application/json" or not isinstance(body, dict):
        return f"{response.status_code} without the JSON envelope: {response.get_data(as_text=True)[:200]}"
    if not ({"error", "code"} <= set(body) <= {"success", "error", "code", "details"}
            and body.get("success", False) is False and STATUS.get(body["code"]) == response.status_code):
        return f"{response.status_code} with a body that is not the envelope: {body}"
    return None


def argument_rules(app):
    """(rule, method) for every rule taking an argument, the reads first."""
    return sorted(((rule, method) for rule in app.url_map.iter_rules() if rule.arguments
                   for method in sorted(rule.methods - {"HEAD", "OPTIONS"})),
                  key=lambda item: (item[1] != "GET", item[0].rule, item[1]))


@pytest.mark.parametrize("value", list(VALUES.values()), ids=list(VALUES))
def test_an_out_of_range_path_argument_is_refused_on_every_route(app, client, real_values, value):
    failures, walked = [], 0
    for rule, method in argument_rules(app):
        missing = rule.arguments - set(real_values)
        assert not missing, f"give the test a value for {missing} ({rule.rule})"
        for argument in sorted(rule.arguments):
            path = path_of(rule, {**real_values, argument: value})
            body = BODIES.get(rule.endpoint)
            walked += 1
            response = client.open(path, method=method, json=body) if body is not None else \
                client.open(path, method=method)
            if rule.rule.startswith("/api/"):
                problem = refusal_of(response)
            else:
                problem = None if response.status_code < 500 else \
                    f"{response.status_code} {response.get_data(as_text=True)[:200]}"
            if problem:
                failures.append(f"{method} {path} ({argument}={value!r}): {problem}")
    assert walked >= 60
    assert not failures, "\n".join(failures)


def integer_query_parameters(app):
    """(rule, parameter) for every integer in a documented ``/api`` query schema."""
    found = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        schema = getattr(app.view_functions[rule.endpoint], "api_doc", {}).get("query")
        if schema is None or "GET" not in rule.methods:
            continue
        schema = schema() if isinstance(schema, type) else schema
        found += [(rule, name) for name, field in schema.fields.items() if isinstance(field, fields.Integer)]
    return found


@pytest.mark.parametrize("value", list(VALUES.values()), ids=list(VALUES))
def test_an_out_of_range_query_integer_is_a_validation_error(app, client, real_values, value):
    parameters = integer_query_parameters(app)
    assert {name for _rule, name in parameters} >= {"page", "limit"} and len(parameters) >= 9
    failures = []
    for rule, name in parameters:
        path = path_of(rule, real_values)
        response = client.get(path, query_string={name: value})
        if response.status_code == 200:
            continue
        problem = refusal_of(response)
        body = response.get_json(silent=True) or {}
        if problem is None and (response.status_code != 400 or body["code"] != "VALIDATION_ERROR"
                                or body.get("details", {}).get("field") != name):
            problem = f"{response.status_code} {body}"
        if problem:
            failures.append(f"GET {path}?{name}={value!r}: {problem}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("digits", ["\uff11", "\u0661", "1_0", "+1", " 1", "\u00b9"],
                         ids=["full-width", "arabic-indic", "underscore", "plus", "space", "superscript"])
def test_an_integer_is_written_in_ascii_digits_or_refused(client, real_values, digits):
    """Python's ``int`` reads "１", "١", "1_0", "+1" and " 1"; an address or a query string does not."""
    preview = f"/api/resumes/{real_values['resume_id']}/preview/%s.png"
    assert client.get(preview % "1").status_code == 200  # the resume has a page 1

    page = client.get(preview % digits)
    listed = client.get("/api/resumes", query_string={"page": digits})

    assert page.status_code == 404 and refusal_of(page) is None, (page.status_code, page.mimetype)
    assert listed.status_code == 400 and listed.get_json()["details"]["field"] == "page", listed.get_json()


def test_a_rule_cannot_widen_an_integer_past_what_the_database_holds():
    urls = Map([Rule("/signed/<int(signed=True):n>", endpoint="signed"),
                Rule("/wide/<int(max=1099511627776):n>", endpoint="wide")],
               converters={"int": BoundedIntegerConverter}).bind("localhost")

    assert urls.match(f"/signed/{-2**31}") == ("signed", {"n": -2**31})
    assert urls.match(f"/wide/{2**31 - 1}") == ("wide", {"n": 2**31 - 1})
    for path in (f"/signed/{-2**31 - 1}", f"/wide/{2**31}", "/signed/-\uff11"):
        with pytest.raises(NotFound):
            urls.match(path)
