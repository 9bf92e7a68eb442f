import pytest


@pytest.fixture
def templates(client):
    """Shipped template ids by tier: {"basic": [...], "premium": [...]}."""
    items = client.get("/api/templates").get_json()["data"]
    return {tier: [t["id"] for t in items if t["tier"] == tier] for tier in ("basic", "premium")}


@pytest.fixture
def create(client, templates):
    """POST a resume as the signed-in client; returns the response."""

    def do_create(**fields):
        body = {"title": "Backend engineer", "templateId": templates["basic"][0], **fields}
        return client.post("/api/resumes", json=body)

    return do_create


@pytest.fixture
def resume_id(owner, create):
    response = create()
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]
