"""Operator commands: ``flask create-user``, ``flask worker``, ``flask prune``, ``flask grant-enterprise``,
``flask coupons create``."""
from __future__ import annotations

from datetime import datetime, timezone

import click
from flask import Flask, current_app
from marshmallow import ValidationError

from app.auth import schemas, service
from app.billing import service as billing
from app.errors import ApiError
from app.worker import WorkerProcess


def register_cli(app: Flask) -> None:
    @app.cli.command("create-user")
    @click.argument("email")
    @click.option("--name", required=True, help="Display name.")
    @click.password_option(help="Password (prompted when left out).")
    def create_user(email: str, name: str, password: str) -> None:
        """Create a verified user (no mail is sent)."""
        try:
            data = schemas.RegisterSchema().load({"email": email, "name": name, "password": password})
            user = service.create_verified_user(**data)
        except ValidationError as exc:
            problems = "; ".join(f"{field}: {' '.join(map(str, errors)) if isinstance(errors, list) else errors}"
                                 for field, errors in exc.normalized_messages().items())
            raise click.ClickException(problems) from None
        except ApiError as exc:
            raise click.ClickException(exc.message) from None
        click.echo(f"created verified user {user.email} (id {user.id})")

    @app.cli.command("worker")
    @click.option("--burst", is_flag=True, help="Quit once the queues are empty.")
    def worker(burst: bool) -> None:
        """Run the job lanes (exports; webhooks; mail and the rest) and the scheduler on REDIS_URL."""
        if current_app.extensions["jobs"].embedded:
            raise click.ClickException("REDIS_URL is not set: the web process runs jobs itself.")
        # Nothing to build first: the PDF's fonts are cut per document (app/documents/fonts/cuts.py), so
        # every lane takes jobs from the first second.
        WorkerProcess(current_app._get_current_object(), burst=burst).run()

    @app.cli.command("prune")
    def prune() -> None:
        """Delete expired sessions, expired or spent one-time tokens and expired refresh tokens."""
        counts = service.prune_expired()
        click.echo(f"deleted {counts['sessions']} sessions, {counts['tokens']} tokens and "
                   f"{counts['refresh_tokens']} refresh tokens")

    @app.cli.command("grant-enterprise")
    @click.argument("email")
    def grant_enterprise(email: str) -> None:
        """Give the account ENTERPRISE (ACTIVE, renewing monthly at no charge: sales bills it)."""
        try:
            subscription, changed = billing.grant_enterprise(email)
        except ApiError as exc:
            raise click.ClickException(exc.message) from None
        if changed:
            click.echo(f"{email.strip().lower()} now has ENTERPRISE (subscription {subscription.id})")
        else:
            click.echo(f"{email.strip().lower()} already had ENTERPRISE; scheduled changes were dropped")

    @app.cli.group("coupons")
    def coupons() -> None:
        """Percent-off coupons for subscribing to Premium."""

    @coupons.command("create")
    @click.argument("code")
    @click.option("--percent-off", type=click.IntRange(1, 100), required=True, help="1 to 100.")
    @click.option("--max-redemptions", type=click.IntRange(min=1), help="Successful subscribes it may pay for.")
    @click.option("--expires-at", help="Last moment it may be redeemed, ISO 8601 (UTC when no offset is given).")
    def create_coupon(code: str, percent_off: int, max_redemptions: int | None, expires_at: str | None) -> None:
        """Create a coupon CODE (matched without regard to case; applies to every Premium charge)."""
        moment = None
        if expires_at is not None:
            try:
                moment = datetime.fromisoformat(expires_at)
            except ValueError:
                raise click.BadParameter("use ISO 8601, e.g. 2026-12-31T23:59:59Z", param_hint="--expires-at") \
                    from None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
        try:
            coupon = billing.create_coupon(code, percent_off, max_redemptions=max_redemptions, expires_at=moment)
        except ApiError as exc:
            raise click.ClickException(exc.message) from None
        limits = [f"at most {coupon.max_redemptions} redemptions"] if coupon.max_redemptions else []
        if coupon.expires_at:
            limits.append(f"until {coupon.expires_at.isoformat()}")
        click.echo(f"created coupon {coupon.code}: {coupon.percent_off}% off"
                   + (f" ({', '.join(limits)})" if limits else ""))
