"""AI endpoints, HTTP only: the analysis of a resume against a job, AI writing, and the cover letter's
export. Their operationIds keep the names they had when the resumes blueprint answered them."""
from __future__ import annotations

from flask import Blueprint, g, request
from flask_login import current_user, login_required

from app.ai import analysis, assistant, generation, letters
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.common.ratelimit import configured
from app.extensions import limiter
from app.resumes import service as resumes
from app.resumes.schemas import ExportResultSchema, ResumeDetailSchema
from app.messages import N_

bp = Blueprint("ai", __name__, url_prefix="/api")


# Analysis against a job --------------------------------------------------------
@bp.post("/resumes/<resume_id>/analysis")
@login_required
# Analyses per user, on top of the per-user request limit.
@limiter.limit(configured("AI_ANALYSIS"), scope="ai-analysis", override_defaults=False)
@api_doc("Analyse the resume against a job description (default: its targetJobDescription): scores, the job's "
         "matched and missing keywords, suggestions (PREMIUM and ENTERPRISE; offline, nothing is stored)",
         tags=["ai"], auth=True, body=analysis.AnalysisInputSchema, operation="resumes.analyse_resume",
         responses={200: ("The analysis", analysis.AnalysisSchema)})
def analyse_resume(resume_id: str):
    data = json_body(analysis.AnalysisInputSchema()) if request.content_length else {}
    return ok(analysis.AnalysisSchema().dump(analysis.analyse_resume(current_user, resume_id, data)))


# AI writing -----------------------------------------------------------------
@bp.post("/resumes/<resume_id>/generate")
@login_required
# Generations per user, on top of the per-user request limit.
@limiter.limit(configured("AI_GENERATE"), scope="ai-generate", override_defaults=False)
@api_doc("Write a summary, bullets for one work entry, or a cover letter with the configured AI model "
         "(PREMIUM and ENTERPRISE; the resume is not changed; counts as an API request)", tags=["ai"], auth=True,
         body=generation.GenerateInputSchema, operation="resumes.generate_content",
         responses={200: ("The generated text", generation.GeneratedSchema)})
def generate_content(resume_id: str):
    data = json_body(generation.GenerateInputSchema())
    result = generation.generate(current_user, resume_id, data,
                                 already_counted=g.get("authenticated_by") == "bearer")
    return ok(generation.GeneratedSchema().dump(result), message=N_("Generated: review it before applying it."))


@bp.post("/resumes/<resume_id>/cover-letter/export")
@login_required
@api_doc("Export a cover letter (the text given, with the resume's name and contact details and today's date) "
         "as PDF, DOCX or TXT, stored like an export", tags=["ai"], auth=True,
         body=letters.CoverLetterExportSchema, operation="resumes.export_cover_letter",
         responses={201: ("The stored file", ExportResultSchema)})
def export_cover_letter(resume_id: str):
    export = letters.export_cover_letter(current_user, resume_id, json_body(letters.CoverLetterExportSchema()))
    return ok(ExportResultSchema().dump(export), status=201, message=N_("Cover letter ready."))


# The editor's assistant ------------------------------------------------------------
@bp.post("/resumes/<resume_id>/assistant")
@login_required
# Conversations count with the generations, on top of the per-user request limit.
@limiter.limit(configured("AI_GENERATE"), scope="ai-generate", override_defaults=False)
@api_doc("The editor's assistant: the model's answer to the chat about the resume, a proposed change (a JSON "
         "Patch, with the resume as it would leave it) or a question back; nothing is changed (PREMIUM and "
         "ENTERPRISE; counts as an API request)", tags=["ai"], auth=True, body=assistant.ConversationSchema,
         responses={200: ("The answer", assistant.AssistantReplySchema)})
def converse(resume_id: str):
    data = json_body(assistant.ConversationSchema())
    answer = assistant.converse(current_user, resume_id, data, already_counted=g.get("authenticated_by") == "bearer")
    return ok(assistant.AssistantReplySchema().dump(answer))


@bp.post("/resumes/<resume_id>/assistant/accept")
@login_required
@api_doc("Apply a proposal of the assistant, from the version it was made from (409 RESUME_CONFLICT when the "
         "resume changed since): one version, named \"Assistant: apply_resume_patch\"", tags=["ai"], auth=True,
         body=assistant.AcceptSchema, responses={200: ("The resume as it is now", ResumeDetailSchema)})
def accept_proposal(resume_id: str):
    resume = assistant.accept(current_user, resume_id, json_body(assistant.AcceptSchema()))
    answer = ok(ResumeDetailSchema().dump(resume), message=N_("Change applied."))
    answer.headers["ETag"] = resumes.etag_of(resume)
    return answer
