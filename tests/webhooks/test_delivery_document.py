"""The OpenAPI document describes a delivery (a callback of POST /api/webhooks): its headers, as a real
receiver gets them, rotation's two signatures included."""
import re

from tests.webhooks import test_webhooks as shared
from tests.webhooks.test_webhooks import create_resume

receiver, hook = shared.receiver, shared.hook  # the fixtures
HEADERS = ["X-Service-Timestamp", "X-Service-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]


def delivery_operation(client) -> dict:
    document = client.get("/api/openapi.json").get_json()
    [callback] = document["paths"]["/api/webhooks"]["post"]["callbacks"].values()
    return callback["{$request.body#/url}"]["post"]


def test_the_document_describes_the_headers_of_a_delivery(client):
    operation = delivery_operation(client)
    documented = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
    assert set(HEADERS) <= set(documented) and all(documented[name]["required"] for name in HEADERS)
    assert "rotation" in documented["webhook-signature"]["description"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["id", "type", "created", "data", "api_version"]


def test_a_delivery_during_a_rotation_has_the_documented_headers(client, hook, receiver):
    assert client.post(f"/api/webhooks/{hook['id']}/rotate-secret").status_code == 200
    create_resume(client)
    [request] = receiver.wait_for(1)
    for parameter in delivery_operation(client)["parameters"]:
        value = request["headers"][parameter["name"].lower()]
        assert re.fullmatch(parameter["schema"].get("pattern", ".+").strip("^$"), value), parameter["name"]
