"""templates v3: layouts a reader can trust, and the templates added with them

Brings every template of ``migrations/seed/templates_v3`` (a snapshot owned by
this revision) into the table: a row whose id is already there (the four
shipped since 8760ade7028a) gets the v3 HTML and CSS; a manifest entry whose id
is not there yet is inserted. Hand-written: a data migration.

Downgrade: the rows this revision inserted (the v3 ids that are not in
``templates_v2``) are deleted, except those a resume still points at
(``resumes.template_id`` is a foreign key, and deleted resumes count too):
deleting them would fail the foreign key, or with it unenforced leave resumes
without a template, and moving those resumes to another template would change
users' documents behind their backs. A row kept that way stays at its v3 text;
upgrading again updates it in place. Then the four v2 templates get back their
``templates_v2`` HTML and CSS.

Revision ID: 3f9c2a7d4e61
Revises: 5b0d7c3e9f21
Create Date: 2026-11-23 16:00:00.000000

"""
import json
from datetime import datetime, timezone
from pathlib import Path

from alembic import op
import sqlalchemy as sa

SEEDS = Path(__file__).resolve().parent.parent / "seed"

# revision identifiers, used by Alembic.
revision = '3f9c2a7d4e61'
down_revision = '5b0d7c3e9f21'
branch_labels = None
depends_on = None

templates = sa.table(
    'templates',
    sa.column('id', sa.String),
    sa.column('name', sa.String),
    sa.column('category', sa.String),
    sa.column('tier', sa.String),
    sa.column('html_template', sa.Text),
    sa.column('css_styles', sa.Text),
    sa.column('created_at', sa.DateTime),
)
resumes = sa.table('resumes', sa.column('template_id', sa.String))


def _manifest(folder):
    return json.loads((SEEDS / folder / "manifest.json").read_text(encoding="utf-8"))


def _text(folder, entry):
    seed = SEEDS / folder
    return {"html_template": (seed / entry["html"]).read_text(encoding="utf-8"),
            "css_styles": (seed / entry["css"]).read_text(encoding="utf-8")}


def _update_from(folder, ids=None):
    for entry in _manifest(folder):
        if ids is None or entry["id"] in ids:
            op.execute(templates.update().where(templates.c.id == entry["id"]).values(**_text(folder, entry)))


def upgrade():
    present = set(op.get_bind().execute(sa.select(templates.c.id)).scalars())
    _update_from("templates_v3", present)
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    new = [{"id": entry["id"], "name": entry["name"], "category": entry["category"], "tier": entry["tier"],
            "created_at": now, **_text("templates_v3", entry)}
           for entry in _manifest("templates_v3") if entry["id"] not in present]
    if new:
        op.bulk_insert(templates, new)


def downgrade():
    v2 = {entry["id"] for entry in _manifest("templates_v2")}
    added = [entry["id"] for entry in _manifest("templates_v3") if entry["id"] not in v2]
    if added:
        in_use = sa.select(resumes.c.template_id).where(resumes.c.template_id.in_(added))
        op.execute(templates.delete().where(templates.c.id.in_(added), templates.c.id.not_in(in_use)))
    _update_from("templates_v2")
