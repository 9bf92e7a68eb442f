"""An agent's grant on an account, and the log of its calls."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.common.models import UTCDateTime, id_column, utcnow
from app.extensions import db


class AgentGrant(db.Model):
    """What one agent may do on one account: a personal key (``kind`` "key": only the key's SHA-256 is
    kept) or an OAuth client the owner consented to (``kind`` "oauth": its client id, the URL of its
    metadata document). Revoking it ends every token it stands behind."""

    __tablename__ = "agent_grants"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    kind: Mapped[str] = mapped_column(String(8), nullable=False)  # "key" or "oauth"
    name: Mapped[str] = mapped_column(String(200), nullable=False)  # the key's name, or the client's
    client_id: Mapped[str | None] = mapped_column(String(2000))
    scopes: Mapped[str] = mapped_column(String(200), nullable=False)  # space-separated, in SCOPES' order
    key_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    # The user's auth_id when the grant was made: a password change or reset rotates it, and ends the grant
    # as it ends every browser session and API token.
    auth_id: Mapped[str] = mapped_column(String(32), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class AgentAction(db.Model):
    """One tool call an agent made (the account page's audit log): which grant, which tool, which
    resume, and whether it was done or refused (with the error's code)."""

    __tablename__ = "agent_actions"
    __table_args__ = (Index("ix_agent_actions_user_created", "user_id", "created_at"),)

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    grant_id: Mapped[str] = mapped_column(ForeignKey("agent_grants.id", ondelete="CASCADE"), index=True,
                                          nullable=False)
    tool: Mapped[str] = mapped_column(String(64), nullable=False)
    resume_id: Mapped[str | None] = mapped_column(String(64))
    outcome: Mapped[str] = mapped_column(String(64), nullable=False)  # "done", or the error's code
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)


class AgentToken(db.Model):
    """An OAuth authorization code or refresh token of a grant (only its SHA-256). A code is spent by its
    exchange; a refresh token by its use, which issues the next. Presenting a spent one revokes the grant
    (someone else holds a copy)."""

    __tablename__ = "agent_tokens"

    id: Mapped[str] = id_column()
    grant_id: Mapped[str] = mapped_column(ForeignKey("agent_grants.id", ondelete="CASCADE"), index=True,
                                          nullable=False)
    kind: Mapped[str] = mapped_column(String(8), nullable=False)  # "code" or "refresh"
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    scopes: Mapped[str] = mapped_column(String(200), nullable=False)
    resource: Mapped[str] = mapped_column(String(2000), nullable=False)
    redirect_uri: Mapped[str | None] = mapped_column(String(2000))  # a code's
    code_challenge: Mapped[str | None] = mapped_column(String(128))  # a code's (PKCE, S256)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
