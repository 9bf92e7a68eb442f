"""The production entry point: ``gunicorn wsgi:app``; also found by ``flask`` (release, worker)."""
from app import create_app

app = create_app("production")
