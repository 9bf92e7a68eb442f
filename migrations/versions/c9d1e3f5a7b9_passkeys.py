"""passkeys (WebAuthn credentials) and their single-use challenges

Revision ID: c9d1e3f5a7b9
Revises: b8c2d4e6f0a1
Create Date: 2026-11-27 23:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c9d1e3f5a7b9'
down_revision = 'b8c2d4e6f0a1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('passkeys',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('user_id', sa.String(length=24), nullable=False),
    sa.Column('credential_id', sa.String(length=1400), nullable=False),
    sa.Column('public_key', sa.LargeBinary(), nullable=False),
    sa.Column('sign_count', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('transports', sa.String(length=128), nullable=True),
    sa.Column('backed_up', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_used_at', sa.DateTime(), nullable=True),
    sa.Column('removed_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_passkeys_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_passkeys')),
    sa.UniqueConstraint('credential_id', name=op.f('uq_passkeys_credential_id'))
    )
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_passkeys_user_id'), ['user_id'], unique=False)

    op.create_table('passkey_challenges',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('challenge_hash', sa.String(length=64), nullable=False),
    sa.Column('purpose', sa.String(length=16), nullable=False),
    sa.Column('user_id', sa.String(length=24), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_passkey_challenges_user_id_users'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_passkey_challenges')),
    sa.UniqueConstraint('challenge_hash', name=op.f('uq_passkey_challenges_challenge_hash'))
    )
    with op.batch_alter_table('passkey_challenges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_passkey_challenges_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_passkey_challenges_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('passkey_challenges', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passkey_challenges_user_id'))
        batch_op.drop_index(batch_op.f('ix_passkey_challenges_expires_at'))
    op.drop_table('passkey_challenges')
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passkeys_user_id'))
    op.drop_table('passkeys')
