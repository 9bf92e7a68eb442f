"""Keep of a parsed resume what ``ContentSchema`` accepts, value by value, and name the rest.

A parser reads what a document prints, which can be longer than a field allows, a web address our
URL check refuses, more entries than a section holds, or an end before its start. Rather than fail
the import, each such value is left out and its path ("workExperience.2.url", "skills.104") is
listed as dropped. The walk follows the schema's fields: a nested record field by field, then the
record's own checks (an end before its start drops ``endDate``); a list past its length keeps its
first items.
"""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from app.content.schema import ContentSchema


def keep_valid(content: dict) -> tuple[dict, list[str]]:
    """``content`` with only what ``ContentSchema`` accepts, and the paths of what was left out."""
    dropped: list[str] = []
    return _record(ContentSchema(), content, "", dropped), dropped


def _path(prefix: str, key) -> str:
    return f"{prefix}.{key}" if prefix else str(key)


def _record(schema: Schema, record: dict, prefix: str, dropped: list[str]) -> dict:
    kept = {}
    for key, value in record.items():
        field = schema.fields.get(key)
        if field is None:
            dropped.append(_path(prefix, key))
            continue
        result = _value(field, value, _path(prefix, key), dropped)
        if result is not _DROPPED:
            kept[key] = result
    for key in schema.validate(kept):     # the record's own checks, once its fields pass
        if key in kept and key != "_schema":
            dropped.append(_path(prefix, key))
            del kept[key]
    return kept


_DROPPED = object()


def _max_items(field) -> int | None:
    limits = [v.max for v in field.validators if isinstance(v, validate.Length) and v.max is not None]
    return min(limits) if limits else None


def _value(field, value, path: str, dropped: list[str]):
    if isinstance(field, fields.Nested):
        if not isinstance(value, dict):
            dropped.append(path)
            return _DROPPED
        return _record(field.schema, value, path, dropped)
    if isinstance(field, fields.List):
        if not isinstance(value, list):
            dropped.append(path)
            return _DROPPED
        limit = _max_items(field)
        items = []
        for index, item in enumerate(value):
            if limit is not None and len(items) >= limit:
                dropped.append(_path(path, index))
                continue
            result = _value(field.inner, item, _path(path, index), dropped)
            if result is not _DROPPED:
                items.append(result)
        return items
    try:
        field.deserialize(value)
    except ValidationError:
        dropped.append(path)
        return _DROPPED
    return value
