"""Resume use cases. Each public function commits at most once and raises ApiError."""
from __future__ import annotations

import copy
import hashlib
import json
import secrets

from sqlalchemy import Row, bindparam, func, select, update

from app.billing import usage
from app.billing.plans import plan_for
from app.common.models import new_id, plausible_id, utcnow
from app.common.schemas import format_timestamp
from app.errors import ApiError, InvalidField
from app.events.outbox import record_event
from app.extensions import db
from app.matching import engine
from app.resumes import versions
from app.resumes.models import SECTIONS, Resume, Share, Template
from app.users.models import User

MAX_CONTENT_BYTES = 256 * 1024


def empty_content() -> dict:
    return {"personalInfo": {k: "" for k in ("name", "email", "phone", "address", "summary")},
            "workExperience": [], "education": [], "skills": [], "projects": []}


def get_owned_resume(user: User, resume_id: str) -> Resume:
    """The user's live resume with this id.

    Raises RESUME_NOT_FOUND (unknown or deleted; ``details.resumeId``) or
    RESUME_NOT_OWNED (another user's).
    """
    resume = db.session.scalar(Resume.live().where(Resume.id == resume_id)) if plausible_id(resume_id) else None
    if resume is None:
        raise ApiError("RESUME_NOT_FOUND", "This resume does not exist or was deleted.", {"resumeId": resume_id})
    if resume.user_id != user.id:
        raise ApiError("RESUME_NOT_OWNED", "This resume belongs to another user.", {"resumeId": resume_id})
    return resume


def list_templates() -> list[Template]:
    return list(db.session.scalars(db.select(Template).order_by(Template.tier, Template.name)))


def usable_template(user: User, template_id: str) -> Template:
    """Raises INVALID_TEMPLATE for an unknown template or a premium one on a basic plan."""
    template = db.session.get(Template, template_id) if plausible_id(template_id) else None
    if template is None:
        raise ApiError("INVALID_TEMPLATE", "This template does not exist.", {"templateId": template_id})
    if template.tier == "premium" and plan_for(user.subscription_type).templates_access != "all":
        raise ApiError("INVALID_TEMPLATE", "This template needs a Premium plan.", {"templateId": template_id})
    return template


def _checked_content(content: dict) -> dict:
    """Give project entries and custom sections ids; raises CONTENT_TOO_LARGE over 256 KiB serialized."""
    for entry in [*content["projects"], *content.get("customSections", ())]:
        entry.setdefault("id", secrets.token_hex(8))
    if len(json.dumps(content, ensure_ascii=False).encode("utf-8")) > MAX_CONTENT_BYTES:
        raise ApiError("CONTENT_TOO_LARGE", "contentJson is larger than 256 KiB.", {"field": "contentJson"})
    return content


# The list is the hot path: statements built once, read as rows, not ORM objects. The page joins
# the template and the share, in the order of the partial indexes. The total of the unfiltered
# list is the user's counter (``User.live_resumes``); a status filter counts on its index.
_resumes, _templates, _shares = Resume.__table__, Template.__table__, Share.__table__
_LIVE_OF_USER = (_resumes.c.user_id == bindparam("user_id"), _resumes.c.deleted_at.is_(None))
_WITH_STATUS = _resumes.c.status == bindparam("status")
_LIST_PAGE = (
    select(_resumes.c.id, _resumes.c.title, _resumes.c.status, _resumes.c.template_id,
           _templates.c.name.label("template_name"), _templates.c.category.label("template_category"),
           _resumes.c.ats_score, _resumes.c.keyword_match_score, _resumes.c.created_at, _resumes.c.updated_at,
           _shares.c.is_enabled.label("share_is_enabled"), _shares.c.view_count.label("share_view_count"),
           (_shares.c.password_hash.is_not(None)).label("share_has_password"),
           _shares.c.last_viewed_at.label("share_last_viewed_at"))
    .select_from(_resumes.join(_templates, _templates.c.id == _resumes.c.template_id)
                 .outerjoin(_shares, _shares.c.resume_id == _resumes.c.id))
    .where(*_LIVE_OF_USER)
    .order_by(_resumes.c.updated_at.desc(), _resumes.c.id.desc())
    .limit(bindparam("limit")).offset(bindparam("offset")))
