"""templates v6: right in right-to-left resumes and in every language

Brings the HTML and CSS of every template of ``migrations/seed/templates_v6`` (a snapshot owned by
this revision) into the rows with its id: Heritage's company and place are separated by the comma of
the resume's language (``tr(", ")``: "، " in Arabic), and its summary is aligned right in a
right-to-left resume; Jinghua's labels are in the resume's language (Chinese with English beside it in
a Chinese resume), a right-to-left header's above their values, and its date column is wide enough for
every language's dates. Hand-written: a data migration.

Downgrade: the rows get back their ``templates_v5`` HTML and CSS.

Revision ID: 667243d6c46e
Revises: e2f4a6b8c0d2
Create Date: 2026-12-05 09:30:00.000000

"""
import json
from pathlib import Path

from alembic import op
import sqlalchemy as sa

SEEDS = Path(__file__).resolve().parent.parent / "seed"

# revision identifiers, used by Alembic.
revision = '667243d6c46e'
down_revision = 'e2f4a6b8c0d2'
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
    _update_from("templates_v6")


def downgrade():
    _update_from("templates_v5")
