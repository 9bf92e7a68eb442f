"""Keeping a resume's earlier states: what an edit replaced becomes a version (``app.resumes.history``
lists and restores them).

A version keeps what a person shapes: the title, the template, ``contentJson`` and
``sectionsVisibility`` (not the status, a workflow mark, nor the target job
description, which describes the job rather than the resume). ``cause`` says what
replaced the state a version keeps (``CAUSES``):

- ``edit``: an update that changed one of those fields (``PUT /api/resumes/<id>``,
  the project-entry endpoints); an update that changes none of them keeps nothing;
- ``restore``: a restore of an earlier version (the state it replaced stays restorable);
- ``agent``: an edit or a revert an AI agent made (through the MCP server): never folded, and
  ``author`` names the client and the tool ("Edited by Claude Desktop: apply_resume_patch"), so each
  agent edit can be told apart and undone from the history page;
- ``conflict``: a save refused because it was made from an older copy (``If-Match`` named another
  version, through ``PUT /api/resumes/<id>`` or the project-entry endpoints): what it would have saved
  is kept (once, when the same save is sent again), so nothing typed in a stale tab is lost, and the
  next edit keeps the state it replaces whatever the folding (the other tab's work).

Saves in quick succession fold: an autosaving editor saves every few seconds, and a
version per save would bury the states worth going back to. When the resume's
newest version was kept by an edit less than ``VERSION_FOLD_SECONDS`` ago, an edit
keeps nothing more: the state before the burst is already kept, and the states in
between were never meant to last. A resume keeps its newest ``KEEP`` versions; the
transaction that adds one deletes older ones.

``service.update_resume`` and the project-entry functions call ``keep_edit`` before
they commit; nothing here commits.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from sqlalchemy import delete, select

from app.common.models import new_id, utcnow
from app.extensions import db
from app.resumes.models import Resume, ResumeVersion

CAUSES = ("edit", "restore", "conflict", "agent")
KEEP = 100  # versions kept per resume
# The fields a version keeps, named and ordered as ``resume.updated`` names them.
KEPT_FIELDS = ("title", "templateId", "contentJson", "sectionsVisibility")


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
        return [field for field in KEPT_FIELDS if differ.get(field)]


def keep_edit(resume: Resume, before: State, author: str | None = None) -> None:
    """Keep ``before`` as a version of ``resume``, which an edit has just changed (not committed),
    unless nothing kept changed or the edit folds into a burst; an agent's edit (``author``) never
    folds. Does not commit."""
    db.session.flush()  # a template assigned through the relationship sets template_id only then
    if State.of(resume) == before:
        return
    if author is not None:
        keep(resume.id, before, "agent", author)
        return
    newest = db.session.execute(
        select(ResumeVersion.created_at, ResumeVersion.cause).where(ResumeVersion.resume_id == resume.id)
        .order_by(ResumeVersion.created_at.desc()).limit(1)).first()
    fold = timedelta(seconds=current_app.config["VERSION_FOLD_SECONDS"])
    if newest is not None and newest.cause == "edit" and utcnow() - newest.created_at < fold:
        return
    keep(resume.id, before, "edit")


def keep_refused(resume_id: str, state: State) -> None:
    """Keep what a refused save held (cause ``conflict``), unless the newest version holds just that (the
    editor sends its copy once more when the person's merge drops some of it). Does not commit."""
    newest = db.session.scalars(select(ResumeVersion).where(ResumeVersion.resume_id == resume_id)
                                .order_by(ResumeVersion.created_at.desc()).limit(1)).first()
    if newest is None or newest.cause != "conflict" or State.of(newest) != state:
        keep(resume_id, state, "conflict")


def keep(resume_id: str, state: State, cause: str, author: str | None = None) -> None:
    """Add the version and delete those past the newest ``KEEP``, in the caller's transaction."""
    db.session.add(ResumeVersion(id=new_id(), resume_id=resume_id, created_at=utcnow(), cause=cause, author=author,
                                 title=state.title, template_id=state.template_id,
                                 content_json=state.content_json, sections_visibility=state.sections_visibility))
    db.session.flush()
    older = (select(ResumeVersion.id).where(ResumeVersion.resume_id == resume_id)
             .order_by(ResumeVersion.created_at.desc(), ResumeVersion.id.desc()).offset(KEEP))
    db.session.execute(delete(ResumeVersion).where(ResumeVersion.id.in_(older.scalar_subquery())),
                       execution_options={"synchronize_session": False})
