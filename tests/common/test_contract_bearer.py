"""Generated requests with a bearer token: answered as the OpenAPI document says."""
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.core.parameters import ParameterLocation

from tests.common.contract import _node_id_for_schemathesis  # noqa: F401 (a fixture)


@pytest.fixture
def bearer_schema(app):
    """The document without schemathesis's coverage phase: the signed-in run (test_contract_signed_in.py)
    already walks every keyword's boundaries with the same validation behind it; this run checks that a
    bearer token reaches each endpoint and is answered as documented, from generated and example requests
    (the coverage phase's thousand-odd cases per large body tripled this file's time)."""
    loaded = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    loaded.config.phases.coverage.enabled = False
    return loaded


schema = schemathesis.pytest.from_fixture("bearer_schema")


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
