"""Share links: the owner's settings, the visitor's view and comments.

Each public function is one use case and commits at most once.
"""
from __future__ import annotations

import secrets

from flask import current_app
from sqlalchemy import func, update

from app.auth.passwords import MAX_BYTES, check_password, hash_password
from app.billing.plans import display_name, plan_for, within
from app.common.models import new_id, plausible_id, utcnow
from app.common.schemas import format_timestamp
from app.errors import ApiError, InvalidField
from app.events.outbox import record_event
from app.extensions import db
from app.resumes.models import Comment, Resume, Share
from app.resumes.service import get_owned_resume
from app.users.models import User


def configure_share(user: User, resume_id: str, data: dict, *, create: bool) -> tuple[Share, bool]:
    """Create the resume's share (``create``) or change it; returns (share, created).

    POST creates the share or, when there is one, applies the fields to it;
    PUT needs an existing share. Commits. Raises RESUME_NOT_FOUND,
    RESUME_NOT_OWNED, SHARE_NOT_FOUND (PUT before POST), SHARE_LIMIT_EXCEEDED,
    VALIDATION_ERROR (expiresAt in the past).
    """
    resume = get_owned_resume(user, resume_id)
    share, created = resume.share, False
    if share is None:
        if not create:
            raise ApiError("SHARE_NOT_FOUND", "This resume has no share link yet: create it with POST.",
                           {"resumeId": resume_id})
        share, created = Share(resume=resume, token=secrets.token_urlsafe(24), is_enabled=True,
                               allow_download=False, allow_comments=False, view_count=0), True
        db.session.add(share)
    was_enabled = share.is_enabled and not created
    expires_at = data.get("expiresAt")
    if expires_at is not None and expires_at <= utcnow():
        raise InvalidField("expiresAt", "Must be in the future.")
    for field, attribute in (("isEnabled", "is_enabled"), ("allowDownload", "allow_download"),
                             ("allowComments", "allow_comments"), ("expiresAt", "expires_at")):
        if field in data:
            setattr(share, attribute, data[field])
    if "password" in data:
        share.password_hash = hash_password(data["password"]) if data["password"] is not None else None
    if share.is_enabled and not was_enabled:
        _check_share_limit(user, resume.id)
        if share.id is None:
            share.id = new_id()
        record_event("resume.shared", user.id, {
            "resume": {"id": resume.id, "user_id": user.id},
            "share": {"id": share.id, "share_url": f"{current_app.config['BASE_URL']}/share/{share.token}",
                      "is_enabled": True, "has_password": share.password_hash is not None,
                      "expires_at": format_timestamp(share.expires_at)}})
    db.session.commit()
    return share, created


def _check_share_limit(user: User, resume_id: str) -> None:
    plan = plan_for(user.subscription_type)
    enabled = db.session.scalar(
        db.select(func.count()).select_from(Share).join(Resume)
        .where(Resume.user_id == user.id, Resume.deleted_at.is_(None), Share.is_enabled.is_(True),
               Resume.id != resume_id))
    if not within(plan.shares_limit, enabled):
        db.session.rollback()
        raise ApiError("SHARE_LIMIT_EXCEEDED",
                       "The %(plan)s plan allows %(limit)s shared resumes. Disable one or upgrade.",
                       {"limit": plan.shares_limit}, values={"plan": display_name(plan), "limit": plan.shares_limit})


def find_share(token: str) -> Share:
    """The live share with this token. Raises SHARE_NOT_FOUND (unknown, disabled, deleted resume), SHARE_EXPIRED."""
    share = db.session.scalar(db.select(Share).where(Share.token == token)) if plausible_id(token) else None
    if share is None or not share.is_enabled or share.resume.deleted_at is not None:
        raise ApiError("SHARE_NOT_FOUND", "This share link does not exist or is disabled.")
    if share.expires_at is not None and share.expires_at <= utcnow():
        raise ApiError("SHARE_EXPIRED", "This share link has expired.")
    return share


def check_share_password(share: Share, password: str | None) -> None:
    """Raises SHARE_PASSWORD_REQUIRED or INVALID_SHARE_PASSWORD for a protected share."""
    if share.password_hash is None:
        return
    if not password:
        raise ApiError("SHARE_PASSWORD_REQUIRED", "This resume is protected by a password.")
    # bcrypt reads only 72 bytes: a longer attempt that starts with the password is still wrong
    # (a share password is at most 72 bytes).
    too_long = len(password.encode("utf-8", "surrogatepass")) > MAX_BYTES
    if too_long or not check_password(password, share.password_hash):
        raise ApiError("INVALID_SHARE_PASSWORD", "The password is incorrect.")


def view_share(token: str, password: str | None, *, unlocked: bool = False) -> Share:
    """Show the shared resume: counts a view and sets lastViewedAt. Commits.

    ``unlocked`` skips the password (the visitor proved it earlier in this browser).
    Raises as ``find_share`` and ``check_share_password``.
    """
    share = find_share(token)
    if not unlocked:
        check_share_password(share, password)
    db.session.execute(update(Share).where(Share.id == share.id)
                       .values(view_count=Share.view_count + 1, last_viewed_at=utcnow()))
    db.session.commit()
    db.session.refresh(share)
    return share


def add_comment(token: str, password: str | None, data: dict, *, unlocked: bool = False) -> Comment:
    """A visitor's comment. Commits. Raises as ``view_share`` and COMMENTS_DISABLED."""
    share = find_share(token)
    if not unlocked:
        check_share_password(share, password)
    if not share.allow_comments:
        raise ApiError("COMMENTS_DISABLED", "Comments are turned off for this resume.")
    comment = Comment(resume_id=share.resume_id, name=data["name"], text=data["text"])
    db.session.add(comment)
    db.session.commit()
    return comment


def list_comments(user: User, resume_id: str, *, page: int, limit: int) -> tuple[list[Comment], int]:
    """A page of the owner's view of comments, newest first, and their total. Raises
    RESUME_NOT_FOUND, RESUME_NOT_OWNED."""
    resume = get_owned_resume(user, resume_id)
    of_resume = Comment.resume_id == resume.id
    comments = db.session.scalars(db.select(Comment).where(of_resume)
                                  .order_by(Comment.created_at.desc(), Comment.id.desc())
                                  .limit(limit).offset((page - 1) * limit)).all()
    total = db.session.execute(db.select(db.func.count(Comment.id)).where(of_resume)).scalar_one()
    return list(comments), total


def access_key(share: Share) -> str:
    """What a browser keeps (signed) after entering the password: changes when the password does."""
    return f"{share.id}:{(share.password_hash or '')[-12:]}"


def max_unlock_age() -> int:
    return int(current_app.config["SHARE_UNLOCK_LIFETIME"].total_seconds())
