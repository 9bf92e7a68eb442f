"""The sandbox payment provider: a card processor's test mode, deterministic by payment method id."""
from datetime import datetime, timezone
from decimal import Decimal
from urllib.parse import urlsplit

import pytest

from app.integrations import payments
from app.integrations.payments import (ACTION_PATH, InvalidActionToken, PaymentDeclined, SandboxProvider,
                                       UnknownPaymentMethod)

BASE_URL = "https://resumes.example"


@pytest.fixture
def sandbox():
    return SandboxProvider(base_url=BASE_URL, secret_key="sandbox-test-key")


def charge(sandbox, payment_method_id, *, off_session=False):
    return sandbox.charge(amount=Decimal("29.99"), currency="USD", payment_method_id=payment_method_id,
                          description="test", off_session=off_session)


@pytest.mark.parametrize("payment_method_id,brand,last4", [
    ("pm_card_visa", "visa", "4242"),
    ("pm_card_mastercard", "mastercard", "4444"),
    ("pm_card_authenticationRequired", "visa", "3184"),
])
def test_good_test_cards_describe_themselves_like_a_processor_does(sandbox, payment_method_id, brand, last4):
    card = sandbox.card(payment_method_id)

    assert (card.id, card.type, card.brand, card.last4) == (payment_method_id, "card", brand, last4)
    assert card.exp_month == 12 and card.exp_year > datetime.now(timezone.utc).year


@pytest.mark.parametrize("payment_method_id,decline_code", [
    ("pm_card_chargeDeclined", "generic_decline"),
    ("pm_card_visa_chargeDeclined", "generic_decline"),
    ("pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds"),
    ("pm_card_chargeDeclinedExpiredCard", "expired_card"),
])
def test_declining_cards_are_declined_when_checked_and_when_charged(sandbox, payment_method_id, decline_code):
    with pytest.raises(PaymentDeclined) as checked:
        sandbox.card(payment_method_id)
    with pytest.raises(PaymentDeclined) as charged:
        charge(sandbox, payment_method_id)

    assert checked.value.decline_code == charged.value.decline_code == decline_code
    assert charged.value.message


@pytest.mark.parametrize("payment_method_id", ["pm_card_unknown", "card_4242", ""])
def test_unknown_payment_methods_are_not_found_rather_than_declined(sandbox, payment_method_id):
    with pytest.raises(UnknownPaymentMethod):
        sandbox.card(payment_method_id)
    with pytest.raises(UnknownPaymentMethod):
        charge(sandbox, payment_method_id)


def test_an_intent_is_created_unconfirmed_with_a_client_secret_of_its_own(sandbox):
    first = sandbox.create_intent(amount=Decimal("10.00"), currency="USD", payment_method_id="pm_card_visa",
                                  description="test")
    second = sandbox.create_intent(amount=Decimal("10.00"), currency="USD", payment_method_id="pm_card_visa",
                                   description="test")

    assert first.status == "requires_confirmation" and first.next_action_url is None
    assert first.id.startswith("pi_") and first.client_secret.startswith(first.id + "_secret_")
    assert first.id != second.id and first.client_secret != second.client_secret


def test_a_good_card_is_charged_on_and_off_session(sandbox):
    assert charge(sandbox, "pm_card_visa").status == "succeeded"
    assert charge(sandbox, "pm_card_mastercard", off_session=True).status == "succeeded"


def test_a_card_that_needs_authentication_sends_its_holder_to_a_signed_address(sandbox):
    intent = charge(sandbox, "pm_card_authenticationRequired")

    assert intent.status == "requires_action"
    url = urlsplit(intent.next_action_url)
    assert f"{url.scheme}://{url.netloc}" == BASE_URL and url.path.startswith(ACTION_PATH)
    token = url.path[len(ACTION_PATH):]
    assert sandbox.action_intent_id(token) == intent.id


def test_off_session_a_card_that_needs_authentication_is_declined(sandbox):
    with pytest.raises(PaymentDeclined) as declined:
        charge(sandbox, "pm_card_authenticationRequired", off_session=True)

    assert declined.value.decline_code == "authentication_required"


def test_authentication_addresses_cannot_be_made_up_or_moved_to_another_key(sandbox):
    token = urlsplit(charge(sandbox, "pm_card_authenticationRequired").next_action_url).path[len(ACTION_PATH):]
    other = SandboxProvider(base_url=BASE_URL, secret_key="another-key")

    for forged in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "pi_123", ""):
        with pytest.raises(InvalidActionToken):
            sandbox.action_intent_id(forged)
    with pytest.raises(InvalidActionToken):
        other.action_intent_id(token)


def test_the_holders_answer_completes_or_fails_the_payment(sandbox):
    intent = charge(sandbox, "pm_card_authenticationRequired")

    assert sandbox.complete_action(intent.id, approved=True).status == "succeeded"
    with pytest.raises(PaymentDeclined) as refused:
        sandbox.complete_action(intent.id, approved=False)
    assert refused.value.decline_code == "authentication_failed"


def test_the_app_uses_the_sandbox_by_default(app):
    with app.app_context():
        assert isinstance(payments.provider(), SandboxProvider)
        assert payments.provider() is payments.provider()


def test_an_unknown_provider_name_is_refused_with_a_clear_message(make_app):
    other = make_app(PAYMENT_PROVIDER="acme-pay")

    with other.app_context(), pytest.raises(RuntimeError, match="PAYMENT_PROVIDER 'acme-pay'"):
        payments.provider()
