"""``Idempotency-Key``: a client may retry a creating POST without doing it twice.

``@idempotent`` (below ``@login_required``) on a view: a request that carries the header claims
``(user, key)`` with an INSERT the unique constraint arbitrates, so of two concurrent requests one
runs and the other is answered 409 IDEMPOTENCY_KEY_IN_USE. The view's answer is then stored and
replayed (status, body, Location, and ``Idempotent-Replayed: true``) to the same key with the same
request (method, path, SHA-256 of the canonical JSON body) for 24 hours; the same key with another
request is 409 IDEMPOTENCY_KEY_REUSED. Answers that mean "try again" are not kept: a 5xx or a 429
releases the key, so the retry runs the view again. Without the header nothing changes.

An answer older than ``TTL`` is ignored and replaced when its key is claimed again (and deleted by
the periodic ``delete_expired``); a claim still
``running`` after ``ABANDONED_AFTER`` (its process died between the view and the store) is given up
the same way.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from datetime import datetime, timedelta

from flask import Response, current_app, request
from flask_login import current_user
from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from app.common.models import UTCDateTime, id_column, utcnow
from app.errors import ApiError, InvalidField
from app.extensions import db
from app.messages import N_

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
TTL = timedelta(hours=24)
ABANDONED_AFTER = timedelta(minutes=15)  # longer than any view runs (an export waits 30 s at most)
_KEY = re.compile(r"[\x20-\x7e]{1,255}")  # printable ASCII
REPLAYED_HEADERS = ("Location",)

HEADER_PARAMETER = {
    "name": HEADER, "in": "header", "required": False,
    "description": "Send the request again with the same key (1-255 printable ASCII characters, yours alone) "
                   "and the same body within 24 hours to get the first answer again (with "
                   f"{REPLAYED_HEADER}: true) instead of doing it twice. The same key with another body is 409 "
                   "IDEMPOTENCY_KEY_REUSED; while the first request runs, 409 IDEMPOTENCY_KEY_IN_USE.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x20-\\x7E]+$"},
}

REPLAYED_RESPONSE_HEADER = {
    "description": f"true on an answer replayed for a repeated {HEADER} (absent on a first answer)",
    "required": False, "schema": {"type": "string", "enum": ["true"]},
}

RUNNING, DONE = "running", "done"
IN_USE_MESSAGE = N_("A request with this Idempotency-Key is still running; retry once it has answered.")


class IdempotencyKey(db.Model):
    """One user's key: the request it was first used with and, once answered, the answer."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("user_id", "key"),)

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    key: Mapped[str] = mapped_column(String(255), nullable=False)
    fingerprint: Mapped[str] = mapped_column(String(64), nullable=False)
    state: Mapped[str] = mapped_column(String(8), nullable=False, default=RUNNING)
    status: Mapped[int | None] = mapped_column(Integer)
    body: Mapped[str | None] = mapped_column(Text)
    content_type: Mapped[str | None] = mapped_column(String(255))
    headers: Mapped[str | None] = mapped_column(Text)  # JSON object of REPLAYED_HEADERS present
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True, nullable=False)


def fingerprint(method: str, path: str, body: bytes) -> str:
    """SHA-256 of the method, the path and the body (as canonical JSON when it is JSON)."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False).encode()
    except (ValueError, RecursionError):
        canonical = body
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), canonical):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def _claim(user_id: str, key: str, print_: str) -> IdempotencyKey | None:
    """Insert the running row and commit; None when another row holds the key (it is returned instead)."""
    for _ in range(2):
        row = IdempotencyKey(user_id=user_id, key=key, fingerprint=print_, state=RUNNING)
        db.session.add(row)
        try:
            db.session.commit()
            return None
        except IntegrityError:
            db.session.rollback()
        held = db.session.scalar(select(IdempotencyKey).where(IdempotencyKey.user_id == user_id,
                                                              IdempotencyKey.key == key))
        if held is None:
            continue  # released meanwhile
        now = utcnow()
        if held.created_at > now - TTL and not (held.state == RUNNING and held.created_at <= now - ABANDONED_AFTER):
            return held
        # Expired or abandoned: forgotten, and claimed again (a concurrent claimer loses on the insert).
        db.session.execute(delete(IdempotencyKey).where(IdempotencyKey.id == held.id))
        db.session.commit()
    raise ApiError("IDEMPOTENCY_KEY_IN_USE", IN_USE_MESSAGE, {"field": HEADER})


def _release(user_id: str, key: str) -> None:
    db.session.rollback()
    db.session.execute(delete(IdempotencyKey).where(IdempotencyKey.user_id == user_id, IdempotencyKey.key == key))
    db.session.commit()


def _replay(row: IdempotencyKey) -> Response:
    response = Response(row.body, status=row.status, content_type=row.content_type)
    response.headers.update(json.loads(row.headers or "{}"))
    response.headers[REPLAYED_HEADER] = "true"
    return response


def _keeps(response: Response) -> bool:
    return response.status_code < 500 and response.status_code != 429 and not response.is_streamed


def delete_expired() -> int:
    """Periodic (app.queue.PERIODIC): delete the keys older than ``TTL``; how many."""
    deleted = db.session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at <= utcnow() - TTL)).rowcount
    db.session.commit()
    return deleted


def idempotent(view):
    """Honour ``Idempotency-Key`` on this view (put it below ``@login_required``: keys are per user)."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return view(*args, **kwargs)
        if not _KEY.fullmatch(key):
            raise InvalidField(HEADER, "must be 1 to 255 printable ASCII characters.")
        user_id = current_user.id
        print_ = fingerprint(request.method, request.path, request.get_data(cache=True))
        held = _claim(user_id, key, print_)
        if held is not None:
            if held.fingerprint != print_:
                raise ApiError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with another request; "
                                                         "use a new key for a new request.",
                               {"field": HEADER})
            if held.state == RUNNING:
                raise ApiError("IDEMPOTENCY_KEY_IN_USE", IN_USE_MESSAGE, {"field": HEADER})
            return _replay(held)
        try:
            try:
                answer = view(*args, **kwargs)
            except Exception as exc:  # rendered here, as Flask would, so that the answer can be kept
                answer = current_app.handle_user_exception(exc)
            response = current_app.make_response(answer)
        except BaseException:
            _release(user_id, key)
            raise
        if not _keeps(response):
            _release(user_id, key)
            return response
        db.session.rollback()  # a failed view's leftovers; a successful one has committed
        row = db.session.scalar(select(IdempotencyKey).where(IdempotencyKey.user_id == user_id,
                                                             IdempotencyKey.key == key))
        if row is None:  # given up as abandoned meanwhile
            return response
        row.state, row.status = DONE, response.status_code
        row.body, row.content_type = response.get_data(as_text=True), response.content_type
        row.headers = json.dumps({name: response.headers[name] for name in REPLAYED_HEADERS
                                  if name in response.headers})
        db.session.commit()
        return response

    wrapper.idempotent = True
    return wrapper
