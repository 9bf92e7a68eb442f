"""A resume's version history: the earlier states that edits and restores replaced.

A version keeps what a person shapes: the title, the template, ``contentJson`` and
``sectionsVisibility`` (not the status, a workflow mark, nor the target job
description, which describes the job rather than the resume). ``cause`` says what
replaced the state a version keeps (``CAUSES``):

- ``edit``: an update that changed one of those fields (``PUT /api/resumes/<id>``,
  the project-entry endpoints); an update that changes none of them keeps nothing;
- ``restore``: a restore of an earlier version (the state it replaced stays restorable).

Saves in quick succession fold: an autosaving editor saves every few seconds, and a
version per save would bury the states worth going back to. When the resume's
newest version was kept by an edit less than ``VERSION_FOLD_SECONDS`` ago, an edit
keeps nothing more: the state before the burst is already kept, and the states in
between were never meant to last. A resume keeps its newest ``KEEP`` versions; the
transaction that adds one deletes older ones.

``service.update_resume`` and the project-entry functions call ``keep_edit`` before
they commit; the use cases here commit at most once and raise ApiError.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from marshmallow import fields, validate
from sqlalchemy import Row, delete, func, select

from app.account.models import User
from app.common.models import new_id, plausible_id, utcnow
from app.common.schemas import OutputSchema, Timestamp
from app.errors import ApiError
from app.extensions import db
from app.resumes import service
from app.resumes.models import Resume, ResumeVersion

CAUSES = ("edit", "restore")
KEEP = 100  # versions kept per resume


@dataclass(frozen=True)
class State:
    """What a version keeps, compared as a whole to tell whether an edit changed anything."""

    title: str
    template_id: str
    content_json: dict
    sections_visibility: dict

    @classmethod
    def of(cls, source: Resume | ResumeVersion) -> State:
        return cls(source.title, source.template_id, source.content_json, source.sections_visibility)

    def changed_fields(self, other: State) -> list[str]:
        """The fields that differ, named and ordered as ``resume.updated`` names them."""
        differ = {"title": self.title != other.title, "templateId": self.template_id != other.template_id,
                  "contentJson": self.content_json != other.content_json,
                  "sectionsVisibility": self.sections_visibility != other.sections_visibility}
        return [field for field in service.UPDATE_FIELDS if differ.get(field)]


def keep_edit(resume: Resume, before: State) -> None:
    """Keep ``before`` as a version of ``resume``, which an edit has just changed (not committed),
    unless nothing kept changed or the edit folds into a burst. Does not commit."""
    db.session.flush()  # a template assigned through the relationship sets template_id only then
    if State.of(resume) == before:
        return
    newest = db.session.execute(
        select(ResumeVersion.created_at, ResumeVersion.cause).where(ResumeVersion.resume_id == resume.id)
        .order_by(ResumeVersion.created_at.desc()).limit(1)).first()
    fold = timedelta(seconds=current_app.config["VERSION_FOLD_SECONDS"])
    if newest is not None and newest.cause == "edit" and utcnow() - newest.created_at < fold:
        return
    _keep(resume.id, before, "edit")


def _keep(resume_id: str, state: State, cause: str) -> None:
    """Add the version and delete those past the newest ``KEEP``, in the caller's transaction."""
    db.session.add(ResumeVersion(id=new_id(), resume_id=resume_id, created_at=utcnow(), cause=cause,
                                 title=state.title, template_id=state.template_id,
                                 content_json=state.content_json, sections_visibility=state.sections_visibility))
    db.session.flush()
    older = (select(ResumeVersion.id).where(ResumeVersion.resume_id == resume_id)
             .order_by(ResumeVersion.created_at.desc(), ResumeVersion.id.desc()).offset(KEEP))
    db.session.execute(delete(ResumeVersion).where(ResumeVersion.id.in_(older.scalar_subquery())),
                       execution_options={"synchronize_session": False})


def list_versions(user: User, resume_id: str, *, page: int, limit: int) -> tuple[list[Row], int]:
    """A page of the resume's versions, newest first, and their total. Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED."""
    resume = service.get_owned_resume(user, resume_id)
    of_resume = ResumeVersion.resume_id == resume.id
    rows = db.session.execute(
        select(ResumeVersion.id, ResumeVersion.created_at, ResumeVersion.title, ResumeVersion.cause)
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


def restore(user: User, resume_id: str, version_id: str) -> Resume:
    """Bring the resume back to a version; the state it replaces is kept as a ``restore`` version.

    Rescored; ``resume.updated`` names the fields that changed. Restoring a version equal to the
    resume as it is changes nothing (no version, no event). Commits. Raises as ``get_version``, and
    INVALID_TEMPLATE when the version's template is another, premium one and the plan has basic ones only.
    """
    resume = service.get_owned_resume(user, resume_id)
    before, target = State.of(resume), State.of(_version_of(resume, version_id))
    if before == target:
        return resume
    if target.template_id != before.template_id:
        resume.template = service.usable_template(user, target.template_id)
    resume.title = target.title
    resume.content_json = copy.deepcopy(target.content_json)
    resume.sections_visibility = dict(target.sections_visibility)
    service.score(resume)
    resume.updated_at = utcnow()
    _keep(resume.id, before, "restore")
    service.record_update(resume, before.changed_fields(target))
    db.session.commit()
    return resume


# What goes over the wire -----------------------------------------------------------------
class VersionListItemSchema(OutputSchema):
    id = fields.String(required=True)
    createdAt = Timestamp(required=True, attribute="created_at",
                          metadata={"description": "when the state was replaced (it was current until then)"})
    title = fields.String(required=True)
    cause = fields.String(required=True, validate=validate.OneOf(CAUSES),
                          metadata={"description": "what replaced this state: edit or restore"})


class VersionSchema(VersionListItemSchema):
    templateId = fields.String(required=True, attribute="template_id")
    contentJson = fields.Dict(required=True, attribute="content_json")
    sectionsVisibility = fields.Dict(keys=fields.String(), values=fields.Boolean(), required=True,
                                     attribute="sections_visibility")