_LIST_PAGE_OF_STATUS = _LIST_PAGE.where(_WITH_STATUS)
_LIST_COUNT_OF_STATUS = select(func.count(_resumes.c.id)).where(*_LIVE_OF_USER, _WITH_STATUS)


def list_resumes(user: User, *, page: int, limit: int, status: str | None,
                 title_contains: str | None = None) -> tuple[list[Row], int]:
    """A page of the user's live resumes, newest ``updatedAt`` first, and the total.

    One statement (the page), or two with a status filter (the page and its count); ``title_contains``
    keeps those whose title holds it, in any case (the MCP server's search).

    The rows carry the columns of a list item (``schemas.list_item`` turns one into it).
    """
    params = {"user_id": user.id, "status": status, "limit": limit, "offset": (page - 1) * limit}
    if title_contains:
        wanted = [_resumes.c.title.icontains(title_contains, autoescape=True)]
        wanted += [_WITH_STATUS] if status is not None else []
        rows = db.session.execute(_LIST_PAGE.where(*wanted), params).all()
        total = db.session.execute(select(func.count(_resumes.c.id)).where(*_LIVE_OF_USER, *wanted), params)
        return rows, total.scalar_one()
    if status is None:
        rows, total = db.session.execute(_LIST_PAGE, params).all(), user.live_resumes
    else:  # a bare count of ids: the index answers it without reading rows
        rows = db.session.execute(_LIST_PAGE_OF_STATUS, params).all()
        total = db.session.execute(_LIST_COUNT_OF_STATUS, params).scalar_one()
    return rows, total


def create_resume(user: User, data: dict, also=None) -> Resume:
    """A DRAFT resume. Commits; ``also(resume)``, when given, adds its rows in the same transaction.
    Raises INVALID_TEMPLATE, CONTENT_TOO_LARGE, SUBSCRIPTION_LIMIT_EXCEEDED."""
    template = usable_template(user, data["templateId"])
    usage.count_one_more_resume(user)
    visibility = {section: True for section in SECTIONS} | data.get("sectionsVisibility", {})
    now = utcnow()
    resume = Resume(id=new_id(), user_id=user.id, title=data["title"], status="DRAFT", template=template,
                    created_at=now, updated_at=now,
                    content_json=_checked_content(data.get("contentJson") or empty_content()),
                    sections_visibility=visibility,
                    target_job_description=data.get("targetJobDescription"))
    score(resume)
    db.session.add(resume)
    if also is not None:
        also(resume)
    record_created(resume)
    db.session.commit()
    return resume


def record_created(resume: Resume) -> None:
    record_event("resume.created", resume.user_id, {"resume": {
        "id": resume.id, "title": resume.title, "status": resume.status, "user_id": resume.user_id,
        "template_id": resume.template.id, "created_at": format_timestamp(resume.created_at)}})


def etag_of(resume: Resume) -> str:
    """The resume's version as an entity tag: it changes with every save (``updatedAt``)."""
    stamp = f"{resume.id}|{resume.updated_at.isoformat(timespec='microseconds')}"
    return '"' + hashlib.sha256(stamp.encode()).hexdigest()[:20] + '"'


def update_resume(user: User, resume_id: str, data: dict, if_match: str | None = None, *,
                  author: str | None = None) -> Resume:
    """Apply the given fields (a given ``contentJson`` replaces the content). Commits.

    With ``if_match`` (the ETag of the version the save was made from, or ``*``), a save from another
    version is refused: what it would have saved is kept as a version (cause ``conflict``, so nothing
    typed is lost) and StaleCopy raised (the view's RESUME_CONFLICT carries the current resume). The
    database decides between saves racing with one tag (``_holds``): one wins, the others are refused.
    Without it, the save applies whatever happened meanwhile, as before. ``author`` names an agent's edit
    (``versions.keep_edit``).

    Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, StaleCopy, INVALID_TEMPLATE, CONTENT_TOO_LARGE.
    """
    resume = get_owned_resume(user, resume_id)
    if not _holds(resume, if_match):
        _refuse_stale_save(resume, data)
    before = versions.State.of(resume)
    if "templateId" in data and data["templateId"] != resume.template_id:
        resume.template = usable_template(user, data["templateId"])
    for field, attribute in (("title", "title"), ("status", "status"),
                             ("targetJobDescription", "target_job_description")):
        if field in data:
            setattr(resume, attribute, data[field])
    if "contentJson" in data:
        resume.content_json = _checked_content(data["contentJson"])
    if "sectionsVisibility" in data:
        resume.sections_visibility = resume.sections_visibility | data["sectionsVisibility"]
    if {"contentJson", "targetJobDescription"} & data.keys():
        score(resume)
    if data:
        resume.updated_at = utcnow()  # any change, even one SQLAlchemy sees as none, moves it up the list
        versions.keep_edit(resume, before, author)
        record_update(resume, [field for field in UPDATE_FIELDS if field in data])
    db.session.commit()
    return resume


