"""Resumes and the templates they are rendered with."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, LargeBinary, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.common.models import JSONDocument, TimestampMixin, UTCDateTime, id_column, utcnow
from app.content.sections import BODY_SECTIONS, SECTIONS  # noqa: F401  (re-exported)
from app.extensions import db

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
        # The list: one user's live resumes in its exact order (updated_at, id), optionally by
        # status. Partial, so the database reads one page instead of sorting all the user's rows.
        Index("ix_resumes_user_live_order", "user_id", "updated_at", "id",
              postgresql_where=text("deleted_at IS NULL"), sqlite_where=text("deleted_at IS NULL")),
        Index("ix_resumes_user_status_live_order", "user_id", "status", "updated_at", "id",
              postgresql_where=text("deleted_at IS NULL"), sqlite_where=text("deleted_at IS NULL")),
        # The trash (one user's deleted resumes, last deleted first) and its purge (all of them by age):
        # partial, over deleted rows only.
        Index("ix_resumes_user_trash_order", "user_id", "deleted_at", "id",
              postgresql_where=text("deleted_at IS NOT NULL"), sqlite_where=text("deleted_at IS NOT NULL")),
        Index("ix_resumes_deleted_at", "deleted_at",
              postgresql_where=text("deleted_at IS NOT NULL"), sqlite_where=text("deleted_at IS NOT NULL")),
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
    share: Mapped[Share | None] = relationship(back_populates="resume", lazy="joined", uselist=False)

    @classmethod
    def live(cls):
        """The select every service uses: resumes not soft-deleted."""
        return db.select(cls).where(cls.deleted_at.is_(None))


class Share(TimestampMixin, db.Model):
    """A resume's public link (one per resume). The password is a bcrypt hash."""

    __tablename__ = "shares"

    id: Mapped[str] = id_column()
    resume_id: Mapped[str] = mapped_column(ForeignKey("resumes.id", ondelete="CASCADE"), unique=True, nullable=False)
    token: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    is_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    password_hash: Mapped[str | None] = mapped_column(String(60))
    allow_download: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    allow_comments: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    view_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    last_viewed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    resume: Mapped[Resume] = relationship(back_populates="share")

    @property
    def has_password(self) -> bool:
        return self.password_hash is not None


class Comment(db.Model):
    """A visitor's comment on a shared resume."""

    __tablename__ = "comments"
    __table_args__ = (Index("ix_comments_resume_created", "resume_id", "created_at"),)

    id: Mapped[str] = id_column()
    resume_id: Mapped[str] = mapped_column(ForeignKey("resumes.id", ondelete="CASCADE"), nullable=False)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)


class Export(db.Model):
    """A stored export file. It counts toward its owner's storage until the cleanup deletes it."""

    __tablename__ = "exports"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    resume_id: Mapped[str] = mapped_column(ForeignKey("resumes.id", ondelete="CASCADE"), index=True, nullable=False)
    format: Mapped[str] = mapped_column(String(8), nullable=False)
    filename: Mapped[str] = mapped_column(String(255), nullable=False)
    storage_key: Mapped[str] = mapped_column(String(255), unique=True, nullable=False)
    file_size: Mapped[int] = mapped_column(BigInteger, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True, nullable=False)


class ResumeVersion(db.Model):
    """A resume's earlier state, kept when an edit or a restore replaced it (app/resumes/history.py).

    The target job description is not part of it: it describes the job applied for, not the resume.
    """

    __tablename__ = "resume_versions"
    __table_args__ = (Index("ix_resume_versions_resume_created", "resume_id", "created_at"),)

    id: Mapped[str] = id_column()
    resume_id: Mapped[str] = mapped_column(ForeignKey("resumes.id", ondelete="CASCADE"), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    title: Mapped[str] = mapped_column(String(200), nullable=False)
    template_id: Mapped[str] = mapped_column(ForeignKey("templates.id"), nullable=False)
    content_json: Mapped[dict] = mapped_column(JSONDocument, nullable=False)
    sections_visibility: Mapped[dict] = mapped_column(JSONDocument, nullable=False)
    cause: Mapped[str] = mapped_column(String(16), nullable=False)  # versions.CAUSES
    # Who replaced this state, when an agent did: "Edited by <client>: <tool>" (cause "agent")
    author: Mapped[str | None] = mapped_column(String(200))


class ResumeImport(db.Model):
    """What an import from a file or document could not place for sure: the report the editor shows
    beside the pages until its owner dismisses it (``app/resumes/imports.py``)."""

    __tablename__ = "resume_imports"

    resume_id: Mapped[str] = mapped_column(ForeignKey("resumes.id", ondelete="CASCADE"), primary_key=True)
    source: Mapped[str] = mapped_column(String(8), nullable=False)        # pdf, docx, json
    file_name: Mapped[str] = mapped_column(String(255), nullable=False)   # "" for a pasted document
    report: Mapped[dict] = mapped_column(JSONDocument, nullable=False)    # {"dropped", "cut", "unsure"}
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    resume: Mapped[Resume] = relationship()  # so the resume is written first


class ResumeImportPage(db.Model):
    """A page of the imported PDF as a PNG picture, which the editor shows beside the form while the
    import's report is kept (deleted with it)."""

    __tablename__ = "resume_import_pages"

    resume_id: Mapped[str] = mapped_column(ForeignKey("resume_imports.resume_id", ondelete="CASCADE"),
                                           primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)     # 1, 2, ...
    png: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)
    report: Mapped[ResumeImport] = relationship()  # so the report is written first
