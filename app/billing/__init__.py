"""Billing: the plans and their limits, subscribing, plan changes with proration, period ends, coupons.

``service`` is the door other packages (the CLI, the payment page, operators' scripts) go through; the
payment provider itself stays in ``app.integrations.payments``.
"""
