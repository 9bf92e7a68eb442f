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
from app.content.sections import BODY_SECTIONS, TITLED

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


class ProfileSchema(InputSchema):
    network = _optional_text(200)
    username = _optional_text(200)
    url = _optional_url()


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
    profiles = _entry_list(ProfileSchema, 20)


class WorkExperienceSchema(_Period):
    company = _text(200)
    position = _text(200)
    description = _text(5000)
    location = _optional_text(200)
    url = _optional_url()
    highlights = _optional_strings(50, 500)
    companyDescription = _optional_text(500)  # JSON Resume's work[].description: what the company does


class EducationSchema(_Period):
    school = _text(200)
    degree = _text(200)
    area = _optional_text(200)
    studyType = _optional_text(200)
    score = _optional_text(200)
    courses = _optional_strings(50, 200)
    url = _optional_url()


class SkillGroupSchema(InputSchema):
    name = _optional_text(200)
    level = _optional_text(200)
    keywords = _optional_strings(50, 100)


class LanguageSchema(InputSchema):
    language = _optional_text(200)
    fluency = _optional_text(200)


class CertificateSchema(InputSchema):
    name = _optional_text(200)
    issuer = _optional_text(200)
    date = Month()
    url = _optional_url()


class AwardSchema(InputSchema):
    title = _optional_text(200)
    awarder = _optional_text(200)
    date = Month()
    summary = _optional_text(5000)


class VolunteerSchema(_Range):
    organization = _optional_text(200)
    position = _optional_text(200)
    url = _optional_url()
    summary = _optional_text(5000)
    highlights = _optional_strings(50, 500)


class PublicationSchema(InputSchema):
    name = _optional_text(200)
    publisher = _optional_text(200)
    releaseDate = Month()
    url = _optional_url()
    summary = _optional_text(5000)


class InterestSchema(InputSchema):
    name = _optional_text(200)
    keywords = _optional_strings(50, 100)


class ReferenceSchema(InputSchema):
    name = _optional_text(200)
    reference = _optional_text(5000)


class CustomItemSchema(InputSchema):
    title = _optional_text(200)
    subtitle = _optional_text(200)
    date = Month()
    url = _optional_url()
    description = _optional_text(5000)


class CustomSectionSchema(InputSchema):
    """A section the user names; ``id`` is assigned by the server when it is left out."""

    id = StrictString(validate=validate.Length(min=1, max=64))
    title = _optional_text(200)
    items = _entry_list(CustomItemSchema)


def _no_repeats(keys: list) -> None:
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValidationError(f"Name each section once (repeated: {', '.join(repeated)}).")


class ProjectSchema(_Period):
    """A project entry; ``id`` is assigned by the server when it is left out."""

    id = StrictString(validate=validate.Length(min=1, max=64))
    name = _text(200)
    description = _text(5000)
    technologies = _string_list(100)
    url = Url(validate=validate.Length(max=2048), load_default="")
    highlights = _string_list(50, 500)
    roles = _optional_strings(20, 200)
    entity = _optional_text(200)
    type = _optional_text(200)


class ContentSchema(InputSchema):
    personalInfo = fields.Nested(PersonalInfoSchema, load_default=dict)
    workExperience = fields.List(fields.Nested(WorkExperienceSchema), validate=validate.Length(max=50),
                                 load_default=list)
    education = fields.List(fields.Nested(EducationSchema), validate=validate.Length(max=50), load_default=list)
    skills = _string_list(100)
    projects = fields.List(fields.Nested(ProjectSchema), validate=validate.Length(max=50), load_default=list)
    skillGroups = _entry_list(SkillGroupSchema)
    languages = _entry_list(LanguageSchema)
    certificates = _entry_list(CertificateSchema)
    awards = _entry_list(AwardSchema)
    volunteer = _entry_list(VolunteerSchema)
    publications = _entry_list(PublicationSchema)
    interests = _entry_list(InterestSchema)
    references = _entry_list(ReferenceSchema)
    customSections = _entry_list(CustomSectionSchema, 20)
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
