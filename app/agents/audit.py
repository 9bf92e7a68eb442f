"""The log of what agents did on an account: one row per tool call, the newest KEEP kept."""
from __future__ import annotations

from sqlalchemy import delete, select

from app.agents.models import AgentAction, AgentGrant
from app.common.models import new_id, utcnow
from app.extensions import db
from app.users.models import User

KEEP = 500  # calls kept per account


def record(user_id: str, grant_id: str, tool: str, resume_id: str | None, outcome: str) -> None:
    """Log one call (``outcome`` "done", or the error's code) and forget those past the newest KEEP. Commits."""
    db.session.add(AgentAction(id=new_id(), user_id=user_id, grant_id=grant_id, tool=tool,
                               resume_id=resume_id if isinstance(resume_id, str) else None,
                               outcome=outcome, created_at=utcnow()))
    db.session.flush()
    older = (select(AgentAction.id).where(AgentAction.user_id == user_id)
             .order_by(AgentAction.created_at.desc(), AgentAction.id.desc()).offset(KEEP))
    db.session.execute(delete(AgentAction).where(AgentAction.id.in_(older.scalar_subquery())),
                       execution_options={"synchronize_session": False})
    db.session.commit()


def recent(user: User, limit: int = 50) -> list[dict]:
    """The user's latest agent calls, newest first, with the name of the agent that made each."""
    rows = db.session.execute(
        select(AgentAction.id, AgentAction.tool, AgentAction.resume_id, AgentAction.outcome, AgentAction.created_at,
               AgentGrant.id.label("agent_id"), AgentGrant.name.label("agent_name"))
        .join(AgentGrant, AgentGrant.id == AgentAction.grant_id)
        .where(AgentAction.user_id == user.id)
        .order_by(AgentAction.created_at.desc(), AgentAction.id.desc()).limit(limit)).all()
    return [row._asdict() for row in rows]
