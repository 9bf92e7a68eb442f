"""templates v5: headings, dates and small words in the resume's language

Brings the HTML and CSS of every template of ``migrations/seed/templates_v5`` (a snapshot owned by
this revision) into the rows with its id: the eight templates of ``templates_v4``, whose headings
now come from ``section_title(key, "Experience")`` (the user's name for the section, else the
template's words in English, else the usual heading of the resume's language), whose small words
("at", "Courses:", "Technologies:") from ``tr(...)``, and whose dates were already printed through
``period`` and ``month``, which now follow the resume's language. Hand-written: a data migration.

Downgrade: the rows get back their ``templates_v4`` HTML and CSS.

Revision ID: b2d4f6a8c0e1
Revises: a1c3e5f7b9d2
Create Date: 2026-11-27 13:00:00.000000

"""
import json
from pathlib import Path

from alembic import op
import sqlalchemy as sa

SEEDS = Path(__file__).resolve().parent.parent / "seed"

# revision identifiers, used by Alembic.
revision = 'b2d4f6a8c0e1'
down_revision = 'a1c3e5f7b9d2'
branch_labels = None
depends_on = None

templates = sa.table(
    'templates',
    sa.column('id', sa.String),
    sa.column('html_template', sa.Text),
    sa.column('css_styles', sa.Text),
)


def _update_from(folder):
    seed = SEEDS / folder
    for entry in json.loads((seed / "manifest.json").read_text(encoding="utf-8")):
        op.execute(templates.update().where(templates.c.id == entry["id"]).values(
            html_template=(seed / entry["html"]).read_text(encoding="utf-8"),
            css_styles=(seed / entry["css"]).read_text(encoding="utf-8")))


def upgrade():
    _update_from("templates_v5")


def downgrade():
    _update_from("templates_v4")
