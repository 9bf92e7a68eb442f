"""GET /api/openapi.json: a valid OpenAPI 3 document that covers every /api route, and that the
app keeps: schemathesis generates requests from it and checks every answer against it (here without
credentials; with a session and with a bearer token in test_contract_signed_in.py and
test_contract_bearer.py)."""
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate

from tests.common.contract import _node_id_for_schemathesis  # noqa: F401 (a fixture)

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
    for name, component in document["components"]["schemas"].items():
        for field, prop in component.get("properties", {}).items():
            if field.lower().endswith("password") and not field.startswith("has"):  # hasPassword is a flag
                assert prop.get("writeOnly") is True, f"{name}.{field}"


def test_document_is_served_with_the_api_version(client):
    response = client.get("/api/openapi.json")
    assert response.headers["X-API-Version"] == API_VERSION


# -- the app keeps the document ------------------------------------------------------------------


@pytest.fixture
def anonymous_schema(app):
    """The document without schemathesis's coverage phase: without credentials, every protected endpoint
    answers 401 before it reads its input, so walking each keyword's boundaries there tests nothing; the
    signed-in run (test_contract_signed_in.py) walks them, public endpoints included, with the same
    validation behind them. This run checks every endpoint's answer without credentials, from generated
    and example requests."""
    loaded = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    loaded.config.phases.coverage.enabled = False
    return loaded


schema = schemathesis.pytest.from_fixture("anonymous_schema")


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
