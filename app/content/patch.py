"""JSON Patch (RFC 6902) on a resume document, addressing entries by their id, never by their position.

An agent reads a resume, thinks, then sends a patch; meanwhile the person may have reordered or deleted
entries. A path such as ``/contentJson/workExperience/2/description`` would then land on another job.
Here a list of entries (objects) is addressed by each entry's ``id``: the one the server stored
(projects, custom sections) or, for entries that store none, one derived from the entry as it was read
(``entry_ids`` shows them: ``e`` and ten hex digits). A list of plain values (bullets, skills) is
addressed by position, and ``-`` appends, as RFC 6902 says. Every op is resolved against the document
as the ops before it left it, the entries keeping the ids they were read with; ``test`` works as in
the RFC. Derived ids are never stored: they are taken off whatever the patch adds.
"""
from __future__ import annotations

import copy
import hashlib
import json
import re

import jsonpatch
import jsonpointer

MAX_OPERATIONS = 100
OPS = ("add", "remove", "replace", "move", "copy", "test")
DERIVED = re.compile(r"^e[0-9a-f]{10}$")


class PatchRefused(ValueError):
    """The patch cannot apply: ``message`` (a message id with ``values``) and the op's index."""

    def __init__(self, message: str, values: dict, index: int | None = None):
        super().__init__(message % values)
        self.message, self.values, self.index = message, values, index


def derived_id(entry: dict) -> str:
    """The id an entry that stores none is addressed by: a digest of the entry as read."""
    text = json.dumps({k: v for k, v in entry.items() if k != "id"}, sort_keys=True, ensure_ascii=False)
    return "e" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _entry_lists(node):
    """Every list of objects under ``node``."""
    if isinstance(node, dict):
        for value in node.values():
            yield from _entry_lists(value)
    elif isinstance(node, list):
        if node and all(isinstance(item, dict) for item in node):
            yield node
        for item in node:
            yield from _entry_lists(item)


def entry_ids(document: dict) -> dict:
    """A copy of ``document`` where every entry has an ``id``: its own, or the one derived from it."""
    shown = copy.deepcopy(document)
    for entries in _entry_lists(shown):
        for entry in entries:
            if "id" not in entry:
                entry["id"] = derived_id(entry)
    return shown


def _strip_derived(node) -> None:
    for entries in _entry_lists(node):
        for entry in entries:
            if isinstance(entry.get("id"), str) and DERIVED.match(entry["id"]):
                del entry["id"]


def _tokens(path: object, index: int) -> list[str]:
    if not isinstance(path, str) or (path and not path.startswith("/")):
        raise PatchRefused("Operation %(index)s: a path is a JSON Pointer such as /title.", {"index": index}, index)
    return [token.replace("~1", "/").replace("~0", "~") for token in path.split("/")[1:]]


def _pointer(tokens: list[str]) -> str:
    return "".join("/" + token.replace("~", "~0").replace("/", "~1") for token in tokens)


class _Resolver:
    """Turns id-based paths into positions in the working document, entries keeping the ids they had
    when the patch began."""

    def __init__(self, document: dict):
        self.known = {}
        for entries in _entry_lists(document):
            for entry in entries:
                self.known[entry["id"] if isinstance(entry.get("id"), str) else derived_id(entry)] = entry

    def resolve(self, document: dict, path: object, index: int, *, appending: bool) -> str:
        tokens, node, placed = _tokens(path, index), document, []
        for depth, token in enumerate(tokens):
            last = depth == len(tokens) - 1
            if isinstance(node, list):
                token = self._position(node, token, index, path, appending and last)
            elif not isinstance(node, dict) and not last:
                raise PatchRefused("Operation %(index)s: nothing at %(path)s.", {"index": index, "path": path}, index)
            placed.append(token)
            if not last:
                try:
                    node = node[int(token)] if isinstance(node, list) else node[token]
                except (KeyError, IndexError, ValueError):
                    raise PatchRefused("Operation %(index)s: nothing at %(path)s.", {"index": index, "path": path},
                                       index) from None
        return _pointer(placed)

    def _position(self, items: list, token: str, index: int, path, appending: bool) -> str:
        if token == "-" and appending:
            return token
        if items and all(isinstance(item, dict) for item in items):
            entry = self.known.get(token)
            for position, item in enumerate(items):
                if item is entry or (item.get("id") == token and not DERIVED.match(token)):
                    return str(position)
            raise PatchRefused("Operation %(index)s: no entry with the id %(id)s at %(path)s (entries are "
                               "addressed by id; read the resume again).",
                               {"index": index, "id": token, "path": path}, index)
        if token.isdigit() and (int(token) < len(items) or (appending and int(token) == len(items))):
            return token
        raise PatchRefused("Operation %(index)s: nothing at %(path)s.", {"index": index, "path": path}, index)


def apply(document: dict, operations: object, editable: tuple[str, ...]) -> tuple[dict, list[str]]:
    """``document`` with ``operations`` applied, and the paths they changed (as given). Only the top-level
    fields in ``editable`` may be touched. Raises PatchRefused."""
    if not isinstance(operations, list) or not operations:
        raise PatchRefused("A patch is a list of at least one operation.", {})
    if len(operations) > MAX_OPERATIONS:
        raise PatchRefused("A patch holds at most %(limit)s operations.", {"limit": MAX_OPERATIONS})
    working = copy.deepcopy(document)
    resolver, changed = _Resolver(working), []
    for index, operation in enumerate(operations):
        if not isinstance(operation, dict) or operation.get("op") not in OPS:
            raise PatchRefused("Operation %(index)s: op is one of add, remove, replace, move, copy, test.",
                               {"index": index}, index)
        op, step = operation["op"], dict(operation)
        for key in ("path", "from") if op in ("move", "copy") else ("path",):
            tokens = _tokens(operation.get(key), index)
            if not tokens or tokens[0] not in editable:
                raise PatchRefused("Operation %(index)s: only %(fields)s can be patched.",
                                   {"index": index, "fields": ", ".join("/" + field for field in editable)}, index)
            step[key] = resolver.resolve(working, operation[key], index, appending=key == "path" and op in (
                "add", "move", "copy"))
        if "value" in step:
            step["value"] = copy.deepcopy(step["value"])
            _strip_derived({"value": step["value"]})
        try:
            jsonpatch.JsonPatch([step]).apply(working, in_place=True)
        except jsonpatch.JsonPatchTestFailed:
            raise PatchRefused("Operation %(index)s: the test at %(path)s failed.",
                               {"index": index, "path": operation["path"]}, index) from None
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException):
            raise PatchRefused("Operation %(index)s cannot apply at %(path)s.",
                               {"index": index, "path": operation["path"]}, index) from None
        if op != "test":
            changed.extend(path for path in (operation.get("from") if op == "move" else None, operation["path"])
                           if path is not None and path not in changed)
    _strip_derived(working)
    return working, changed
