"""Stored files served by the app under ``/files``, from either storage backend (local or S3).

``STORAGE_URL`` defaults to ``{BASE_URL}/files``, which is this route. Each
address carries a signed, expiring token; errors are answered in the JSON
envelope, since API clients follow these addresses.
"""
from __future__ import annotations

import io

from flask import request, send_file

from app.common.negotiation import json_errors
from app.pages.views import bp
from app.resumes import exports


@bp.get("/files/<path:key>")
@json_errors
def download(key: str):
    content, filename, media_type = exports.open_download(key, request.args.get("token", ""))
    response = send_file(io.BytesIO(content), as_attachment=True, download_name=filename, max_age=0)
    # Set as a whole: ``send_file(mimetype=...)`` appends a charset to a media type that already names one.
    response.content_type = media_type
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
