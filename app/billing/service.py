"""Billing's use cases, the one door other packages use (views, pages, the CLI, the account service).

Each use case lives in the module of its kind (``overview``, ``subscribing``, ``changes``, ``previews``,
``periods``, ``coupons``, ``usage``); their docstrings state what they commit and raise.
"""
from __future__ import annotations

from app.billing.changes import ACTIONS, PRORATION_BEHAVIORS, ChangeResult, change, grant_enterprise
from app.billing.coupons import create_coupon
from app.billing.overview import NextBilling, Overview, overview
from app.billing.periods import apply_period_ends
from app.billing.plans import add_months
from app.billing.previews import ChangePreview, preview_change
from app.billing.subscribing import (PaymentOutcome, PendingPayment, SubscribeResult, complete_payment,
                                     free_subscription, open_free_subscription, pending_payment, subscribe)
from app.billing.usage import Usage, count_api_request, usage_of

__all__ = ["ACTIONS", "PRORATION_BEHAVIORS", "ChangePreview", "ChangeResult", "NextBilling", "Overview",
           "PaymentOutcome", "PendingPayment", "SubscribeResult", "Usage", "add_months", "apply_period_ends", "change",
           "complete_payment", "count_api_request", "create_coupon", "free_subscription", "grant_enterprise",
           "open_free_subscription", "overview", "pending_payment", "preview_change", "subscribe", "usage_of"]
