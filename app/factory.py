"""The application factory: config → extensions → integrations → blueprints → error handlers → CLI."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from app import i18n, queue
from app.account.agent_views import bp as account_agents_bp
from app.agents.views import bp as agents_bp
from app.account.token_views import bp as account_tokens_bp
from app.account.views import bp as account_bp
from app.ai import import_reading
from app.ai.views import bp as ai_bp
from app.auth import oauth as oauth_providers, sessions
from app.auth.sudo_views import bp as reauth_bp
from app.auth.views import bp as auth_bp
from app.billing.views import bp as billing_bp
from app.cli import register_cli
from app.common import connections, outage, routing
from app.common.error_responses import register_error_handlers
from app.common.http import JSONProvider, configure_logging, install_request_hooks
from app.common.models import Clock, render_migration_item
from app.common.openapi import register_openapi
from app.config import config_for
from app.extensions import db, limiter, migrate, oauth
from app.integrations import mail, storage
from app.pages import (  # noqa: F401  (the signed-in app's pages)
    account_pages as _account_pages, billing_pages as _billing_pages, dashboard as _dashboard,
    editor as _editor, webhook_pages as _webhook_pages,
)
from app.pages import files as _file_pages, payments as _payment_pages, share as _share_pages  # noqa: F401
from app.pages.views import bp as pages_bp  # (the modules above add their routes to it)
from app.queue import request_connection_options
from app.resumes import imports
from app.pictures.views import bp as pictures_bp
from app.resumes.views import bp as resumes_bp
from app.webhooks.views import bp as webhooks_bp
from app.worker import WorkerProcess

MIGRATIONS_DIR = str(Path(__file__).resolve().parent.parent / "migrations")


def create_app(config: str | dict | None = None) -> Flask:
    """Build the app: config → extensions → integrations → blueprints → error handlers → CLI.

    ``config`` is a configuration name (development, production, testing; default
    from ``APP_ENV``) or a complete settings dict from ``config_for``.
    """
    # Named for the package, as before the factory had a module of its own: the root path (templates,
    # static files), the instance folder and the log's name follow from it.
    app = Flask("app", instance_relative_config=True)
    app.config.update(config if isinstance(config, dict) else config_for(config))
    _apply_embedded_defaults(app)
    app.json = JSONProvider(app)  # a body nested too deep for the decoder is malformed JSON (400), not a 500
    app.json.sort_keys = False  # envelopes read success, data, message in that order
    if app.config["TRUSTED_PROXIES"]:
        n = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_port=n)

    app.extensions["clock"] = Clock()
    configure_logging(app)
    # Before the limiter: our before-request checks (request id, 413, 415) run first,
    # and our after-request hook runs after the limiter's header injection.
    install_request_hooks(app)
    sessions.load_user_before_limits(app)  # so a database error is a 503, not the limiter's "storage outage"
    db.init_app(app)
    outage.init_app(app)  # after db, before the limiter; its WSGI backstop wraps ProxyFix
    connections.init_app(app)  # after db: the pool's check of its connections on PostgreSQL
    migrate.init_app(app, db, directory=MIGRATIONS_DIR, compare_type=True, render_item=render_migration_item)
    limiter.init_app(app)
    oauth.init_app(app)

    sessions.init_app(app)
    i18n.init_app(app)
    oauth_providers.init_app(app)
    queue.init_app(app, embedded_worker=lambda built: WorkerProcess(built, embedded=True))
    mail.init_app(app)
    storage.init_app(app)
    imports.init_app(app, assist=import_reading.assist)  # the AI-assisted reading (``ai`` sits above ``resumes``)

    routing.init_app(app)  # before the blueprints: ``<int:...>`` within what the database holds
    for blueprint in (auth_bp, reauth_bp, resumes_bp, pictures_bp, ai_bp, account_bp, account_tokens_bp,
                      account_agents_bp, agents_bp, billing_bp, webhooks_bp, pages_bp):
        app.register_blueprint(blueprint)

    register_openapi(app)
    register_error_handlers(app)
    register_cli(app)
    return app


def _apply_embedded_defaults(app: Flask) -> None:
    """Fill what the environment left out with the embedded default under ``instance/``.

    Only a default creates ``instance/``: a configured app may run on a read-only disk.
    """
    instance = Path(app.instance_path)
    cfg = app.config
    if not cfg["SQLALCHEMY_DATABASE_URI"]:
        instance.mkdir(parents=True, exist_ok=True)
        cfg["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'app.db'}"
    if not cfg["STORAGE_DIR"]:
        cfg["STORAGE_DIR"] = str(instance / "storage")
    if not cfg["SECRET_KEY"]:
        # Development only (production refuses to start without one): keep a key
        # under instance/ so that sessions survive a restart.
        instance.mkdir(parents=True, exist_ok=True)
        key_file = instance / "secret_key"
        if not key_file.exists():
            key_file.write_text(secrets.token_urlsafe(48))
            os.chmod(key_file, 0o600)
        cfg["SECRET_KEY"] = key_file.read_text().strip()
    cfg["RATELIMIT_STORAGE_URI"] = cfg["REDIS_URL"] or "memory://"
    if cfg["REDIS_URL"]:
        # A frozen Redis costs a request one short wait, then the limiter counts in memory until it answers.
        cfg.setdefault("RATELIMIT_STORAGE_OPTIONS", request_connection_options(cfg))
    cfg.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # a Redis outage must not take the API down
    cfg.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
