"""The section registry (``app/content/sections.ENTRIES``) against what is made from it: the content
schema refuses nothing the editor's forms send and the forms miss no field of it, every entry is
headed by its own fields, JSON Resume names every field or keeps it in our extension, and the sample
resume the writers' tests print (``tests/documents/every_section.py``) fills every registered field, so
a field added to the registry and left out of a writer fails ``tests/documents/test_sections_docx_txt.py``."""
from marshmallow import fields

from tests.documents.every_section import EVERY_SECTION

from app.content import normalise
from app.content.jsonresume import terms
from app.content.sections import BODY_SECTIONS, ENTRIES, HEADINGS
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


def test_every_body_section_has_its_heading_in_the_default_order():
    assert list(HEADINGS) == list(BODY_SECTIONS)


def test_every_list_of_entries_has_a_form_with_exactly_its_fields():
    lists = _entry_lists(schemas.ContentSchema)
    lists["customItems"] = lists.pop("items")  # a custom section's items: the form of that name
    assert set(lists) == set(ENTRIES)
    for name, schema in lists.items():
        form = ENTRIES[name]
        own = {field.name for field in form.fields} | ({form.sublist[0]} if form.sublist else set())
        assert own == set(schema().fields) - {"id"}, name
        assert len(own) == len(form.fields) + bool(form.sublist), name  # no field twice
        assert ("id" in schema().fields) == form.ids, name


def test_every_form_heads_its_entries_by_their_own_fields():
    """An entry's heading shows what it holds ("Engineer · Acme", issue 25): each form names fields it has."""
    for name, form in ENTRIES.items():
        assert form.heading, name
        named = {field.name for field in form.fields}
        assert {part for spec in form.heading for part in spec.split("|")} <= named, name


def test_json_resume_names_every_field_or_our_extension_keeps_it():
    mapped = {ours: {field for _, field, _ in mapping} | set(terms.ENTRY_EXTENSIONS.get(theirs, ()))
              for theirs, ours, mapping in terms.ENTRY_MAPS}
    for key, entries in ENTRIES.items():
        if entries.theirs:
            assert mapped[key] == {field.name for field in entries.fields} | ({"id"} if entries.ids else set()), key


def test_the_writers_sample_fills_every_registered_field():
    content = normalise.normalise_content(EVERY_SECTION)
    samples = {key: content[key] for key in ENTRIES if key in content}
    samples["profiles"] = content["personalInfo"]["profiles"]
    samples["customItems"] = [item for custom in content["customSections"] for item in custom["items"]]
    for key, entries in ENTRIES.items():
        assert samples[key], key
        for field in entries.fields:
            assert any(entry[field.name] for entry in samples[key]), f"{key}.{field.name} is empty in EVERY_SECTION"
