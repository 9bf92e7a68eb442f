"""sudo mode and set-ups bound to their session

- ``auth_sessions.authenticated_at``: when the session's owner last proved who they are (signing in,
  or re-authenticating for a security change); security changes need it within the last 10 minutes.
  Sessions from before this revision have none, so their first security change asks again.
- ``auth_sessions.backup_codes``: the readable backup codes last made in this session, sealed with a
  key derived from the session's cookie (which the server never stores), shown until dismissed.
- ``users.totp_pending_session_id``: the session that started the two-factor set-up waiting for its
  first code; no other session sees its key or may confirm it.
- ``passkeys.session_id``: the session that added the passkey, so that revoking that session can
  take back a passkey it added shortly before.

Revision ID: b7c3d9e1f5a2
Revises: 667243d6c46e
Create Date: 2026-12-05 17:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7c3d9e1f5a2'
down_revision = '667243d6c46e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('authenticated_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('backup_codes', sa.Text(), nullable=True))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('totp_pending_session_id', sa.String(length=24), nullable=True))
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_id', sa.String(length=24), nullable=True))


def downgrade():
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.drop_column('session_id')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('totp_pending_session_id')
    with op.batch_alter_table('auth_sessions', schema=None) as batch_op:
        batch_op.drop_column('backup_codes')
        batch_op.drop_column('authenticated_at')
