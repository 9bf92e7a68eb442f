"""Keep of a parsed resume what ``ContentSchema`` accepts, value by value, and name the rest.

A parser reads what a document prints, which can be longer than a field allows, a web address our
URL check refuses, more entries than a section holds, or an end before its start. Rather than fail
the import, each such value is left out and its path ("workExperience.2.url", "skills.104") is
listed as dropped. The walk follows the schema's fields: a nested record field by field, then the
record's own checks (an end before its start drops ``endDate``); a list past its length keeps its
first items.

Text longer than its field allows is not dropped but cut (``cut_to_fit``): at the last sentence end
that fits, else the last space, and the rest is handed back to be shown to the user, who decides
where it goes.
"""
from __future__ import annotations

import re

from marshmallow import Schema, ValidationError, fields, validate

from app.common.schemas import StrictString
from app.content.schema import ContentSchema

# Where a sentence ends: ". ", "! ", "? ", "。", "！", "？", or a line's end.
_SENTENCE_END = re.compile(r"[.!?](?=\s)|[。！？]|\n")
_SHORTEST_SENTENCE = 0.5   # of the field's length: a cut at a sentence keeps at least this much
WHOLE = {"email", "phone", "id"}   # text that is worth nothing in part: too long, it is dropped


def keep_valid(content: dict) -> tuple[dict, list[str]]:
    """``content`` with only what ``ContentSchema`` accepts, and the paths of what was left out."""
    dropped: list[str] = []
    return _record(ContentSchema(), content, "", dropped), dropped


def cut_to_fit(content: dict) -> tuple[dict, list[dict]]:
    """``content`` with every text longer than its field's limit cut to fit, and what was cut off:
    ``[{"path": "personalInfo.summary", "text": the rest}]``. Other values are left as they are."""
    cut: list[dict] = []
    return _cut_record(ContentSchema(), content, "", cut), cut


def cut_text(text: str, limit: int) -> tuple[str, str]:
    """``text`` as at most ``limit`` characters, ended at a sentence when one ends in the second half
    of them, else at a space, else at the limit; and the rest, without the space between."""
    if len(text) <= limit:
        return text, ""
    head = text[:limit + 1]
    ends = [m.end() for m in _SENTENCE_END.finditer(head) if m.end() <= limit]
    end = ends[-1] if ends and ends[-1] >= limit * _SHORTEST_SENTENCE else 0
    if not end:
        end = max(head.rfind(" ", 0, limit + 1), head.rfind("\n", 0, limit + 1))
    if end <= 0:
        end = limit
    return text[:end].rstrip(), text[end:].strip()


def _text_limit(field) -> int | None:
    """The length limit of a free-text field (not a month, URL or one of a list of values)."""
    if type(field) is not StrictString:
        return None
    if any(isinstance(v, (validate.OneOf, validate.Regexp)) for v in field.validators):
        return None
    limits = [v.max for v in field.validators if isinstance(v, validate.Length) and v.max is not None]
    return min(limits) if limits else None


def _cut_record(schema: Schema, record, prefix: str, cut: list[dict]):
    if not isinstance(record, dict):
        return record
    return {key: _cut_value(schema.fields[key], value, _path(prefix, key), cut) if key in schema.fields else value
            for key, value in record.items()}


def _cut_value(field, value, path: str, cut: list[dict]):
    if isinstance(field, fields.Nested):
        return _cut_record(field.schema, value, path, cut)
    if isinstance(field, fields.List) and isinstance(value, list):
        return [_cut_value(field.inner, item, _path(path, index), cut) for index, item in enumerate(value)]
    limit = None if path.rsplit(".", 1)[-1] in WHOLE else _text_limit(field)
    if limit is not None and isinstance(value, str) and len(value) > limit:
        value, rest = cut_text(value, limit)
        cut.append({"path": path, "text": rest})
    return value


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
