"""What a user or an operator sees of the app stays what it was: the OpenAPI document as served, the
routes and their methods, the ``flask`` commands and their options, the periodic jobs, and the dotted
names RQ stores for each job (a job enqueued before a deploy is run after it, by the new code).

The expected values are files in ``tests/data/surface/``, written from the app before the packages were
rearranged (issue 21). A change to any of them is a change to the contract: rewrite the files on
purpose, with ``python -m tests.test_surface --write``, and say so in the commit.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import click
import pytest
from rq.utils import import_attribute

ROOT = Path(__file__).resolve().parent.parent
SURFACE = ROOT / "tests" / "data" / "surface"

# Every job RQ may hold, by the dotted name it stores.
JOB_NAMES = (
    "app.ai.assistant.run_conversation",
    "app.ai.generation.run_generation",
    "app.ai.import_reading.run_import_reading",
    "app.ai.letters.render_letter",
    "app.auth.jobs.send_verification_email",  # the mail outbox's jobs (app.events.mail), and RQ jobs queued
    "app.auth.jobs.send_password_reset_email",  # under these names before it (they still run)
    "app.auth.jobs.send_passkey_added_email",
    "app.auth.jobs.send_passkey_removed_email",
    "app.auth.jobs.send_passkey_taken_back_email",
    "app.auth.jobs.send_reauthentication_code",
    "app.billing.jobs.apply_subscription_period_ends",
    "app.events.mail.send",
    "app.events.mail.sweep",
    "app.common.idempotency.delete_expired",
    "app.resumes.jobs.delete_expired_exports",
    "app.resumes.jobs.purge_deleted_resumes",
    "app.resumes.jobs.render_export",
    "app.webhooks.jobs.deliver",
    "app.webhooks.jobs.relay",
    "app.webhooks.jobs.send_disabled_email",
    "app.webhooks.jobs.sweep",
    "app.webhooks.jobs.delete_old_logs",
)
# A string in the app's source that names a function of one of these modules is a job's name.
JOB_NAME = re.compile(r"^app\.[a-z_]+(\.[a-z_]+)*\.[a-z_]+$")


def _command(command: click.Command) -> dict:
    described = {"help": (command.help or "").strip(),
                 "params": sorted(f"{type(param).__name__}:{param.name}:{'/'.join(param.opts)}:"
                                  f"{getattr(param, 'required', False)}" for param in command.params)}
    if isinstance(command, click.Group):
        described["commands"] = {name: _command(sub) for name, sub in sorted(command.commands.items())}
    return described


def public_surface(app) -> dict:
    """The parts of ``app`` that users and operators rely on, as plain JSON values."""
    from app.queue import PERIODIC

    document = app.test_client().get("/api/openapi.json").get_json()
    routes = sorted(f"{' '.join(sorted((rule.methods or set()) - {'HEAD', 'OPTIONS'}))} {rule.rule}"
                    for rule in app.url_map.iter_rules())
    commands = {name: _command(command) for name, command in sorted(app.cli.commands.items())}
    periodic = {name: list(entry) for name, entry in sorted(PERIODIC.items())}
    return {"openapi": document, "routes": routes, "cli": commands, "periodic": periodic}


def _expected(name: str):
    return json.loads((SURFACE / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def surface(app):
    return public_surface(app)


@pytest.mark.parametrize("name", ["openapi", "routes", "cli", "periodic"])
def test_what_users_and_operators_see_is_unchanged(surface, name):
    assert surface[name] == _expected(name)


def test_every_job_name_rq_may_hold_names_a_function():
    for name in JOB_NAMES:
        assert callable(import_attribute(name)), name


def test_every_job_the_app_enqueues_is_one_of_the_known_names():
    """A job moved to another module would leave jobs queued under the old name unrunnable."""
    named = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and JOB_NAME.match(node.value):
                module, _, attribute = node.value.rpartition(".")
                if (ROOT / Path(*module.split("."))).with_suffix(".py").exists() and attribute.islower():
                    named.add(node.value)
    assert named and named <= set(JOB_NAMES), sorted(named - set(JOB_NAMES))


def _write() -> None:  # pragma: no cover (run by hand when the contract changes on purpose)
    import tempfile

    from app import create_app
    from app.config import config_for

    scratch = tempfile.mkdtemp()
    app = create_app(config_for("testing", {"SECRET_KEY": "s" * 48, "DATABASE_URL": f"sqlite:///{scratch}/t.db",
                                            "STORAGE_DIR": scratch}))
    SURFACE.mkdir(parents=True, exist_ok=True)
    for name, value in public_surface(app).items():
        (SURFACE / f"{name}.json").write_text(json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
                                              + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    _write()
