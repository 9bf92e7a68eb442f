"""Generated requests with a signed-in session: answered as the OpenAPI document says."""
import pytest
from hypothesis import HealthCheck, settings
from schemathesis.core.parameters import ParameterLocation

from tests.common.contract import _node_id_for_schemathesis, api_schema, schema  # noqa: F401 (fixtures)


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
