"""GET /api/openapi.json: a valid OpenAPI 3 document that covers every /api route, and that the
app keeps: schemathesis generates requests from it and checks every answer against it."""
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.core.parameters import ParameterLocation

from app.config import API_VERSION

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@pytest.fixture
def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def test_openapi_document_is_valid_openapi_3(document):
    validate(document)

    assert re.fullmatch(r"3\.\d+\.\d+", document["openapi"])
    assert document["info"]["title"] and document["info"]["version"] == API_VERSION
    assert document["paths"]
    for path, operations in document["paths"].items():
        assert path.startswith("/api/")
        for method, operation in operations.items():
            assert method in HTTP_METHODS
            assert operation["responses"] and operation["summary"]
            for status, response in operation["responses"].items():
                assert status == "default" or re.fullmatch(r"[1-5]\d\d", status)
                assert response["description"]
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    assert parameter["required"] is True and f"{{{parameter['name']}}}" in path


def test_every_reference_in_the_document_resolves(document):
    def refs(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from refs(value)
        elif isinstance(node, list):
            for item in node:
                yield from refs(item)

    found = set(refs(document))
    assert found
    for ref in found:
        assert ref.startswith("#/components/")
        node = document
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        assert isinstance(node, dict) and node


def test_operation_ids_are_unique(document):
    ids = [op["operationId"] for ops in document["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))


def test_every_api_route_is_documented_with_each_of_its_methods(app, document):
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if method.lower() not in document["paths"].get(path, {}):
                missing.append(f"{method} {path}")
    assert missing == []


def test_every_operation_documents_the_error_envelope(document):
    error = document["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"error", "code"}
    assert set(error["properties"]) == {"error", "code", "details"}
    for operations in document["paths"].values():
        for operation in operations.values():
            default = operation["responses"]["default"]
            assert default["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_every_response_documents_the_version_and_request_id_headers(document):
    headers = document["components"]["headers"]
    assert headers["X-API-Version"]["schema"]["enum"] == [API_VERSION]
    assert headers["X-API-Version"]["required"] and headers["X-Request-ID"]["required"]
    for operations in document["paths"].values():
        for operation in operations.values():
            for response in operation["responses"].values():
                assert response["headers"]["X-API-Version"] == {"$ref": "#/components/headers/X-API-Version"}
                assert response["headers"]["X-Request-ID"] == {"$ref": "#/components/headers/X-Request-ID"}


def test_passwords_are_write_only_in_the_document(document):
    for name, schema in document["components"]["schemas"].items():
        for field, prop in schema.get("properties", {}).items():
            if field.lower().endswith("password") and not field.startswith("has"):  # hasPassword is a flag
                assert prop.get("writeOnly") is True, f"{name}.{field}"


def test_document_is_served_with_the_api_version(client):
    response = client.get("/api/openapi.json")
    assert response.headers["X-API-Version"] == API_VERSION


# -- the app keeps the document ------------------------------------------------------------------


@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request):
    # schemathesis 4.32's lazy loader reads Node._nodeid, which pytest 9 no longer has.
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


@pytest.mark.contract  # thousands of requests: CI runs them in one pass (.ci/run)
@schema.parametrize()
@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_app_answers_as_its_openapi_document_says(case):
    from schemathesis import checks

    from app.extensions import limiter

    limiter.reset()  # each case starts afresh, as each test does: 429s would hide the endpoints

    # Schema-valid data may still break a business rule (a taken email is 400 by contract).
    excluded = [checks.positive_data_acceptance]
    if case.media_type == "application/x-www-form-urlencoded":
        # A browser form post answers every failure with a redirect to the form (decisions §3).
        excluded.append(checks.negative_data_rejection)
    case.call_and_validate(excluded_checks=excluded)


@pytest.fixture
def session_cookie(app, make_user):
    """A signed-in user's ``sid``, so generated requests reach the protected endpoints' logic."""
    user = make_user()
    response = app.test_client().post("/api/auth/signin", json={"email": user["email"],
                                                                "password": user["password"]})
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("sid=")]
    return header.split(";")[0].split("=", 1)[1]


@pytest.mark.contract  # thousands of requests: CI runs them in one pass (.ci/run)
@schema.parametrize()
@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_signed_in_requests_are_answered_as_the_document_says(case, session_cookie):
    from schemathesis import checks

    from app.extensions import limiter

    limiter.reset()
    if case.path == "/api/auth/signout":
        return  # it would end the session the other cases need
    if case.meta is not None and case.meta.is_negative_at(ParameterLocation.COOKIE):
        return  # a case about a broken session cookie: ours would replace it
    # ignored_auth expects a 401 for the auth it generates, but we send a real session on purpose
    # (the anonymous run above checks that protected endpoints refuse requests without one).
    excluded = [checks.positive_data_acceptance, checks.ignored_auth]
    if case.media_type == "application/x-www-form-urlencoded":
        excluded.append(checks.negative_data_rejection)
    # The bearer scheme's placeholder (an empty token) would be refused before the cookie is looked at.
    (case.headers or {}).pop("Authorization", None)
    response = case.call_and_validate(cookies={"sid": session_cookie}, excluded_checks=excluded)
    if case.path.startswith("/api/resumes"):
        assert response.status_code != 401, "the session cookie did not reach the endpoint"


@pytest.fixture
def access_token(app, make_user, query):
    """A bearer token of an ENTERPRISE user (no API request limit), for the same run with a token."""
    from app.billing.models import Subscription

    user = make_user()

    def unlimited(session):
        session.query(Subscription).filter_by(user_id=user["id"]).update({"type": "ENTERPRISE"})
        session.commit()

    query(unlimited)
    response = app.test_client().post("/api/auth/token", json={"grant_type": "password", "email": user["email"],
                                                               "password": user["password"]})
    return response.get_json()["access_token"]


@pytest.mark.contract  # thousands of requests: CI runs them in one pass (.ci/run)
@schema.parametrize()
@settings(max_examples=5, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_bearer_requests_are_answered_as_the_document_says(case, access_token):
    from schemathesis import checks

    from app.extensions import limiter

    limiter.reset()
    if case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER):
        return  # a case about a broken Authorization header: ours would replace it
    excluded = [checks.positive_data_acceptance, checks.ignored_auth]
    if case.media_type == "application/x-www-form-urlencoded":
        excluded.append(checks.negative_data_rejection)
    (case.cookies or {}).pop("sid", None)
    response = case.call_and_validate(headers={"Authorization": f"Bearer {access_token}"},
                                      excluded_checks=excluded)
    if case.path.startswith("/api/resumes"):
        assert response.status_code != 401, "the bearer token did not reach the endpoint"
