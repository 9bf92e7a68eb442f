"""The editor's entry forms (app/pages/editor_forms.py) against the content schema: every body
section has its panel, every list of entries has a form, and a form edits exactly its entry's fields
(ids are the server's), so the editor neither misses a field nor sends one the API refuses."""
from marshmallow import fields

from app.content.sections import BODY_SECTIONS
from app.pages.editor_forms import FORMS, SECTIONS
from app.resumes import schemas


def _entry_lists(schema, found=None) -> dict:
    """{list name: the schema of its entries}, nested lists included."""
    found = {} if found is None else found
    for name, field in schema().fields.items():
        inner = getattr(field, "inner", None)
        if isinstance(field, fields.Nested):
            _entry_lists(field.nested, found)
        elif isinstance(inner, fields.Nested):
            found[name] = inner.nested
            _entry_lists(inner.nested, found)
    return found


def test_every_body_section_has_its_panel_in_the_default_order():
    assert [key for key, _heading in SECTIONS] == list(BODY_SECTIONS)


def test_every_list_of_entries_has_a_form_with_exactly_its_fields():
    lists = _entry_lists(schemas.ContentSchema)
    lists["customItems"] = lists.pop("items")  # a custom section's items: the form of that name
    assert set(lists) == set(FORMS)
    for name, schema in lists.items():
        form = FORMS[name]
        own = {field.name for field in form.fields} | ({form.sublist[0]} if form.sublist else set())
        assert own == set(schema().fields) - {"id"}, name
        assert len(own) == len(form.fields) + bool(form.sublist), name  # no field twice


def test_every_form_heads_its_entries_by_their_own_fields():
    """An entry's heading shows what it holds ("Engineer · Acme", issue 25): each form names fields it has."""
    for name, form in FORMS.items():
        assert form.heading, name
        named = {field.name for field in form.fields}
        assert {part for spec in form.heading for part in spec.split("|")} <= named, name
