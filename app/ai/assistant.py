"""The editor's assistant (issue 35 point 5): a chat about the resume open in the editor, in which the model
reads the resume through tools and proposes changes as JSON Patches; nothing changes until the person
accepts a proposal (``accept``), which is one version named "Assistant: apply_resume_patch".

The request checks what the other AI features check (the resume, the configuration, the plan, the API
request count), then waits for a job on the ``ai`` queue (``run_conversation``), as AI writing does. The
job offers the model four functions: ``get_resume`` and ``list_templates`` (read), ``propose_patch`` (a
patch on entry ids, checked as ``apply_resume_patch`` with ``dry_run`` would check it: one that cannot
apply goes back to the model with the reason, up to MAX_ROUNDS calls in all) and ``ask_user`` (a question
back to the person when the request is ambiguous). Its answer is the model's words and at most one of a
proposal or a question.
"""
from __future__ import annotations

import json
import logging

from flask import current_app
from marshmallow import ValidationError, fields, validate

from app.ai import provider
from app.ai.access import writing_settings
from app.common.schemas import InputSchema, OutputSchema, StrictString
from app.errors import ApiError, from_schema_error
from app.extensions import db
from app.queue import AI, JobFailed, jobs
from app.resumes import patching, schemas, service
from app.users.models import User

log = logging.getLogger(__name__)

AUTHOR = "Assistant: apply_resume_patch"
MAX_ROUNDS = 6  # calls to the model for one message of the person's
QUEUE_GRACE_SECONDS = 5
SYSTEM = (
    "You help a person improve the resume open in their editor. Answer in the language of their last message. "
    "Read the resume with get_resume before you say anything about it; its entries have ids. To change the "
    "resume, call propose_patch with a JSON Patch (RFC 6902) on the document get_resume answers: paths under "
    "/title, /contentJson, /sectionsVisibility and /targetJobDescription, entries addressed by their id "
    "(/contentJson/workExperience/<id>/description), lists of plain values by position (- appends). The person "
    "sees your proposal and accepts it or not: propose one coherent change at a time, with a one-sentence "
    "summary. Never invent facts, employers, dates or numbers the resume does not hold. When the request is "
    "ambiguous (which entry? which job?), call ask_user with one short question instead of guessing.")
TOOLS = [
    {"type": "function", "function": {
        "name": "get_resume", "description": "The resume as it is saved now, with its version and entry ids.",
        "parameters": {"type": "object", "properties": {}}}},
    {"type": "function", "function": {
        "name": "list_templates", "description": "The templates the resume can be drawn with.",
        "parameters": {"type": "object", "properties": {}}}},
    {"type": "function", "function": {
        "name": "propose_patch", "description": "Propose a change to the person: a JSON Patch and a summary.",
        "parameters": {"type": "object", "required": ["operations", "summary"], "properties": {
            "operations": {"type": "array", "minItems": 1, "maxItems": 100, "items": {"type": "object"}},
            "summary": {"type": "string", "description": "what the change does, in one sentence"}}}}},
    {"type": "function", "function": {
        "name": "ask_user", "description": "Ask the person one question when the request is ambiguous.",
        "parameters": {"type": "object", "required": ["question"], "properties": {"question": {"type": "string"}}}}},
]


class TurnSchema(InputSchema):
    role = StrictString(required=True, validate=validate.OneOf(["user", "assistant"]))
    content = StrictString(required=True, validate=validate.Length(min=1, max=4000))


class ConversationSchema(InputSchema):
    messages = fields.List(fields.Nested(TurnSchema), required=True, validate=validate.Length(min=1, max=20),
                           metadata={"description": "the chat so far, the person's last message last"})


class ProposalSchema(OutputSchema):
    summary = fields.String(required=True)
    baseVersion = fields.String(required=True, metadata={"description": "the version the patch was made from"})
    operations = fields.List(fields.Dict(), required=True, metadata={"description": "the JSON Patch"})
    changedPaths = fields.List(fields.String(), required=True)
    resume = fields.Dict(required=True, metadata={
        "description": "title, contentJson, sectionsVisibility, targetJobDescription as the patch leaves them"})


class AssistantReplySchema(OutputSchema):
    kind = fields.String(required=True, validate=validate.OneOf(["answer", "proposal", "question"]))
    reply = fields.String(required=True, metadata={"description": "the assistant's words"})
    proposal = fields.Nested(ProposalSchema, required=True, allow_none=True)
    model = fields.String(required=True)


class AcceptSchema(InputSchema):
    baseVersion = StrictString(required=True, validate=validate.Length(min=1, max=64))
    operations = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1, max=100))


