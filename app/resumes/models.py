"""Resumes and the templates they are rendered with."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.common.models import TimestampMixin, UTCDateTime, id_column, utcnow
from app.extensions import db

JSONDocument = JSON().with_variant(JSONB(), "postgresql")

SECTIONS = ("personalInfo", "workExperience", "education", "skills", "projects")
STATUSES = ("DRAFT", "PUBLISHED", "ARCHIVED")


class Template(db.Model):
    """A resume design: a Jinja HTML body and its CSS (data, rendered in a sandbox)."""

    __tablename__ = "templates"

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    category: Mapped[str] = mapped_column(String(16), nullable=False)
    tier: Mapped[str] = mapped_column(String(10), nullable=False)  # basic | premium
    html_template: Mapped[str] = mapped_column(Text, nullable=False)
    css_styles: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)


class Resume(TimestampMixin, db.Model):
    __tablename__ = "resumes"
    __table_args__ = (
        # The list: one user's live resumes, newest first, optionally by status.
        Index("ix_resumes_user_live_updated", "user_id", "deleted_at", "updated_at"),
        Index("ix_resumes_user_status_updated", "user_id", "status", "updated_at"),
    )

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    title: Mapped[str] = mapped_column(String(200), nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="DRAFT")
    template_id: Mapped[str] = mapped_column(ForeignKey("templates.id"), nullable=False)
    content_json: Mapped[dict] = mapped_column(JSONDocument, nullable=False)
    sections_visibility: Mapped[dict] = mapped_column(JSONDocument, nullable=False)
    target_job_description: Mapped[str | None] = mapped_column(Text)
    ats_score: Mapped[int | None] = mapped_column(Integer)
    keyword_match_score: Mapped[int | None] = mapped_column(Integer)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    template: Mapped[Template] = relationship(lazy="joined", innerjoin=True)

    @classmethod
    def live(cls):
        """The select every service uses: resumes not soft-deleted."""
        return db.select(cls).where(cls.deleted_at.is_(None))