def _holds(resume: Resume, if_match: str | None) -> bool:
    """Whether the resume is still the version ``if_match`` (an If-Match header: strong tags, or ``*``)
    names, decided in the database: a conditional UPDATE that changes nothing takes the row (a row lock
    on PostgreSQL, the write lock on SQLite, where it is the transaction's first statement) for the rest
    of the save, only if it still holds the version read. Of saves racing with one tag, one holds it;
    the others wait for its commit, then find another version. A weak tag (``W/``) never matches.
    Without ``if_match`` nothing is checked (the last save wins)."""
    if if_match is None or if_match.strip() == "*":
        return True
    if etag_of(resume) not in {tag.strip() for tag in if_match.split(",")}:
        return False
    held = db.session.execute(update(Resume).where(Resume.id == resume.id, Resume.updated_at == resume.updated_at)
                              .values(updated_at=Resume.updated_at).execution_options(synchronize_session=False))
    if held.rowcount == 1:
        return True
    db.session.refresh(resume)  # the save that won: the conflict answers with it
    return False


class StaleCopy(Exception):
    """A save made from another version than ``resume``'s current one (the view answers RESUME_CONFLICT
    with the current resume)."""

    def __init__(self, resume: Resume):
        super().__init__(resume.id)
        self.resume = resume


def _refuse_stale_save(resume: Resume, data: dict) -> None:
    """Keep what a stale save would have saved as a ``conflict`` version, then raise StaleCopy."""
    current = versions.State.of(resume)
    refused = versions.State(
        title=data.get("title", current.title), template_id=data.get("templateId", current.template_id),
        content_json=_checked_content(data["contentJson"]) if "contentJson" in data else current.content_json,
        sections_visibility=current.sections_visibility | data.get("sectionsVisibility", {}))
    if refused != current:
        versions.keep_refused(resume.id, refused)
        db.session.commit()
    raise StaleCopy(resume)


# The fields of an update, in the order resume.updated events name them.
UPDATE_FIELDS = ("title", "status", "templateId", "contentJson", "sectionsVisibility", "targetJobDescription")


def record_update(resume: Resume, changed_fields: list[str]) -> None:
    record_event("resume.updated", resume.user_id, {"resume": {
        "id": resume.id, "title": resume.title, "status": resume.status, "user_id": resume.user_id,
        "template_id": resume.template_id, "updated_at": format_timestamp(resume.updated_at),
        "changed_fields": changed_fields}})


def delete_resume(user: User, resume_id: str) -> None:
    """Soft delete. Commits. Raises RESUME_NOT_FOUND (also for a second delete), RESUME_NOT_OWNED."""
    resume = get_owned_resume(user, resume_id)
    resume.deleted_at = utcnow()
    usage.count_one_fewer_resume(user.id)
    record_event("resume.deleted", user.id, {"resume": {"id": resume.id, "user_id": user.id,
                                                        "deleted_at": format_timestamp(resume.deleted_at)}})
    db.session.commit()


COPY_SUFFIX = " (copy)"


