"""Account endpoints (built by their own issue)."""
from flask import Blueprint

bp = Blueprint("account", __name__, url_prefix="/api")
