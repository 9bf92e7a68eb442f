"""Resumes endpoints (built by their own issue)."""
from flask import Blueprint

bp = Blueprint("resumes", __name__, url_prefix="/api")
