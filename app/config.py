"""Configuration: the only module that reads ``os.environ``.

Every setting comes from an environment variable (12-factor). ``config_for``
turns an environment mapping into a plain dict that ``create_app`` loads, so
tests can build an app from any mapping without touching the process
environment.
"""
from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path

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


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from exc


def pdf_font_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where the PDF's fallback fonts are built and read (``PDF_FONT_DIR``; by default inside the
    virtual environment, so that a PaaS's slug keeps them with the packages they were built from).
    Read by ``app.documents.fonts.cuts``, which needs it without an app (the build step, the export job)."""
    env = os.environ if env is None else env
    return Path(env.get("PDF_FONT_DIR") or Path(sys.prefix) / "share" / "resume-fonts").resolve()


RENDER_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHAINLP_READ_ONLY")


def render_environment(font_dir: str) -> dict[str, str]:
    """The whole environment of the processes that draw previews (``app.documents.renderers``): a few
    harmless variables of this one (no secret) and ``PDF_FONT_DIR``."""
    return {**{name: os.environ[name] for name in RENDER_ENVIRONMENT if name in os.environ},
            "PDF_FONT_DIR": font_dir}


def thai_segmenter_read_only() -> None:
    """Tell PyThaiNLP (the PDF's Thai line breaking, ``app.documents.pdf.linebreak``) that it may not write:
    otherwise it makes ``~/pythainlp-data`` on first use, and a PaaS's home may not be writable. It
    needs no data beyond what its package holds. A ``PYTHAINLP_READ_ONLY`` already set is kept."""
    os.environ.setdefault("PYTHAINLP_READ_ONLY", "1")


def server_settings(env: Mapping[str, str] | None = None) -> dict:
    """gunicorn's settings (``gunicorn.conf.py``): threads, so that requests waiting for an export's
    render job do not hold up the rest, and a time-out well above the longest such wait."""
    env = os.environ if env is None else env
    return {
        "bind": f"0.0.0.0:{_int(env, 'PORT', 8000)}",
        "workers": _int(env, "WEB_CONCURRENCY", 2),
        "threads": _int(env, "WEB_THREADS", 32),
        # The longest wait of a request (an export's render, an AI generation's answer) and 30 s more.
        "timeout": math.ceil(max(_int(env, "EXPORT_WAIT_SECONDS", Config.EXPORT_WAIT_SECONDS),
                                 _float(env, "AI_TIMEOUT_SECONDS", Config.AI_TIMEOUT_SECONDS) + 5)) + 30,
    }


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
    TWO_FACTOR_SETUP_LIFETIME = timedelta(minutes=15)  # a two-factor set-up waiting for its first code
    # Sudo mode (app/auth/sudo.py): a security change needs a browser session whose owner signed in or
    # re-authenticated this recently; a code mailed to re-authenticate a password-less account lives this long.
    SUDO_LIFETIME = timedelta(minutes=10)
    REAUTHENTICATION_CODE_LIFETIME = timedelta(minutes=10)
    # A passkey added this recently by a session that a password change or reset ends is taken back.
    RECENT_PASSKEY_WINDOW = timedelta(hours=1)
    # Passkeys (WebAuthn): the relying party's id and origin are BASE_URL's host and origin (app/auth/passkeys.py).
    WEBAUTHN_RP_NAME = "Resume Service"  # what the browser and the authenticator show
    WEBAUTHN_CHALLENGE_LIFETIME = timedelta(minutes=5)  # a challenge not answered by then is refused
    PASSKEYS_PER_USER = 20

    # No pool_pre_ping: its round trip on every request is replaced by a check of the socket at
    # checkout (app/common/connections.py) that also drops connections the server has closed.
    SQLALCHEMY_ENGINE_OPTIONS: dict = {}
    # Seconds PostgreSQL gives a statement before ending it; a round trip that gets no answer at all
    # (a frozen server) is cut 2 s later (app/common/statement_watch.py).
    DATABASE_STATEMENT_TIMEOUT = 10.0

    # Rate limits (decisions §9); Flask-Limiter syntax.
    RATELIMIT_SIGNIN_EMAIL = "5 per 15 minutes"
    RATELIMIT_SIGNIN_IP = "20 per 15 minutes"
    RATELIMIT_REGISTER_IP = "10 per hour"
    RATELIMIT_MAIL_EMAIL = "3 per hour"
    RATELIMIT_AUTHENTICATED = "600 per minute"
    RATELIMIT_AGENT = "120 per minute"  # MCP tool calls per agent grant (app.mcp.calls)
    RATELIMIT_SHARE_PASSWORD = "10 per 10 minutes"
    RATELIMIT_SHARE_DOWNLOAD = "20 per 10 minutes"  # PDF renders of a share, per address and share
    RATELIMIT_TWO_FACTOR = "5 per 15 minutes"  # wrong two-factor codes per email (sign-in and token)
    RATELIMIT_CURRENT_PASSWORD = "5 per 15 minutes"  # wrong currentPassword per user (security update)
    RATELIMIT_PASSKEY_OPTIONS = "30 per 15 minutes"  # passkey sign-in challenges per address (each is a row)
    RATELIMIT_REAUTHENTICATE = "5 per 15 minutes"  # failed re-authentications (sudo mode) per user
    RATELIMIT_HEADERS_ENABLED = True
    RATELIMIT_KEY_PREFIX = "rl"

    JOB_TIMEOUT = 60
    # Redis for requests: a command that takes longer has failed (the limiter falls back to memory, an
    # enqueue is logged and the outbox sweep catches up), and for REDIS_RETRY_AFTER seconds after such
    # a failure enqueues fail at once, so a frozen Redis costs a request at most this once.
    REDIS_SOCKET_TIMEOUT = 0.3
    REDIS_RETRY_AFTER = 5
    MAIL_JOB_RETRIES = (10, 60, 300)  # seconds between attempts of a failed mail
    MAIL_SWEEP_INTERVAL = 10  # seconds between sweeps of the mail outbox (app/events/mail.py)
    MAIL_SWEEP_GRACE = 10  # seconds a mail may be late before a sweep sends it
    MAIL_LEASE = 120  # seconds a worker holds a mail it sends; a killed worker's mail is sent after this

    # Exports (decisions §5)
    EXPORT_WAIT_SECONDS = 30  # a request waits this long for its render job, then 500 EXPORT_FAILED
    EXPORT_LINK_LIFETIME = timedelta(hours=24)  # downloadUrl's validity; the file is deleted after it
    EXPORT_CLEANUP_INTERVAL = 600  # seconds between runs of the job that deletes expired files
    PHOTO_FETCH_TIMEOUT = 5  # seconds, for the account avatar placed by includePhoto
    PREVIEW_TIMEOUT = 10  # seconds a preview's render may take (then 422 PREVIEW_TOO_HEAVY), and may wait
    PREVIEW_PROCESSES = 2  # child processes drawing previews, per web process (app/documents/renderers.py)
    TEMPLATE_PREWARM = True  # the editor asks for its template picker's pictures once its first preview is shown
    # Seconds between the editor's checks that its copy is still the resume's latest version (GET with
    # If-None-Match), while its tab is visible; it checks too whenever it gets the focus back (editor/freshness.js).
    EDITOR_FRESHNESS_SECONDS = 30.0
    PHOTO_MAX_BYTES = 2 * 1024 * 1024

    # Export storage: "local" (STORAGE_DIR, the embedded default) or "s3" (S3_BUCKET). An S3 store that
    # cannot be reached must fail a request in seconds, not hold a web worker for botocore's default minute.
    STORAGE_BACKEND = "local"
    S3_CONNECT_TIMEOUT = 2  # seconds
    S3_READ_TIMEOUT = 5  # seconds without a byte from the store
    S3_MAX_ATTEMPTS = 2  # per operation, the first included (botocore's "standard" retries)

    # Webhooks (decisions §8)
    WEBHOOK_TIMEOUT = 30  # seconds per delivery attempt; a time-out is logged as 30000 ms
    # A killed worker's deliveries are found at most a lease (WEBHOOK_TIMEOUT + 5 s) and an interval
    # after it died: docs/operations.md has the timeline. A sweep is one indexed query.
    WEBHOOK_SWEEP_INTERVAL = 10  # seconds between sweeps for lost dispatches and retries
    WEBHOOK_SWEEP_GRACE = 10  # seconds a dispatch or retry may be late before a sweep takes it over
    WEBHOOK_SECRET_OVERLAP = timedelta(hours=24)  # a rotated-out secret still signs deliveries this long
    WEBHOOK_DISABLE_AFTER = timedelta(days=5)  # a webhook whose every attempt failed this long is disabled
    WEBHOOK_LOG_RETENTION = timedelta(days=30)  # the delivery log kept: how far back recover's since may go
    WEBHOOK_LOG_CLEANUP_INTERVAL = 3600  # seconds between runs of the job that deletes log entries past retention

    # Subscriptions (decisions §7)
    SUBSCRIPTION_PERIOD_INTERVAL = 60  # seconds between runs of the job that applies period ends

    # Resume history and trash (decisions "Versions", "Trash")
    VERSION_FOLD_SECONDS = 300  # edits this soon after an edit's version add none (the burst's start is kept)
    TRASH_PURGE_INTERVAL = 3600  # seconds between runs of the job that purges resumes deleted 30 days ago
    IDEMPOTENCY_CLEANUP_INTERVAL = 3600  # seconds between runs of the job that deletes expired Idempotency-Keys

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

    # AI writing (decisions "AI writing"): any OpenAI-compatible chat-completions service. Without
    # AI_BASE_URL and AI_MODEL, POST /api/resumes/<id>/generate answers 503 AI_NOT_CONFIGURED.
    AI_TIMEOUT_SECONDS = 30  # per call to the provider; the request waits this long and 5 s more
    RATELIMIT_AI_GENERATE = "10 per minute"  # generations per user
    RATELIMIT_AI_ANALYSIS = "30 per minute"  # analyses per user (POST /api/resumes/<id>/analysis)


class ProductionConfig(Config):
    ENV_NAME = "production"
    REQUIRE_SECRET_KEY = True
    TRUSTED_PROXIES = 1  # the PaaS router


class TestingConfig(Config):
    ENV_NAME = "testing"
    TESTING = True
    BCRYPT_ROUNDS = 4
    TEMPLATE_PREWARM = False  # eight renders per editor opened would slow every browser test; tests turn it on


OAUTH_ENDPOINTS = ("GITHUB_AUTHORIZE_URL", "GITHUB_TOKEN_URL", "GITHUB_USERINFO_URL", "GITHUB_EMAILS_URL",
                   "GOOGLE_AUTHORIZE_URL", "GOOGLE_TOKEN_URL", "GOOGLE_USERINFO_URL")

CONFIGS = {"development": Config, "production": ProductionConfig, "testing": TestingConfig}


STORAGE_BACKENDS = ("local", "s3")
S3_ADDRESSING_STYLES = ("auto", "path", "virtual")


def _storage_settings(env: Mapping[str, str], cfg: dict) -> dict:
    """The export store's settings; the AWS variables are passed to boto3 explicitly (app/integrations/s3.py).
    Raises ConfigError for an unknown backend, or S3 without a bucket."""
    backend = (env.get("STORAGE_BACKEND") or cfg["STORAGE_BACKEND"]).strip().lower()
    if backend not in STORAGE_BACKENDS:
        raise ConfigError(f"STORAGE_BACKEND must be one of {', '.join(STORAGE_BACKENDS)}, "
                          f"got {env.get('STORAGE_BACKEND')!r}.")
    bucket = (env.get("S3_BUCKET") or "").strip() or None
    if backend == "s3" and not bucket:
        raise ConfigError("STORAGE_BACKEND=s3 needs S3_BUCKET: the name of an existing bucket.")
    style = (env.get("S3_ADDRESSING_STYLE") or "auto").strip().lower()
    if style not in S3_ADDRESSING_STYLES:
        raise ConfigError(f"S3_ADDRESSING_STYLE must be one of {', '.join(S3_ADDRESSING_STYLES)}, got {style!r}.")
    settings = dict(
        STORAGE_BACKEND=backend,
        S3_BUCKET=bucket,
        S3_PREFIX=(env.get("S3_PREFIX") or "").strip("/"),
        S3_ADDRESSING_STYLE=style,
        S3_CONNECT_TIMEOUT=_int(env, "S3_CONNECT_TIMEOUT", cfg["S3_CONNECT_TIMEOUT"]),
        S3_READ_TIMEOUT=_int(env, "S3_READ_TIMEOUT", cfg["S3_READ_TIMEOUT"]),
        S3_MAX_ATTEMPTS=_int(env, "S3_MAX_ATTEMPTS", cfg["S3_MAX_ATTEMPTS"]),
        **{name: env.get(name) or None for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                                                    "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL_S3")},
    )
    if settings["S3_CONNECT_TIMEOUT"] < 1 or settings["S3_READ_TIMEOUT"] < 1 or settings["S3_MAX_ATTEMPTS"] < 1:
        raise ConfigError("S3_CONNECT_TIMEOUT, S3_READ_TIMEOUT and S3_MAX_ATTEMPTS must be at least 1.")
    return settings


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
        **_storage_settings(env, cfg),
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
        # An agent's OAuth client metadata document (app.agents.clients): on a private address (tests, an
        # intranet's clients) only when allowed; checked against a private CA's bundle when one is given.
        AGENT_CLIENT_ALLOW_PRIVATE_TARGETS=_bool(env.get("AGENT_CLIENT_ALLOW_PRIVATE_TARGETS")),
        AGENT_CLIENT_CA_CERTS=env.get("AGENT_CLIENT_CA_CERTS") or None,
        EXPORT_WAIT_SECONDS=_int(env, "EXPORT_WAIT_SECONDS", cfg["EXPORT_WAIT_SECONDS"]),
        PREVIEW_TIMEOUT=_float(env, "PREVIEW_TIMEOUT", cfg["PREVIEW_TIMEOUT"]),
        PREVIEW_PROCESSES=_int(env, "PREVIEW_PROCESSES", cfg["PREVIEW_PROCESSES"]),
        TEMPLATE_PREWARM=_bool(env.get("TEMPLATE_PREWARM"), cfg["TEMPLATE_PREWARM"]),
        EDITOR_FRESHNESS_SECONDS=_float(env, "EDITOR_FRESHNESS_SECONDS", cfg["EDITOR_FRESHNESS_SECONDS"]),
        REDIS_SOCKET_TIMEOUT=_float(env, "REDIS_SOCKET_TIMEOUT", cfg["REDIS_SOCKET_TIMEOUT"]),
        REDIS_RETRY_AFTER=_int(env, "REDIS_RETRY_AFTER", cfg["REDIS_RETRY_AFTER"]),
        EXPORT_CLEANUP_INTERVAL=_int(env, "EXPORT_CLEANUP_INTERVAL", cfg["EXPORT_CLEANUP_INTERVAL"]),
        WEBHOOK_TIMEOUT=_int(env, "WEBHOOK_TIMEOUT", cfg["WEBHOOK_TIMEOUT"]),
        WEBHOOK_SWEEP_INTERVAL=_int(env, "WEBHOOK_SWEEP_INTERVAL", cfg["WEBHOOK_SWEEP_INTERVAL"]),
        WEBHOOK_SWEEP_GRACE=_int(env, "WEBHOOK_SWEEP_GRACE", cfg["WEBHOOK_SWEEP_GRACE"]),
        MAIL_SWEEP_INTERVAL=_int(env, "MAIL_SWEEP_INTERVAL", cfg["MAIL_SWEEP_INTERVAL"]),
        MAIL_SWEEP_GRACE=_int(env, "MAIL_SWEEP_GRACE", cfg["MAIL_SWEEP_GRACE"]),
        MAIL_LEASE=_int(env, "MAIL_LEASE", cfg["MAIL_LEASE"]),
        WEBHOOK_SECRET_OVERLAP=timedelta(hours=_int(env, "WEBHOOK_SECRET_OVERLAP_HOURS",
                                                    cfg["WEBHOOK_SECRET_OVERLAP"] // timedelta(hours=1))),
        WEBHOOK_DISABLE_AFTER=timedelta(days=_int(env, "WEBHOOK_DISABLE_AFTER_DAYS",
                                                  cfg["WEBHOOK_DISABLE_AFTER"].days)),
        WEBHOOK_LOG_RETENTION=timedelta(days=_int(env, "WEBHOOK_LOG_RETENTION_DAYS",
                                                  cfg["WEBHOOK_LOG_RETENTION"].days)),
        WEBHOOK_LOG_CLEANUP_INTERVAL=_int(env, "WEBHOOK_LOG_CLEANUP_INTERVAL", cfg["WEBHOOK_LOG_CLEANUP_INTERVAL"]),
        SUBSCRIPTION_PERIOD_INTERVAL=_int(env, "SUBSCRIPTION_PERIOD_INTERVAL",
                                          cfg["SUBSCRIPTION_PERIOD_INTERVAL"]),
        VERSION_FOLD_SECONDS=_int(env, "VERSION_FOLD_SECONDS", cfg["VERSION_FOLD_SECONDS"]),
        TRASH_PURGE_INTERVAL=_int(env, "TRASH_PURGE_INTERVAL", cfg["TRASH_PURGE_INTERVAL"]),
        IDEMPOTENCY_CLEANUP_INTERVAL=_int(env, "IDEMPOTENCY_CLEANUP_INTERVAL", cfg["IDEMPOTENCY_CLEANUP_INTERVAL"]),
        TRUSTED_PROXIES=_int(env, "TRUSTED_PROXIES", cfg["TRUSTED_PROXIES"]),
        REFRESH_TOKEN_LIFETIME=timedelta(days=_int(env, "REFRESH_TOKEN_DAYS", cfg["REFRESH_TOKEN_LIFETIME"].days)),
        SUDO_LIFETIME=timedelta(minutes=_int(env, "SUDO_MINUTES", cfg["SUDO_LIFETIME"] // timedelta(minutes=1))),
        LOG_LEVEL=(env.get("LOG_LEVEL") or "INFO").upper(),
        AI_BASE_URL=(env.get("AI_BASE_URL") or "").strip().rstrip("/") or None,
        AI_API_KEY=env.get("AI_API_KEY") or None,
        AI_MODEL=(env.get("AI_MODEL") or "").strip() or None,
        AI_TIMEOUT_SECONDS=_float(env, "AI_TIMEOUT_SECONDS", cfg["AI_TIMEOUT_SECONDS"]),
        DATABASE_STATEMENT_TIMEOUT=_float(env, "DATABASE_STATEMENT_TIMEOUT", cfg["DATABASE_STATEMENT_TIMEOUT"]),
    )
    if (cfg["SQLALCHEMY_DATABASE_URI"] or "").startswith("postgresql"):
        # A blackholed database host must not hang requests (and /readyz) forever.
        # A frozen one must not either: the server ends a slow statement itself, and
        # app.common.statement_watch cuts a round trip that gets no answer at all a little later.
        cfg["SQLALCHEMY_ENGINE_OPTIONS"] = {
            **cfg["SQLALCHEMY_ENGINE_OPTIONS"],
            "connect_args": {"connect_timeout": _int(env, "DATABASE_CONNECT_TIMEOUT", 5),
                             "options": f"-c statement_timeout={round(cfg['DATABASE_STATEMENT_TIMEOUT'] * 1000)}"}}
    if cfg["MAIL_USE_TLS"] and cfg["MAIL_USE_SSL"]:
        raise ConfigError("MAIL_USE_TLS and MAIL_USE_SSL are exclusive: choose one.")
    if cfg["AI_TIMEOUT_SECONDS"] <= 0:
        raise ConfigError("AI_TIMEOUT_SECONDS must be a positive number of seconds.")
    if cfg["EDITOR_FRESHNESS_SECONDS"] <= 0:
        raise ConfigError("EDITOR_FRESHNESS_SECONDS must be a positive number of seconds.")
    if cfg["DATABASE_STATEMENT_TIMEOUT"] <= 0:
        raise ConfigError("DATABASE_STATEMENT_TIMEOUT must be a positive number of seconds.")
    if cfg["REFRESH_TOKEN_LIFETIME"] <= timedelta(0):
        raise ConfigError("REFRESH_TOKEN_DAYS must be at least 1.")
    if cfg["SUDO_LIFETIME"] <= timedelta(0):
        raise ConfigError("SUDO_MINUTES must be at least 1.")
    for name, unit in (("WEBHOOK_SECRET_OVERLAP", "HOURS"), ("WEBHOOK_DISABLE_AFTER", "DAYS"),
                       ("WEBHOOK_LOG_RETENTION", "DAYS")):
        if cfg[name] <= timedelta(0):
            raise ConfigError(f"{name}_{unit} must be at least 1.")
    for key in ("SIGNIN_EMAIL", "SIGNIN_IP", "REGISTER_IP", "MAIL_EMAIL", "AUTHENTICATED", "SHARE_PASSWORD",
                "SHARE_DOWNLOAD", "TWO_FACTOR", "CURRENT_PASSWORD", "AI_GENERATE",
                "AI_ANALYSIS", "PASSKEY_OPTIONS", "REAUTHENTICATE", "AGENT"):
        if env.get(f"RATELIMIT_{key}"):
            cfg[f"RATELIMIT_{key}"] = env[f"RATELIMIT_{key}"]
    return cfg
