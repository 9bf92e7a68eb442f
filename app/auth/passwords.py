"""The password rule and bcrypt hashing (a fresh salt per password)."""
from __future__ import annotations

from functools import lru_cache

import bcrypt
from flask import current_app

from app.messages import N_

MIN_LENGTH = 8
MAX_BYTES = 72  # bcrypt ignores anything past 72 bytes; longer passwords are refused


def password_problem(password: str) -> str | None:
    """Why ``password`` breaks the rule (a message with %(length)s and %(bytes)s places), or None when it is
    acceptable."""
    if len(password) < MIN_LENGTH:
        return N_("The password is too weak. Use at least %(length)s characters.")
    if len(password.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return N_("The password is too weak. Use at most %(bytes)s bytes (UTF-8).")
    if not any(c.isalpha() for c in password) or not any(c.isdecimal() for c in password):
        return N_("The password is too weak. Use at least one letter and one digit.")
    return None


def hash_password(password: str) -> str:
    rounds = current_app.config["BCRYPT_ROUNDS"]
    return bcrypt.hashpw(password.encode("utf-8"), bcrypt.gensalt(rounds)).decode("ascii")


def check_password(password: str, password_hash: str | None) -> bool:
    """Constant work whatever the inputs: unknown users are checked against a dummy hash."""
    encoded = password.encode("utf-8", "surrogatepass")[:MAX_BYTES]
    if password_hash is None:
        bcrypt.checkpw(encoded, _dummy_hash(current_app.config["BCRYPT_ROUNDS"]))
        return False
    return bcrypt.checkpw(encoded, password_hash.encode("ascii"))


@lru_cache(maxsize=4)
def _dummy_hash(rounds: int) -> bytes:
    return bcrypt.hashpw(b"dummy password 0", bcrypt.gensalt(rounds))
