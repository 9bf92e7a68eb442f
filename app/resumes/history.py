"""A resume's version history: listing the earlier states that edits and restores replaced, and
restoring one (how and when a version is kept: ``app.resumes.versions``). The use cases here commit
at most once and raise ApiError.
"""
from __future__ import annotations

import copy

from sqlalchemy import Row, func, select

from app.common.models import plausible_id, utcnow
from app.errors import ApiError
from app.extensions import db
from app.resumes import service, versions
from app.resumes.models import Resume, ResumeVersion
from app.users.models import User


def list_versions(user: User, resume_id: str, *, page: int, limit: int) -> tuple[list[Row], int]:
    """A page of the resume's versions, newest first, and their total. Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED."""
    resume = service.get_owned_resume(user, resume_id)
    of_resume = ResumeVersion.resume_id == resume.id
    rows = db.session.execute(
        select(ResumeVersion.id, ResumeVersion.created_at, ResumeVersion.title, ResumeVersion.cause,
               ResumeVersion.author)
        .where(of_resume).order_by(ResumeVersion.created_at.desc(), ResumeVersion.id.desc())
        .limit(limit).offset((page - 1) * limit)).all()
    total = db.session.execute(select(func.count(ResumeVersion.id)).where(of_resume)).scalar_one()
    return rows, total


def get_version(user: User, resume_id: str, version_id: str) -> ResumeVersion:
    """One version of the user's resume.

    Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, NOT_FOUND (an unknown version, or another resume's:
    ``details.versionId``).
    """
    return _version_of(service.get_owned_resume(user, resume_id), version_id)


def _version_of(resume: Resume, version_id: str) -> ResumeVersion:
    version = db.session.scalar(select(ResumeVersion).where(ResumeVersion.id == version_id,
                                                            ResumeVersion.resume_id == resume.id)
                                ) if plausible_id(version_id) else None
    if version is None:
        raise ApiError("NOT_FOUND", "This version does not exist.", {"versionId": version_id})
    return version


def restore(user: User, resume_id: str, version_id: str, *, author: str | None = None) -> Resume:
    """Bring the resume back to a version; the state it replaces is kept as a ``restore`` version (an
    ``agent`` one named ``author`` when an agent reverted).

    Rescored; ``resume.updated`` names the fields that changed. Restoring a version equal to the
    resume as it is changes nothing (no version, no event). Commits. Raises as ``get_version``, and
    INVALID_TEMPLATE when the version's template is another, premium one and the plan has basic ones only.
    """
    resume = service.get_owned_resume(user, resume_id)
    before, target = versions.State.of(resume), versions.State.of(_version_of(resume, version_id))
    if before == target:
        return resume
    if target.template_id != before.template_id:
        resume.template = service.usable_template(user, target.template_id)
    resume.title = target.title
    resume.content_json = copy.deepcopy(target.content_json)
    resume.sections_visibility = dict(target.sections_visibility)
    service.score(resume)
    resume.updated_at = utcnow()
    versions.keep(resume.id, before, "agent" if author else "restore", author)
    service.record_update(resume, before.changed_fields(target))
    db.session.commit()
    return resume
