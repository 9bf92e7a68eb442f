"""Flask extensions, instantiated only: ``create_app`` binds them."""
from authlib.integrations.flask_client import OAuth
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


class PerAppOAuth(OAuth):
    """authlib's Flask OAuth registry, with each app's clients kept in that app.

    authlib builds one client per name from the app bound last and caches it on the registry; the
    factory may build several apps in one process (tests do, each with its own provider endpoints),
    so ``register`` files the client under the app being bound (``app.extensions["oauth_clients"]``)
    and ``create_client`` reads the current app's.
    """

    def init_app(self, app, cache=None, fetch_token=None, update_token=None):
        super().init_app(app, cache=cache, fetch_token=fetch_token, update_token=update_token)
        app.extensions["oauth_clients"] = {}

    def register(self, name, overwrite=False, **kwargs):
        kwargs = self.generate_client_kwargs(name, overwrite, **kwargs)
        client = self.oauth2_client_cls(self.framework_integration_cls(name, self.cache), name, **kwargs)
        self.app.extensions["oauth_clients"][name] = client
        return client

    def create_client(self, name):
        return current_app.extensions.get("oauth_clients", {}).get(name)


def _signed_in() -> bool:
    return bool(current_user and current_user.is_authenticated)


def _user_or_address() -> str:
    return f"user:{current_user.id}" if _signed_in() else get_remote_address()


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
login_manager = LoginManager()
oauth = PerAppOAuth()  # GitHub and Google sign-in (app/auth/oauth.py registers the configured ones)
# Every signed-in request counts against the per-user API limit; routes with
# their own limits (sign-in, register, ...) replace it.
limiter = Limiter(
    key_func=_user_or_address,
    default_limits=[lambda: current_app.config["RATELIMIT_AUTHENTICATED"]],
    default_limits_exempt_when=lambda: not _signed_in(),
)
