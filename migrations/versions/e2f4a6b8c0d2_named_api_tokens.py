"""named API tokens: a refresh-token family created on the account page carries its name

Revision ID: e2f4a6b8c0d2
Revises: c9d1e3f5a7b9
Create Date: 2026-11-27 23:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e2f4a6b8c0d2'
down_revision = 'c9d1e3f5a7b9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('refresh_tokens', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sa.String(length=100), nullable=True))


def downgrade():
    with op.batch_alter_table('refresh_tokens', schema=None) as batch_op:
        batch_op.drop_column('name')
