"""The owner's read of a share link: its settings with the last view, for the editor's share panel.

``POST``/``PUT /share`` answer the settings as the contract lists them (no ``lastViewedAt``), and
nothing else let a page show a share's state without changing it: ``GET /share`` does, and says
SHARE_NOT_FOUND for a resume that was never shared (the panel then offers to share it).
"""
from __future__ import annotations

from marshmallow import fields
from sqlalchemy import func, select

from app.common.schemas import Timestamp
from app.errors import ApiError
from app.extensions import db
from app.resumes.models import Comment, Share
from app.resumes.schemas import ShareSettingsSchema
from app.resumes.service import get_owned_resume
from app.users.models import User


class ShareStatusSchema(ShareSettingsSchema):
    lastViewedAt = Timestamp(required=True, allow_none=True, attribute="last_viewed_at")
    commentCount = fields.Method("get_comment_count", required=True)

    def get_comment_count(self, share):
        return db.session.scalar(select(func.count(Comment.id)).where(Comment.resume_id == share.resume_id))


def share_status(user: User, resume_id: str) -> Share:
    """The resume's share. Raises RESUME_NOT_FOUND, RESUME_NOT_OWNED, SHARE_NOT_FOUND (never shared)."""
    share = get_owned_resume(user, resume_id).share
    if share is None:
        raise ApiError("SHARE_NOT_FOUND", "This resume has no share link yet: create it with POST.",
                       {"resumeId": resume_id})
    return share
