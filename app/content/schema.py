"""The content schema: what a resume's ``contentJson`` (and ``sectionsVisibility``) may hold.

Limits on content (the contract leaves them to us; see docs/api-decisions.md):
short strings 200 characters, summaries and descriptions 5,000, 50 items a
section, 100 skills or technologies, dates ``YYYY-MM`` (an empty ``endDate``
means "present").

The sections issue 15 added (and the fields it added to the old ones) are
optional with no default: what a client leaves out stays out of the stored
content, so a resume saved before them reads back exactly as it was stored.
Drawing and analysis fill every key (``app.content.normalise``).
"""
from __future__ import annotations

import re

from marshmallow import ValidationError, fields, missing, post_load, validate, validates_schema

from app.common.schemas import InputSchema, StrictBoolean, StrictString
from app.content.language import LANGUAGES
from app.content.sections import BODY_SECTIONS, ENTRIES, TITLED, Field
from app.messages import with_values

MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def _text(max_length: int, **kwargs):
    return StrictString(validate=validate.Length(max=max_length), load_default="", **kwargs)


class Month(StrictString):
    """``YYYY-MM`` or an empty string."""

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data, **kwargs)
        if value and not MONTH.match(value):
            raise ValidationError("Use the YYYY-MM format (e.g. 2024-03), or an empty string.")
        return value


class Url(StrictString):
    """An http(s) URL or an empty string."""

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data, **kwargs)
        if value:
            validate.URL(schemes={"http", "https"}, require_tld=False)(value)
        return value


def _string_list(max_items: int, max_length: int = 100):
    return fields.List(StrictString(validate=validate.Length(min=1, max=max_length)),
                       validate=validate.Length(max=max_items), load_default=list)


# Issue 15's fields: optional and without a default (absent stays absent).
def _optional_text(max_length: int):
    return StrictString(validate=validate.Length(max=max_length))


def _optional_url():
    return Url(validate=validate.Length(max=2048))


def _optional_strings(max_items: int, max_length: int):
    return fields.List(StrictString(validate=validate.Length(min=1, max=max_length)),
                       validate=validate.Length(max=max_items))


def _entry_list(schema, max_items: int = 50):
    return fields.List(fields.Nested(schema), validate=validate.Length(max=max_items))


class _Range(InputSchema):
    """Optional start and end months; the end, when both are given, is not before the start."""

    startDate = Month()
    endDate = Month()

    @validates_schema
    def end_after_start(self, data, **kwargs):
        start, end = data.get("startDate"), data.get("endDate")
        if start and end and end < start:
            raise ValidationError("Must not be before startDate.", field_name="endDate")


class _Period(_Range):
    startDate = Month(load_default="")
    endDate = Month(load_default="")


# The entries' schemas, made from the registry (``sections.ENTRIES``), by the name the OpenAPI document
# gives each (``WorkExperienceSchema`` is "WorkExperience").
_NAMES = {"profiles": "Profile", "workExperience": "WorkExperience", "education": "Education",
          "skillGroups": "SkillGroup", "projects": "Project", "languages": "Language", "certificates": "Certificate",
          "awards": "Award", "volunteer": "Volunteer", "publications": "Publication", "interests": "Interest",
          "references": "Reference", "customSections": "CustomSection", "customItems": "CustomItem"}
_BASES = {"period": _Period, "range": _Range, None: InputSchema}


def _field(field: Field) -> fields.Field:
    if field.is_list:
        return (_string_list if field.default else _optional_strings)(field.items, field.size)
    default = {"load_default": ""} if field.default else {}
    if field.kind == "month":
        return Month(**default)
    if field.kind == "url":
        return Url(validate=validate.Length(max=field.size), **default)
    return StrictString(validate=validate.Length(max=field.size), **default)


def _entry_schema(key: str) -> type[InputSchema]:
    """The schema of one entry of ``key``; an ``id``, where entries have one, is assigned by the server
    when it is left out."""
    entries = ENTRIES[key]
    declared: dict = {"id": StrictString(validate=validate.Length(min=1, max=64))} if entries.ids else {}
    declared.update((field.name, _field(field)) for field in entries.fields)
    if entries.sublist:
        inner, of = entries.sublist
        declared[inner] = _entry_list(_SCHEMAS[of], ENTRIES[of].most)
    return _BASES[entries.dates].from_dict(declared, name=f"{_NAMES[key]}Schema")


