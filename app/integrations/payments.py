"""Payments: the provider interface the subscription service charges through, and the sandbox provider.

The service sees only ``PaymentProvider`` (``provider()`` picks it from
``PAYMENT_PROVIDER``; ``sandbox`` is the default and the only one so far). Its
vocabulary is a card processor's: a payment method id names a card; a payment
*intent* is an amount to charge to it, created (``requires_confirmation``) and
then confirmed, which either succeeds, is declined (``PaymentDeclined`` with a
decline code) or, with the customer present, asks for their authentication
(``requires_action`` with an address to send them to, the 3-D Secure step).

The sandbox behaves like a card processor's test mode, deterministically by
payment method id (``TEST_CARDS``): ``pm_card_visa`` and ``pm_card_mastercard``
succeed, the ``...chargeDeclined...`` ids are declined, and
``pm_card_authenticationRequired`` needs the customer's authentication for every
payment (on session it answers ``requires_action``; off session, as renewals
are, it is declined with ``authentication_required``). It keeps no state: the
subscription service's ``payment_intents`` rows are the record. Its
authentication page is served by this app at ``/payments/authenticate/<token>``:
the token is the intent id signed with the app's secret key, so only the
customer who was given the address can open it. A hosted provider would serve
that page itself and report the outcome through its own webhook; the service's
``complete_payment`` is where either lands.
"""
from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass
from decimal import Decimal

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer

from app.common.models import utcnow
from app.messages import N_

REQUIRES_CONFIRMATION = "requires_confirmation"
REQUIRES_ACTION = "requires_action"
SUCCEEDED = "succeeded"

ACTION_PATH = "/payments/authenticate/"  # where the sandbox's authentication page is served


@dataclass(frozen=True)
class Card:
    """A card as the provider describes it (never its number)."""

    id: str
    brand: str
    last4: str
    exp_month: int
    exp_year: int
    type: str = "card"


@dataclass(frozen=True)
class Intent:
    """A payment at the provider. ``client_secret`` lets the customer's browser act on it; it is handed to
    the client once and not stored."""

    id: str
    client_secret: str
    status: str  # requires_confirmation, requires_action or succeeded
    next_action_url: str | None = None


class PaymentError(Exception):
    """Base of the provider's failures."""


class UnknownPaymentMethod(PaymentError):
    """No such payment method at the provider (a client error, not a card problem)."""


class PaymentDeclined(PaymentError):
    """The card was declined; ``decline_code`` says why (``generic_decline``, ``insufficient_funds``, ...)."""

    def __init__(self, decline_code: str, message: str = N_("The card was declined.")):
        super().__init__(decline_code, message)
        self.decline_code = decline_code
        self.message = message


class InvalidActionToken(PaymentError):
    """An authentication address that the provider did not issue (tampered or made up)."""


class PaymentProvider(ABC):
    @abstractmethod
    def card(self, payment_method_id: str) -> Card:
        """The card behind ``payment_method_id``, checked as a processor checks a card before keeping it on
        file. Raises UnknownPaymentMethod, or PaymentDeclined for a card that cannot be charged."""

    @abstractmethod
    def create_intent(self, *, amount: Decimal, currency: str, payment_method_id: str, description: str) -> Intent:
        """A payment of ``amount`` (two decimals) to confirm later; nothing is charged yet."""

    @abstractmethod
    def confirm_intent(self, intent_id: str, *, payment_method_id: str, off_session: bool) -> Intent:
        """Charge the intent to the card: ``succeeded``, or ``requires_action`` with ``next_action_url`` when
        the card needs its holder's authentication and they are present (``off_session`` false). Raises
        PaymentDeclined (off session, a card that needs authentication gives ``authentication_required``)
        or UnknownPaymentMethod. Confirming an intent that already succeeded charges nothing more."""

    @abstractmethod
    def cancel_intent(self, intent_id: str) -> None:
        """Abandon an intent that was not charged."""

    # The customer's authentication (the provider's page) -----------------------------
    @abstractmethod
    def action_intent_id(self, token: str) -> str:
        """The intent an authentication address is for. Raises InvalidActionToken."""

    @abstractmethod
    def complete_action(self, intent_id: str, *, approved: bool) -> Intent:
        """The holder's answer on the authentication page: the charge ``succeeded``, or (not approved)
        PaymentDeclined with ``authentication_failed``."""

    def charge(self, *, amount: Decimal, currency: str, payment_method_id: str, description: str,
               off_session: bool) -> Intent:
        """Create and confirm an intent in one go (see ``confirm_intent``)."""
        intent = self.create_intent(amount=amount, currency=currency, payment_method_id=payment_method_id,
                                    description=description)
        return self.confirm_intent(intent.id, payment_method_id=payment_method_id, off_session=off_session)


@dataclass(frozen=True)
class SandboxCard:
    brand: str
    last4: str
    decline_code: str | None = None  # declined at every check and charge
    needs_authentication: bool = False  # every payment needs the holder's authentication


