"""Configuration: the only module that reads ``os.environ``.

Every setting comes from an environment variable (12-factor). ``config_for``
turns an environment mapping into a plain dict that ``create_app`` loads, so
tests can build an app from any mapping without touching the process
environment.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta

API_VERSION = "2026-11-01"


class ConfigError(RuntimeError):
    """The environment cannot start the application (e.g. no SECRET_KEY in production)."""


def _bool(value: str | None, default: bool = False) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from exc


def database_url(raw: str | None) -> str | None:
    """Normalise a PaaS-style URL to the driver this project installs (psycopg 3)."""
    if not raw:
        return None
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix):]
    return raw


class Config:
    """Development and the embedded default: runs with no variables set."""

    ENV_NAME = "development"
    TESTING = False
    REQUIRE_SECRET_KEY = False
    # Number of reverse proxies whose X-Forwarded-* headers are trusted.
    TRUSTED_PROXIES = 0
    BCRYPT_ROUNDS = 12

    MAX_CONTENT_LENGTH = 1024 * 1024  # 1 MiB: larger bodies get 413 CONTENT_TOO_LARGE

    SESSION_LIFETIME = timedelta(days=7)
    SESSION_COOKIE_NAME = "rs_state"  # Flask's signed cookie (OAuth state only)
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    AUTH_COOKIE_NAME = "sid"  # the server-side session's random value
    VERIFY_TOKEN_LIFETIME = timedelta(hours=24)
    RESET_TOKEN_LIFETIME = timedelta(hours=1)
    SHARE_UNLOCK_LIFETIME = timedelta(hours=12)  # a browser that entered a share's password
    # API tokens (decisions §3): the access token's hour is the contract's; refresh tokens rotate on use.
    ACCESS_TOKEN_LIFETIME = timedelta(hours=1)
    REFRESH_TOKEN_LIFETIME = timedelta(days=30)
    TOTP_ISSUER = "Resume Service"  # shown by authenticator apps next to the account's email

    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}

    # Rate limits (decisions §9); Flask-Limiter syntax.
    RATELIMIT_SIGNIN_EMAIL = "5 per 15 minutes"
    RATELIMIT_SIGNIN_IP = "20 per 15 minutes"
    RATELIMIT_REGISTER_IP = "10 per hour"
    RATELIMIT_MAIL_EMAIL = "3 per hour"
    RATELIMIT_AUTHENTICATED = "600 per minute"
    RATELIMIT_SHARE_PASSWORD = "10 per 10 minutes"
    RATELIMIT_SHARE_DOWNLOAD = "20 per 10 minutes"  # PDF renders of a share, per address and share
    RATELIMIT_TWO_FACTOR = "5 per 15 minutes"  # wrong two-factor codes per email (sign-in and token)
    RATELIMIT_CURRENT_PASSWORD = "5 per 15 minutes"  # wrong currentPassword per user (security update)
    RATELIMIT_HEADERS_ENABLED = True
    RATELIMIT_KEY_PREFIX = "rl"

    JOB_TIMEOUT = 60
    MAIL_JOB_RETRIES = (10, 60, 300)  # seconds between attempts of a failed mail

    # Exports (decisions §5)
    EXPORT_WAIT_SECONDS = 30  # a request waits this long for its render job, then 500 EXPORT_FAILED
    EXPORT_LINK_LIFETIME = timedelta(hours=24)  # downloadUrl's validity; the file is deleted after it
    EXPORT_CLEANUP_INTERVAL = 600  # seconds between runs of the job that deletes expired files
    PHOTO_FETCH_TIMEOUT = 5  # seconds, for the account avatar placed by includePhoto
    PHOTO_MAX_BYTES = 2 * 1024 * 1024

    # Webhooks (decisions §8)
    WEBHOOK_TIMEOUT = 30  # seconds per delivery attempt; a time-out is logged as 30000 ms
    WEBHOOK_SWEEP_INTERVAL = 30  # seconds between sweeps for lost dispatches and retries
    WEBHOOK_SWEEP_GRACE = 30  # seconds a dispatch or retry may be late before a sweep enqueues it again

    # Subscriptions (decisions §7)
    SUBSCRIPTION_PERIOD_INTERVAL = 60  # seconds between runs of the job that applies period ends

    # OAuth sign-in (decisions "OAuth sign-in"): the providers' endpoints, each overridable by its
    # variable (a test double on loopback, GitHub Enterprise). No discovery document is fetched.
    GITHUB_AUTHORIZE_URL = "https://github.com/login/oauth/authorize"
    GITHUB_TOKEN_URL = "https://github.com/login/oauth/access_token"
    GITHUB_USERINFO_URL = "https://api.github.com/user"
    GITHUB_EMAILS_URL = "https://api.github.com/user/emails"
    GOOGLE_AUTHORIZE_URL = "https://accounts.google.com/o/oauth2/v2/auth"
    GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token"
    GOOGLE_USERINFO_URL = "https://openidconnect.googleapis.com/v1/userinfo"
    OAUTH_TIMEOUT = 10  # seconds per request to a provider (token exchange, profile)


class ProductionConfig(Config):
    ENV_NAME = "production"
    REQUIRE_SECRET_KEY = True
    TRUSTED_PROXIES = 1  # the PaaS router


class TestingConfig(Config):
    ENV_NAME = "testing"
    TESTING = True
    BCRYPT_ROUNDS = 4


OAUTH_ENDPOINTS = ("GITHUB_AUTHORIZE_URL", "GITHUB_TOKEN_URL", "GITHUB_USERINFO_URL", "GITHUB_EMAILS_URL",
                   "GOOGLE_AUTHORIZE_URL", "GOOGLE_TOKEN_URL", "GOOGLE_USERINFO_URL")

CONFIGS = {"development": Config, "production": ProductionConfig, "testing": TestingConfig}


def config_for(name: str | None = None, env: Mapping[str, str] | None = None) -> dict:
    """Settings for the named configuration, overlaid with the environment.

    Raises ConfigError when the environment cannot start the app.
    """
    env = os.environ if env is None else env
    base = CONFIGS[name or env.get("APP_ENV") or "development"]
    cfg = {k: getattr(base, k) for k in dir(base) if k.isupper()}

    secret = env.get("SECRET_KEY")
    if not secret and cfg["REQUIRE_SECRET_KEY"]:
        raise ConfigError(
            "SECRET_KEY is not set. A production start needs a long random SECRET_KEY, "
            "e.g. python -c 'import secrets; print(secrets.token_urlsafe(48))'."
        )
    base_url = (env.get("BASE_URL") or "http://localhost:5000").rstrip("/")
    cfg.update(
        SECRET_KEY=secret,  # None: create_app makes and keeps one under instance/
        SQLALCHEMY_DATABASE_URI=database_url(env.get("DATABASE_URL")),
        REDIS_URL=env.get("REDIS_URL") or None,
        BASE_URL=base_url,
        STORAGE_URL=(env.get("STORAGE_URL") or f"{base_url}/files").rstrip("/"),
        STORAGE_DIR=env.get("STORAGE_DIR") or None,
        MAIL_SERVER=env.get("MAIL_SERVER") or None,
        MAIL_PORT=_int(env, "MAIL_PORT", 25),
        MAIL_USERNAME=env.get("MAIL_USERNAME") or None,
        MAIL_PASSWORD=env.get("MAIL_PASSWORD") or None,
        MAIL_USE_TLS=_bool(env.get("MAIL_USE_TLS")),
        MAIL_USE_SSL=_bool(env.get("MAIL_USE_SSL")),
        MAIL_DEFAULT_SENDER=env.get("MAIL_DEFAULT_SENDER") or "Resume Service <no-reply@localhost>",
        MAIL_TIMEOUT=_int(env, "MAIL_TIMEOUT", 30),
        GITHUB_CLIENT_ID=env.get("GITHUB_CLIENT_ID") or None,
        GITHUB_CLIENT_SECRET=env.get("GITHUB_CLIENT_SECRET") or None,
        GOOGLE_CLIENT_ID=env.get("GOOGLE_CLIENT_ID") or None,
        GOOGLE_CLIENT_SECRET=env.get("GOOGLE_CLIENT_SECRET") or None,
        **{name: env.get(name) or cfg[name] for name in OAUTH_ENDPOINTS},
        PAYMENT_PROVIDER=env.get("PAYMENT_PROVIDER") or "sandbox",
        WEBHOOK_ALLOW_PRIVATE_TARGETS=_bool(env.get("WEBHOOK_ALLOW_PRIVATE_TARGETS")),
        PHOTO_ALLOW_PRIVATE_TARGETS=_bool(env.get("PHOTO_ALLOW_PRIVATE_TARGETS")),
        EXPORT_WAIT_SECONDS=_int(env, "EXPORT_WAIT_SECONDS", cfg["EXPORT_WAIT_SECONDS"]),
        EXPORT_CLEANUP_INTERVAL=_int(env, "EXPORT_CLEANUP_INTERVAL", cfg["EXPORT_CLEANUP_INTERVAL"]),
        WEBHOOK_TIMEOUT=_int(env, "WEBHOOK_TIMEOUT", cfg["WEBHOOK_TIMEOUT"]),
        WEBHOOK_SWEEP_INTERVAL=_int(env, "WEBHOOK_SWEEP_INTERVAL", cfg["WEBHOOK_SWEEP_INTERVAL"]),
        WEBHOOK_SWEEP_GRACE=_int(env, "WEBHOOK_SWEEP_GRACE", cfg["WEBHOOK_SWEEP_GRACE"]),
        SUBSCRIPTION_PERIOD_INTERVAL=_int(env, "SUBSCRIPTION_PERIOD_INTERVAL",
                                          cfg["SUBSCRIPTION_PERIOD_INTERVAL"]),
        TRUSTED_PROXIES=_int(env, "TRUSTED_PROXIES", cfg["TRUSTED_PROXIES"]),
        REFRESH_TOKEN_LIFETIME=timedelta(days=_int(env, "REFRESH_TOKEN_DAYS", cfg["REFRESH_TOKEN_LIFETIME"].days)),
        LOG_LEVEL=(env.get("LOG_LEVEL") or "INFO").upper(),
    )
    if (cfg["SQLALCHEMY_DATABASE_URI"] or "").startswith("postgresql"):
        # A blackholed database host must not hang requests (and /readyz) forever.
        cfg["SQLALCHEMY_ENGINE_OPTIONS"] = {**cfg["SQLALCHEMY_ENGINE_OPTIONS"],
                                            "connect_args": {"connect_timeout": _int(env, "DATABASE_CONNECT_TIMEOUT", 5)}}
    if cfg["MAIL_USE_TLS"] and cfg["MAIL_USE_SSL"]:
        raise ConfigError("MAIL_USE_TLS and MAIL_USE_SSL are exclusive: choose one.")
    if cfg["REFRESH_TOKEN_LIFETIME"] <= timedelta(0):
        raise ConfigError("REFRESH_TOKEN_DAYS must be at least 1.")
    for key in ("SIGNIN_EMAIL", "SIGNIN_IP", "REGISTER_IP", "MAIL_EMAIL", "AUTHENTICATED", "SHARE_PASSWORD",
                "SHARE_DOWNLOAD", "TWO_FACTOR", "CURRENT_PASSWORD"):
        if env.get(f"RATELIMIT_{key}"):
            cfg[f"RATELIMIT_{key}"] = env[f"RATELIMIT_{key}"]
    return cfg
