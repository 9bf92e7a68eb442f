"""templates v4: every template renders every section, in the resume's order

Brings the HTML and CSS of every template of ``migrations/seed/templates_v4``
(a snapshot owned by this revision) into the rows with its id: the eight
templates of ``templates_v3``, each now rendering the sections issue 15 adds
(skill groups, languages, certificates, awards, volunteering, publications,
interests, references, custom sections, and the new fields of the header,
jobs and schools) in the order of the resume's ``sectionOrder``.
Hand-written: a data migration. It adds no template: a manifest entry whose id
is not in the table is left alone.

Downgrade: the rows get back their ``templates_v3`` HTML and CSS.

Revision ID: d4e5f6a7b8c9
Revises: c1d2e3f4a5b6
Create Date: 2026-11-26 12:00:00.000000

"""
import json
from pathlib import Path

from alembic import op
import sqlalchemy as sa

SEEDS = Path(__file__).resolve().parent.parent / "seed"

# revision identifiers, used by Alembic.
revision = 'd4e5f6a7b8c9'
down_revision = 'c1d2e3f4a5b6'
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
    _update_from("templates_v4")


def downgrade():
    _update_from("templates_v3")
