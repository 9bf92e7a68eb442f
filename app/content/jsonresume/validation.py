"""What the content schema refuses of a JSON Resume document's values is dropped, and reported by
the JSON Resume path it came from, so that one bad field never fails an import."""
from __future__ import annotations

from typing import Any

from marshmallow import fields as ma_fields, validate

from app.content.jsonresume.terms import FIELD, NotJsonResume
from app.content.schema import ContentSchema


def _field_at(path: tuple):
    """The marshmallow field of ContentSchema at ``path`` (our keys and list indexes)."""
    field = ma_fields.Nested(ContentSchema)
    for key in path:
        if isinstance(field, ma_fields.List):
            field = field.inner
        if isinstance(key, int):
            continue
        if isinstance(field, ma_fields.Nested):
            field = field.schema.fields[key]
        else:  # pragma: no cover - a path the content does not have
            return None
    return field


def _max_items(path: tuple) -> int:
    field = _field_at(path)
    limits = [v.max for v in getattr(field, "validators", ()) if isinstance(v, validate.Length) and v.max]
    return min(limits) if limits else 0


def _leaves(errors: Any, path: tuple = ()):
    """The paths of marshmallow's nested error messages (``_schema`` errors belong to their parent)."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            yield from _leaves(value, path if key == "_schema" else path + (key,))
    else:
        yield path


def _origin(reader, path: tuple) -> str:
    for end in range(len(path), 0, -1):
        if path[:end] in reader.origin:
            return reader.origin[path[:end]]
    return FIELD


def _remove(content: dict, path: tuple, reader) -> None:
    """Take the refused value at ``path`` out of ``content`` and report where it came from."""
    parent: Any = content
    for key in path[:-1]:
        parent = parent[key] if isinstance(parent, (dict, list)) else None
        if parent is None:      # inside a value already taken out in this pass
            return
    key = path[-1]
    value = parent[key]
    limit = _max_items(path) if isinstance(value, list) else 0
    if limit and len(value) > limit:    # too many entries: the ones past the limit go
        for index in range(limit, len(value)):
            reader.drop(_origin(reader, path + (index,)))
        del value[limit:]
        return
    reader.drop(_origin(reader, path))
    if isinstance(parent, list):
        parent[key] = None              # removed after the pass, so the other indexes stay valid
    else:
        del parent[key]                 # normalising gives it back empty


def _prune(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _prune(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_prune(v) for v in value if v is not None]
    return value


def validated(content: dict, reader) -> dict:
    """``content`` less what ContentSchema refuses, each refusal reported through ``reader`` (the
    reading's ``_Reader``: its ``origin`` paths and ``drop``). Raises NotJsonResume."""
    for _ in range(10):     # a removal can only uncover a check that depends on it (endDate after startDate)
        errors = ContentSchema().validate(content)
        if not errors:
            return content
        for path in sorted(set(_leaves(errors)), key=len):     # outer values first
            _remove(content, path, reader)
        content = _prune(content)
    raise NotJsonResume("jsonResume: the document could not be read.")
