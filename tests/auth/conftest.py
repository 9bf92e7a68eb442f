import pytest

from app.auth.models import OneTimeToken
from app.common.models import utcnow
from tests.auth.support import clock, signed_in  # noqa: F401  (fixtures)


@pytest.fixture
def expire_token(query):
    """Expire the only one-time token now; returns its lifetime in seconds."""

    def expire(session):
        row = session.query(OneTimeToken).one()
        lifetime = (row.expires_at - row.created_at).total_seconds()
        row.expires_at = utcnow()
        session.commit()
        return lifetime

    return lambda: query(expire)
