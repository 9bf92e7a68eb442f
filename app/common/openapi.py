"""The OpenAPI 3 document, built from the same marshmallow schemas the views use.

Views declare themselves with ``@api_doc(...)``; ``build_spec`` walks the URL map,
so an ``/api`` route without documentation is visible (tests fail on it).
"""
from __future__ import annotations

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask, current_app, jsonify
from marshmallow import Schema

from app.common.http import REQUEST_ID_PATTERN
from app.common.idempotency import HEADER_PARAMETER as IDEMPOTENCY_KEY_PARAMETER
from app.common.idempotency import REPLAYED_HEADER, REPLAYED_RESPONSE_HEADER
from app.common.schemas import ErrorSchema, MessageSchema, StrictBoolean, StrictInteger
from app.config import API_VERSION

_CONVERTER = re.compile(r"<(?:[a-z_]+:)?([a-z_]+)>")

# Set on every response by app.common.http.
RESPONSE_HEADERS = {
    "X-API-Version": {"description": "The API version that answered.", "required": True,
                      "schema": {"type": "string", "enum": [API_VERSION]}},
    "X-Request-ID": {"description": "The request's X-Request-ID when it was sane, else a generated one; "
                                    "quote it when reporting a problem.", "required": True,
                     "schema": {"type": "string", "pattern": f"^{REQUEST_ID_PATTERN}$"}},
}


def api_doc(summary: str, *, tags: list[str], body: Schema | None = None, form_body: Schema | None = None,
            responses: dict[int, tuple[str, Schema | dict | None]] | None = None, query: Schema | None = None,
            auth: bool = False, envelope: bool = True, list_meta: bool = False, operation: str | None = None,
            upload_body: dict | None = None, callbacks: dict | None = None):
    """Describe a view for the OpenAPI document.

    ``responses`` maps a status to (description, schema); with ``envelope`` a
    schema is wrapped in ``{"success", "data", "message"}``. Every operation
    also documents the error envelope as its ``default`` response. The
    operationId is ``<endpoint>.<METHOD>``; ``operation`` replaces the endpoint
    there, so that a view moved to another blueprint keeps the id clients know. ``upload_body`` is
    the JSON schema of a ``multipart/form-data`` body (a file upload). ``callbacks`` are the
    operation's OpenAPI callbacks (requests the service makes later, e.g. webhook deliveries).
    """

    def decorate(view):
        view.api_doc = dict(summary=summary, tags=tags, body=body, form_body=form_body, upload_body=upload_body,
                            responses=responses or {}, query=query, auth=auth, envelope=envelope,
                            list_meta=list_meta, operation=operation, callbacks=callbacks)
        return view

    return decorate


def _field_to_property(ma_plugin: MarshmallowPlugin):
    def strict_integer(self, field, **kwargs):
        return {"type": "integer"} if isinstance(field, StrictInteger) else {}

    def strict_boolean(self, field, **kwargs):
        return {"type": "boolean"} if isinstance(field, StrictBoolean) else {}

    ma_plugin.converter.add_attribute_function(strict_integer)
    ma_plugin.converter.add_attribute_function(strict_boolean)


def _envelope(spec: APISpec, schema, list_meta: bool) -> dict:
    data_ref = schema if isinstance(schema, dict) else spec.components.schemas.get(schema) or schema
    props = {"success": {"type": "boolean", "enum": [True]}, "message": {"type": "string"}}
    if schema is not None:
        props["data"] = data_ref
    if list_meta:
        props["meta"] = {"$ref": "#/components/schemas/PageMeta"}
    return {"type": "object",
            "required": ["success"] + (["data"] if schema is not None else []) + (["meta"] if list_meta else []),
            "properties": props}


def build_spec(app: Flask) -> dict:
    ma_plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Resume Service API",
        version=API_VERSION,
        openapi_version="3.0.3",
        plugins=[ma_plugin],
        info={"description": "Accounts, resumes, subscriptions and webhooks. Every response carries "
                             f"X-API-Version: {API_VERSION}."},
        servers=[{"url": app.config["BASE_URL"]}],
    )
    _field_to_property(ma_plugin)
    spec.components.security_scheme("session", {"type": "apiKey", "in": "cookie",
                                                "name": app.config["AUTH_COOKIE_NAME"]})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                                               "description": "An access token from POST /api/auth/token. "
                                                              "Each request counts toward apiRequestsLimit."})
    spec.components.schema("Error", schema=ErrorSchema)
    spec.components.schema("Message", schema=MessageSchema)
    spec.components.schema("PageMeta", {"type": "object", "properties": {
        k: {"type": "integer"} for k in ("total", "page", "limit", "totalPages")}})
    for name, header in RESPONSE_HEADERS.items():
        spec.components.header(name, header)
    common_headers = {name: {"$ref": f"#/components/headers/{name}"} for name in RESPONSE_HEADERS}
    error_response = {"description": "Error envelope", "headers": common_headers, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}

    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions.get(rule.endpoint)
        doc = getattr(view, "api_doc", None)
        if doc is None:
            continue
        path = _CONVERTER.sub(r"{\1}", rule.rule)
        operations = {}
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            op: dict = {"summary": doc["summary"], "tags": doc["tags"],
                        "operationId": f"{doc['operation'] or rule.endpoint}.{method}",
                        "responses": {"default": error_response}}
            # In the order the path names them (``rule.arguments`` is a set: its order changes between runs).
            params = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                      for name in _CONVERTER.findall(rule.rule)]
            if doc["query"] is not None:
                params.append({"in": "query", "schema": doc["query"]})
            if getattr(view, "idempotent", False):  # app.common.idempotency
                params.append(IDEMPOTENCY_KEY_PARAMETER)
            if params:
                op["parameters"] = params
            content = {}
            if doc["body"] is not None:
                content["application/json"] = {"schema": doc["body"]}
            if doc["form_body"] is not None:
                content["application/x-www-form-urlencoded"] = {"schema": doc["form_body"]}
            if doc["upload_body"] is not None:
                content["multipart/form-data"] = {"schema": doc["upload_body"]}
            if content:
                op["requestBody"] = {"required": True, "content": content}
            for status, (description, schema) in doc["responses"].items():
                response: dict = {"description": description, "headers": dict(common_headers)}
                if status in (301, 302, 303, 307):
                    response["headers"]["Location"] = {"required": True, "schema": {"type": "string"}}
                elif status != 304 and (schema is not None or doc["envelope"]):  # a 304 has no body
                    body = _envelope(spec, schema, list_meta=doc["list_meta"]) if doc["envelope"] else schema
                    response["content"] = {"application/json": {"schema": body}}
                if getattr(view, "idempotent", False):
                    response["headers"][REPLAYED_HEADER] = REPLAYED_RESPONSE_HEADER
                op["responses"][str(status)] = response
            if doc["auth"]:
                op["security"] = [{"session": []}, {"bearer": []}]  # either one
            if doc["callbacks"]:
                op["callbacks"] = doc["callbacks"]
            operations[method.lower()] = op
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def register_openapi(app: Flask) -> None:
    """Serve the document at ``GET /api/openapi.json`` (built once per app)."""

    @api_doc("This OpenAPI document", tags=["meta"], envelope=False, responses={200: ("OpenAPI 3 document", None)})
    def openapi_document():
        spec = current_app.extensions.get("openapi_spec")
        if spec is None:
            spec = current_app.extensions["openapi_spec"] = build_spec(current_app)
        return jsonify(spec)

    app.add_url_rule("/api/openapi.json", "openapi", openapi_document, methods=["GET"])
