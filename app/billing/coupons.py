"""Coupons: created by operators (``flask coupons create``), redeemed by subscribing."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.billing.models import Coupon
from app.common.models import utcnow
from app.errors import InvalidField
from app.extensions import db


def create_coupon(code: str, percent_off: int, *, max_redemptions: int | None = None,
                  expires_at: datetime | None = None) -> Coupon:
    """A percent-off coupon; codes are kept upper-case (and matched without regard to case). Commits once.
    Raises VALIDATION_ERROR (code, percentOff, maxRedemptions, expiresAt; a code already taken)."""
    code = code.strip().upper()
    if not code or len(code) > 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in code):
        raise InvalidField("code", "Use 1 to 64 letters, digits, '-' or '_'.")
    if not 1 <= percent_off <= 100:
        raise InvalidField("percentOff", "Must be from 1 to 100.")
    if max_redemptions is not None and max_redemptions < 1:
        raise InvalidField("maxRedemptions", "Must be at least 1.")
    if expires_at is not None and (expires_at.tzinfo is None or expires_at <= utcnow()):
        raise InvalidField("expiresAt", "Must be a moment in the future, with a time zone.")
    taken = InvalidField("code", "A coupon with the code %(code)s already exists.", values={"code": code})
    if db.session.scalar(select(Coupon.id).where(Coupon.code == code)) is not None:
        raise taken
    coupon = Coupon(code=code, percent_off=percent_off, max_redemptions=max_redemptions, expires_at=expires_at,
                    created_at=utcnow())
    db.session.add(coupon)
    try:
        db.session.commit()
    except IntegrityError:  # created by someone else since our check
        db.session.rollback()
        raise taken from None
    return coupon


def usable_coupon(code: str) -> Coupon:
    coupon = db.session.scalar(select(Coupon).where(Coupon.code == code.strip().upper()))
    if coupon is None:
        raise InvalidField("couponCode", "There is no such coupon.")
    if coupon.expires_at is not None and coupon.expires_at <= utcnow():
        raise InvalidField("couponCode", "This coupon has expired.")
    if coupon.max_redemptions is not None and coupon.times_redeemed >= coupon.max_redemptions:
        raise InvalidField("couponCode", "This coupon has been used up.")
    return coupon


def redeem(coupon: Coupon) -> bool:
    """Count a redemption unless that passes the coupon's limit (racing subscribes cannot both take the last)."""
    counting = update(Coupon).where(Coupon.id == coupon.id).values(times_redeemed=Coupon.times_redeemed + 1)
    if coupon.max_redemptions is not None:
        counting = counting.where(Coupon.times_redeemed < coupon.max_redemptions)
    return db.session.execute(counting, execution_options={"synchronize_session": False}).rowcount == 1
