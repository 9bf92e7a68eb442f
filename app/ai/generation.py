"""AI writing: a summary, bullets for one work entry, or a cover letter, written by the configured model
from the resume and the target job.

The request builds the prompt from the resume it read, then waits for a job on the ``ai`` queue
(``run_generation``) that calls the provider and checks the reply, as exports wait for their render.
The resume is never changed: the person reviews the text and applies it in the editor. A generation
counts as one API request against the plan (a bearer request is counted once, as every bearer request
is) and emits ``ai.content_generated``.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime

from flask import current_app
from marshmallow import fields as ma_fields, post_dump, validate

from app import i18n
from app.ai import provider
from app.ai.access import writing_settings
from app.common.models import utcnow
from app.common.schemas import InputSchema, OutputSchema, StrictInteger, StrictString, Timestamp, \
    format_timestamp
from app.errors import ApiError, InvalidField
from app.events.outbox import record_event
from app.extensions import db
from app.queue import AI, JobFailed, jobs
from app.resumes.service import get_owned_resume
from app.users.models import LANGUAGES, User

log = logging.getLogger(__name__)

KINDS = ("summary", "bullets", "cover_letter")
QUEUE_GRACE_SECONDS = 5  # the wait for a job beyond the provider's own time-out (the job's time in the queue)
JOB_DESCRIPTION_MAX = 20_000
# What a usable reply looks like (characters after trimming; bullets: how many, each how long).
TEXT_LENGTHS = {"summary": (20, 1500), "cover_letter": (150, 6000)}
BULLETS_COUNT = (1, 8)
BULLET_MAX = 400
LANGUAGE_NAMES = {code: language.english for code, language in i18n.LANGUAGES.items()}


# Input and output ------------------------------------------------------------
class GenerateInputSchema(InputSchema):
    kind = StrictString(required=True, validate=validate.OneOf(KINDS))
    jobDescription = StrictString(validate=validate.Length(max=JOB_DESCRIPTION_MAX),
                                  metadata={"description": "default: the resume's targetJobDescription"})
    entryIndex = StrictInteger(metadata={"description": "bullets: the workExperience entry (0-based); required"})
    language = StrictString(validate=validate.OneOf(LANGUAGES),
                            metadata={"description": "default: the account's preferences.language"})


class GeneratedSchema(OutputSchema):
    kind = ma_fields.String(required=True)
    text = ma_fields.String(required=True, metadata={"description": "bullets: one per line"})
    bullets = ma_fields.List(ma_fields.String(), metadata={"description": "kind bullets only"})
    model = ma_fields.String(required=True, metadata={"description": "the model that wrote it"})
    generatedAt = Timestamp(required=True, attribute="generated_at")

    @post_dump
    def only_bullets_have_bullets(self, data, **kwargs):
        if data.get("bullets") is None:
            data.pop("bullets", None)
        return data


@dataclass(frozen=True)
class Generated:
    kind: str
    text: str
    model: str
    generated_at: datetime
    bullets: list[str] | None = field(default=None)


# The use case ----------------------------------------------------------------
def generate(user: User, resume_id: str, data: dict, *, already_counted: bool = False) -> Generated:
    """Write ``data["kind"]`` for the user's resume. Commits (the API request count, then the event).

    Checks, in this order: the resume (RESUME_NOT_FOUND / RESUME_NOT_OWNED), the input (VALIDATION_ERROR:
    ``entryIndex`` for bullets), the configuration (AI_NOT_CONFIGURED: upgrading would not help), the plan
    (PLAN_UPGRADE_REQUIRED), the API request count (SUBSCRIPTION_LIMIT_EXCEEDED; skipped when the request
    was already counted as a bearer request); then the provider (AI_PROVIDER_FAILED).
    """
    resume = get_owned_resume(user, resume_id)
    kind, content = data["kind"], resume.content_json or {}
    job = (data.get("jobDescription") or resume.target_job_description or "").strip()[:JOB_DESCRIPTION_MAX]
    entry = _work_entry(content, data.get("entryIndex")) if kind == "bullets" else None
    language = data.get("language") or (user.preferences or {}).get("language") or "en"
    if language not in LANGUAGE_NAMES:
        language = "en"
    settings = writing_settings(user, already_counted=already_counted)
    messages = prompt(kind, content, job, language, entry)
    resume_id, user_id = resume.id, user.id
    db.session.rollback()  # nothing held while the provider writes
    result = _run(kind, messages, settings.timeout)
    generated = Generated(kind=kind, text=result["text"], bullets=result.get("bullets"), model=result["model"],
                          generated_at=utcnow())
    record_event("ai.content_generated", user_id, {"generation": {  # nested by its subject, as the other events
        "resume_id": resume_id, "user_id": user_id, "kind": kind, "model": generated.model, "language": language,
        "characters": len(generated.text), "generated_at": format_timestamp(generated.generated_at)}})
    db.session.commit()
    return generated


def _work_entry(content: dict, index: int | None) -> dict:
    entries = content.get("workExperience") or []
    if index is None:
        raise InvalidField("entryIndex", "Required for bullets: the index of the workExperience entry.")
    if not 0 <= index < len(entries):
        raise InvalidField("entryIndex", "No workExperience entry %(index)s: the resume has %(count)s.",
                           values={"index": index, "count": len(entries)})
    return entries[index]


def _run(kind: str, messages: list[dict], timeout: float) -> dict:
    wait = timeout + QUEUE_GRACE_SECONDS
    try:
        result = jobs().call(AI, "app.ai.generation.run_generation", kind, messages, wait=wait,
                             job_timeout=wait + 5)
    except JobFailed as exc:
        log.error("AI generation (%s) failed: %s", kind, exc)
        raise ApiError("AI_PROVIDER_FAILED", "The AI provider did not answer in time. Try again in a moment.",
                       {"reason": "no result"}) from None
    if "failed" in result:
        raise ApiError("AI_PROVIDER_FAILED", result["failed"], {"reason": result["reason"]})
    return result


# The job ---------------------------------------------------------------------
def run_generation(kind: str, messages: list[dict]) -> dict:
    """The job: ask the provider and check its reply. Returns {text, model, bullets?}, or
    {failed: message for the person, reason} when the provider failed or answered something unusable."""
    settings = provider.settings_from(current_app.config)
    if settings is None:  # a worker started without the web's AI settings
        log.error("AI generation: this worker has no AI_BASE_URL / AI_MODEL")
        return {"failed": "AI writing is not configured on the server's workers.", "reason": "not configured"}
    try:
        completion = provider.complete(settings, messages, json_reply=kind == "bullets")
        return {**checked(kind, completion.text), "model": completion.model}
    except provider.ProviderFailed as exc:
        return {"failed": str(exc), "reason": exc.reason}


def checked(kind: str, reply: str) -> dict:
    """The reply as the API answers it, {text, bullets?}. Raises ProviderFailed when it is not what was
    asked for: empty, too short or long, or (bullets) not a JSON object with a list of strings."""
    if kind == "bullets":
        bullets = _bullets(reply)
        return {"text": "\n".join(bullets), "bullets": bullets}
    text = _tidy(reply)
    low, high = TEXT_LENGTHS[kind]
    if not low <= len(text) <= high:
        raise _unusable(f"the {kind.replace('_', ' ')} has {len(text)} characters (expected {low} to {high})")
    return {"text": text}


_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.S)
_BULLET_MARK = re.compile(r"^(?:[-*\u2022\u00b7]|\d+[.)])\s+")


def _bullets(reply: str) -> list[str]:
    raw = reply.strip()
    fenced = _FENCE.match(raw)  # some local models wrap JSON in a Markdown fence even when asked not to
    try:
        parsed = json.loads(fenced.group(1) if fenced else raw)
    except ValueError:
        raise _unusable("it is not JSON") from None
    items = parsed.get("bullets") if isinstance(parsed, dict) else parsed
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise _unusable("bullets is not a list of strings")
    bullets = [_BULLET_MARK.sub("", item.strip()).strip() for item in items]
    bullets = [bullet for bullet in bullets if bullet]
    low, high = BULLETS_COUNT
    if not low <= len(bullets) <= high:
        raise _unusable(f"{len(bullets)} bullets (expected {low} to {high})")
    if any(len(bullet) > BULLET_MAX for bullet in bullets):
        raise _unusable(f"a bullet is longer than {BULLET_MAX} characters")
    return bullets


def _tidy(reply: str) -> str:
    text = reply.strip()
    fenced = _FENCE.match(text)
    text = (fenced.group(1) if fenced else text).strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':  # a model that quotes its answer
        text = text[1:-1].strip()
    return re.sub(r"\n{3,}", "\n\n", text)


def _unusable(why: str) -> provider.ProviderFailed:
    return provider.ProviderFailed(f"The AI provider's answer was not usable ({why}). Try again.", "unusable")


# Prompts ---------------------------------------------------------------------
_RULES = ("Use only facts found in the resume; never invent employers, titles, dates, numbers, degrees or "
          "skills. Where the job description asks for something the resume does not show, leave it out. "
          "Write in {language}.")
_TASKS = {
    "summary": ("You write the professional summary at the top of a resume. Write 2 to 4 sentences (at most "
                "90 words) in the first person without pronouns, aimed at the target job when one is given. "
                "Answer with the summary's text only: no heading, no quotes, no Markdown."),
    "bullets": ("You rewrite the achievements of one work experience entry of a resume. Write 3 to 5 bullets, "
                "each one line starting with a strong action verb, concrete and, where the resume gives "
                "them, with numbers; aimed at the target job when one is given. Answer with a JSON object "
                "only: {\"bullets\": [\"...\", \"...\"]}."),
    "cover_letter": ("You write cover letters. Write a cover letter of 3 to 5 short paragraphs (250 to 400 "
                     "words) for the target job from the resume: why this role, the most relevant experience "
                     "and results, a short close. Start with the salutation and end with the person's name. "
                     "Answer with the letter's text only, paragraphs separated by a blank line, no Markdown."),
}


NO_JOB = "(none given: write for the kind of role the resume points to)"


def prompt(kind: str, content: dict, job: str, language: str, entry: dict | None = None) -> list[dict]:
    """The chat messages for ``kind``: the task and rules, then the resume, the entry and the job."""
    system = f"{_TASKS[kind]} {_RULES.format(language=LANGUAGE_NAMES[language])}"
    parts = [f"RESUME\n{resume_text(content)}"]
    if entry is not None:
        parts.append(f"THE ENTRY TO WRITE BULLETS FOR\n{_work_text(entry)}")
    parts.append("TARGET JOB DESCRIPTION\n" + (job or NO_JOB))
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(parts)}]


def resume_text(content: dict) -> str:
    """The resume's substance as plain text for a prompt (contact details left out: the model needs none)."""
    info = content.get("personalInfo") or {}
    lines = [line for line in (info.get("name"), info.get("label")) if line]
    if info.get("summary"):
        lines += ["", "Summary:", info["summary"]]
    work = content.get("workExperience") or []
    if work:
        lines += ["", "Work experience:"] + [_work_text(entry) for entry in work]
    for project in content.get("projects") or []:
        lines += ["", f"Project: {project.get('name', '')}", project.get("description", ""),
                  *(f"- {item}" for item in project.get("highlights") or [])]
    for school in content.get("education") or []:
        lines.append(f"Education: {school.get('degree', '')} {school.get('area') or ''}, {school.get('school', '')}"
                     f" ({school.get('startDate', '')} - {school.get('endDate', '')})")
    skills = list(content.get("skills") or [])
    for group in content.get("skillGroups") or []:
        skills += group.get("keywords") or []
    if skills:
        lines += ["", "Skills: " + ", ".join(skills)]
    return "\n".join(line for line in lines if line is not None).strip()


def _work_text(entry: dict) -> str:
    period = f"{entry.get('startDate') or '?'} - {entry.get('endDate') or 'present'}"
    head = f"{entry.get('position', '')} at {entry.get('company', '')} ({period})"
    details = [entry.get("description") or "", *(f"- {item}" for item in entry.get("highlights") or [])]
    return "\n".join([head, *(detail for detail in details if detail)])
