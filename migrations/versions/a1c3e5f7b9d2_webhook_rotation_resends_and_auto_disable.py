"""webhooks: a rotated-out secret that still signs, re-sends in the delivery log, and auto-disable

Revision ID: a1c3e5f7b9d2
Revises: e5f6a7b8c9d0
Create Date: 2026-11-27 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a1c3e5f7b9d2'
down_revision = 'e5f6a7b8c9d0'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('webhooks', schema=None) as batch_op:
        batch_op.add_column(sa.Column('previous_secret', sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column('previous_secret_expires_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('failing_since', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('disabled_reason', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('disabled_at', sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f('ix_webhooks_failing_since'), ['failing_since'], unique=False)

    # An event's re-sends are deliveries of their own: only its first delivery to a webhook is unique.
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('resend_of', sa.String(length=24), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_webhook_deliveries_resend_of_webhook_deliveries'),
                                    'webhook_deliveries', ['resend_of'], ['id'], ondelete='CASCADE')
        batch_op.drop_constraint(batch_op.f('uq_webhook_deliveries_webhook_id'), type_='unique')
        batch_op.create_index('uq_webhook_deliveries_first', ['webhook_id', 'event_id'], unique=True,
                              postgresql_where=sa.text('resend_of IS NULL'), sqlite_where=sa.text('resend_of IS NULL'))


def downgrade():
    op.execute("DELETE FROM webhook_deliveries WHERE resend_of IS NOT NULL")
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index('uq_webhook_deliveries_first', postgresql_where=sa.text('resend_of IS NULL'),
                            sqlite_where=sa.text('resend_of IS NULL'))
        batch_op.create_unique_constraint(batch_op.f('uq_webhook_deliveries_webhook_id'), ['webhook_id', 'event_id'])
        batch_op.drop_constraint(batch_op.f('fk_webhook_deliveries_resend_of_webhook_deliveries'), type_='foreignkey')
        batch_op.drop_column('resend_of')

    with op.batch_alter_table('webhooks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_webhooks_failing_since'))
        batch_op.drop_column('disabled_at')
        batch_op.drop_column('disabled_reason')
        batch_op.drop_column('failing_since')
        batch_op.drop_column('previous_secret_expires_at')
        batch_op.drop_column('previous_secret')
