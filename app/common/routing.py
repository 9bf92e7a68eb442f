"""The URL map's converters: what an integer in an address may be.

Werkzeug's ``<int:...>`` reads any run of Unicode digits with Python's ``int``: "１" (full-width) and
"١" (Arabic-Indic) are page 1 under a second address, and a page number of 40 digits reached the
database, which cannot hold it (PostgreSQL's ``integer`` ends at 2**31 - 1, SQLite's at 2**63 - 1):
a 500. Here ``int`` is ASCII digits only, within what an ``integer`` column holds; anything else does
not match the rule, so it is the router's 404 like any other address that names nothing.
"""
from __future__ import annotations

import builtins

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

from app.common.schemas import INTEGER_MAX, INTEGER_MIN


class BoundedIntegerConverter(IntegerConverter):
    """``<int:...>``, ``<int(min=1):...>``, ``<int(signed=True):...>``: as Werkzeug's, but ASCII digits
    only and never past an ``integer`` column's range, whatever ``min`` and ``max`` the rule gives."""

    regex = r"[0-9]+"
    signed_regex = r"-?[0-9]+"

    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = None,
                 signed: bool = False) -> None:
        # (``min`` and ``max`` are named as Werkzeug names them, hiding the built-ins)
        super().__init__(map, fixed_digits, INTEGER_MIN if min is None else builtins.max(min, INTEGER_MIN),
                         INTEGER_MAX if max is None else builtins.min(max, INTEGER_MAX), signed)


def init_app(app: Flask) -> None:
    """Before the blueprints: a rule reads its converters when it is added."""
    app.url_map.converters["int"] = BoundedIntegerConverter
