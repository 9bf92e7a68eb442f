"""The baseline of bench/api.py: a bare Flask app that answers a constant JSON.

Served by gunicorn beside the real app (``gunicorn bench.bare:app``, same
settings). ``BENCH_BARE_BODY`` names a JSON file holding the body to answer
with: bench/api.py writes there the real app's answer to the same request, so
both send the same bytes and the difference is the work the app does.
"""
from __future__ import annotations

import json
import os

from flask import Flask, jsonify

app = Flask(__name__)
app.json.sort_keys = False  # as the real app: no per-request key sorting

with open(os.environ["BENCH_BARE_BODY"], encoding="utf-8") as f:
    BODY = json.load(f)


@app.get("/api/resumes")
def resumes():
    return jsonify(BODY)
