"""Webhooks endpoints (built by their own issue)."""
from flask import Blueprint

bp = Blueprint("webhooks", __name__, url_prefix="/api")
