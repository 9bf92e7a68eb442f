"""What goes over the wire for resumes and templates.

Limits on content (the contract leaves them to us; see docs/api-decisions.md):
short strings 200 characters, summaries and descriptions 5,000, 50 items a
section, 100 skills or technologies, dates ``YYYY-MM`` (an empty ``endDate``
means "present").

The sections issue 15 added (and the fields it added to the old ones) are
optional with no default: what a client leaves out stays out of the stored
content, so a resume saved before them reads back exactly as it was stored.
Rendering fills every key (``rendering.normalise_content``).
"""
from __future__ import annotations

import re

from marshmallow import ValidationError, fields, missing, post_load, validate, validates_schema

from app.auth.passwords import MAX_BYTES
from app.common.schemas import (InputSchema, OutputSchema, StrictBoolean, StrictInteger, StrictString, Timestamp,
                                format_timestamp)
from app.resumes import documents
from app.resumes.models import BODY_SECTIONS, SECTIONS, STATUSES

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


class PersonalInfoSchema(InputSchema):
    name = _text(200)
    email = _text(254)
    phone = _text(50)
    address = _text(300)
    summary = _text(5000)
    label = _optional_text(200)
    url = _optional_url()
    profiles = _entry_list(ProfileSchema, 20)


class WorkExperienceSchema(_Period):
    company = _text(200)
    position = _text(200)
    description = _text(5000)
    location = _optional_text(200)
    url = _optional_url()
    highlights = _optional_strings(50, 500)


class EducationSchema(_Period):
    school = _text(200)
    degree = _text(200)
    area = _optional_text(200)
    studyType = _optional_text(200)
    score = _optional_text(200)
    courses = _optional_strings(50, 200)


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


class ProjectInputSchema(ProjectSchema):
    """A project entry sent on its own: its id is the server's."""

    class Meta:
        exclude = ("id",)


class ProjectOutputSchema(OutputSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String(required=True)
    technologies = fields.List(fields.String(), required=True)
    url = fields.String(required=True)
    startDate = fields.String(required=True)
    endDate = fields.String(required=True)
    highlights = fields.List(fields.String(), required=True)


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


class Title(StrictString):
    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip()


class ResumeCreateSchema(InputSchema):
    title = Title(required=True, validate=validate.Length(min=1, max=200))
    templateId = StrictString(required=True, validate=validate.Length(min=1, max=64))
    contentJson = fields.Nested(ContentSchema)
    sectionsVisibility = fields.Nested(VisibilitySchema)
    targetJobDescription = StrictString(allow_none=True, validate=validate.Length(max=20_000))


class ResumeUpdateSchema(ResumeCreateSchema):
    title = Title(validate=validate.Length(min=1, max=200))
    templateId = StrictString(validate=validate.Length(min=1, max=64))
    status = StrictString(validate=validate.OneOf(STATUSES))


class PageQuerySchema(InputSchema):
    """Query string of a paginated list: the trash, a resume's versions (values arrive as strings)."""

    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=1_000_000))
    limit = fields.Integer(load_default=10, validate=validate.Range(min=1, max=100))


class CommentsQuerySchema(PageQuerySchema):
    """Query string of a resume's comments: fifty to a page, so that most resumes have one page."""

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class ListQuerySchema(PageQuerySchema):
    """Query string of GET /api/resumes."""

    status = fields.String(validate=validate.OneOf(STATUSES))


