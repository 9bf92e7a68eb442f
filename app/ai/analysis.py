"""Analysis of a resume against a job: the use case behind ``POST /api/resumes/<id>/analysis``.

The engine (``engine.py``) runs in the request: it is offline and takes a few milliseconds
(bench/analysis.py). Nothing is stored but the ``ai.analysis_completed`` event; the resume's own
``atsScore`` / ``keywordMatchScore`` are computed by the same engine when it is saved, against
its ``targetJobDescription``.
"""
from __future__ import annotations

from marshmallow import fields as ma_fields, validate

from app.ai.access import require_ai_features
from app.common.schemas import InputSchema, OutputSchema, StrictString
from app.errors import InvalidField
from app.events.outbox import record_event
from app.extensions import db
from app.matching import engine
from app.resumes.service import get_owned_resume
from app.users.models import User

JOB_DESCRIPTION_MAX = 20_000
SEVERITIES = ("critical", "warning", "info")


class AnalysisInputSchema(InputSchema):
    jobDescription = StrictString(validate=validate.Length(max=JOB_DESCRIPTION_MAX),
                                  metadata={"description": "default: the resume's targetJobDescription"})


class SuggestionSchema(OutputSchema):
    section = ma_fields.String(required=True, metadata={"description": "the contentJson key it concerns"})
    message = ma_fields.String(required=True)
    severity = ma_fields.String(required=True, validate=validate.OneOf(SEVERITIES))


class AnalysisSchema(OutputSchema):
    overallScore = ma_fields.Integer(required=True, metadata={"description": "0-100; the resume's atsScore"})
    keywordMatchScore = ma_fields.Integer(required=True, metadata={"description": "0-100"})
    formatScore = ma_fields.Integer(required=True, metadata={"description": "0-100"})
    contentScore = ma_fields.Integer(required=True, metadata={"description": "0-100"})
    matchedKeywords = ma_fields.List(ma_fields.String(), required=True,
                                     metadata={"description": "the job's keywords the resume has, most important "
                                                              "first"})
    missingKeywords = ma_fields.List(ma_fields.String(), required=True,
                                     metadata={"description": "the job's keywords the resume lacks, most important "
                                                              "first"})
    suggestions = ma_fields.List(ma_fields.Nested(SuggestionSchema), required=True,
                                 metadata={"description": "critical first, then warning, then info"})


def analyse_resume(user: User, resume_id: str, data: dict) -> dict:
    """The analysis of the user's resume against ``data["jobDescription"]`` or the resume's target job.
    Commits (the event). Raises RESUME_NOT_FOUND / RESUME_NOT_OWNED, VALIDATION_ERROR (no job
    description: ``jobDescription``), PLAN_UPGRADE_REQUIRED (a plan without AI features)."""
    resume = get_owned_resume(user, resume_id)
    description = (data.get("jobDescription") or "").strip() or (resume.target_job_description or "").strip()
    if not description:
        raise InvalidField("jobDescription", "Give a job description, or set the resume's targetJobDescription.")
    require_ai_features(user)
    result = engine.analyse(resume.content_json or {}, description)
    record_event("ai.analysis_completed", user.id, {"analysis": {  # exactly the contract's data shape
        "resume_id": resume.id, "overall_score": result["overallScore"],
        "keyword_match_score": result["keywordMatchScore"], "format_score": result["formatScore"],
        "content_score": result["contentScore"], "suggestions_count": len(result["suggestions"])}})
    db.session.commit()
    return result
