"""Grants: the scopes an agent may hold, personal agent keys, and finding the grant behind a bearer.

A personal agent key (``rsa_`` and 43 random characters) is a bearer for scripts and MCP clients that
take a fixed header: it is shown once, only its SHA-256 is kept, and it carries the scopes chosen when it
was made. OAuth clients get grants through the consent page (``app.agents.consent``). Either kind ends
when revoked, and when the owner's password changes (the grant keeps the ``auth_id`` it was made under).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, update

from app.agents.models import AgentGrant
from app.common.models import plausible_id, utcnow
from app.common.security import hash_token, new_token
from app.errors import ApiError
from app.extensions import db
from app.messages import N_
from app.users.models import User

# Each scope, what the consent page says it allows (message ids), in the order they are shown.
SCOPES = {
    "resumes:read": N_("See your resumes, their versions and the templates"),
    "resumes:write": N_("Create, edit, duplicate and import resumes, revert them and switch their template"),
    "resumes:export": N_("Export your resumes to PDF, DOCX, HTML and text"),
    "resumes:delete": N_("Move your resumes to the trash and restore them"),
    "jobs:analyze": N_("Analyse a resume against a job description"),
}
KEY_PREFIX = "rsa_"
MAX_LIVE = 50  # live grants a person may hold; one more is refused
USE_STAMP = timedelta(minutes=1)  # last_used_at is written at most this often per grant


def scope_list(scopes: str) -> list[str]:
    return [scope for scope in SCOPES if scope in scopes.split()]


def normal_scopes(asked: list[str] | str) -> str:
    """The known scopes among ``asked``, space-separated in SCOPES' order."""
    words = set(asked.split() if isinstance(asked, str) else asked)
    return " ".join(scope for scope in SCOPES if scope in words)


@dataclass(frozen=True)
class Bearer:
    """Who is calling through a grant: the user's id, the grant, its scopes."""

    user_id: str
    grant_id: str
    name: str
    scopes: tuple[str, ...]


def _live():
    return db.select(AgentGrant).where(AgentGrant.revoked_at.is_(None))


def grants_of(user: User) -> list[AgentGrant]:
    """The user's live grants (made under the current password), the newest first."""
    return list(db.session.scalars(_live().where(AgentGrant.user_id == user.id, AgentGrant.auth_id == user.auth_id)
                                   .order_by(AgentGrant.created_at.desc(), AgentGrant.id.desc())))


def _room_for_one_more(user: User) -> None:
    live = db.session.scalar(db.select(func.count()).select_from(
        _live().where(AgentGrant.user_id == user.id, AgentGrant.auth_id == user.auth_id).subquery()))
    if live >= MAX_LIVE:
        raise ApiError("FORBIDDEN", "You have %(limit)s connected agents: revoke one first.", {"limit": MAX_LIVE},
                       values={"limit": MAX_LIVE})


def create_key(user: User, name: str, scopes: list[str]) -> tuple[AgentGrant, str]:
    """A new personal agent key with ``scopes``; answers the grant and the key's raw value. Commits.

    Raises 403 FORBIDDEN past MAX_LIVE live grants."""
    _room_for_one_more(user)
    raw = KEY_PREFIX + new_token()
    grant = AgentGrant(user_id=user.id, kind="key", name=name, scopes=normal_scopes(scopes),
                       key_hash=hash_token(raw), auth_id=user.auth_id, created_at=utcnow())
    db.session.add(grant)
    db.session.commit()
    return grant, raw


def grant_client(user: User, client_id: str, client_name: str, scopes: str) -> AgentGrant:
    """The user's grant for OAuth client ``client_id``: the live one, widened to ``scopes``, else a new one.
    Does not commit."""
    grant = db.session.scalar(_live().where(AgentGrant.user_id == user.id, AgentGrant.kind == "oauth",
                                            AgentGrant.client_id == client_id, AgentGrant.auth_id == user.auth_id))
    if grant is None:
        _room_for_one_more(user)
        grant = AgentGrant(user_id=user.id, kind="oauth", client_id=client_id, auth_id=user.auth_id,
                           created_at=utcnow(), scopes="")
        db.session.add(grant)
    grant.name = client_name[:200]
    grant.scopes = normal_scopes(f"{grant.scopes} {scopes}")
    db.session.flush()
    return grant


def revoke(user: User, grant_id: str) -> None:
    """Revoke the user's grant ``grant_id``: its key or tokens stop working at once. Commits.

    Raises 404 NOT_FOUND when the user has no live grant of that id (another person's included)."""
    owned = plausible_id(grant_id) and db.session.scalar(
        _live().where(AgentGrant.id == grant_id, AgentGrant.user_id == user.id))
    if not owned:
        raise ApiError("NOT_FOUND", "You have no connected agent with this id.", {"agentId": grant_id})
    owned.revoked_at = utcnow()
    db.session.commit()


def live_grant(grant_id: str) -> tuple[AgentGrant, User] | None:
    """The grant ``grant_id`` and its user while both hold (not revoked, same password, user active)."""
    grant = db.session.get(AgentGrant, grant_id) if plausible_id(grant_id) else None
    if grant is None or grant.revoked_at is not None:
        return None
    user = db.session.get(User, grant.user_id)
    if user is None or user.auth_id != grant.auth_id or not user.is_active:
        return None
    return grant, user


def bearer_for_key(raw: str) -> Bearer | None:
    """Who a personal agent key stands for, or None (unknown, revoked, or made before a password change).
    Notes the use (at most once a minute per key). Commits."""
    if not raw.startswith(KEY_PREFIX) or len(raw) > 200:
        return None
    grant_id = db.session.scalar(db.select(AgentGrant.id).where(AgentGrant.key_hash == hash_token(raw)))
    return bearer_for_grant(grant_id) if grant_id else None


def bearer_for_grant(grant_id: str) -> Bearer | None:
    """Who a live grant stands for, or None. Notes the use (at most once a minute per grant). Commits."""
    found = live_grant(grant_id)
    if found is None:
        return None
    grant, user = found
    now = utcnow()
    if grant.last_used_at is None or now - grant.last_used_at >= USE_STAMP:
        db.session.execute(update(AgentGrant).where(AgentGrant.id == grant.id).values(last_used_at=now)
                           .execution_options(synchronize_session=False))
        db.session.commit()
    return Bearer(user_id=user.id, grant_id=grant.id, name=grant.name, scopes=tuple(scope_list(grant.scopes)))
