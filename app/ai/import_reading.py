"""AI-assisted import: a second reading of an imported PDF or DOCX by the configured model.

``app.resumes.imports`` reads the file with the rules (``app.importing``), then hands the reading to
``assist`` (given to it by the factory, ``imports.init_app``: ``resumes`` sits below ``ai`` and does not
import it). When a provider is configured (``AI_BASE_URL``, ``AI_MODEL``) and the account's plan has AI
features (the rule of every AI feature, ``access.may_use_ai``), the document's lines (``Reading.text``, as the sandboxed
reader extracted them) go to the model with a compact description of the content schema, asking for a
JSON object of that shape. Of its answer only what occurs in the text is kept (``import_merge.grounded``),
then what the content schema accepts (``cleaning.keep_valid``); that is merged into the rules' reading
(``import_merge.merge``), each value taken from the model listed in the report as a note with reason
"ai". The call runs as a job on the ``ai`` queue, as AI writing's does.

Nothing the model does fails an import: no answer in ``AI_TIMEOUT_SECONDS``, an error status, an answer
that is not a JSON object, or one that cannot be merged leaves the rules' reading as it was, and the log
says why. Without a provider, or on a plan without AI features, nothing is sent.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import replace

from flask import current_app
from marshmallow import fields

from app.ai import provider
from app.ai.access import may_use_ai
from app.ai.import_merge import SECTIONS, SKIPPED, grounded, merge
from app.content import cleaning
from app.content.schema import ContentSchema, Month
from app.importing.reading import Reading
from app.queue import AI, JobFailed, jobs
from app.users.models import User

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 30_000    # of the document's text sent (a dense two-page resume has about 8,000)
MAX_TOKENS = 4000          # of the answer: a long resume's JSON
QUEUE_GRACE_SECONDS = 5    # the wait for the job beyond the provider's own time-out


def assist(user: User, found: Reading) -> Reading:
    """``found`` with what the model read in its text merged in, or ``found`` itself when no model is
    configured, the plan has no AI features, or the model failed (logged). Commits nothing."""
    settings = provider.settings_from(current_app.config)
    if settings is None or not found.text.strip() or not may_use_ai(user):
        return found
    messages = prompt(found.text)
    wait = settings.timeout + QUEUE_GRACE_SECONDS
    try:
        result = jobs().call(AI, "app.ai.import_reading.run_import_reading", messages, wait=wait,
                             job_timeout=wait + 5)
    except JobFailed as exc:
        log.warning("AI-assisted import: no answer, the rules' reading is kept (%s)", exc)
        return found
    if "failed" in result:
        log.warning("AI-assisted import: the provider failed (%s), the rules' reading is kept", result["reason"])
        return found
    answer = parsed(result["text"])
    if answer is None:
        log.warning("AI-assisted import: the answer is not a JSON object, the rules' reading is kept")
        return found
    try:
        kept, refused = cleaning.keep_valid(grounded(answer, found.text))
        content, unsure, notes = merge(found.content, found.unsure, kept)
    except Exception:  # noqa: BLE001 (the model's answer is untrusted input: the import goes on without it)
        log.exception("AI-assisted import: the answer could not be merged, the rules' reading is kept")
        return found
    log.info("AI-assisted import: %d value(s) from the model (%s); %d of its values not valid", len(notes),
             result.get("model", ""), len(refused))
    return replace(found, content=content, unsure=unsure + notes)


# The job ---------------------------------------------------------------------------------------------
def run_import_reading(messages: list[dict]) -> dict:
    """The job: the model's answer to the import's prompt, ``{text, model}``, or ``{failed, reason}`` when
    the provider failed (or this worker has no provider)."""
    settings = provider.settings_from(current_app.config)
    if settings is None:
        log.error("AI-assisted import: this worker has no AI_BASE_URL / AI_MODEL")
        return {"failed": "not configured", "reason": "not configured"}
    try:
        completion = provider.complete(settings, messages, json_reply=True, max_tokens=MAX_TOKENS)
    except provider.ProviderFailed as exc:
        return {"failed": str(exc), "reason": exc.reason}
    return {"text": completion.text, "model": completion.model}


_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.S)


def parsed(reply: str) -> dict | None:
    """The JSON object of the model's reply (a Markdown fence around it tolerated; one wrapped in a
    single ``resume`` or ``content`` key unwrapped), or None."""
    raw = reply.strip()
    fenced = _FENCE.match(raw)
    try:
        answer = json.loads(fenced.group(1) if fenced else raw)
    except (ValueError, RecursionError):
        return None
    if isinstance(answer, dict) and len(answer) == 1 and isinstance(next(iter(answer.values())), dict) \
            and next(iter(answer)) in ("resume", "content"):
        answer = next(iter(answer.values()))
    return answer if isinstance(answer, dict) else None


# The prompt ------------------------------------------------------------------------------------------
INSTRUCTIONS = (
    "You read resumes. The user's message is the text of a resume file, one line of the document a line "
    "(parts of a line that stand apart are separated by a tab). Answer with one JSON object of the shape "
    "below, holding only what the text says. Copy every value exactly as it is written in the text: the same "
    "words, spelling and language; never translate, reword, summarise or invent. Leave out any field or "
    "section the text does not give. Dates are YYYY-MM (the month 01 when only a year is printed); a job "
    "or school still going on has endDate \"\". Put each job, school, project... in an entry of its own, "
    "in the order the text gives them; a job title in position, the employer in company.\n\nShape:\n")


def schema_description() -> str:
    """The content schema's sections as a JSON example: a string field is "", a month "YYYY-MM", a list of
    strings [""], a list of records [{...}]."""
    schema = ContentSchema()
    return json.dumps({key: _example(schema.fields[key]) for key in SECTIONS}, ensure_ascii=False,
                      separators=(",", ":"))


def _example(field):
    if isinstance(field, fields.Nested):
        return {name: _example(inner) for name, inner in field.schema.fields.items() if name not in SKIPPED}
    if isinstance(field, fields.List):
        return [_example(field.inner)]
    return "YYYY-MM" if isinstance(field, Month) else ""


def prompt(text: str) -> list[dict]:
    """The chat messages that ask for the document's content: the task and the schema, then its text
    (at most ``MAX_TEXT_CHARS``)."""
    if len(text) > MAX_TEXT_CHARS:
        log.info("AI-assisted import: the text's first %d of %d characters are sent", MAX_TEXT_CHARS, len(text))
    return [{"role": "system", "content": INSTRUCTIONS + schema_description()},
            {"role": "user", "content": text[:MAX_TEXT_CHARS]}]
