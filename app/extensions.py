"""Flask extensions, instantiated only: ``create_app`` binds them."""
from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager, current_user
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    # Deterministic constraint names so migrations are the same on SQLite and PostgreSQL.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


def _signed_in() -> bool:
    return bool(current_user and current_user.is_authenticated)


def _user_or_address() -> str:
    return f"user:{current_user.id}" if _signed_in() else get_remote_address()


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
login_manager = LoginManager()
# Every signed-in request counts against the per-user API limit; routes with
# their own limits (sign-in, register, ...) replace it.
limiter = Limiter(
    key_func=_user_or_address,
    default_limits=[lambda: current_app.config["RATELIMIT_AUTHENTICATED"]],
    default_limits_exempt_when=lambda: not _signed_in(),
)