def duplicate_resume(user: User, resume_id: str) -> Resume:
    """A DRAFT copy: "<title> (copy)" (the title shortened to keep the suffix within 200 characters),
    the same template, content, visibility and target job; no share, no versions. Commits.

    Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, INVALID_TEMPLATE (a premium template the plan no longer
    offers: creating with it would be refused too), SUBSCRIPTION_LIMIT_EXCEEDED.
    """
    source = get_owned_resume(user, resume_id)
    template = usable_template(user, source.template_id)
    usage.count_one_more_resume(user)
    now = utcnow()
    duplicate = Resume(id=new_id(), user_id=user.id, status="DRAFT", template=template, created_at=now,
                       updated_at=now, title=source.title[:200 - len(COPY_SUFFIX)].rstrip() + COPY_SUFFIX,
                       content_json=copy.deepcopy(source.content_json),
                       sections_visibility=dict(source.sections_visibility),
                       target_job_description=source.target_job_description)
    score(duplicate)
    db.session.add(duplicate)
    record_created(duplicate)
    db.session.commit()
    return duplicate


def recount_live_resumes() -> None:
    """Set every user's ``live_resumes`` from the rows (after rows were written around the service,
    as a bulk import does). Does not commit."""
    live = (select(func.count(Resume.id)).where(Resume.user_id == User.id, Resume.deleted_at.is_(None))
            .scalar_subquery())
    usage.set_live_resumes(live)


def score(resume: Resume) -> None:
    """atsScore and keywordMatchScore from the analysis engine: its overallScore and keywordMatchScore
    against the target job (both None without one), so that the list, the detail and
    ``POST /api/resumes/<id>/analysis`` agree. docs/scoring.md works an example through."""
    resume.ats_score, resume.keyword_match_score = engine.scores(resume.content_json,
                                                                 resume.target_job_description)


# Project entries: the items of contentJson.projects ---------------------------
def list_projects(user: User, resume_id: str) -> list[dict]:
    """Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED."""
    return get_owned_resume(user, resume_id).content_json["projects"]


def add_project(user: User, resume_id: str, entry: dict, if_match: str | None = None) -> tuple[dict, str]:
    """Append a project entry (a new id). Commits. Returns the entry and the resume's new ETag.
    Raises as ``update_resume`` (StaleCopy too, with ``if_match`` naming another version)."""
    resume = get_owned_resume(user, resume_id)
    entry = {"id": secrets.token_hex(8), **entry}
    return entry, _replace_projects(resume, resume.content_json["projects"] + [entry], if_match)


def update_project(user: User, resume_id: str, project_id: str, changes: dict,
                   if_match: str | None = None) -> tuple[dict, str]:
    """Apply the given fields to one entry. Commits. Returns it and the resume's new ETag. Raises NOT_FOUND
    (``details.projectId``) and as above."""
    resume = get_owned_resume(user, resume_id)
    projects = [dict(p) for p in resume.content_json["projects"]]
    entry = _find_project(projects, project_id)
    entry.update(changes)
    if entry.get("startDate") and entry.get("endDate") and entry["endDate"] < entry["startDate"]:
        raise InvalidField("endDate", "Must not be before startDate.")
    return entry, _replace_projects(resume, projects, if_match)


def delete_project(user: User, resume_id: str, project_id: str, if_match: str | None = None) -> str:
    """Remove one entry. Commits. Returns the resume's new ETag. Raises NOT_FOUND (``details.projectId``)
    and as above."""
    resume = get_owned_resume(user, resume_id)
    projects = resume.content_json["projects"]
    entry = _find_project(projects, project_id)
    return _replace_projects(resume, [p for p in projects if p is not entry], if_match)


def _find_project(projects: list[dict], project_id: str) -> dict:
    for project in projects:
        if project.get("id") == project_id:
            return project
    raise ApiError("NOT_FOUND", "This project entry does not exist.", {"projectId": project_id})


def _replace_projects(resume: Resume, projects: list[dict], if_match: str | None) -> str:
    """Save the project entries (a stale ``if_match`` refuses it, as ``update_resume`` does); the new ETag."""
    if not _holds(resume, if_match):
        _refuse_stale_save(resume, {"contentJson": {**resume.content_json, "projects": projects}})
    # A new dict: SQLAlchemy only notices a JSON column change by assignment.
    before = versions.State.of(resume)
    resume.content_json = _checked_content({**resume.content_json, "projects": projects})
    score(resume)
    resume.updated_at = utcnow()
    versions.keep_edit(resume, before)
    record_update(resume, ["contentJson"])
    db.session.commit()
    return etag_of(resume)
