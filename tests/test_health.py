"""/healthz (the process answers) and /readyz (its database and Redis answer)."""
import pytest

UNREACHABLE_DATABASE = "postgresql://127.0.0.1:1/none"
UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


def test_healthz_answers_200(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_readyz_answers_200_when_the_database_and_configured_redis_answer(app, client):
    response = client.get("/readyz")

    assert response.status_code == 200
    expected = {"database": "ok", **({"redis": "ok"} if app.config["REDIS_URL"] else {})}
    assert response.get_json() == {"status": "ok", "checks": expected}


@pytest.mark.parametrize("variables, down", [
    ({"DATABASE_URL": UNREACHABLE_DATABASE}, "database"),
    ({"REDIS_URL": UNREACHABLE_REDIS}, "redis"),
    ({"DATABASE_URL": UNREACHABLE_DATABASE, "REDIS_URL": UNREACHABLE_REDIS}, "database and redis"),
])
def test_readyz_answers_503_naming_what_is_unreachable(make_app, variables, down):
    app = make_app(**variables)

    response = app.test_client().get("/readyz")

    assert response.status_code == 503
    body = response.get_json()
    assert body["status"] == "unavailable"
    for name in ("database", "redis"):
        if name in down:
            assert body["checks"][name] == "unavailable"
        elif name in body["checks"]:
            assert body["checks"][name] == "ok"


def test_healthz_answers_200_while_the_database_is_unreachable(make_app):
    app = make_app(DATABASE_URL=UNREACHABLE_DATABASE)

    assert app.test_client().get("/healthz").status_code == 200
