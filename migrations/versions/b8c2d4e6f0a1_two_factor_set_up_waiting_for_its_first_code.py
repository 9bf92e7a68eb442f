"""two-factor set-up waiting for its first code: the pending secret and until when it may be confirmed

Revision ID: b8c2d4e6f0a1
Revises: d4f6b8c0e2a4
Create Date: 2026-11-27 22:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8c2d4e6f0a1'
down_revision = 'd4f6b8c0e2a4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('totp_pending_secret', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('totp_pending_until', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('totp_pending_until')
        batch_op.drop_column('totp_pending_secret')
