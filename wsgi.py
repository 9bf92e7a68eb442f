"""The production entry point: ``gunicorn wsgi:app``; also found by ``flask`` (release, worker)."""
from app import create_app
from app.config import ConfigError

try:
    app = create_app("production")
except ConfigError as exc:
    raise SystemExit(f"Cannot start: {exc}") from None
