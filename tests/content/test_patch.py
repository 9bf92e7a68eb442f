"""JSON Patch on entry ids (app/content/patch.py): entries addressed by id whatever their position, plain
lists by position, every op of RFC 6902, derived ids never stored, and (a property over any patch at
all) an answer or a PatchRefused, never another exception, and never a change to the document given."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.content.patch import PatchRefused, apply, derived_id, entry_ids

EDITABLE = ("title", "contentJson")
DOCUMENT = {"title": "Engineer", "contentJson": {
    "workExperience": [{"company": "Acme", "position": "Engineer", "bullets": ["Built", "Ran"]},
                       {"company": "Globex", "position": "Intern"}],
    "projects": [{"id": "a1b2c3d4e5f60718", "name": "Compiler"}],
    "skills": ["Python", "Go"]}}


def _ids(document):
    shown = entry_ids(document)["contentJson"]
    return [entry["id"] for entry in shown["workExperience"]], shown["projects"][0]["id"]


def test_entries_are_addressed_by_id_after_the_ops_before_moved_them():
    acme, globex = _ids(DOCUMENT)[0]
    patched, changed = apply(DOCUMENT, [
        {"op": "remove", "path": f"/contentJson/workExperience/{acme}"},  # Globex is now at 0
        {"op": "replace", "path": f"/contentJson/workExperience/{globex}/position", "value": "Engineer"},
        {"op": "add", "path": "/contentJson/workExperience/-", "value": {"id": acme, "company": "Initech"}},
        {"op": "add", "path": "/contentJson/skills/0", "value": "Rust"},
        {"op": "test", "path": "/title", "value": "Engineer"},
        {"op": "replace", "path": "/contentJson/projects/a1b2c3d4e5f60718/name", "value": "Linker"}], EDITABLE)
    work = patched["contentJson"]["workExperience"]
    assert work == [{"company": "Globex", "position": "Engineer"}, {"company": "Initech"}]  # no derived id stored
    assert patched["contentJson"]["skills"] == ["Rust", "Python", "Go"]
    assert patched["contentJson"]["projects"] == [{"id": "a1b2c3d4e5f60718", "name": "Linker"}]  # stored ids stay
    assert changed == [f"/contentJson/workExperience/{acme}", f"/contentJson/workExperience/{globex}/position",
                       "/contentJson/workExperience/-", "/contentJson/skills/0",
                       "/contentJson/projects/a1b2c3d4e5f60718/name"]


def test_move_and_copy_name_both_places():
    acme, globex = _ids(DOCUMENT)[0]
    patched, changed = apply(DOCUMENT, [
        {"op": "move", "from": f"/contentJson/workExperience/{acme}/bullets/1", "path": "/contentJson/skills/-"},
        {"op": "copy", "from": "/title", "path": f"/contentJson/workExperience/{globex}/summary"}], EDITABLE)
    assert patched["contentJson"]["skills"] == ["Python", "Go", "Ran"]
    assert patched["contentJson"]["workExperience"][1]["summary"] == "Engineer"
    assert changed[:2] == [f"/contentJson/workExperience/{acme}/bullets/1", "/contentJson/skills/-"]


@pytest.mark.parametrize("operations, says", [
    ([], "at least one"),
    ([{"op": "replace", "path": "/contentJson/workExperience/0/company", "value": "x"}], "no entry with the id 0"),
    ([{"op": "replace", "path": "/templateId", "value": "x"}], "only /title, /contentJson"),
    ([{"op": "test", "path": "/title", "value": "Other"}], "test at /title failed"),
    ([{"op": "remove", "path": "/contentJson/skills/9"}], "nothing at"),
    ([{"op": "frobnicate", "path": "/title"}], "op is one of"),
    ([{"op": "replace", "path": "title", "value": "x"}], "JSON Pointer"),
    ([{"op": "replace", "path": "/title", "value": "x"}] * 101, "at most 100"),
])
def test_what_cannot_apply_is_refused_and_says_why(operations, says):
    with pytest.raises(PatchRefused) as refused:
        apply(DOCUMENT, operations, EDITABLE)
    assert says in str(refused.value)


def test_an_entry_read_with_its_derived_id_is_found_even_when_edited_by_an_earlier_op():
    acme = derived_id(DOCUMENT["contentJson"]["workExperience"][0])
    patched, _ = apply(DOCUMENT, [
        {"op": "replace", "path": f"/contentJson/workExperience/{acme}/company", "value": "Acme Corp"},
        {"op": "add", "path": f"/contentJson/workExperience/{acme}/bullets/-", "value": "Shipped"}], EDITABLE)
    assert patched["contentJson"]["workExperience"][0]["bullets"] == ["Built", "Ran", "Shipped"]


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)
_segment = st.sampled_from(["title", "contentJson", "workExperience", "skills", "projects", "0", "1", "-", "company",
                            "bullets", "a1b2c3d4e5f60718", "~0", "~1", "", "x/y"]) | st.text(max_size=5)
_path = st.lists(_segment, max_size=5).map(lambda parts: "".join("/" + part for part in parts)) | st.text(max_size=10)
_op = st.fixed_dictionaries({"op": st.sampled_from(["add", "remove", "replace", "move", "copy", "test", "x"]),
                             "path": _path | _json},
                            optional={"value": _json, "from": _path | _json})
_operations = st.lists(_op | _json, max_size=6) | _json


@settings(max_examples=400, deadline=None)
@given(_operations)
def test_any_patch_applies_or_is_refused_and_never_touches_what_it_was_given(operations):
    before = copy.deepcopy(DOCUMENT)
    try:
        patched, changed = apply(DOCUMENT, operations, EDITABLE)
    except PatchRefused:
        pass
    else:
        assert set(patched) <= set(before) | set(EDITABLE)
        assert all(isinstance(path, str) for path in changed)
    assert DOCUMENT == before
