"""What goes over the wire for imports (``POST /api/resumes/import``)."""
from __future__ import annotations

from marshmallow import fields, validate

from app.common.schemas import InputSchema, OutputSchema, StrictString
from app.resumes.importing.service import ACCEPTED, MAX_UPLOAD_BYTES
from app.resumes.schemas import ResumeDetailSchema, Title

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


class ImportResultSchema(OutputSchema):
    resume = fields.Nested(ResumeDetailSchema, required=True)
    dropped = fields.List(fields.String(), required=True, metadata={
        "description": "Where the values that were not kept came from: JSON Resume paths (work.0.url) for a "
                       "document, content paths (workExperience.2.url) for a PDF or DOCX."})