_SCHEMAS: dict[str, type[InputSchema]] = {}
for _key in sorted(ENTRIES, key=lambda key: bool(ENTRIES[key].sublist)):   # a custom section's items first
    _SCHEMAS[_key] = _entry_schema(_key)
ProjectSchema = _SCHEMAS["projects"]


def _no_repeats(keys: list) -> None:
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValidationError(with_values("Name each section once (repeated: %(names)s).", names=", ".join(repeated)))


def _entries_of(key: str) -> fields.List:
    return fields.List(fields.Nested(_SCHEMAS[key]), validate=validate.Length(max=ENTRIES[key].most),
                       load_default=list if key in _REQUIRED_LISTS else missing)


_REQUIRED_LISTS = ("workExperience", "education", "projects")   # the sections resumes had before issue 15


class LocationSchema(InputSchema):
    """The parts of an address, as JSON Resume's ``basics.location`` has them (kept from an import and
    written back on export; ``address`` is the line the documents print)."""

    address = _optional_text(300)
    postalCode = _optional_text(20)
    city = _optional_text(100)
    region = _optional_text(100)
    countryCode = _optional_text(20)


class PersonalInfoSchema(InputSchema):
    name = _text(200)
    email = _text(254)
    phone = _text(50)
    address = _text(300)
    summary = _text(5000)
    label = _optional_text(200)
    url = _optional_url()
    image = _optional_url()
    location = fields.Nested(LocationSchema)
    profiles = _entry_list(_SCHEMAS["profiles"], ENTRIES["profiles"].most)


class ContentSchema(InputSchema):
    personalInfo = fields.Nested(PersonalInfoSchema, load_default=dict)
    workExperience = _entries_of("workExperience")
    education = _entries_of("education")
    skills = _string_list(100)
    projects = _entries_of("projects")
    skillGroups = _entries_of("skillGroups")
    languages = _entries_of("languages")
    certificates = _entries_of("certificates")
    awards = _entries_of("awards")
    volunteer = _entries_of("volunteer")
    publications = _entries_of("publications")
    interests = _entries_of("interests")
    references = _entries_of("references")
    customSections = _entries_of("customSections")
    sectionOrder = fields.List(
        StrictString(validate=validate.OneOf(BODY_SECTIONS)),
        validate=[validate.Length(max=len(BODY_SECTIONS)), _no_repeats],
        metadata={"description": "Body sections in the order to show them; missing ones follow in the default "
                                 "order: " + ", ".join(BODY_SECTIONS) + "."})
    language = StrictString(
        validate=validate.OneOf(("", *LANGUAGES)),
        metadata={"description": "The language the resume is written in, which its documents print their "
                                 "headings, dates and other words in (BCP 47: " + ", ".join(LANGUAGES) + "). "
                                 "Empty or absent: the language its text is in."})
    sectionTitles = fields.Dict(
        keys=StrictString(validate=validate.OneOf(TITLED)), values=StrictString(validate=validate.Length(max=100)),
        metadata={"description": "Headings the user renamed, by section (" + ", ".join(TITLED) + "); a section "
                                 "left out prints the template's heading in the resume's language."})

    @post_load
    def fill_personal_info(self, data, **kwargs):
        # Only the five original fields have defaults; the nested load fills them when personalInfo is given.
        if not isinstance(data["personalInfo"], dict) or not _PERSONAL_DEFAULTS <= set(data["personalInfo"]):
            data["personalInfo"] = PersonalInfoSchema().load(data["personalInfo"] or {})
        return data


_PERSONAL_DEFAULTS = {name for name, field in PersonalInfoSchema().fields.items()
                      if field.load_default is not missing}


class VisibilitySchema(InputSchema):
    """A boolean per section (``models.SECTIONS``); a section left out keeps its value (shown by default)."""

    personalInfo = StrictBoolean()
    workExperience = StrictBoolean()
    education = StrictBoolean()
    skills = StrictBoolean()
    projects = StrictBoolean()
    languages = StrictBoolean()
    certificates = StrictBoolean()
    awards = StrictBoolean()
    volunteer = StrictBoolean()
    publications = StrictBoolean()
    interests = StrictBoolean()
    references = StrictBoolean()
    customSections = StrictBoolean()
