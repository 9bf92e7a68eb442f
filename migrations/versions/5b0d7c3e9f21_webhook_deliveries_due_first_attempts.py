"""webhook deliveries: a first attempt not yet made is due (next_retry_at), for the sweep's index

Revision ID: 5b0d7c3e9f21
Revises: a9b8c7d6e5f4
Create Date: 2026-11-23 13:30:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '5b0d7c3e9f21'
down_revision = 'a9b8c7d6e5f4'
branch_labels = None
depends_on = None


def upgrade():
    # The sweep looks for lost deliveries by next_retry_at alone; rows written before this kept it
    # null until their first attempt.
    op.execute("UPDATE webhook_deliveries SET next_retry_at = created_at "
               "WHERE next_retry_at IS NULL AND delivered_at IS NULL AND attempts = 0")


def downgrade():
    op.execute("UPDATE webhook_deliveries SET next_retry_at = NULL WHERE attempts = 0")
