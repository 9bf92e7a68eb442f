"""The trash: deleted resumes stay restorable for ``RETENTION``, then a periodic job purges them.

Deleting is soft (``Resume.deleted_at``); a deleted resume answers RESUME_NOT_FOUND
everywhere but here, and its share link answers SHARE_NOT_FOUND until it is
restored. Restoring brings the resume back as it was, share link included,
counted against the plan as a new resume would be, and records ``resume.created``
with the same id: a webhook receiver that dropped the resume on ``resume.deleted``
gets everything it needs to add it again, without learning a special case.

Each public function commits at most once (the purge once per batch) and raises ApiError.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from marshmallow import fields
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import joinedload, lazyload, load_only

from app.billing import usage
from app.common.models import plausible_id, utcnow
from app.common.schemas import OutputSchema, Timestamp, format_timestamp
from app.extensions import db
from app.resumes import exports, service, shares
from app.resumes.models import Export, Resume, Template
from app.resumes.schemas import TemplateRefSchema
from app.users.models import User

RETENTION = timedelta(days=30)
# A trash item's columns only: not the content, the template's source, nor the share (never read).
_ITEM_COLUMNS = (load_only(Resume.id, Resume.title, Resume.template_id, Resume.deleted_at),
                 joinedload(Resume.template, innerjoin=True).load_only(Template.id, Template.name, Template.category),
                 lazyload(Resume.share))


def _restorable_since() -> datetime:
    """Resumes deleted at or before this moment are past the trash's retention (the purge's)."""
    return utcnow() - RETENTION


def list_trash(user: User, *, page: int, limit: int) -> tuple[list[Resume], int]:
    """A page of the user's restorable resumes, last deleted first, and their total."""
    in_trash = (Resume.user_id == user.id, Resume.deleted_at > _restorable_since())
    resumes = db.session.scalars(select(Resume).where(*in_trash).options(*_ITEM_COLUMNS)
                                 .order_by(Resume.deleted_at.desc(), Resume.id.desc())
                                 .limit(limit).offset((page - 1) * limit)).all()
    total = db.session.execute(select(func.count(Resume.id)).where(*in_trash)).scalar_one()
    return list(resumes), total


def restore(user: User, resume_id: str) -> Resume:
    """Bring a resume back from the trash, to the top of the list. Commits.

    A resume of the user's that is not deleted is answered as it is (a retried restore succeeds).
    Raises RESUME_NOT_FOUND (unknown, purged, past retention, or another user's deleted resume),
    RESUME_NOT_OWNED (another user's live one), SUBSCRIPTION_LIMIT_EXCEEDED (the plan's resumes),
    SHARE_LIMIT_EXCEEDED (its share is enabled and the plan's shares are taken).
    """
    resume = db.session.scalar(select(Resume).where(
        Resume.id == resume_id, Resume.user_id == user.id, Resume.deleted_at > _restorable_since())
    ) if plausible_id(resume_id) else None
    if resume is None:
        return service.get_owned_resume(user, resume_id)
    usage.count_one_more_resume(user)
    if resume.share is not None and resume.share.is_enabled:
        shares._check_share_limit(user, resume.id)
    # Conditional: of two restores at once, one brings it back and counts it; the other finds it live.
    restored = db.session.execute(update(Resume).where(Resume.id == resume.id, Resume.deleted_at.is_not(None))
                                  .values(deleted_at=None, updated_at=utcnow())).rowcount
    if not restored:
        db.session.rollback()
        return service.get_owned_resume(user, resume_id)
    service.record_created(resume)
    db.session.commit()
    return resume


def purge(batch: int = 100) -> int:
    """Periodic: delete the resumes deleted longer than ``RETENTION`` ago, with their versions, share,
    comments and exports (their stored files first, their bytes given back). Commits per batch; returns
    how many resumes it deleted.

    Safe beside a restore and a second run: the delete is conditional on the resume still being deleted
    that long. A store that cannot be reached raises StorageUnavailable and the batch waits for the
    next run (exports.discard deletes files before rows).
    """
    purged = 0
    while True:
        cutoff = _restorable_since()
        ids = db.session.scalars(select(Resume.id).where(Resume.deleted_at <= cutoff)
                                 .order_by(Resume.deleted_at).limit(batch)).all()
        if not ids:
            return purged
        exports.discard(db.session.scalars(select(Export).where(Export.resume_id.in_(ids))).all())
        purged += db.session.execute(delete(Resume).where(Resume.id.in_(ids), Resume.deleted_at <= cutoff),
                                     execution_options={"synchronize_session": False}).rowcount
        db.session.commit()
        db.session.expunge_all()


class TrashItemSchema(OutputSchema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    template = fields.Nested(TemplateRefSchema, required=True)
    deletedAt = Timestamp(required=True, attribute="deleted_at")
    purgeAt = fields.Method("get_purge_at", required=True,
                            metadata={"description": "deletedAt + 30 days: restorable until then, purged after"})

    def get_purge_at(self, resume):
        return format_timestamp(resume.deleted_at + RETENTION)