# The sandbox's cards, named as a well-known processor's test mode names them.
TEST_CARDS = {
    "pm_card_visa": SandboxCard("visa", "4242"),
    "pm_card_mastercard": SandboxCard("mastercard", "4444"),
    "pm_card_authenticationRequired": SandboxCard("visa", "3184", needs_authentication=True),
    "pm_card_chargeDeclined": SandboxCard("visa", "0002", decline_code="generic_decline"),
    "pm_card_visa_chargeDeclined": SandboxCard("visa", "0002", decline_code="generic_decline"),
    "pm_card_chargeDeclinedInsufficientFunds": SandboxCard("visa", "9995", decline_code="insufficient_funds"),
    "pm_card_chargeDeclinedExpiredCard": SandboxCard("visa", "0069", decline_code="expired_card"),
}
TEST_CARD_EXPIRY_YEARS = 3  # every test card expires in December, this many years from now

DECLINE_MESSAGES = {
    "generic_decline": N_("The card was declined."),
    "insufficient_funds": N_("The card has insufficient funds."),
    "expired_card": N_("The card has expired."),
    "authentication_required": N_("The card needs its holder's authentication for every payment, which cannot "
                                  "happen without them."),
    "authentication_failed": N_("The card holder did not complete the authentication."),
}


class SandboxProvider(PaymentProvider):
    """Test mode: no money moves, outcomes follow ``TEST_CARDS``."""

    def __init__(self, *, base_url: str, secret_key: str):
        self.base_url = base_url.rstrip("/")
        self._signer = URLSafeSerializer(secret_key, salt="sandbox-payment-action")

    def _sandbox_card(self, payment_method_id: str) -> SandboxCard:
        sandbox_card = TEST_CARDS.get(payment_method_id)
        if sandbox_card is None:
            raise UnknownPaymentMethod(payment_method_id)
        return sandbox_card

    @staticmethod
    def _decline(code: str) -> PaymentDeclined:
        return PaymentDeclined(code, DECLINE_MESSAGES[code])

    def card(self, payment_method_id: str) -> Card:
        sandbox_card = self._sandbox_card(payment_method_id)
        if sandbox_card.decline_code:
            raise self._decline(sandbox_card.decline_code)
        return Card(id=payment_method_id, brand=sandbox_card.brand, last4=sandbox_card.last4, exp_month=12,
                    exp_year=utcnow().year + TEST_CARD_EXPIRY_YEARS)

    def create_intent(self, *, amount: Decimal, currency: str, payment_method_id: str, description: str) -> Intent:
        if amount < 0:
            raise ValueError("a payment cannot be negative")
        self._sandbox_card(payment_method_id)
        intent_id = "pi_" + secrets.token_hex(12)
        return Intent(id=intent_id, client_secret=f"{intent_id}_secret_{secrets.token_urlsafe(18)}",
                      status=REQUIRES_CONFIRMATION)

    def confirm_intent(self, intent_id: str, *, payment_method_id: str, off_session: bool) -> Intent:
        sandbox_card = self._sandbox_card(payment_method_id)
        if sandbox_card.decline_code:
            raise self._decline(sandbox_card.decline_code)
        if sandbox_card.needs_authentication:
            if off_session:
                raise self._decline("authentication_required")
            url = f"{self.base_url}{ACTION_PATH}{self._signer.dumps(intent_id)}"
            return Intent(id=intent_id, client_secret=self._secret(intent_id), status=REQUIRES_ACTION,
                          next_action_url=url)
        return Intent(id=intent_id, client_secret=self._secret(intent_id), status=SUCCEEDED)

    def cancel_intent(self, intent_id: str) -> None:
        return None  # nothing is held for an intent in test mode

    def action_intent_id(self, token: str) -> str:
        try:
            intent_id = self._signer.loads(token)
        except BadSignature:
            raise InvalidActionToken() from None
        if not isinstance(intent_id, str):
            raise InvalidActionToken()
        return intent_id

    def complete_action(self, intent_id: str, *, approved: bool) -> Intent:
        if not approved:
            raise self._decline("authentication_failed")
        return Intent(id=intent_id, client_secret=self._secret(intent_id), status=SUCCEEDED)

    @staticmethod
    def _secret(intent_id: str) -> str:
        # Only ``create_intent``'s secret is handed out; later answers carry a fresh one nobody keeps.
        return f"{intent_id}_secret_{secrets.token_urlsafe(18)}"


PROVIDERS = {"sandbox": SandboxProvider}


def provider() -> PaymentProvider:
    """The current app's provider, built on first use from ``PAYMENT_PROVIDER`` (default ``sandbox``)."""
    extensions = current_app.extensions
    if "payments" not in extensions:
        name = current_app.config.get("PAYMENT_PROVIDER") or "sandbox"
        if name not in PROVIDERS:
            raise RuntimeError(f"PAYMENT_PROVIDER {name!r} is not one of {', '.join(PROVIDERS)}")
        # Two threads building it at once build the same thing; either may stay.
        extensions["payments"] = PROVIDERS[name](base_url=current_app.config["BASE_URL"],
                                                 secret_key=current_app.config["SECRET_KEY"])
    return extensions["payments"]
