"""Operator commands: ``flask create-user``, ``flask worker``, ``flask prune``."""
from __future__ import annotations

import click
from flask import Flask, current_app

from app.errors import ApiError


def register_cli(app: Flask) -> None:
    @app.cli.command("create-user")
    @click.argument("email")
    @click.option("--name", required=True, help="Display name.")
    @click.password_option(help="Password (prompted when left out).")
    def create_user(email: str, name: str, password: str) -> None:
        """Create a verified user (no mail is sent)."""
        from app.auth import schemas, service
        from marshmallow import ValidationError

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
        """Run an RQ worker with its scheduler on REDIS_URL, inside the app context."""
        jobs = current_app.extensions["jobs"]
        if jobs.embedded:
            raise click.ClickException("REDIS_URL is not set: the web process runs jobs itself.")
        jobs.run_worker(burst=burst)

    @app.cli.command("prune")
    def prune() -> None:
        """Delete expired sessions and expired or spent one-time tokens."""
        from app.auth import service

        counts = service.prune_expired()
        click.echo(f"deleted {counts['sessions']} sessions and {counts['tokens']} tokens")
