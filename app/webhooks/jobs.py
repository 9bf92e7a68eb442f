"""Webhook jobs: plain ids in, re-read state, raise on failure (a failed attempt is retried by RQ)."""
from __future__ import annotations

from app.webhooks import service


def relay() -> int:
    """Dispatch the waiting events and make their first attempts (coalesced: one relay at a time)."""
    return service.relay()


def deliver(delivery_id: str) -> str:
    """One attempt of a delivery; raises when it failed with attempts left, so RQ retries it."""
    return service.deliver(delivery_id)


def sweep() -> dict:
    """Periodic: re-enqueue events and deliveries that a Redis outage or a killed process lost."""
    return service.sweep()
