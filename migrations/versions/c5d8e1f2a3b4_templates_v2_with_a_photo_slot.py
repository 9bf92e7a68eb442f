"""templates v2: a photo slot in each shipped template

Updates the HTML and CSS of the four rows inserted by 8760ade7028a (matched by
id) from ``migrations/seed/templates_v2``, a snapshot owned by this revision;
the downgrade puts back ``templates_v1``. Hand-written: a data migration.

Revision ID: c5d8e1f2a3b4
Revises: b7e2c41d9a53
Create Date: 2026-11-21 09:00:00.000000

"""
import json
from pathlib import Path

from alembic import op
import sqlalchemy as sa

SEEDS = Path(__file__).resolve().parent.parent / "seed"

# revision identifiers, used by Alembic.
revision = 'c5d8e1f2a3b4'
down_revision = 'b7e2c41d9a53'
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
        op.execute(
            templates.update()
            .where(templates.c.id == entry["id"])
            .values(html_template=(seed / entry["html"]).read_text(encoding="utf-8"),
                    css_styles=(seed / entry["css"]).read_text(encoding="utf-8"))
        )


def upgrade():
    _update_from("templates_v2")


def downgrade():
    _update_from("templates_v1")
