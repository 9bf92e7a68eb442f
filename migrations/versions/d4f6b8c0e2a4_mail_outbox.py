"""mail outbox: each mail a row written with the change that asks for it, sent by a worker

Revision ID: d4f6b8c0e2a4
Revises: c3e5a7b9d1f2
Create Date: 2026-11-27 20:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4f6b8c0e2a4'
down_revision = 'c3e5a7b9d1f2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('outbox_mails',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('job', sa.String(length=128), nullable=False),
    sa.Column('arg', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(), nullable=True),
    sa.Column('lease_until', sa.DateTime(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('sent_at', sa.DateTime(), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_mails'))
    )
    with op.batch_alter_table('outbox_mails', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_mails_next_attempt_at'), ['next_attempt_at'], unique=False)


def downgrade():
    with op.batch_alter_table('outbox_mails', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_mails_next_attempt_at'))

    op.drop_table('outbox_mails')
