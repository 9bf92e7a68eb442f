"""Configuration from environment variables: production refuses to start without a
SECRET_KEY, the embedded default needs nothing, and a production app trusts one proxy."""
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask_migrate import upgrade

from app.config import ConfigError, config_for
from app.integrations.mail import LogMailer
from tests.support import PASSWORD

ROOT = Path(__file__).resolve().parent.parent


def test_production_without_secret_key_refuses_to_start_with_a_clear_message():
    with pytest.raises(ConfigError, match="SECRET_KEY is not set"):
        config_for("production", {"DATABASE_URL": "postgresql://db.example.com/app"})


def test_importing_wsgi_without_secret_key_exits_with_the_message():
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "APP_ENV", "FLASK_APP"}}

    result = subprocess.run([sys.executable, "-c", "import wsgi"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)

    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


@pytest.fixture
def instance_dir(tmp_path, monkeypatch):
    """Where Flask puts an app's instance folder, moved out of the repository for the test."""
    instance = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(instance))
    return instance


def test_with_no_variables_the_app_runs_embedded_on_sqlite_under_instance(instance_dir, make_app):
    app = make_app("development", env={})

    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance_dir / 'app.db'}"
    assert app.config["STORAGE_DIR"] == str(instance_dir / "storage")
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert app.extensions["jobs"].embedded
    assert isinstance(app.extensions["mailer"], LogMailer)
    assert app.config["BASE_URL"] == "http://localhost:5000"
    assert not app.config["TESTING"]
    with app.app_context():
        upgrade()
    assert (instance_dir / "app.db").is_file()
    assert app.test_client().get("/readyz").status_code == 200


def test_make_run_serves_on_the_default_base_urls_host_and_port():
    # Signed in at another host than BASE_URL's, a browser is redirected to BASE_URL's host, has
    # no cookie there and looks signed out: the address `make run` serves on and prints must be it.
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.MULTILINE).group(1)
    serve = next(line for line in recipe.splitlines() if "--port" in line)  # uvicorn: the app and the MCP server
    host = re.search(r"--host[ =](\S+)", serve).group(1)
    port = int(re.search(r"--port[ =](\d+)", serve).group(1))

    default = urlsplit(config_for("development", {})["BASE_URL"])

    assert (host, port) == (default.hostname, default.port)


def test_the_development_secret_key_is_kept_under_instance_across_restarts(instance_dir, make_app):
    first = make_app("development", env={})
    second = make_app("development", env={})

    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    assert (instance_dir / "secret_key").read_text().strip() == first.config["SECRET_KEY"]
    assert (instance_dir / "secret_key").stat().st_mode & 0o077 == 0


def test_a_fully_configured_app_writes_nothing_under_instance(instance_dir, make_app):
    make_app("production", APP_ENV=None)

    assert not instance_dir.exists()


@pytest.mark.parametrize("url", ["postgres://u:p@db.example.com:5432/app", "postgresql://u:p@db.example.com:5432/app"])
def test_postgres_urls_use_the_psycopg_driver(url):
    cfg = config_for("production", {"SECRET_KEY": "x" * 40, "DATABASE_URL": url})

    assert cfg["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u:p@db.example.com:5432/app"


def test_mail_tls_and_ssl_together_are_refused():
    with pytest.raises(ConfigError, match="MAIL_USE_TLS and MAIL_USE_SSL"):
        config_for("development", {"MAIL_SERVER": "smtp.example.com", "MAIL_USE_TLS": "true", "MAIL_USE_SSL": "1"})


@pytest.mark.parametrize("name, value", [("MAIL_PORT", "smtp"), ("TRUSTED_PROXIES", "one"),
                                         ("EDITOR_FRESHNESS_SECONDS", "half a minute")])
def test_a_number_that_is_not_a_number_is_refused_naming_the_variable(name, value):
    with pytest.raises(ConfigError, match=name):
        config_for("development", {name: value})


def test_the_editors_check_of_its_copy_runs_every_30_s_unless_set_and_never_every_0_s():
    assert config_for("development", {})["EDITOR_FRESHNESS_SECONDS"] == 30
    assert config_for("development", {"EDITOR_FRESHNESS_SECONDS": "0.5"})["EDITOR_FRESHNESS_SECONDS"] == 0.5
    for value in ("0", "-1"):
        with pytest.raises(ConfigError, match="EDITOR_FRESHNESS_SECONDS must be a positive number"):
            config_for("development", {"EDITOR_FRESHNESS_SECONDS": value})


def sign_in(app, user, **headers):
    return app.test_client().post("/api/auth/signin", json={"email": user["email"], "password": user["password"]},
                                  headers=headers)


def session_cookie(response) -> str:
    (cookie,) = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("sid=")]
    return cookie


def test_behind_its_https_proxy_a_production_app_sets_a_secure_session_cookie(make_app, make_user):
    production = make_app("production", APP_ENV=None)
    user = make_user(password=PASSWORD)

    over_https = sign_in(production, user, **{"X-Forwarded-Proto": "https"})
    over_http = sign_in(production, user)

    assert over_https.status_code == over_http.status_code == 200
    assert "Secure" in session_cookie(over_https).split("; ")
    assert "Secure" not in session_cookie(over_http).split("; ")
    assert {"HttpOnly", "SameSite=Lax"} <= set(session_cookie(over_https).split("; "))


def test_an_app_with_no_trusted_proxy_ignores_forwarded_headers(make_app, make_user):
    development = make_app("development", APP_ENV=None)
    user = make_user(password=PASSWORD)

    response = sign_in(development, user, **{"X-Forwarded-Proto": "https"})

    assert response.status_code == 200
    assert "Secure" not in session_cookie(response).split("; ")