def converse(user: User, resume_id: str, data: dict, *, already_counted: bool = False) -> dict:
    """The assistant's answer to the chat in ``data``. Commits (the API request count). Raises
    RESUME_NOT_FOUND / RESUME_NOT_OWNED, AI_NOT_CONFIGURED, PLAN_UPGRADE_REQUIRED,
    SUBSCRIPTION_LIMIT_EXCEEDED, AI_PROVIDER_FAILED."""
    resume = service.get_owned_resume(user, resume_id)
    settings = writing_settings(user, already_counted=already_counted)
    user_id, resume_id = user.id, resume.id
    db.session.commit()
    wait = settings.timeout * 2 + QUEUE_GRACE_SECONDS
    try:
        result = jobs().call(AI, "app.ai.assistant.run_conversation", user_id, resume_id, data["messages"],
                             wait=wait, job_timeout=wait + 5)
    except JobFailed as exc:
        log.error("assistant failed: %s", exc)
        raise ApiError("AI_PROVIDER_FAILED", "The AI provider did not answer in time. Try again in a moment.",
                       {"reason": "no result"}) from None
    if "failed" in result:
        raise ApiError("AI_PROVIDER_FAILED", result["failed"], {"reason": result["reason"]})
    return result


def accept(user: User, resume_id: str, data: dict):
    """Apply an accepted proposal: one ``agent`` version named AUTHOR. Commits. Raises as
    ``patching.apply`` (RESUME_CONFLICT when the resume changed since the proposal)."""
    patching.apply(user, resume_id, data["baseVersion"], data["operations"], author=AUTHOR)
    return service.get_owned_resume(user, resume_id)


# The job ---------------------------------------------------------------------------------------------
def run_conversation(user_id: str, resume_id: str, messages: list[dict]) -> dict:
    """The job: the model and its function calls, until it answers, proposes or asks. Returns the answer
    (``AssistantReplySchema``), or {failed, reason}."""
    settings = provider.settings_from(current_app.config)
    user = db.session.get(User, user_id)
    if settings is None or user is None:
        return {"failed": "AI writing is not configured on the server's workers.", "reason": "not configured"}
    conversation = [{"role": "system", "content": SYSTEM}, *messages]
    model = settings.model
    try:
        for _ in range(MAX_ROUNDS):
            completion = provider.complete(settings, conversation, tools=TOOLS, max_tokens=2000)
            model = completion.model
            if not completion.tool_calls:
                return _answer("answer", completion.text.strip(), None, model)
            conversation.append({"role": "assistant", "content": completion.text or None, "tool_calls": [
                {"id": call.id, "type": "function",
                 "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}
                for call in completion.tool_calls]})
            for call in completion.tool_calls:
                done, result = _call(user, resume_id, call)
                if done is not None:
                    return {**done, "model": model}
                conversation.append({"role": "tool", "tool_call_id": call.id,
                                     "content": json.dumps(result, ensure_ascii=False)})
    except provider.ProviderFailed as exc:
        return {"failed": str(exc), "reason": exc.reason}
    finally:
        db.session.rollback()
    return _answer("answer", "I could not finish this: say a little more precisely what to change.", None, model)


def _answer(kind: str, reply: str, proposal: dict | None, model: str) -> dict:
    return {"kind": kind, "reply": reply, "proposal": proposal, "model": model}


def _call(user: User, resume_id: str, call) -> tuple[dict | None, object]:
    """Run one function call: (the final answer, None) for a proposal or a question, else (None, the result
    the model reads)."""
    if call.name == "get_resume":
        return None, patching.document_of(service.get_owned_resume(user, resume_id))
    if call.name == "list_templates":
        return None, schemas.TemplateListItemSchema(many=True, only=("id", "name", "category", "tier")).dump(
            service.list_templates())
    if call.name == "ask_user":
        question = str(call.arguments.get("question") or "").strip()
        return (_answer("question", question, None, "") if question else None), {"error": "question is empty"}
    if call.name == "propose_patch":
        resume = service.get_owned_resume(user, resume_id)
        version, operations = patching.version_of(resume), call.arguments.get("operations")
        try:
            checked = patching.apply(user, resume_id, version, operations, author=AUTHOR, dry_run=True)
        except ValidationError as refused:  # what the patch leaves, as PUT would refuse it
            refused = from_schema_error(refused)
            db.session.rollback()
            return None, {"error": refused.message, "details": refused.details}
        except ApiError as refused:
            db.session.rollback()
            return None, {"error": refused.message, "details": refused.details}
        summary = str(call.arguments.get("summary") or "").strip()[:500]
        return _answer("proposal", summary, {"summary": summary, "baseVersion": version, "operations": operations,
                                             "changedPaths": checked["changedPaths"], "resume": checked["resume"]},
                       ""), None
    return None, {"error": f"there is no function {call.name}"}
