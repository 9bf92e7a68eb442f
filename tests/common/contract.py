"""What the contract tests share (test_openapi.py, test_contract_signed_in.py, test_contract_bearer.py):
schemathesis's view of the app's own OpenAPI document. The generated requests are split over three
files so that ``--dist loadfile`` can give them to different pytest-xdist workers: together they are
the slowest part of the suite."""
import pytest
import schemathesis


@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request):
    # schemathesis 4.32's lazy loader reads Node._nodeid, which pytest 9 no longer has.
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid
