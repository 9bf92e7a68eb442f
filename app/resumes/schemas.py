"""What goes over the wire for resumes and templates (the content itself: ``app.content.schema``)."""
from __future__ import annotations

from flask import current_app
from marshmallow import ValidationError, fields, validate

from app import documents
from app.auth.passwords import MAX_BYTES
from app.common.schemas import InputSchema, OutputSchema, QueryInteger, StrictBoolean, StrictInteger, StrictString, \
    Timestamp, format_timestamp
from app.content.schema import ContentSchema, ProjectSchema, VisibilitySchema
from app.content.sections import SECTIONS
from app.messages import with_values
from app.resumes.imports import ACCEPTED, MAX_UPLOAD_BYTES
from app.resumes.models import STATUSES
from app.resumes.versions import CAUSES


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

    page = QueryInteger(min=1, max=1_000_000, load_default=1)
    limit = QueryInteger(min=1, max=100, load_default=10)


class CommentsQuerySchema(PageQuerySchema):
    """Query string of a resume's comments: fifty to a page, so that most resumes have one page."""

    limit = QueryInteger(min=1, max=100, load_default=50)


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


class UndrawnCharacterSchema(OutputSchema):
    character = fields.String(required=True)
    codePoint = fields.String(required=True, metadata={"description": "U+XXXX"})
    name = fields.String(required=True, metadata={"description": "its Unicode name; empty for a private-use "
                                                                 "or unassigned code"})


UNDRAWN = ("characters no font of the service draws, printed as a box: a private-use code, an unassigned "
           "one, a script it has no face for")


class ExportResultSchema(OutputSchema):
    downloadUrl = fields.String(required=True, attribute="download_url",
                                metadata={"description": "signed; answers the file until expiresAt"})
    filename = fields.String(required=True)
    format = fields.String(required=True)
    fileSize = fields.Integer(required=True, attribute="file_size", metadata={"description": "bytes"})
    expiresAt = Timestamp(required=True, attribute="expires_at")
    undrawnCharacters = fields.List(fields.Nested(UndrawnCharacterSchema), required=True, attribute="undrawn",
                                    metadata={"description": UNDRAWN + " (a PDF; empty for the other formats)"})


class ShareInfoSchema(OutputSchema):
    isEnabled = fields.Boolean(required=True, attribute="is_enabled")
    viewCount = fields.Integer(required=True, attribute="view_count")
    hasPassword = fields.Boolean(required=True, attribute="has_password")
    lastViewedAt = Timestamp(required=True, allow_none=True, attribute="last_viewed_at")


def _within_bcrypt_bytes(password: str) -> None:
    if len(password.encode("utf-8")) > MAX_BYTES:
        raise ValidationError(with_values("Use at most %(bytes)s bytes (UTF-8).", bytes=MAX_BYTES))


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


# Imports (POST /api/resumes/import) ------------------------------------------------------------
_TITLE = {"description": "The resume's title; by default the document's own title, else the person's name, else "
                         "the file's name, else \"Imported resume\"."}
_TEMPLATE = {"description": "By default the first basic template (as the dashboard's picker lists them)."}


class ImportBodySchema(InputSchema):
    jsonResume = fields.Dict(required=True,
                             metadata={"description": "A JSON Resume document (https://jsonresume.org)."})
    title = Title(validate=validate.Length(min=1, max=200), metadata=_TITLE)
    templateId = StrictString(validate=validate.Length(min=1, max=64), metadata=_TEMPLATE)


class ImportFormSchema(InputSchema):
    """The form fields beside the file (form values are strings)."""

    title = Title(validate=validate.Length(min=1, max=200))
    templateId = StrictString(validate=validate.Length(min=1, max=64))


UPLOAD_BODY = {
    "type": "object", "required": ["file"],
    "properties": {
        "file": {"type": "string", "format": "binary",
                 "description": f"A PDF, DOCX or JSON Resume file ({', '.join(ACCEPTED)}), known by its content; "
                                f"the whole body at most {MAX_UPLOAD_BYTES // 1048576} MiB."},
        "title": {"type": "string", "minLength": 1, "maxLength": 200, **_TITLE},
        "templateId": {"type": "string", "minLength": 1, "maxLength": 64, **_TEMPLATE},
    },
}


class CutTextSchema(OutputSchema):
    path = fields.String(required=True, metadata={
        "description": "the content path of the field (personalInfo.summary)"})
    text = fields.String(required=True, metadata={"description": "what did not fit: the text after the cut"})


class UnsureSchema(OutputSchema):
    path = fields.String(required=True, metadata={
        "description": "the content path it concerns: a field (workExperience.0.position), an entry "
                       "(customSections.1) or personalInfo"})
    reason = fields.String(required=True, metadata={
        "description": "order (told apart from its neighbour by place alone), no_dates, year_only (months "
                       "taken as January), custom_section (a heading "
                       "no section's words name, kept under its own title), by_content (a section whose heading "
                       "no words name, read as work experience or education by its dated entries; path the "
                       "section, text the heading), unplaced (header text that fitted no "
                       "field), place (a job's location split from its employer at a comma), guessed (a headline "
                       "and an address told apart by their words alone), merged (a bullet that was probably two "
                       "or more), not_found (no name, or no e-mail address), ai (filled in by the configured AI "
                       "model from the document's text, where the rules found nothing or told two fields apart "
                       "by order alone)"})
    text = fields.String(required=True, metadata={"description": "the text concerned, \"\" when none"})
    page = fields.Integer(metadata={"description": "the PDF's page (1-based) the text came from; absent for a DOCX"})
    swap = fields.String(metadata={"description": "another content path whose value may belong here (the "
                                                  "editor's one-click swap)"})
    parts = fields.List(fields.String(), metadata={"description": "for merged: the items it probably holds"})


class ImportReportSchema(OutputSchema):
    source = fields.String(required=True, metadata={"description": "pdf, docx or json"})
    fileName = fields.String(required=True, attribute="file_name", metadata={
        "description": "the file's name; \"\" for a document sent as JSON"})
    dropped = fields.Function(lambda row: row.report.get("dropped", []), required=True,
                              metadata={"description": "as the import answered it"})
    cut = fields.Function(lambda row: row.report.get("cut", []), required=True, metadata={
        "description": "texts longer than their field, cut at a sentence: [{path, text}] with the rest"})
    unsure = fields.Function(lambda row: row.report.get("unsure", []), required=True, metadata={
        "description": "what the reading of a PDF or DOCX guessed, and what the configured AI model filled "
                       "in from the file's text (reason ai): [{path, reason, text, page?, swap?, parts?}] (UnsureSchema)"})
    pages = fields.Function(lambda row: row.report.get("pages", 0), required=True, metadata={
        "description": "how many pages of the imported PDF can be seen as pictures "
                       "(GET /api/resumes/<id>/import-report/pages/<n>); 0 for a DOCX or JSON"})
    createdAt = Timestamp(required=True, attribute="created_at")


class ImportResultSchema(OutputSchema):
    resume = fields.Nested(ResumeDetailSchema, required=True)
    dropped = fields.List(fields.String(), required=True, metadata={
        "description": "Where the values that were not kept came from: JSON Resume paths (work.0.url) for a "
                       "document, content paths (workExperience.2.url) for a PDF or DOCX."})
    report = fields.Nested(ImportReportSchema, required=True, metadata={
        "description": "what was cut to fit and what was guessed; kept until dismissed "
                       "(GET /api/resumes/<id>/import-report)"})


# Versions (app.resumes.history) -----------------------------------------------------------------
class VersionListItemSchema(OutputSchema):
    id = fields.String(required=True)
    createdAt = Timestamp(required=True, attribute="created_at",
                          metadata={"description": "when the state was replaced (it was current until then)"})
    title = fields.String(required=True)
    cause = fields.String(required=True, validate=validate.OneOf(CAUSES),
                          metadata={"description": "what replaced this state: edit, restore, conflict (a save "
                                                   "refused as stale kept what it held), or agent"})
    author = fields.String(required=True, allow_none=True, metadata={
        "description": "for an agent's edit, the client and the tool (\"Edited by Claude Desktop: "
                       "apply_resume_patch\"); else null"})


class VersionSchema(VersionListItemSchema):
    templateId = fields.String(required=True, attribute="template_id")
    contentJson = fields.Dict(required=True, attribute="content_json")
    sectionsVisibility = fields.Dict(keys=fields.String(), values=fields.Boolean(), required=True,
                                     attribute="sections_visibility")