# Output -------------------------------------------------------------------
class TemplateRefSchema(OutputSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    category = fields.String(required=True)


class TemplateDetailSchema(TemplateRefSchema):
    htmlTemplate = fields.String(required=True, attribute="html_template")
    cssStyles = fields.String(required=True, attribute="css_styles")


class TemplateListItemSchema(TemplateRefSchema):
    tier = fields.String(required=True, validate=validate.OneOf(["basic", "premium"]))
    thumbnailUrl = fields.Method("get_thumbnail_url", required=True,
                                 metadata={"description": "GET /api/templates/{id}/thumbnail: a PNG for pickers"})

    def get_thumbnail_url(self, template):
        from flask import current_app

        return f"{current_app.config['BASE_URL']}/api/templates/{template.id}/thumbnail"


class ExportOptionsSchema(InputSchema):
    pageSize = StrictString(validate=validate.OneOf(documents.PAGE_SIZES), load_default="A4")
    margin = StrictString(validate=validate.OneOf(documents.MARGINS), load_default="normal")
    colorScheme = StrictString(validate=validate.OneOf(documents.COLOR_SCHEMES), load_default="default")
    includePhoto = StrictBoolean(load_default=False,
                                 metadata={"description": "place the account's avatar, when it can be fetched"})


class ExportInputSchema(InputSchema):
    format = StrictString(required=True, validate=validate.OneOf(documents.FORMATS))
    options = fields.Nested(ExportOptionsSchema, load_default=lambda: ExportOptionsSchema().load({}))


class ExportResultSchema(OutputSchema):
    downloadUrl = fields.String(required=True, attribute="download_url",
                                metadata={"description": "signed; answers the file until expiresAt"})
    filename = fields.String(required=True)
    format = fields.String(required=True)
    fileSize = fields.Integer(required=True, attribute="file_size", metadata={"description": "bytes"})
    expiresAt = Timestamp(required=True, attribute="expires_at")


class ShareInfoSchema(OutputSchema):
    isEnabled = fields.Boolean(required=True, attribute="is_enabled")
    viewCount = fields.Integer(required=True, attribute="view_count")
    hasPassword = fields.Boolean(required=True, attribute="has_password")
    lastViewedAt = Timestamp(required=True, allow_none=True, attribute="last_viewed_at")


def _within_bcrypt_bytes(password: str) -> None:
    if len(password.encode("utf-8")) > MAX_BYTES:
        raise ValidationError(f"Use at most {MAX_BYTES} bytes (UTF-8).")


class ShareInputSchema(InputSchema):
    isEnabled = StrictBoolean()
    password = StrictString(allow_none=True, validate=[validate.Length(min=1), _within_bcrypt_bytes],
                            metadata={"format": "password", "writeOnly": True,
                                      "description": f"1 to {MAX_BYTES} bytes of UTF-8."})
    expiresAt = Timestamp(allow_none=True)
    allowDownload = StrictBoolean()
    allowComments = StrictBoolean()


class ShareSettingsSchema(OutputSchema):
    id = fields.String(required=True)
    token = fields.String(required=True)
    shareUrl = fields.Method("get_share_url", required=True)
    isEnabled = fields.Boolean(required=True, attribute="is_enabled")
    hasPassword = fields.Boolean(required=True, attribute="has_password")
    allowDownload = fields.Boolean(required=True, attribute="allow_download")
    allowComments = fields.Boolean(required=True, attribute="allow_comments")
    viewCount = fields.Integer(required=True, attribute="view_count")
    expiresAt = Timestamp(required=True, allow_none=True, attribute="expires_at")
    createdAt = Timestamp(required=True, attribute="created_at")

    def get_share_url(self, share):
        return share_url(share)


def share_url(share) -> str:
    from flask import current_app

    return f"{current_app.config['BASE_URL']}/share/{share.token}"


class SharedResumeSchema(OutputSchema):
    """What a visitor sees: hidden sections are left out of contentJson."""

    title = fields.String(required=True, attribute="resume.title")
    template = fields.Nested(TemplateRefSchema, required=True, attribute="resume.template")
    contentJson = fields.Method("get_content", required=True)
    allowDownload = fields.Boolean(required=True, attribute="allow_download")
    allowComments = fields.Boolean(required=True, attribute="allow_comments")
    viewCount = fields.Integer(required=True, attribute="view_count")

    def get_content(self, share):
        visible = share.resume.sections_visibility  # skillGroups belong to the skills section
        return {k: v for k, v in share.resume.content_json.items()
                if visible.get("skills" if k == "skillGroups" else k, True)}


class CommentInputSchema(InputSchema):
    name = Title(required=True, validate=validate.Length(min=1, max=100))
    text = StrictString(required=True, validate=validate.Length(min=1, max=2000))


class CommentSchema(OutputSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    text = fields.String(required=True)
    createdAt = Timestamp(required=True, attribute="created_at")


class _ResumeBase(OutputSchema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    templateId = fields.String(required=True, attribute="template_id")
    template = fields.Nested(TemplateRefSchema, required=True)


class CreatedResumeSchema(_ResumeBase):
    """The create response: exactly the contract's list."""

    contentJson = fields.Dict(required=True, attribute="content_json")
    createdAt = Timestamp(required=True, attribute="created_at")
    updatedAt = Timestamp(required=True, attribute="updated_at")


class _ScoredResume(_ResumeBase):
    atsScore = StrictInteger(required=True, allow_none=True, attribute="ats_score")
    keywordMatchScore = StrictInteger(required=True, allow_none=True, attribute="keyword_match_score")
    createdAt = Timestamp(required=True, attribute="created_at")
    updatedAt = Timestamp(required=True, attribute="updated_at")


class ResumeListItemSchema(_ScoredResume):
    shareInfo = fields.Method("get_share_info", required=True, allow_none=True,
                              metadata={"description": "null for a resume never shared"})

    def get_share_info(self, resume):
        share = getattr(resume, "share", None)
        return None if share is None else ShareInfoSchema().dump(share)


def list_item(row) -> dict:
    """A row of ``service.list_resumes`` as ``ResumeListItemSchema`` dumps it.

    The list is the hot path, so its items are built here without marshmallow;
    tests/resumes/test_views.py checks that both give the same item.
    """
    return {
        "id": row.id, "title": row.title, "status": row.status, "templateId": row.template_id,
        "template": {"id": row.template_id, "name": row.template_name, "category": row.template_category},
        "atsScore": row.ats_score, "keywordMatchScore": row.keyword_match_score,
        "createdAt": format_timestamp(row.created_at), "updatedAt": format_timestamp(row.updated_at),
        "shareInfo": None if row.share_is_enabled is None else {
            "isEnabled": row.share_is_enabled, "viewCount": row.share_view_count,
            "hasPassword": row.share_has_password, "lastViewedAt": format_timestamp(row.share_last_viewed_at)},
    }


class ResumeDetailSchema(_ScoredResume):
    template = fields.Nested(TemplateDetailSchema, required=True)
    contentJson = fields.Dict(required=True, attribute="content_json")
    sectionsVisibility = fields.Dict(keys=fields.String(validate=validate.OneOf(SECTIONS)),
                                     values=fields.Boolean(), required=True, attribute="sections_visibility")
    targetJobDescription = fields.String(required=True, allow_none=True, attribute="target_job_description")
