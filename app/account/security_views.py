"""Account security endpoints (password, two-factor), on the account blueprint."""
from __future__ import annotations

from app.account.views import bp  # noqa: F401
